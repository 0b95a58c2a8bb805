// Per-op steady state of a graph from the profile's per-node cycles (a
// detailed or linting profile of several executions): each op's cycles in
// the cold first execution, and their median, min, max and MAD over
// executions 2..N, with the op's share of the execution's cycles.  The
// cycles are the profile's own per-node figure (thread-aggregate at
// detailed level, main-thread at linting level), the same kind in every
// execution: they rank the ops where no optrace or QHAS gives DPC.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "analysis/profile_node_series.h"
#include "model/run.h"

namespace htpscope {

// graph, name (qnn_op_name, else label) and op_id: the op (ProfileOp).
struct OpSteadyState : ProfileOp {
  int64_t cold_cycles = 0;  // the graph's first (cold) execution; 0 if absent there
  bool in_cold = false;     // the cold execution lists the op
  std::optional<double> steady_median_cycles, steady_min_cycles, steady_max_cycles,
      steady_mad_cycles;      // over executions 2..N that list the op
  int steady_executions = 0;  // executions 2..N that list the op
  // median ÷ the median "Accelerator (execute) time (cycles)" of executions
  // 2..N (a fraction, 0..1 when the per-op cycles add up to it); nullopt
  // without either.
  std::optional<double> steady_share;
};

// The steady-state statistics of an op, named as the summary JSON and the
// op_steady_state table name them, in the order they give them.
struct SteadyStatistic {
  const char* name;
  std::optional<double> OpSteadyState::*value;
  const char* description;  // one line, for docs/tables.md
};
inline constexpr SteadyStatistic kSteadyStatistics[] = {
    {"steady_median_cycles", &OpSteadyState::steady_median_cycles,
     "median over executions 2..N that list it"},
    {"steady_min_cycles", &OpSteadyState::steady_min_cycles, "minimum over executions 2..N"},
    {"steady_max_cycles", &OpSteadyState::steady_max_cycles, "maximum over executions 2..N"},
    {"steady_mad_cycles", &OpSteadyState::steady_mad_cycles,
     "median absolute deviation over executions 2..N"},
};

// Per (graph, op) from the profile's per-node cycles, an op followed across
// executions by its op ID, else its name (profile_node_series.h); per graph
// (graphs in order) ranked by steady median, most first, ops without a
// steady state last by cold cycles, ties in the order the profile first
// lists them.  Names are views of the run's rows (valid as long as `run`).
// Graphs without per-node lines give no rows.
std::vector<OpSteadyState> ComputeOpSteadyState(const Run& run);
// The same from the run's node series, by graph (CollectNodeSeriesOfGraphs).
std::vector<OpSteadyState> ComputeOpSteadyState(const Run& run,
                                                std::span<const GraphNodeSeries> series_of_graph);

// One graph's executions 2..N: the median of their "Accelerator (execute)
// time (cycles)", nullopt when none has it.
std::optional<double> SteadyAcceleratorCycles(const Run& run, uint32_t graph);

}  // namespace htpscope
