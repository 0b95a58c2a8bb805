#include "analysis/lint.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>

#include "base/errors.h"
#include "base/number_text.h"
#include "base/text_util.h"

namespace htpscope {
namespace {

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

bool HasResource(const LintOp& op, std::string_view unit) {
  return std::any_of(op.resources.begin(), op.resources.end(),
                     [&](const std::string& r) { return ToLower(r) == ToLower(unit); });
}

// ---------------------------------------------------------------------------
// Hint rules: keyed on the op kind and the resources, judged on the op's
// share of the critical path and how much of it was overlapped.

struct HintRule {
  const char* id;
  std::function<bool(const LintOp&, const LintGraph&)> applies;
  const char* text;
};

bool LittleOverlap(const LintOp& op) {
  return !op.overlap_pct || *op.overlap_pct <= kLintHintMaxOverlapPct;
}

double Share(const LintOp& op) { return op.share_pct.value_or(0); }

const std::vector<HintRule>& HintRules() {
  static const std::vector<HintRule> rules = {
      {"sub_div_on_critical_path",
       [](const LintOp& op, const LintGraph&) {
         return (op.op_kind == "Sub" || op.op_kind == "Div") && Share(op) >= kLintHintMinSharePct &&
                LittleOverlap(op);
       },
       "elementwise Sub/Div on the critical path with little overlap: consider a Mul (by the "
       "reciprocal, or Add of the negated constant) or a conv formulation that runs on HMX"},
      {"prelu_to_relu", [](const LintOp& op, const LintGraph&) { return op.op_kind == "PReLU"; },
       "PReLU: ReLU is cheaper and fuses into the producing conv; use it where accuracy allows"},
      {"hvx_only_low_overlap",
       [](const LintOp& op, const LintGraph&) {
         return op.resources.size() == 1 && HasResource(op, "HVX") &&
                Share(op) >= kLintHvxOnlyMinSharePct && LittleOverlap(op);
       },
       "runs on HVX alone and little else runs meanwhile: look for an HMX formulation "
       "(conv/matmul), or fuse it into a neighbouring op"},
      {"layout_op_on_critical_path",
       [](const LintOp& op, const LintGraph&) {
         return op.op_kind == "Transpose" && Share(op) >= kLintLayoutMinSharePct;
       },
       "a layout op on the critical path moves data without computing: fold it away (keep the "
       "producer's layout) where the model allows"},
      {"long_scheduler_wait",
       [](const LintOp& op, const LintGraph& g) {
         if (!op.wait_cycles || op.cycles <= 0 || g.share_basis_cycles <= 0) return false;
         double wait = static_cast<double>(*op.wait_cycles);
         return wait >= kLintLongWaitMinOpPct / 100 * static_cast<double>(op.cycles) &&
                wait >= kLintLongWaitMinTotalPct / 100 * static_cast<double>(g.share_basis_cycles);
       },
       "long Wait (Scheduler) before it started: an input or a DMA it depends on was late; look "
       "at the op before it"},
  };
  return rules;
}

std::string ResourcesText(const LintOp& op) {
  if (op.resources.empty()) return "no resources listed";
  if (op.resources.size() == 1) return op.resources[0] + " only";
  return fmt::format("{}", fmt::join(op.resources, " + "));
}

std::string Reason(const LintOp& op) {
  std::string share = op.share_pct ? fmt::format("{:.1f} % of critical path", *op.share_pct)
                                   : std::string("share of critical path unknown");
  std::string overlap = op.overlap_pct      ? fmt::format("{:.1f} % overlapped", *op.overlap_pct)
                        : op.overlap_cycles ? std::string("0 cycles run")
                                            : std::string("overlap not reported");
  std::string out = fmt::format("{}, {}, {}", share, overlap, ResourcesText(op));
  if (op.wait_cycles && *op.wait_cycles > 0)
    out += fmt::format(", waited {} cycles", GroupDigits(*op.wait_cycles));
  return out;
}

// The per-node lines' total: the metric they are sub-events of, or for the
// SNPE "Layer Times" flavour the single "HTP Subnet N" line.
void FindTotal(const Run& run, const ProfileBlockRow& block, LintGraph* g) {
  if (!block.nodes_parent.empty()) {
    const ProfileMetricRow* m = run.FindMetric(block, block.nodes_parent);
    if (m && m->value && m->unit == "cycles") {
      g->critical_path_cycles = static_cast<int64_t>(*m->value);
      g->critical_path_source = m->name;
    }
    if (!Contains(ToLower(block.nodes_parent), "critical path"))
      g->notes.push_back(fmt::format(
          "the op lines sit under \"{}\", not under \"Accelerator (critical path execute) time "
          "(cycles)\": shares are of that line",
          block.nodes_parent));
    return;
  }
  std::vector<const ProfileMetricRow*> subnets;
  for (const auto& m : run.profile_metrics)
    if (run.profile_blocks[m.block].title == "Per-Graph Execution Times" && m.value &&
        m.unit == "cycles")
      subnets.push_back(&m);
  if (subnets.size() == 1) {
    g->critical_path_cycles = static_cast<int64_t>(*subnets[0]->value);
    g->critical_path_source = subnets[0]->name;
  } else if (subnets.size() > 1) {
    g->notes.push_back(fmt::format(
        "{} per-graph totals are printed and the layers do not say which graph they belong to",
        subnets.size()));
  }
}

void AnalyzeOp(const ProfileNodeRow& node, const LintOptions& options, LintOp* op) {
  op->label = node.label;
  op->qnn_op_name = node.qnn_op_name;
  op->op_id = node.op_id;
  op->cycles = node.cycles;
  const ProfileNodeLint& lint = node.lint.ValueOrEmpty();
  op->wait_cycles = lint.wait_cycles;
  op->overlap_cycles = lint.overlap_cycles;
  op->overlap_wait_cycles = lint.overlap_wait_cycles;
  op->resources = lint.resources;
  op->overlap_ops = lint.overlap_ops;
  op->overlap_wait_ops = lint.overlap_wait_ops;
  if (options.op_types) {
    auto it = options.op_types->find(node.qnn_op_name);
    if (it != options.op_types->end()) op->qnn_op_type = it->second;
  }
  if (!op->qnn_op_type.empty()) {
    op->op_kind = LintOpKind(op->qnn_op_type, /*from_name=*/false);
    if (op->op_kind.empty()) op->op_kind = op->qnn_op_type;
    op->op_kind_source = "op type";
  } else {
    op->op_kind = LintOpKind(node.qnn_op_name, /*from_name=*/true);
    if (!op->op_kind.empty()) op->op_kind_source = "name";
  }
  int64_t overlap = std::min(lint.overlap_cycles.value_or(0), node.cycles);
  op->exposed_cycles = node.cycles - overlap;
  if (lint.overlap_cycles && node.cycles > 0)
    op->overlap_pct = static_cast<double>(overlap) / static_cast<double>(node.cycles) * 100;
}

LintGraph AnalyzeBlock(const Run& run, const ProfileBlockRow& block, const LintOptions& options) {
  LintGraph g;
  g.title = block.title;
  g.graph = block.graph_name;
  g.execution = block.execution ? run.executions[*block.execution].index : 0;
  g.first_line = block.first_line;
  FindTotal(run, block, &g);
  std::vector<std::string> no_lint, overlap_over_cycles;
  for (uint32_t i = block.first_node; i < block.first_node + block.node_count; ++i) {
    const ProfileNodeRow& node = run.profile_nodes[i];
    LintOp op;
    AnalyzeOp(node, options, &op);
    const ProfileNodeLint& lint = node.lint.ValueOrEmpty();
    if (!node.has_lint()) no_lint.push_back(node.label);
    if (lint.overlap_cycles && *lint.overlap_cycles > node.cycles)
      overlap_over_cycles.push_back(node.label);
    g.consistency.op_cycles += node.cycles;
    g.consistency.wait_cycles += lint.wait_cycles.value_or(0);
    g.ops.push_back(std::move(op));
  }
  if (!no_lint.empty())
    g.notes.push_back(fmt::format("{} op(s) have no linting entries: {}", no_lint.size(),
                                  fmt::join(no_lint, ", ")));
  if (!overlap_over_cycles.empty())
    g.notes.push_back(fmt::format(
        "Overlap time exceeds the op's own cycles for {}; the overlap is capped at the op's cycles",
        fmt::join(overlap_over_cycles, ", ")));

  int64_t accounted = g.consistency.op_cycles + g.consistency.wait_cycles;
  if (g.critical_path_cycles) {
    g.share_basis_cycles = *g.critical_path_cycles;
    int64_t difference = *g.critical_path_cycles - accounted;
    g.consistency.difference_cycles = difference;
    if (*g.critical_path_cycles > 0) {
      g.consistency.difference_pct =
          static_cast<double>(difference) / static_cast<double>(*g.critical_path_cycles) * 100;
      g.consistency.agree = std::abs(*g.consistency.difference_pct) <= kLintConsistencyTolerancePct;
    } else {
      g.consistency.agree = difference == 0;
    }
  } else {
    g.share_basis_cycles = accounted;
    g.notes.push_back(
        "no critical-path total is printed for these ops: shares are of Σ op cycles + waits, and "
        "the consistency check cannot be made");
  }
  for (auto& op : g.ops)
    if (g.share_basis_cycles > 0)
      op.share_pct =
          static_cast<double>(op.cycles) / static_cast<double>(g.share_basis_cycles) * 100;

  for (auto& op : g.ops)
    for (const auto& rule : HintRules())
      if (rule.applies(op, g)) op.hints.push_back({rule.id, rule.text});

  g.by_exposed.resize(g.ops.size());
  for (size_t i = 0; i < g.ops.size(); ++i) g.by_exposed[i] = i;
  std::stable_sort(g.by_exposed.begin(), g.by_exposed.end(), [&](size_t a, size_t b) {
    if (g.ops[a].exposed_cycles != g.ops[b].exposed_cycles)
      return g.ops[a].exposed_cycles > g.ops[b].exposed_cycles;
    return g.ops[a].cycles > g.ops[b].cycles;
  });
  for (size_t i = 0; i < g.by_exposed.size() && static_cast<int>(i) < options.top_n; ++i) {
    const LintOp& op = g.ops[g.by_exposed[i]];
    if (op.exposed_cycles <= 0) break;  // nothing exposed: not a bottleneck
    g.bottlenecks.push_back({g.by_exposed[i], static_cast<int>(i) + 1, Reason(op)});
  }
  return g;
}

struct KindToken {
  const char* token;
  const char* kind;
};

// Lower-case name tokens (and QNN op type fragments) -> kind.
constexpr KindToken kNameTokens[] = {
    {"sub", "Sub"},
    {"subtract", "Sub"},
    {"div", "Div"},
    {"divide", "Div"},
    {"realdiv", "Div"},
    {"truediv", "Div"},
    {"prelu", "PReLU"},
    {"relu", "ReLU"},
    {"mul", "Mul"},
    {"multiply", "Mul"},
    {"add", "Add"},
    {"conv", "Conv"},
    {"conv2d", "Conv"},
    {"convolution", "Conv"},
    {"depthwiseconv2d", "Conv"},
    {"matmul", "MatMul"},
    {"transpose", "Transpose"},
    {"permute", "Transpose"},
    {"softmax", "Softmax"},
    {"fullyconnected", "MatMul"},
};

// QNN op type fragments, most specific first (substring match, lower case).
constexpr KindToken kTypeFragments[] = {
    {"prelu", "PReLU"},         {"relu", "ReLU"},
    {"subtract", "Sub"},        {"divide", "Div"},
    {"multiply", "Mul"},        {"elementwiseadd", "Add"},
    {"transpose", "Transpose"}, {"conv", "Conv"},
    {"matmul", "MatMul"},       {"fullyconnected", "MatMul"},
    {"softmax", "Softmax"},
};

}  // namespace

std::string LintOpKind(std::string_view text, bool from_name) {
  std::string lower = ToLower(text);
  if (!from_name) {
    if (lower == "sub") return "Sub";
    if (lower == "div") return "Div";
    for (const auto& f : kTypeFragments)
      if (Contains(lower, f.token)) return f.kind;
    return "";
  }
  std::string kind;
  size_t pos = 0;
  while (pos < lower.size()) {
    while (pos < lower.size() && !std::isalnum(static_cast<unsigned char>(lower[pos]))) ++pos;
    size_t start = pos;
    while (pos < lower.size() && std::isalnum(static_cast<unsigned char>(lower[pos]))) ++pos;
    std::string_view token = std::string_view(lower).substr(start, pos - start);
    for (const auto& t : kNameTokens)
      if (token == t.token) kind = t.kind;
  }
  return kind;
}

LintAnalysis AnalyzeLint(const Run& run, const LintOptions& options) {
  LintAnalysis out;
  out.path = run.ProfilePath();
  out.format = run.profile_format;
  for (const auto& w : run.warnings)
    if (w.code == WarningCode::reader) out.warnings.push_back(w.message);
  for (const auto& b : run.profile_blocks) {
    if (b.node_count == 0) continue;
    bool any_lint = false;
    for (uint32_t i = b.first_node; i < b.first_node + b.node_count; ++i)
      any_lint = any_lint || run.profile_nodes[i].has_lint();
    if (!any_lint) {
      out.skipped.push_back(
          fmt::format("{}: {} per-node lines under \"{}\" without linting entries (detailed level: "
                      "thread-aggregate work, not main-thread time)",
                      b.Name(), b.node_count, b.nodes_parent));
      continue;
    }
    out.graphs.push_back(AnalyzeBlock(run, b, options));
  }
  if (out.graphs.empty())
    throw InputError(
        out.path,
        out.skipped.empty()
            ? std::string("no per-op lines: expected linting-level profile output (op lines with "
                          "\"Wait (Scheduler) time\", \"Overlap time\", \"Resources:\" under them)")
            : fmt::format("no linting-level data: {} block(s) have per-node cycles but no "
                          "\"Wait (Scheduler) time\" / \"Overlap time\" / \"Resources\" entries. "
                          "Profile at linting level (HTP profiling_level \"linting\") to get "
                          "main-thread cycles; first block: {}",
                          out.skipped.size(), out.skipped.front()));
  return out;
}

std::map<std::string, std::string> OpTypesFromRun(const Run& run) {
  std::map<std::string, std::string> out;
  for (const auto& g : run.qnn_ops)
    if (g.type != StringPool::kEmpty) out.emplace(std::string(run.Str(g.name)), run.Str(g.type));
  return out;
}

}  // namespace htpscope
