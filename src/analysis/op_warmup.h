// Per-op warm-up across the executions of a graph, from the profile's
// per-node cycles (one execution = one profile block): what the community's
// scripts compute as "cold → warm → steady" (e.g. 87,938 → 9,978 → 8,678
// cycles, 10.1×).  The cycles are the profile's own per-node figure
// (main-thread cycles at linting level, thread-aggregate at detailed level),
// the same kind in every execution, so the ratio is meaningful either way.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/profile_node_series.h"
#include "model/run.h"

namespace htpscope {

// graph, name ("conv_1", "Input") and op_id: the node's op (ProfileOp).
struct OpWarmup : ProfileOp {
  int64_t cold_cycles = 0;                     // execution 1 (power-on, VTCM acquire, caches)
  std::optional<int64_t> warm_cycles;          // execution 2
  std::optional<double> steady_median_cycles;  // median over executions 3..N
  std::optional<double> cold_over_steady;      // cold ÷ steady median
  int executions = 0;                          // executions that list this node
};

// One row per (graph, profile node) listed in the graph's first execution,
// its name a view of the run's profile node row (valid as long as `run`),
// for graphs with at least two executions; ordered per graph by the cycles
// the first execution spends beyond the steady state (or execution 2 when
// there is no third), most first.
std::vector<OpWarmup> ComputeOpWarmup(const Run& run);
// The same from the run's node series, by graph (CollectNodeSeriesOfGraphs).
std::vector<OpWarmup> ComputeOpWarmup(std::span<const GraphNodeSeries> series_of_graph);

}  // namespace htpscope
