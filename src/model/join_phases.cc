// The profile's phases as one table (Run::profile_phases): every metric of
// every block of a known phase, with the graph, execution and parent figure
// spelled out, in the order of the profile's clock.
#include <algorithm>
#include <numeric>

#include "model/join.h"

namespace htpscope {

void BuildProfilePhases(Run& run) {
  run.profile_phases.clear();
  // Blocks in clock order when every phase block has a timestamp (the
  // viewer's CSV prints DE-INIT before the executions), else file order.
  std::vector<uint32_t> order;
  bool every_timestamp = true;
  for (uint32_t b = 0; b < run.profile_blocks.size(); ++b) {
    const ProfileBlockRow& block = run.profile_blocks[b];
    if (block.phase == ProfilePhase::kOther) continue;
    order.push_back(b);
    every_timestamp = every_timestamp && block.timestamp_us.has_value();
  }
  if (every_timestamp)
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return *run.profile_blocks[a].timestamp_us < *run.profile_blocks[b].timestamp_us;
    });
  for (uint32_t b : order) {
    const ProfileBlockRow& block = run.profile_blocks[b];
    for (uint32_t i = 0; i < block.metric_count; ++i) {
      const uint32_t m = block.first_metric + i;
      const ProfileMetricRow& metric = run.profile_metrics[m];
      ProfilePhaseRow row;
      row.phase = block.phase;
      row.graph = block.graph;
      row.graph_name = block.graph_name;
      row.execution = block.execution;
      row.stage = metric.name;
      if (metric.parent) row.parent_stage = run.profile_metrics[*metric.parent].name;
      row.source = metric.source;
      row.value = metric.value;
      row.unit = metric.unit;
      row.timestamp_us = block.timestamp_us;
      row.block = b;
      row.metric = m;
      run.profile_phases.push_back(std::move(row));
    }
  }
}

}  // namespace htpscope
