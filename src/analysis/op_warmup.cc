#include "analysis/op_warmup.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <string_view>
#include <utility>

#include "analysis/statistics.h"

namespace htpscope {
namespace {

// The key of a node across executions: its op ID when printed, else its
// name (a view into the run's node row).
using NodeKey = std::pair<int64_t, std::string_view>;
NodeKey KeyOf(const ProfileNodeRow& node) {
  if (node.op_id) return {*node.op_id, {}};
  return {-1, node.qnn_op_name.empty() ? node.label : node.qnn_op_name};
}

double Excess(const OpWarmup& w) {
  const double settled = w.steady_median_cycles ? *w.steady_median_cycles
                                                : static_cast<double>(w.warm_cycles.value_or(0));
  return static_cast<double>(w.cold_cycles) - settled;
}

}  // namespace

std::vector<OpWarmup> ComputeOpWarmup(const Run& run) {
  std::vector<OpWarmup> out;
  for (uint32_t g = 0; g < run.graphs.size(); ++g) {
    // Each execution's cycles per node, in execution order.
    std::vector<const ExecutionRow*> executions;
    for (const auto& e : run.executions)  // executions built by hand may have no block
      if (e.graph == g && e.block < run.profile_blocks.size()) executions.push_back(&e);
    if (executions.size() < 2) continue;
    // Each node's series of cycles, by first appearance; the nodes of the
    // first execution in its order.
    absl::flat_hash_map<NodeKey, uint32_t> series_of;
    std::vector<std::vector<int64_t>> series_by_node;
    std::vector<std::pair<uint32_t, const ProfileNodeRow*>> first_nodes;
    for (size_t x = 0; x < executions.size(); ++x) {
      const ProfileBlockRow& block = run.profile_blocks[executions[x]->block];
      if (x == 0) series_of.reserve(block.node_count);
      for (uint32_t i = block.first_node; i < block.first_node + block.node_count; ++i) {
        const ProfileNodeRow& node = run.profile_nodes[i];
        auto [it, inserted] =
            series_of.try_emplace(KeyOf(node), static_cast<uint32_t>(series_by_node.size()));
        if (inserted) {
          series_by_node.emplace_back();
          if (x == 0) first_nodes.emplace_back(it->second, &node);
        }
        std::vector<int64_t>& series = series_by_node[it->second];
        // Only a node present in every earlier execution extends its series.
        if (series.size() == x) series.push_back(node.cycles);
      }
    }
    const size_t begin = out.size();
    for (const auto& [index, node] : first_nodes) {
      const std::vector<int64_t>& series = series_by_node[index];
      OpWarmup w;
      w.graph = g;
      w.name = node->qnn_op_name.empty() ? node->label : node->qnn_op_name;
      w.op_id = node->op_id;
      w.executions = static_cast<int>(series.size());
      w.cold_cycles = series[0];
      if (series.size() >= 2) w.warm_cycles = series[1];
      if (series.size() >= 3) {
        auto stats = ComputeStats(std::vector<double>(series.begin() + 2, series.end()));
        if (stats) w.steady_median_cycles = stats->median;
        if (w.steady_median_cycles && *w.steady_median_cycles > 0)
          w.cold_over_steady = static_cast<double>(w.cold_cycles) / *w.steady_median_cycles;
      }
      out.push_back(std::move(w));
    }
    std::stable_sort(out.begin() + static_cast<std::ptrdiff_t>(begin), out.end(),
                     [](const OpWarmup& a, const OpWarmup& b) { return Excess(a) > Excess(b); });
  }
  return out;
}

}  // namespace htpscope
