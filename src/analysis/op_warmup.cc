#include "analysis/op_warmup.h"

#include <algorithm>
#include <functional>
#include <string_view>
#include <utility>

#include "analysis/profile_node_series.h"
#include "analysis/statistics.h"
#include "base/sort_util.h"

namespace htpscope {
namespace {

double Excess(const OpWarmup& w) {
  const double settled = w.steady_median_cycles ? *w.steady_median_cycles
                                                : static_cast<double>(w.warm_cycles.value_or(0));
  return static_cast<double>(w.cold_cycles) - settled;
}

}  // namespace

std::vector<OpWarmup> ComputeOpWarmup(const Run& run) {
  return ComputeOpWarmup(CollectNodeSeriesOfGraphs(run));
}

std::vector<OpWarmup> ComputeOpWarmup(std::span<const GraphNodeSeries> series_of_graph) {
  std::vector<OpWarmup> out;
  std::vector<double> samples;
  for (uint32_t g = 0; g < series_of_graph.size(); ++g) {
    // Each node of the first execution starts a series; a node met first in
    // a later execution is never reported.  Only a node present in every
    // earlier execution extends its series.
    const GraphNodeSeries& series = series_of_graph[g];
    if (series.executions.size() < 2) continue;
    std::vector<OpWarmup> rows;
    rows.reserve(series.first_node.size());
    for (size_t i = 0; i < series.samples.size();) {
      const uint32_t s = series.samples[i].series;
      size_t end = i;
      while (end < series.samples.size() && series.samples[end].series == s) ++end;
      if (series.samples[i].execution != 0) {
        i = end;
        continue;
      }
      OpWarmup w;
      static_cast<ProfileOp&>(w) = ProfileOpOf(g, *series.first_node[s]);
      samples.clear();
      uint32_t length = 0;
      for (size_t k = i; k < end && series.samples[k].execution == length; ++k, ++length) {
        const int64_t cycles = series.samples[k].cycles;
        if (length == 0)
          w.cold_cycles = cycles;
        else if (length == 1)
          w.warm_cycles = cycles;
        else
          samples.push_back(static_cast<double>(cycles));
      }
      w.executions = static_cast<int>(length);
      if (!samples.empty()) {
        auto stats = StatsOf(samples);  // in place: one sample for three executions
        if (stats) w.steady_median_cycles = stats->median;
        if (w.steady_median_cycles && *w.steady_median_cycles > 0)
          w.cold_over_steady = static_cast<double>(w.cold_cycles) / *w.steady_median_cycles;
      }
      rows.push_back(std::move(w));
      i = end;
    }
    // Ranked by excess (ties by first listing), the rows then moved once
    // into place.
    std::vector<uint32_t> order = StableOrderByKeys(
        rows.size(), [&rows](size_t i) { return Excess(rows[i]); }, std::greater<double>());
    AppendPermuted(std::move(rows), order, out);
  }
  return out;
}

}  // namespace htpscope
