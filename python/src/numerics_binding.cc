// numerics(ref, device, metric=...): `htpscope numerics` with the same
// loaders (model/tensor_set), comparison (analysis/numerics) and JSON facts,
// as one row per (debug handle, output).
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "analysis/numerics.h"
#include "base/errors.h"
#include "model/side_input_registry.h"
#include "model/tensor_set.h"
#include "module.h"
#include "report/numerics_report.h"

namespace htpscope::python {
namespace {

struct NumericsArgs {
  std::string reference, device, metric;
  std::optional<double> threshold;
  SideInputOptions reference_input, device_input;  // each side's manifest and debug buffer
  std::string htp_graph, reference_layout, device_layout;
  int threads = 2;
  int preview = 4;
};

TensorLayout LayoutArgument(const char* name, const std::string& value) {
  if (value.empty()) return TensorLayout::kUnstated;
  static const std::vector<std::string> kLayouts = {"NCHW", "NHWC", "NCW", "NWC", "NCDHW", "NDHWC"};
  auto layout = ParseTensorLayout(value);
  if (!layout || std::find(kLayouts.begin(), kLayouts.end(), value) == kLayouts.end())
    throw UsageError(
        fmt::format("{} must be one of {}, not '{}'", name, fmt::join(kLayouts, ", "), value));
  return *layout;
}

NumericsResult Compare(const NumericsArgs& args) {
  NumericsOptions options;
  auto metric = ParseNumericsMetric(args.metric);
  if (!metric)
    throw UsageError(
        fmt::format("metric must be cosine, snr, mse, mean_abs or max_abs, not '{}'", args.metric));
  options.metric = *metric;
  auto threshold = args.threshold ? args.threshold : DefaultThreshold(options.metric);
  if (!threshold)
    throw UsageError(fmt::format(
        "metric {} has no default threshold (its scale depends on the tensors); give threshold=",
        args.metric));
  if (!std::isfinite(*threshold))
    throw UsageError(fmt::format("threshold must be a finite number, not {}", *threshold));
  options.threshold = *threshold;
  if (args.threads < 1 || args.threads > 64)
    throw UsageError(fmt::format("threads must be 1 to 64, not {}", args.threads));
  if (args.preview < 0 || args.preview > 64)
    throw UsageError(fmt::format("preview must be 0 to 64, not {}", args.preview));
  options.threads = args.threads;
  options.preview_values = static_cast<size_t>(args.preview);
  options.reference_layout = LayoutArgument("ref_layout", args.reference_layout);
  options.device_layout = LayoutArgument("device_layout", args.device_layout);
  if (!args.htp_graph.empty()) options.execution_order_ops = ExecutionOrderOps(args.htp_graph);
  TensorSet reference = LoadSideInput<SideInput::kTensorSet>(args.reference, args.reference_input);
  TensorSet device = LoadSideInput<SideInput::kTensorSet>(args.device, args.device_input);
  return CompareTensorSets(reference, device, options);
}

// One column of the per-handle table: its name and how Python types it.
struct ColumnSpec {
  const char* name;
  const char* kind;  // "int", "Int64" (nullable), "float", "bool", "str" (None for ""), "object"
};

py::object OrNone(const std::optional<double>& v) {
  return v ? py::object(py::float_(*v)) : py::object(py::none());
}
py::object TextOrNone(const std::string& s) {
  return s.empty() ? py::object(py::none()) : py::object(py::str(s));
}

// The rows as columns, named as the JSON's handles[] keys; metrics keep
// ±inf (JSON writes null) and are NaN when absent.
py::list HandleColumns(const NumericsResult& result) {
  static constexpr ColumnSpec kColumns[] = {
      {"order", "int"},
      {"handle", "Int64"},
      {"output_index", "int"},
      {"handle_outputs", "int"},
      {"status", "str"},
      {"divergent", "bool"},
      {"reference_tensor", "str"},
      {"device_tensor", "str"},
      {"reference_file", "str"},
      {"device_file", "str"},
      {"reference_ops", "object"},
      {"runtime_ops", "object"},
      {"shape", "object"},
      {"reference_layout", "str"},
      {"device_layout", "str"},
      {"layout_converted", "bool"},
      {"dequantized", "bool"},
      {"elements", "Int64"},
      {"compared_elements", "Int64"},
      {"mse", "float"},
      {"mean_abs", "float"},
      {"max_abs", "float"},
      {"cosine", "float"},
      {"snr_db", "float"},
      {"gap", "float"},
      {"reference_nan", "Int64"},
      {"reference_inf", "Int64"},
      {"device_nan", "Int64"},
      {"device_inf", "Int64"},
      {"nonfinite_mismatch", "Int64"},
      {"reference_preview", "object"},
      {"device_preview", "object"},
  };
  std::vector<py::list> values(std::size(kColumns));
  for (size_t i = 0; i < result.rows.size(); ++i) {
    const HandleRow& row = result.rows[i];
    bool compared = row.status == HandleStatus::kCompared;
    auto count = [&](uint64_t v) {
      return compared ? py::object(py::int_(v)) : py::object(py::none());
    };
    const std::vector<py::object> cells = {
        py::int_(i + 1),
        row.handle ? py::object(py::int_(*row.handle)) : py::object(py::none()),
        py::int_(row.output_index),
        py::int_(row.handle_outputs),
        py::str(std::string(HandleStatusName(row.status))),
        py::bool_(row.divergent),
        TextOrNone(row.reference_tensor),
        TextOrNone(row.device_tensor),
        TextOrNone(row.reference_file),
        TextOrNone(row.device_file),
        py::cast(row.reference_ops),
        py::cast(row.runtime_ops),
        py::tuple(py::cast(row.shape)),
        TextOrNone(row.reference_layout),
        TextOrNone(row.device_layout),
        py::bool_(row.layout_converted),
        py::bool_(row.dequantized),
        count(row.sums.elements),
        count(row.sums.compared),
        OrNone(row.metrics.mse),
        OrNone(row.metrics.mean_abs),
        OrNone(row.metrics.max_abs),
        OrNone(row.metrics.cosine),
        OrNone(row.metrics.snr_db),
        OrNone(row.gap),
        count(row.sums.reference_nan),
        count(row.sums.reference_inf),
        count(row.sums.device_nan),
        count(row.sums.device_inf),
        count(row.sums.nonfinite_mismatch),
        py::cast(row.reference_preview),
        py::cast(row.device_preview),
    };
    for (size_t k = 0; k < cells.size(); ++k) values[k].append(cells[k]);
  }
  py::list out;
  for (size_t k = 0; k < values.size(); ++k)
    out.append(py::make_tuple(kColumns[k].name, kColumns[k].kind, values[k]));
  return out;
}

}  // namespace

void BindNumerics(py::module_& m) {
  m.def(
      "numerics",
      [](const std::string& reference, const std::string& device, const std::string& metric,
         std::optional<double> threshold, const std::string& manifest_ref,
         const std::string& manifest_device, const std::string& ref_debug_buffer,
         const std::string& debug_buffer, const std::string& htp_graph,
         const std::string& ref_layout, const std::string& device_layout, int threads,
         int preview) {
        NumericsArgs args{reference,
                          device,
                          metric,
                          threshold,
                          {manifest_ref, ref_debug_buffer, {}},
                          {manifest_device, debug_buffer, {}},
                          htp_graph,
                          ref_layout,
                          device_layout,
                          threads,
                          preview};
        NumericsResult result;
        {
          py::gil_scoped_release release;
          result = Compare(args);
        }
        // The JSON's run facts (everything but the rows), then the rows.
        nlohmann::ordered_json facts = NumericsToJson(result);
        facts.erase("handles");
        return py::make_tuple(
            facts.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace),
            HandleColumns(result));
      },
      py::arg("reference"), py::arg("device"), py::arg("metric") = "cosine",
      py::arg("threshold") = py::none(), py::arg("manifest_ref") = "",
      py::arg("manifest_device") = "", py::arg("ref_debug_buffer") = "",
      py::arg("debug_buffer") = "", py::arg("htp_graph") = "", py::arg("ref_layout") = "",
      py::arg("device_layout") = "", py::arg("threads") = 2, py::arg("preview") = 4,
      "Compares reference and device tensors per debug handle: (facts JSON text, columns).");
}

}  // namespace htpscope::python
