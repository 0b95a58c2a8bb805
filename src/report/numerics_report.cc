#include "report/numerics_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "analysis/module_numerics.h"
#include "base/number_text.h"
#include "base/tensor_types.h"
#include "report/csv_writer.h"
#include "report/text_sanitize.h"

namespace htpscope {
namespace {

constexpr size_t kMaxOpsChars = 32;

std::string FormatValue(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return FormatSignificant(v, 4);
}

std::string JoinOps(const std::vector<std::string>& ops) {
  std::string text = fmt::format("{}", fmt::join(ops, ", "));
  if (text.size() > kMaxOpsChars) text = text.substr(0, kMaxOpsChars - 3) + "...";
  return text.empty() ? "-" : text;
}

std::string FormatPreview(const std::vector<double>& values, const std::vector<int64_t>& shape,
                          bool present) {
  if (!present) return "-";
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) text += ", ";
    text += FormatValue(values[i]);
  }
  if (ElementCount(shape).value_or(0) > values.size()) text += values.empty() ? "..." : ", ...";
  return text + "]";
}

std::string StatusText(const HandleRow& row) {
  switch (row.status) {
    case HandleStatus::kReferenceOnly:
      return "reference only";
    case HandleStatus::kDeviceOnly:
      return "device only";
    case HandleStatus::kCompared:
      break;
  }
  if (!row.divergent) return "ok";
  return row.sums.nonfinite_mismatch ? "DIVERGENT (NaN/Inf)" : "DIVERGENT";
}

std::string OrderText(const std::string& source) {
  if (source == "htp_graph") return "HTP graph execution order";
  if (source == "device_manifest") return "device manifest order";
  if (source == "device_etdump") return "device ETDump order";
  if (source == "reference_manifest") return "reference manifest order";
  if (source == "reference_etdump") return "reference ETDump order";
  return "debug handle order (no manifest or graph gives execution order)";
}

// nlohmann writes NaN/Inf as null anyway; being explicit documents it.
nlohmann::ordered_json Number(std::optional<double> v) {
  if (!v || !std::isfinite(*v)) return nullptr;
  return *v;
}

nlohmann::ordered_json Values(const std::vector<double>& values) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (double v : values) out.push_back(Number(v));
  return out;
}

nlohmann::ordered_json StringOrNull(const std::string& s) {
  if (s.empty()) return nullptr;
  return s;
}

std::string CsvNumber(std::optional<double> v) {
  if (!v) return "";
  if (std::isinf(*v)) return *v > 0 ? "inf" : "-inf";
  return fmt::format("{}", *v);
}

// A row's error metrics and counts, in the order the JSON and the CSV give
// them: the element counts, the metrics, then the non-finite counts.
struct MetricField {
  const char* key;
  std::optional<double> ErrorMetrics::*value;
};
struct CountField {
  const char* key;
  uint64_t ErrorSums::*value;
};
constexpr CountField kElementCounts[] = {{"elements", &ErrorSums::elements},
                                         {"compared_elements", &ErrorSums::compared}};
constexpr MetricField kMetricFields[] = {{"mse", &ErrorMetrics::mse},
                                         {"mean_abs", &ErrorMetrics::mean_abs},
                                         {"max_abs", &ErrorMetrics::max_abs},
                                         {"cosine", &ErrorMetrics::cosine},
                                         {"snr_db", &ErrorMetrics::snr_db}};
constexpr CountField kNonFiniteCounts[] = {{"reference_nan", &ErrorSums::reference_nan},
                                           {"reference_inf", &ErrorSums::reference_inf},
                                           {"device_nan", &ErrorSums::device_nan},
                                           {"device_inf", &ErrorSums::device_inf},
                                           {"nonfinite_mismatch", &ErrorSums::nonfinite_mismatch}};

}  // namespace

std::string FormatHandleLabel(const HandleRow& row) {
  if (!row.handle) return row.reference_tensor.empty() ? row.device_tensor : row.reference_tensor;
  if (row.handle_outputs > 1) return fmt::format("{}:{}", *row.handle, row.output_index);
  return fmt::format("{}", *row.handle);
}

std::string FormatMetric(std::optional<double> value) {
  if (!value) return "-";
  if (std::isinf(*value)) return *value > 0 ? "inf" : "-inf";
  return FormatSignificant(*value, 6);
}

namespace {

// The gaps by module of the model (analysis/module_numerics.h), down to
// three levels; nothing when no handle's name carries a module.
void AppendNumericsByModule(const NumericsResult& result, std::string& out) {
  std::vector<ModuleNumericsRow> rows = NumericsByModule(result);
  if (rows.empty()) return;
  out += fmt::format("\nby module (worst {} at or below each; docs/modules.md):\n",
                     NumericsMetricName(result.metric));
  out += fmt::format("  {:<44}  {:>8}  {:>9}  {:>10}  {}\n", "module", "compared", "divergent",
                     "worst", "first diverging");
  for (const auto& m : rows) {
    if (m.depth > 3) continue;
    std::string label = m.depth == 0 ? "(all)" : m.path.substr(m.path.rfind('/') + 1);
    label = std::string(2 * std::max(0, m.depth - 1), ' ') + label;
    out += fmt::format("  {:<44}  {:>8}  {:>9}  {:>10}  {}\n", TerminalSafe(label), m.compared,
                       m.divergent, FormatMetric(m.worst_gap),
                       m.first_divergent_row
                           ? TerminalSafe(FormatHandleLabel(result.rows[*m.first_divergent_row]))
                           : std::string("-"));
  }
}

}  // namespace

std::string FormatNumericsText(const NumericsResult& result) {
  std::string out;
  out += fmt::format("reference: {} ({} tensors)\n", result.reference_origin,
                     result.reference_tensors);
  out += fmt::format("device:    {} ({} tensors)\n", result.device_origin, result.device_tensors);
  out += fmt::format("metric:    {} (divergent {} {}); rows in {}\n\n",
                     NumericsMetricName(result.metric),
                     DivergesAbove(result.metric) ? "above" : "below",
                     FormatMetric(result.threshold), OrderText(result.order_source));

  std::vector<std::vector<std::string>> cells;
  cells.push_back({"#", "handle", "reference ops", "runtime ops", "reference", "device",
                   std::string(NumericsMetricName(result.metric)), "status"});
  for (size_t i = 0; i < result.rows.size(); ++i) {
    const HandleRow& row = result.rows[i];
    std::string status = StatusText(row);
    if (result.first_divergent == i) status += "  <-- first divergent";
    cells.push_back({fmt::format("{}", i + 1), FormatHandleLabel(row),
                     row.reference_tensor.empty() ? "-" : JoinOps(row.reference_ops),
                     row.device_tensor.empty() ? "-" : JoinOps(row.runtime_ops),
                     FormatPreview(row.reference_preview, row.shape, !row.reference_tensor.empty()),
                     FormatPreview(row.device_preview, row.shape, !row.device_tensor.empty()),
                     FormatMetric(row.gap), status});
  }
  std::vector<size_t> width(cells[0].size(), 0);
  for (const auto& line : cells)
    for (size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
  for (const auto& line : cells) {
    std::string text;
    for (size_t c = 0; c < line.size(); ++c) {
      bool right = c == 0 || c == 6;  // row number and gap are numbers
      bool last = c + 1 == line.size();
      if (right) {
        text += fmt::format("{:>{}}", line[c], width[c]);
      } else {
        text += last ? line[c] : fmt::format("{:<{}}", line[c], width[c]);
      }
      if (!last) text += "  ";
    }
    out += text + "\n";
  }
  out += "\n";

  if (result.first_divergent) {
    const HandleRow& row = result.rows[*result.first_divergent];
    const ErrorMetrics& m = row.metrics;
    out += fmt::format("first divergent handle: {} (reference ops: {}; runtime ops: {})\n",
                       FormatHandleLabel(row), fmt::join(row.reference_ops, ", "),
                       fmt::join(row.runtime_ops, ", "));
    out += fmt::format("  {} {} {} {}", NumericsMetricName(result.metric), FormatMetric(row.gap),
                       DivergesAbove(result.metric) ? ">" : "<", FormatMetric(result.threshold));
    if (row.sums.nonfinite_mismatch)
      out += fmt::format("; {} element(s) where only one side is NaN/Inf (or they differ)",
                         row.sums.nonfinite_mismatch);
    out += "\n";
    out += fmt::format("  mse {}  mean_abs {}  max_abs {}  cosine {}  snr {} dB\n",
                       FormatMetric(m.mse), FormatMetric(m.mean_abs), FormatMetric(m.max_abs),
                       FormatMetric(m.cosine), FormatMetric(m.snr_db));
    out += fmt::format("  NaN/Inf: reference {}/{}, device {}/{}; {} of {} elements compared\n",
                       row.sums.reference_nan, row.sums.reference_inf, row.sums.device_nan,
                       row.sums.device_inf, GroupDigits(static_cast<int64_t>(row.sums.compared)),
                       GroupDigits(static_cast<int64_t>(row.sums.elements)));
    out += fmt::format("  reference {}  device {}\n", row.reference_file, row.device_file);
  } else {
    out += fmt::format("no divergent handle ({} {} {})\n", NumericsMetricName(result.metric),
                       DivergesAbove(result.metric) ? "<=" : ">=", FormatMetric(result.threshold));
  }
  out += fmt::format("{} rows: {} compared ({} divergent), {} reference only, {} device only\n",
                     result.rows.size(), result.compared, result.divergent, result.reference_only,
                     result.device_only);
  for (const std::string& note : result.notes) out += fmt::format("note: {}\n", note);
  AppendNumericsByModule(result, out);
  return out;
}

nlohmann::ordered_json NumericsToJson(const NumericsResult& result) {
  nlohmann::ordered_json doc;
  doc["reference"] = {{"origin", result.reference_origin}, {"tensors", result.reference_tensors}};
  doc["device"] = {{"origin", result.device_origin}, {"tensors", result.device_tensors}};
  doc["metric"] = NumericsMetricName(result.metric);
  doc["threshold"] = result.threshold;
  doc["divergent_when"] = DivergesAbove(result.metric) ? "above" : "below";
  doc["order"] = result.order_source;
  doc["first_divergent_handle"] = nullptr;
  doc["first_divergent"] = nullptr;
  if (result.first_divergent) {
    const HandleRow& row = result.rows[*result.first_divergent];
    if (row.handle) doc["first_divergent_handle"] = *row.handle;
    doc["first_divergent"] = {
        {"row", *result.first_divergent},
        {"handle", row.handle ? nlohmann::ordered_json(*row.handle) : nullptr},
        {"output_index", row.output_index},
        {"reference_tensor", row.reference_tensor},
        {"device_tensor", row.device_tensor}};
  }
  doc["summary"] = {{"rows", result.rows.size()},
                    {"compared", result.compared},
                    {"divergent", result.divergent},
                    {"reference_only", result.reference_only},
                    {"device_only", result.device_only}};
  nlohmann::ordered_json handles = nlohmann::ordered_json::array();
  for (const HandleRow& row : result.rows) {
    nlohmann::ordered_json h;
    h["handle"] = row.handle ? nlohmann::ordered_json(*row.handle) : nullptr;
    h["output_index"] = row.output_index;
    h["status"] = HandleStatusName(row.status);
    h["divergent"] = row.divergent;
    h["reference_tensor"] = StringOrNull(row.reference_tensor);
    h["device_tensor"] = StringOrNull(row.device_tensor);
    h["reference_file"] = StringOrNull(row.reference_file);
    h["device_file"] = StringOrNull(row.device_file);
    h["reference_ops"] = row.reference_ops;
    h["runtime_ops"] = row.runtime_ops;
    h["shape"] = row.shape;
    h["reference_layout"] = StringOrNull(row.reference_layout);
    h["device_layout"] = StringOrNull(row.device_layout);
    h["layout_converted"] = row.layout_converted;
    h["dequantized"] = row.dequantized;
    bool compared = row.status == HandleStatus::kCompared;
    auto count = [&](uint64_t v) {
      return compared ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
    };
    for (const CountField& f : kElementCounts) h[f.key] = count(row.sums.*f.value);
    for (const MetricField& f : kMetricFields) h[f.key] = Number(row.metrics.*f.value);
    h["gap"] = Number(row.gap);
    for (const CountField& f : kNonFiniteCounts) h[f.key] = count(row.sums.*f.value);
    h["reference_preview"] = Values(row.reference_preview);
    h["device_preview"] = Values(row.device_preview);
    handles.push_back(std::move(h));
  }
  doc["handles"] = std::move(handles);
  doc["notes"] = result.notes;
  doc["modules"] = nlohmann::ordered_json::array();
  for (const auto& m : NumericsByModule(result)) {
    nlohmann::ordered_json r;
    r["path"] = m.path;
    r["depth"] = m.depth;
    r["compared"] = m.compared;
    r["divergent"] = m.divergent;
    r["worst_gap"] = Number(m.worst_gap);
    r["worst_handle"] = m.worst_row
                            ? nlohmann::ordered_json(FormatHandleLabel(result.rows[*m.worst_row]))
                            : nlohmann::ordered_json(nullptr);
    r["first_divergent_handle"] =
        m.first_divergent_row
            ? nlohmann::ordered_json(FormatHandleLabel(result.rows[*m.first_divergent_row]))
            : nlohmann::ordered_json(nullptr);
    doc["modules"].push_back(std::move(r));
  }
  return doc;
}

void WriteNumericsCsv(const NumericsResult& result, std::ostream& out) {
  CsvWriter csv(out);
  std::vector<std::string> header = {
      "order",         "handle",        "output_index", "status", "divergent", "reference_tensor",
      "device_tensor", "reference_ops", "runtime_ops",  "shape"};
  for (const CountField& f : kElementCounts) header.emplace_back(f.key);
  for (const MetricField& f : kMetricFields) header.emplace_back(f.key);
  for (const CountField& f : kNonFiniteCounts) header.emplace_back(f.key);
  header.insert(header.end(), {"reference_preview", "device_preview"});
  csv.WriteRow(header);
  for (size_t i = 0; i < result.rows.size(); ++i) {
    const HandleRow& row = result.rows[i];
    bool compared = row.status == HandleStatus::kCompared;
    auto count = [&](uint64_t v) { return compared ? fmt::format("{}", v) : std::string(); };
    auto preview = [](const std::vector<double>& values) {
      std::vector<std::string> parts;
      for (double v : values) parts.push_back(CsvNumber(v));
      return fmt::format("{}", fmt::join(parts, " "));
    };
    std::vector<std::string> cells = {
        fmt::format("{}", i + 1),
        row.handle ? fmt::format("{}", *row.handle) : "",
        fmt::format("{}", row.output_index),
        std::string(HandleStatusName(row.status)),
        row.divergent ? "true" : "false",
        row.reference_tensor,
        row.device_tensor,
        fmt::format("{}", fmt::join(row.reference_ops, ";")),
        fmt::format("{}", fmt::join(row.runtime_ops, ";")),
        fmt::format("{}", fmt::join(row.shape, "x")),
    };
    for (const CountField& f : kElementCounts) cells.push_back(count(row.sums.*f.value));
    for (const MetricField& f : kMetricFields) cells.push_back(CsvNumber(row.metrics.*f.value));
    for (const CountField& f : kNonFiniteCounts) cells.push_back(count(row.sums.*f.value));
    cells.push_back(preview(row.reference_preview));
    cells.push_back(preview(row.device_preview));
    csv.WriteRow(cells);
  }
}

std::string FormatNumericsCsv(const NumericsResult& result) {
  std::ostringstream out;
  WriteNumericsCsv(result, out);
  return out.str();
}

}  // namespace htpscope
