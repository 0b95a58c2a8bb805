// diff(a, b, fail_on=[...]): `htpscope diff` over two sides of runs, with
// the same analysis (run_diff), gates and JSON (htpscope.diff/1).
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "analysis/gate.h"
#include "analysis/run_diff.h"
#include "base/errors.h"
#include "module.h"
#include "report/diff_report.h"

namespace htpscope::python {
namespace {

// One run of a side: already loaded, or the files (or one directory) to load.
using RunSpec = std::variant<std::shared_ptr<LoadedRun>, std::vector<std::string>>;

struct DiffOutcome {
  RunDiff diff;
  std::vector<GateResult> gates;
};

std::vector<RunFacts> CollectSide(const std::vector<RunSpec>& side, const char* name,
                                  const SummaryOptions& summary_options, bool allow_mismatch) {
  if (side.empty()) throw UsageError(fmt::format("side {} has no run", name));
  std::vector<RunFacts> facts;
  LoadOptions load;
  load.allow_mismatch = allow_mismatch;
  for (const RunSpec& spec : side) {
    if (const auto* loaded = std::get_if<std::shared_ptr<LoadedRun>>(&spec)) {
      if (!*loaded) throw UsageError(fmt::format("side {}: a run is None", name));
      facts.push_back(CollectRunFacts((*loaded)->run, summary_options));  // a copy: facts own it
      continue;
    }
    const auto& inputs = std::get<std::vector<std::string>>(spec);
    if (inputs.empty()) throw UsageError(fmt::format("side {}: a run without files", name));
    try {
      facts.push_back(CollectRunFacts(LoadRun(inputs, load), summary_options));
    } catch (const MismatchedArtifactsError& e) {
      throw InputError(e.file(), e.problem() + " (allow_mismatch=True joins them anyway)");
    }
  }
  return facts;
}

std::shared_ptr<DiffOutcome> Diff(const std::vector<RunSpec>& a, const std::vector<RunSpec>& b,
                                  const std::vector<std::string>& fail_on, bool allow_mismatch,
                                  std::optional<double> clock_ghz) {
  auto outcome = std::make_shared<DiffOutcome>();
  std::vector<Gate> gates;
  for (const auto& expr : fail_on) {
    try {
      gates.push_back(ParseGate(expr));
    } catch (const std::invalid_argument& e) {
      throw UsageError(fmt::format("fail_on {}", e.what()));
    }
  }
  if (clock_ghz && !(*clock_ghz > 0))
    throw UsageError(fmt::format("clock_ghz must be positive, not {}", *clock_ghz));
  SummaryOptions summary_options;
  summary_options.clock_ghz = clock_ghz;
  std::vector<RunFacts> side_a = CollectSide(a, "A", summary_options, allow_mismatch);
  std::vector<RunFacts> side_b = CollectSide(b, "B", summary_options, allow_mismatch);
  outcome->diff = DiffRuns(side_a, side_b);
  auto subjects = GateSubjects(outcome->diff);
  for (const auto& gate : gates) outcome->gates.push_back(EvaluateGate(gate, subjects));
  return outcome;
}

}  // namespace

void BindDiff(py::module_& m) {
  py::class_<DiffOutcome, std::shared_ptr<DiffOutcome>>(
      m, "DiffOutcome", "A run diff and its gates (htpscope.DiffResult wraps it).")
      .def_property_readonly("exit_status",
                             [](const DiffOutcome& d) { return GateExitStatus(d.gates); })
      .def_property_readonly("verdict", [](const DiffOutcome& d) { return DiffVerdict(d.diff); })
      .def_property_readonly("metric_names",
                             [](const DiffOutcome& d) {
                               std::vector<std::string> names;
                               for (const auto& metric : d.diff.metrics)
                                 names.push_back(metric.name);
                               return names;
                             })
      .def(
          "json",
          [](const DiffOutcome& d) {
            return RunDiffToJson(d.diff, d.gates)
                .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
          },
          "The htpscope.diff/1 document (`htpscope diff --format json`) as JSON text.")
      .def(
          "render",
          [](const DiffOutcome& d, const std::string& format, int top) {
            auto parsed = ParseDiffFormat(format);
            if (!parsed || *parsed == DiffFormat::kJson)
              throw UsageError(fmt::format(
                  "format must be text, markdown or junit (json: DiffResult.json), not '{}'",
                  format));
            if (top < 1) throw UsageError(fmt::format("top must be positive, not {}", top));
            return RenderRunDiff(d.diff, d.gates, *parsed, top);
          },
          py::arg("format") = "text", py::arg("top") = 10,
          "The report as `htpscope diff --format FORMAT` prints it.");

  m.def(
      "diff",
      [](const std::vector<RunSpec>& a, const std::vector<RunSpec>& b,
         const std::vector<std::string>& fail_on, bool allow_mismatch,
         std::optional<double> clock_ghz) {
        py::gil_scoped_release release;
        return Diff(a, b, fail_on, allow_mismatch, clock_ghz);
      },
      py::arg("a"), py::arg("b"), py::arg("fail_on") = std::vector<std::string>{},
      py::arg("allow_mismatch") = false, py::arg("clock_ghz") = py::none(),
      "Compares side A with side B; each side a list of runs (a LoadedRun, or the files of one "
      "run).");
}

}  // namespace htpscope::python
