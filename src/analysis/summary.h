// The coarse and fine views of one profiled run, each figure labelled with
// what it measures (primer §2–§7):
//  * graph wall µs   = "QNN accelerator (execute) time" (latency, incl. dispatch);
//  * compute-busy µs = "Accelerator (execute) time" (ops in flight);
//  * work cycles     = thread-aggregate cycles (summed over threads) — a
//                      volume, never a wall time;
//  * graph wall cycles = span of the de-duplicated optrace;
//  * domain cycles   = the busiest hardware thread's cycles_used;
//  * DPC             = dominant-path (critical-path) cycles of an op.
// The fine figures are the run's own (Run::figures, Run::qnn_ops, ...): the
// summary only adds what depends on the options (the clock) and on several
// executions (steady state).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/first_inference.h"
#include "analysis/memory.h"
#include "analysis/module_run.h"
#include "analysis/op_rollup.h"
#include "analysis/op_steady_state.h"
#include "analysis/op_warmup.h"
#include "analysis/path_by_unit.h"
#include "analysis/statistics.h"
#include "model/run.h"

namespace htpscope {

// Highest plausible HTP clock when the run has no runtrace to tell: the
// highest effective clock seen in the runtraces of current (v73–v79) parts
// is ~2.0 GHz.  Override with SummaryOptions::clock_ghz.
inline constexpr double kDefaultClockCeilingGhz = 2.0;

struct SummaryOptions {
  int top_n = 10;  // rows in the top-N op tables
  std::optional<double>
      clock_ghz;  // plausible clock; default: runtrace max, else kDefaultClockCeilingGhz
};

// Coarse view of one execution, from profile-viewer output (µs as printed).
struct CoarseExecution {
  uint32_t graph = 0;                               // index into Run::graphs
  int index = 0;                                    // 1-based execution number within its graph
  bool cold = false;                                // the graph's first execution
  std::optional<double> graph_wall_us;              // QNN accelerator (execute) time
  std::optional<double> compute_busy_us;            // Accelerator (execute) time
  std::optional<double> compute_excluding_wait_us;  // Accelerator (execute excluding wait) time
  std::optional<double> overhead_us;                // graph wall − compute-busy
  std::optional<double> overhead_pct;               // overhead ÷ graph wall × 100
  std::optional<double> rpc_us;                     // RPC (execute) time
  std::optional<double> qnn_execute_us;             // QNN (execute) time
  std::optional<int64_t> work_cycles;  // Accelerator (execute) time (cycles): thread-aggregate
  std::optional<double> implied_ghz;   // work_cycles ÷ compute-busy µs ÷ 1000
  bool aggregate_cycles = false;       // implied clock above the plausible clock
};

// Executions 2..N of one graph: the warm, steady state.
struct SteadyState {
  int first_index = 2;
  int last_index = 2;
  std::optional<SampleStats> graph_wall_us, compute_busy_us, overhead_us, work_cycles;
};

// One graph's executions.
struct GraphCoarse {
  uint32_t graph = 0;  // index into Run::graphs
  std::vector<CoarseExecution> executions;
  std::optional<SteadyState> steady_state;  // with two or more executions
};

struct ClockSanity {
  double plausible_ghz = 0;
  std::string source;  // "option", "runtrace", "qhas" or "default"
};

struct CategoryTotal {
  OpCategory category = OpCategory::kCompute;
  int64_t instances = 0;
  int64_t work_cycles = 0;
  int64_t dpc_cycles = 0;
};

struct Summary {
  const Run* run = nullptr;         // every table and whole-graph figure
  std::vector<GraphCoarse> graphs;  // the coarse view, per graph with executions
  ClockSanity clock;
  std::vector<CategoryTotal> categories;  // from the op instances
  std::vector<OpWarmup> op_warmup;        // per-op cycles by execution (profile)
  std::vector<WarningRow> warnings;       // the run's, then the summary's own
  // The dominant path split by hardware; per QNN op, compute / staging / DMA.
  std::optional<PathByUnit> path_by_unit;
  OpRollup op_rollup;
  // Bytes per QNN op, for the VTCM read hit ratio, by DRAM bytes read
  // (descending, then as TrafficByQnnOp orders them); absent without per-op
  // traffic.
  std::optional<QnnOpTrafficTable> traffic;
  // Per op, the profile's per-node cycles: cold and steady state (executions
  // 2..N), per graph by steady median (op_steady_state.h); empty without
  // per-node lines.
  std::vector<OpSteadyState> op_steady_state;
  // The phases before the first inference (first_inference.h).
  FirstInference first_inference;
  // Time by the model's own modules (docs/modules.md): DPC of the traced
  // execution, else the profile's steady-state median per op.
  RunModules modules;
};

// `part` as a percentage of `whole`, or nullopt when either is missing or
// `whole` is not positive.
std::optional<double> SharePct(std::optional<int64_t> part, std::optional<int64_t> whole);

// The coarse view of every execution, and steady-state statistics per
// graph; the clock the cycles ÷ µs sanity check uses.
Summary Summarize(const Run& run, const SummaryOptions& options = {});

// Summarize's coarse view alone (Summary::graphs, the same rows): for a
// caller that needs no per-op table, as the diff, which pools only these.
std::vector<GraphCoarse> SummarizeCoarse(const Run& run, const SummaryOptions& options = {});

// The steady state of `executions` (one graph's, in order): statistics over
// all but the first; nullopt with fewer than two.
std::optional<SteadyState> ComputeSteadyState(const std::vector<CoarseExecution>& executions);

}  // namespace htpscope
