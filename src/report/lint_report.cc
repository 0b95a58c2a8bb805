#include "report/lint_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "report/format_util.h"
#include "report/json_values.h"

namespace htpscope {
namespace {

using nlohmann::json;

json HintsJson(const std::vector<LintHint>& hints) {
  json out = json::array();
  for (const auto& h : hints) out.push_back({{"rule", h.rule}, {"text", h.text}});
  return out;
}

json OpJson(const LintOp& op) {
  return {{"name", op.label},
          {"qnn_op_name", op.qnn_op_name},
          {"op_id", op.op_id ? json(*op.op_id) : json(nullptr)},
          {"qnn_op_type", op.qnn_op_type.empty() ? json(nullptr) : json(op.qnn_op_type)},
          {"op_kind", op.op_kind.empty() ? json(nullptr) : json(op.op_kind)},
          {"op_kind_source", op.op_kind_source.empty() ? json(nullptr) : json(op.op_kind_source)},
          {"cycles", op.cycles},
          {"share_pct", OptionalJson(op.share_pct)},
          {"wait_cycles", OptionalJson(op.wait_cycles)},
          {"overlap_cycles", OptionalJson(op.overlap_cycles)},
          {"overlap_pct", OptionalJson(op.overlap_pct)},
          {"overlap_wait_cycles", OptionalJson(op.overlap_wait_cycles)},
          {"exposed_cycles", op.exposed_cycles},
          {"resources", op.resources},
          {"overlap_ops", op.overlap_ops},
          {"overlap_wait_ops", op.overlap_wait_ops},
          {"hints", HintsJson(op.hints)}};
}

json BottleneckJson(const LintGraph& g, const LintBottleneck& b) {
  const LintOp& op = g.ops[b.op_index];
  return {{"rank", b.rank},
          {"name", op.label},
          {"exposed_cycles", op.exposed_cycles},
          {"cycles", op.cycles},
          {"share_pct", OptionalJson(op.share_pct)},
          {"overlap_pct", OptionalJson(op.overlap_pct)},
          {"resources", op.resources},
          {"reason", b.reason},
          {"hints", HintsJson(op.hints)}};
}

json GraphJson(const LintGraph& g) {
  json ops = json::array(), bottlenecks = json::array();
  for (const auto& op : g.ops) ops.push_back(OpJson(op));
  for (const auto& b : g.bottlenecks) bottlenecks.push_back(BottleneckJson(g, b));
  const LintConsistency& c = g.consistency;
  return {{"name", g.Name()},
          {"title", g.title},
          {"graph", g.graph.empty() ? json(nullptr) : json(g.graph)},
          {"execution", g.execution > 0 ? json(g.execution) : json(nullptr)},
          {"first_line", g.first_line > 0 ? json(g.first_line) : json(nullptr)},
          {"critical_path_cycles", OptionalJson(g.critical_path_cycles)},
          {"critical_path_source",
           g.critical_path_source.empty() ? json(nullptr) : json(g.critical_path_source)},
          {"share_basis_cycles", g.share_basis_cycles},
          {"consistency",
           {{"op_cycles", c.op_cycles},
            {"wait_cycles", c.wait_cycles},
            {"accounted_cycles", c.op_cycles + c.wait_cycles},
            {"difference_cycles", OptionalJson(c.difference_cycles)},
            {"difference_pct", OptionalJson(c.difference_pct)},
            {"agree", c.difference_cycles ? json(c.agree) : json(nullptr)}}},
          {"ops", ops},
          {"bottlenecks", bottlenecks},
          {"notes", g.notes}};
}

std::string Pct(const std::optional<double>& v) { return v ? fmt::format("{:.1f}", *v) : "-"; }

std::string ResourcesCell(const LintOp& op) {
  return op.resources.empty() ? "-" : fmt::format("{}", fmt::join(op.resources, ","));
}

void RenderGraph(const LintGraph& g, const LintReportOptions& options, std::string& out) {
  std::string title = g.Name();
  out += fmt::format("\n{}\n{}\n", title, std::string(title.size(), '-'));
  if (g.critical_path_cycles)
    out += fmt::format("  critical path {} cycles (\"{}\")\n", GroupDigits(*g.critical_path_cycles),
                       g.critical_path_source);
  else
    out +=
        fmt::format("  critical path: not printed; shares are of Σ op cycles + waits = {} cycles\n",
                    GroupDigits(g.share_basis_cycles));
  size_t rows = std::min(g.by_exposed.size(), static_cast<size_t>(std::max(options.rows, 0)));
  out += fmt::format("  Ops by exposed main-thread cycles ({} of {}):\n", FormatCount(rows),
                     FormatCount(g.ops.size()));
  out += fmt::format("    {:<34} {:>11} {:>6} {:>8} {:>11} {:>6} {:>11}  {}\n", "op", "cycles",
                     "% path", "wait", "overlap", "% ovl", "exposed", "resources");
  for (size_t i = 0; i < rows; ++i) {
    const LintOp& op = g.ops[g.by_exposed[i]];
    out += fmt::format("    {:<34} {:>11} {:>6} {:>8} {:>11} {:>6} {:>11}  {}\n",
                       Ellipsize(op.label, 34), GroupDigits(op.cycles), Pct(op.share_pct),
                       OrDash(op.wait_cycles), OrDash(op.overlap_cycles), Pct(op.overlap_pct),
                       GroupDigits(op.exposed_cycles), ResourcesCell(op));
  }
  out +=
      "    cycles = main-thread execution; overlap = cycles with a background op running; "
      "exposed = cycles − overlap\n";

  const LintConsistency& c = g.consistency;
  std::string accounted =
      fmt::format("op cycles {} + waits {} = {}", GroupDigits(c.op_cycles),
                  GroupDigits(c.wait_cycles), GroupDigits(c.op_cycles + c.wait_cycles));
  if (c.difference_cycles)
    out += fmt::format(
        "  Consistency: {} vs critical path {}: difference {} cycles ({:.2f} %) [{}]\n", accounted,
        GroupDigits(*g.critical_path_cycles), GroupDigits(*c.difference_cycles),
        c.difference_pct.value_or(0), c.agree ? "agree" : "DIFFER");
  else
    out += fmt::format("  Consistency: {} (no total printed to compare with)\n", accounted);

  if (g.bottlenecks.empty()) {
    out += "  Bottlenecks: none (no op has exposed cycles)\n";
  } else {
    out += "  Bottlenecks (most exposed main-thread cycles first):\n";
    for (const auto& b : g.bottlenecks) {
      const LintOp& op = g.ops[b.op_index];
      out += fmt::format("    {}. {}  {} exposed cycles — {}\n", b.rank, op.label,
                         GroupDigits(op.exposed_cycles), b.reason);
      if (!op.op_kind.empty())
        out += fmt::format("       kind: {} ({})\n", op.op_kind,
                           op.op_kind_source == "name" ? "guessed from the name"
                                                       : "QNN op type " + op.qnn_op_type);
      if (!op.overlap_ops.empty())
        out += fmt::format("       overlapped by: {}\n", fmt::join(op.overlap_ops, ", "));
      for (const auto& h : op.hints) out += fmt::format("       hint [{}]: {}\n", h.rule, h.text);
    }
  }
  // Hints of ops outside the bottleneck list.
  bool header = false;
  for (size_t i = 0; i < g.ops.size(); ++i) {
    const LintOp& op = g.ops[i];
    bool listed = std::any_of(g.bottlenecks.begin(), g.bottlenecks.end(),
                              [&](const LintBottleneck& b) { return b.op_index == i; });
    if (listed || op.hints.empty()) continue;
    if (!header) out += "  Other hints:\n";
    header = true;
    for (const auto& h : op.hints)
      out += fmt::format("    {} hint [{}]: {}\n", op.label, h.rule, h.text);
  }
  for (const auto& n : g.notes) out += fmt::format("  note: {}\n", n);
}

}  // namespace

std::string RenderLintText(const LintAnalysis& lint, const LintReportOptions& options) {
  std::string out = fmt::format("htpscope lint: {} ({}, linting level)\n", lint.path,
                                lint.format == "snpe_diagview" ? "snpe-diagview text"
                                : lint.format == "csv"         ? "profile CSV"
                                : lint.format == "qnn_log"     ? "qnn-net-run profiling log"
                                                               : "profile-viewer text");
  out += fmt::format(
      "  {} graph/execution block(s); hints are suggestions from a fixed rule table "
      "(docs/lint-heap-memory.md), not findings\n",
      lint.graphs.size());
  for (const auto& g : lint.graphs) RenderGraph(g, options, out);
  if (!lint.skipped.empty()) {
    out += "\nBlocks without linting entries (not analysed):\n";
    for (const auto& s : lint.skipped) out += fmt::format("  {}\n", s);
  }
  if (!lint.warnings.empty()) {
    out += "\nReader warnings:\n";
    for (const auto& w : lint.warnings) out += fmt::format("  {}\n", w);
  }
  return out;
}

json LintToJson(const LintAnalysis& lint, size_t selected_graph) {
  json j;
  j["schema"] = "htpscope.lint/1";
  j["path"] = lint.path;
  j["format"] = lint.format;
  json graphs = json::array();
  for (const auto& g : lint.graphs) graphs.push_back(GraphJson(g));
  if (selected_graph < lint.graphs.size()) {
    const json& selected = graphs[selected_graph];
    j["selected_graph"] = selected_graph;
    j["critical_path_cycles"] = selected["critical_path_cycles"];
    j["ops"] = selected["ops"];
    j["bottlenecks"] = selected["bottlenecks"];
  } else {
    j["selected_graph"] = nullptr;
    j["critical_path_cycles"] = nullptr;
    j["ops"] = json::array();
    j["bottlenecks"] = json::array();
  }
  j["graphs"] = graphs;
  j["skipped"] = lint.skipped;
  j["warnings"] = lint.warnings;
  return j;
}

}  // namespace htpscope
