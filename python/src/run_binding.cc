// load_run, the loaded Run, the tables' schema and the run's summary.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/summary.h"
#include "base/errors.h"
#include "module.h"
#include "report/device_profile_report.h"
#include "report/summary_report.h"

namespace htpscope::python {
namespace {

LoadedRunPtr Load(const std::vector<std::string>& inputs, const std::string& graph,
                  bool allow_mismatch) {
  if (inputs.empty()) throw UsageError("load_run: give a run directory or artifact files");
  LoadOptions options;
  options.graph = graph;
  options.allow_mismatch = allow_mismatch;
  auto loaded = std::make_shared<LoadedRun>();
  try {
    loaded->run = LoadRun(inputs, options);
  } catch (const ValueError& e) {
    if (e.role() != ValueRole::kGraphName) throw;  // graph= names no graph of the profile
    throw UsageError(fmt::format("graph='{}': {}", graph, e.problem()));
  } catch (const MismatchedArtifactsError& e) {
    // As the CLI says it, with the keyword argument in place of --allow-mismatch.
    throw InputError(e.file(), e.problem() +
                                   " (give the files of one run, or allow_mismatch=True to join "
                                   "them anyway)");
  }
  return loaded;
}

const RunTable& TableNamed(const std::string& name) {
  const RunTable* table = FindRunTable(name);
  if (!table) {
    std::vector<std::string> names;
    for (const auto& t : RunTables()) names.push_back(t.name);
    throw UsageError(
        fmt::format("no table named '{}'; the tables are {}", name, fmt::join(names, ", ")));
  }
  return *table;
}

// The schema as Python data: [(table, description, [(column, type, meaning)])].
py::list Schema() {
  py::list tables;
  for (const auto& table : RunTables()) {
    py::list columns;
    for (const auto& c : table.columns)
      columns.append(py::make_tuple(c.name, ColumnTypeName(c.type), c.description));
    tables.append(py::make_tuple(table.name, table.description, columns));
  }
  return tables;
}

std::string SummaryJson(const Run& run, std::optional<double> clock_ghz) {
  if (clock_ghz && !(*clock_ghz > 0))
    throw UsageError(fmt::format("clock_ghz must be positive, not {}", *clock_ghz));
  SummaryOptions options;
  options.clock_ghz = clock_ghz;
  Summary summary = Summarize(run, options);
  // Names come from files: invalid UTF-8 is replaced, never fatal.
  nlohmann::json doc = SummaryToJson(summary);
  AddDeviceProfilesJson(run, doc);  // as summary --json
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

py::list Pairs(const std::vector<MissingRow>& rows) {
  py::list out;
  for (const auto& r : rows) out.append(py::make_tuple(r.artifact, r.withholds));
  return out;
}

}  // namespace

void BindRun(py::module_& m) {
  py::class_<LoadedRun, std::shared_ptr<LoadedRun>>(
      m, "LoadedRun", "A run joined from its artifacts (htpscope.Run wraps it).")
      .def_property_readonly("label", [](const LoadedRun& r) { return r.run.label; })
      .def_property_readonly("skipped", [](const LoadedRun& r) { return r.run.skipped; })
      .def_property_readonly("missing", [](const LoadedRun& r) { return Pairs(r.run.missing); })
      .def(
          "rows",
          [](const LoadedRun& r, const std::string& table) {
            return TableNamed(table).rows(r.run);
          },
          py::arg("table"), "Rows of the table named `table`.")
      .def(
          "columns",
          [](const LoadedRun& r, const std::string& table) {
            return TableColumns(r.run, TableNamed(table));
          },
          py::arg("table"),
          "The table's columns: [(name, type, values, mask)], NumPy arrays filled in C++.")
      .def(
          "summary_json",
          [](const LoadedRun& r, std::optional<double> clock_ghz) {
            std::string text;
            {
              py::gil_scoped_release release;
              text = SummaryJson(r.run, clock_ghz);
            }
            return text;
          },
          py::arg("clock_ghz") = py::none(), "`htpscope summary --json` of the run, as JSON text.");

  m.def(
      "load_run",
      [](const std::vector<std::string>& inputs, const std::string& graph, bool allow_mismatch) {
        py::gil_scoped_release release;
        return std::const_pointer_cast<LoadedRun>(Load(inputs, graph, allow_mismatch));
      },
      py::arg("inputs"), py::arg("graph") = "", py::arg("allow_mismatch") = false,
      "Loads one run from a directory or its artifact files (LoadRun).");
  m.def("schema", &Schema,
        "Every table of the run: [(table, description, [(column, type, meaning)])].");
}

}  // namespace htpscope::python
