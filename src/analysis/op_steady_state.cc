#include "analysis/op_steady_state.h"

#include <algorithm>
#include <utility>

#include "analysis/profile_node_series.h"
#include "analysis/statistics.h"
#include "base/sort_util.h"

namespace htpscope {

std::optional<double> SteadyAcceleratorCycles(const Run& run, uint32_t graph) {
  std::vector<double> cycles;
  bool first = true;  // the graph's first execution is the cold one
  for (const ExecutionRow& e : run.executions) {
    if (e.graph != graph) continue;
    if (!first && e.accelerator_cycles)
      cycles.push_back(static_cast<double>(*e.accelerator_cycles));
    first = false;
  }
  std::optional<SampleStats> stats = StatsOf(cycles);
  if (!stats) return std::nullopt;
  return stats->median;
}

std::vector<OpSteadyState> ComputeOpSteadyState(const Run& run) {
  return ComputeOpSteadyState(run, CollectNodeSeriesOfGraphs(run));
}

std::vector<OpSteadyState> ComputeOpSteadyState(const Run& run,
                                                std::span<const GraphNodeSeries> series_of_graph) {
  std::vector<OpSteadyState> out;
  std::vector<double> samples;
  for (uint32_t g = 0; g < series_of_graph.size(); ++g) {
    const GraphNodeSeries& series = series_of_graph[g];
    if (series.first_node.empty()) continue;
    // The cold execution is the graph's first; executions 2..N are the rest.
    const std::optional<double> steady_total = SteadyAcceleratorCycles(run, g);
    std::vector<OpSteadyState> rows;
    rows.reserve(series.first_node.size());
    for (size_t i = 0; i < series.samples.size();) {
      const uint32_t s = series.samples[i].series;
      OpSteadyState op;
      static_cast<ProfileOp&>(op) = ProfileOpOf(g, *series.first_node[s]);
      samples.clear();
      for (; i < series.samples.size() && series.samples[i].series == s; ++i) {
        const NodeSample& sample = series.samples[i];
        if (sample.execution == 0) {
          op.cold_cycles = sample.cycles;
          op.in_cold = true;
        } else {
          samples.push_back(static_cast<double>(sample.cycles));
        }
      }
      if (std::optional<SampleStats> stats = StatsOf(samples)) {
        op.steady_median_cycles = stats->median;
        op.steady_min_cycles = stats->min;
        op.steady_max_cycles = stats->max;
        op.steady_mad_cycles = stats->mad;
        op.steady_executions = stats->n;
        if (steady_total && *steady_total > 0) op.steady_share = stats->median / *steady_total;
      }
      rows.push_back(std::move(op));
    }
    // Ranked by key (ties by first listing), the rows then moved once into
    // place: a stable sort of the rows themselves takes a second array of them.
    struct Rank {
      std::optional<double> steady_median_cycles;
      int64_t cold_cycles;
    };
    std::vector<uint32_t> order = StableOrderByKeys(
        rows.size(),
        [&rows](size_t i) {
          return Rank{rows[i].steady_median_cycles, rows[i].cold_cycles};
        },
        [](const Rank& a, const Rank& b) {
          if (a.steady_median_cycles.has_value() != b.steady_median_cycles.has_value())
            return a.steady_median_cycles.has_value();
          if (a.steady_median_cycles) return *a.steady_median_cycles > *b.steady_median_cycles;
          return a.cold_cycles > b.cold_cycles;
        });
    AppendPermuted(std::move(rows), order, out);
  }
  return out;
}

}  // namespace htpscope
