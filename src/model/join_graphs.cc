// Choosing one graph of a multi-graph profile (--graph NAME): the profile's
// tables keep that graph's executions, the blocks that belong to them, and
// the statistics blocks that name that graph or none.
#include <fmt/format.h>

#include "base/errors.h"
#include "model/join.h"

namespace htpscope {

void SelectGraph(Run& run, const std::string& name) {
  std::optional<uint32_t> chosen;
  std::vector<std::string> names;
  for (uint32_t g = 0; g < run.graphs.size(); ++g) {
    names.push_back(run.graphs[g].name);
    if (run.graphs[g].name == name) chosen = g;
  }
  if (!chosen)
    throw ValueError(
        ValueRole::kGraphName, name,
        fmt::format("no graph named \"{}\" in the profile ({})", name,
                    names.empty() ? "it names no graph"
                                  : fmt::format("graphs: {}", fmt::join(names, ", "))));
  run.profile_graph_selected = run.graphs.size() > 1;
  // Which blocks stay: executions of the chosen graph, and statistics blocks
  // whose graph label names it (or names no graph).
  std::vector<bool> keep(run.profile_blocks.size(), false);
  for (uint32_t b = 0; b < run.profile_blocks.size(); ++b) {
    const ProfileBlockRow& block = run.profile_blocks[b];
    if (block.execution)
      keep[b] = run.executions[*block.execution].graph == *chosen;
    else if (block.graph)
      keep[b] = *block.graph == *chosen;
    else
      keep[b] = block.graph_name.empty() || block.graph_name.find(name) != std::string::npos;
  }
  Run kept_rows;  // the kept rows, renumbered
  std::vector<uint32_t> new_block(run.profile_blocks.size(), UINT32_MAX);
  for (uint32_t b = 0; b < run.profile_blocks.size(); ++b) {
    if (!keep[b]) continue;
    ProfileBlockRow block = run.profile_blocks[b];
    new_block[b] = static_cast<uint32_t>(kept_rows.profile_blocks.size());
    block.first_node = static_cast<uint32_t>(kept_rows.profile_nodes.size());
    for (uint32_t i = 0; i < block.node_count; ++i) {
      kept_rows.profile_nodes.push_back(run.profile_nodes[run.profile_blocks[b].first_node + i]);
      kept_rows.profile_nodes.back().block = new_block[b];
    }
    block.first_metric = static_cast<uint32_t>(kept_rows.profile_metrics.size());
    const uint32_t old_first_metric = run.profile_blocks[b].first_metric;
    for (uint32_t i = 0; i < block.metric_count; ++i) {
      kept_rows.profile_metrics.push_back(run.profile_metrics[old_first_metric + i]);
      ProfileMetricRow& metric = kept_rows.profile_metrics.back();
      metric.block = new_block[b];
      // A parent is a metric of the same block: it moves with it.
      if (metric.parent) *metric.parent = *metric.parent - old_first_metric + block.first_metric;
    }
    block.execution.reset();
    if (block.graph)
      block.graph = *block.graph == *chosen ? std::optional<uint32_t>(0) : std::nullopt;
    kept_rows.profile_blocks.push_back(std::move(block));
  }
  for (const ExecutionRow& e : run.executions) {
    if (e.graph != *chosen) continue;
    ExecutionRow row = e;
    row.graph = 0;
    row.block = new_block[e.block];
    kept_rows.profile_blocks[row.block].execution =
        static_cast<uint32_t>(kept_rows.executions.size());
    kept_rows.executions.push_back(row);
  }
  run.graphs = {run.graphs[*chosen]};
  run.executions = std::move(kept_rows.executions);
  run.profile_blocks = std::move(kept_rows.profile_blocks);
  run.profile_nodes = std::move(kept_rows.profile_nodes);
  run.profile_metrics = std::move(kept_rows.profile_metrics);
}

}  // namespace htpscope
