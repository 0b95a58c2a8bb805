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
    const size_t runs = executions.size();
    // Each node of the first execution starts a series of cycles, found by
    // its key; a node met first in a later execution is never reported, so
    // it gets none.  A series holds its cold and warm cycles, and its steady
    // ones (executions 3..N) as (series, cycles) pairs in the order met:
    // memory in proportion to the profile's node lines, however many
    // executions there are.  A later execution mostly lists the nodes in the
    // first one's order: a node whose key is the one at its position there
    // takes that series without a lookup.
    const ProfileBlockRow& first_block = run.profile_blocks[executions[0]->block];
    absl::flat_hash_map<NodeKey, uint32_t> series_of;
    series_of.reserve(first_block.node_count);
    std::vector<NodeKey> key_at;                    // the first execution's node keys, by position
    std::vector<uint32_t> series_at;                // ... and their series
    std::vector<const ProfileNodeRow*> first_node;  // per series: the node that starts it
    std::vector<uint32_t> length;                   // per series: executions in it
    std::vector<int64_t> cold, warm;                // per series
    std::vector<std::pair<uint32_t, int64_t>> steady;
    key_at.reserve(first_block.node_count);
    series_at.reserve(first_block.node_count);
    for (size_t x = 0; x < runs; ++x) {
      const ProfileBlockRow& block = run.profile_blocks[executions[x]->block];
      for (uint32_t k = 0; k < block.node_count; ++k) {
        const ProfileNodeRow& node = run.profile_nodes[block.first_node + k];
        const NodeKey key = KeyOf(node);
        uint32_t series;
        if (x == 0) {
          auto [it, inserted] = series_of.try_emplace(key, static_cast<uint32_t>(length.size()));
          if (inserted) {
            first_node.push_back(&node);
            length.push_back(0);
            cold.push_back(0);
            warm.push_back(0);
          }
          series = it->second;
          key_at.push_back(key);
          series_at.push_back(series);
        } else if (k < key_at.size() && key_at[k] == key) {
          series = series_at[k];
        } else {
          auto it = series_of.find(key);
          if (it == series_of.end()) continue;
          series = it->second;
        }
        // Only a node present in every earlier execution extends its series.
        if (length[series] != x) continue;
        if (x == 0)
          cold[series] = node.cycles;
        else if (x == 1)
          warm[series] = node.cycles;
        else
          steady.emplace_back(series, node.cycles);
        ++length[series];
      }
    }
    // Each series' steady cycles together: its slice of `steady` once sorted.
    std::stable_sort(steady.begin(), steady.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<OpWarmup> rows;
    rows.reserve(first_node.size());
    std::vector<double> samples;
    size_t next_steady = 0;
    for (uint32_t s = 0; s < first_node.size(); ++s) {
      const ProfileNodeRow* node = first_node[s];
      OpWarmup w;
      w.graph = g;
      w.name = node->qnn_op_name.empty() ? node->label : node->qnn_op_name;
      w.op_id = node->op_id;
      w.executions = static_cast<int>(length[s]);
      w.cold_cycles = cold[s];
      if (length[s] >= 2) w.warm_cycles = warm[s];
      samples.clear();
      for (; next_steady < steady.size() && steady[next_steady].first == s; ++next_steady)
        samples.push_back(static_cast<double>(steady[next_steady].second));
      if (!samples.empty()) {
        auto stats = StatsOf(samples);  // in place: one sample for three executions
        if (stats) w.steady_median_cycles = stats->median;
        if (w.steady_median_cycles && *w.steady_median_cycles > 0)
          w.cold_over_steady = static_cast<double>(w.cold_cycles) / *w.steady_median_cycles;
      }
      rows.push_back(std::move(w));
    }
    // Sorted as (excess, row) pairs, the rows then moved once in that order.
    std::vector<std::pair<double, uint32_t>> order;
    order.reserve(rows.size());
    for (uint32_t i = 0; i < rows.size(); ++i) order.emplace_back(Excess(rows[i]), i);
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [excess, i] : order) out.push_back(std::move(rows[i]));
  }
  return out;
}

}  // namespace htpscope
