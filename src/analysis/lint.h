// Main-thread bottlenecks from a linting-level profile (primer §8,
// formats.md §5.2 and §5.2b).
//
// At linting level each op line's `(cycles)` is main-thread execution, and
// the op lines plus their `Wait (Scheduler)` cycles add up to the graph's
// "Accelerator (critical path execute) time (cycles)".  For every op:
//  * share_pct      = cycles ÷ critical-path total × 100;
//  * overlap_pct    = Overlap cycles ÷ the op's cycles × 100 (cycles during
//                     which at least one background op ran);
//  * exposed_cycles = cycles − Overlap cycles: main-thread time nothing hid.
// Bottlenecks are the ops with the most exposed cycles.  Hints come from a
// small rule table (kLintHintRules in lint.cc, documented in
// docs/lint-heap-memory.md); they are suggestions, never findings.
// All *_cycles are HTP cycles as printed by the profile viewer.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/run.h"

namespace htpscope {

// Thresholds of the hint rules and the consistency check.
inline constexpr double kLintHintMinSharePct = 10.0;         // "on the critical path"
inline constexpr double kLintHintMaxOverlapPct = 30.0;       // "little overlap"
inline constexpr double kLintHvxOnlyMinSharePct = 20.0;      // HVX-only op worth restructuring
inline constexpr double kLintLongWaitMinOpPct = 10.0;        // wait ≥ this % of the op's cycles
inline constexpr double kLintLongWaitMinTotalPct = 1.0;      // ... and ≥ this % of the total
inline constexpr double kLintLayoutMinSharePct = 5.0;        // layout op worth removing
inline constexpr double kLintConsistencyTolerancePct = 1.0;  // |difference| ≤ this % of total

struct LintOptions {
  int top_n = 5;  // bottlenecks listed per graph
  // QNN op name -> QNN op type (e.g. "ElementWiseSubtract"), from a run of the
  // same model (OpTypesFromRun).  Without it, op types are guessed from names.
  const std::map<std::string, std::string>* op_types = nullptr;
};

struct LintHint {
  std::string rule;  // stable id: "sub_div_on_critical_path", "prelu_to_relu", ...
  std::string text;
};

struct LintOp {
  std::string label;        // as printed: "net_mul_mul:OpId_30", "Output OpId_3"
  std::string qnn_op_name;  // "net_mul_mul"
  std::optional<uint32_t> op_id;
  std::string qnn_op_type;  // from the run given in LintOptions::op_types, else ""
  std::string op_kind;      // what the hint rules key on: "Sub", "Div", "PReLU", "Mul", ... or ""
  std::string op_kind_source;       // "op type" (from qnn_op_type), "name" (guessed) or ""
  int64_t cycles = 0;               // main-thread execution
  std::optional<double> share_pct;  // of share_basis_cycles
  std::optional<int64_t> wait_cycles, overlap_cycles, overlap_wait_cycles;
  std::optional<double> overlap_pct;   // of `cycles`; absent when cycles is 0 or no Overlap entry
  int64_t exposed_cycles = 0;          // cycles − overlap (overlap capped at cycles)
  std::vector<std::string> resources;  // "HVX", "HMX", "DMA"
  std::vector<std::string> overlap_ops, overlap_wait_ops;
  std::vector<LintHint> hints;
};

struct LintBottleneck {
  size_t op_index = 0;  // into LintGraph::ops
  int rank = 0;         // 1-based
  std::string reason;   // "60.0 % of critical path, 10.0 % overlapped, HVX only"
};

// op cycles + waits ≈ the critical-path total.
struct LintConsistency {
  int64_t op_cycles = 0;                     // Σ op cycles
  int64_t wait_cycles = 0;                   // Σ Wait (Scheduler)
  std::optional<int64_t> difference_cycles;  // total − (op cycles + waits)
  std::optional<double> difference_pct;      // of the total
  bool agree = false;  // |difference| ≤ kLintConsistencyTolerancePct of the total
};

// One block of per-op linting lines: a statistics section ("Execute Stats
// (Average)", per graph), one execution ("Execute Stat N") or SNPE "Layer Times".
struct LintGraph {
  std::string title;  // "Execute Stats (Average)", "Execute Stat 2", "Layer Times"
  std::string graph;  // "Graph 0 (model)" or ""
  int execution = 0;  // N of "Execute Stat N", else 0
  int first_line = 0;
  std::optional<int64_t> critical_path_cycles;  // the printed total, when there is one
  std::string critical_path_source;             // the line it comes from
  int64_t share_basis_cycles = 0;  // total the shares are of: printed total, else Σ cycles + waits
  std::vector<LintOp> ops;         // file order
  std::vector<size_t> by_exposed;  // every op index, most exposed cycles first
  std::vector<LintBottleneck> bottlenecks;  // the top N of by_exposed
  LintConsistency consistency;
  std::vector<std::string> notes;  // what is missing or unusual in this block

  std::string Name() const { return graph.empty() ? title : title + " / " + graph; }
};

struct LintAnalysis {
  std::string path;
  std::string format;                 // Run::profile_format: "text", "csv", "etdump", ...
  std::vector<LintGraph> graphs;      // file order
  std::vector<std::string> skipped;   // blocks with per-node lines but no linting entries
  std::vector<std::string> warnings;  // the profile reader's
};

// Analyses every profile block of `run` that holds per-op linting entries.
// Throws InputError (naming the profile) when no block does: e.g. a
// detailed-level profile, whose per-node cycles are thread-aggregate work.
LintAnalysis AnalyzeLint(const Run& run, const LintOptions& options = {});

// QNN op name -> QNN op type from a run's QNN op table (optrace or QHAS).
// Empty when the run has neither.
std::map<std::string, std::string> OpTypesFromRun(const Run& run);

// The kind the hint rules key on, from a QNN op type ("ElementWiseSubtract"
// -> "Sub", "Prelu" -> "PReLU") or, when `from_name`, from the tokens of an op
// name ("model_sub_sub" -> "Sub", "net_conv1_Conv2D" -> "Conv"; the last
// recognised token wins).  "" when nothing is recognised.
std::string LintOpKind(std::string_view text, bool from_name);

}  // namespace htpscope
