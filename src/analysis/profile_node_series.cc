#include "analysis/profile_node_series.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <utility>

#include "base/sort_util.h"
#include "base/text_util.h"

namespace htpscope {
namespace {

// The key of a node across executions: its op ID when printed, else its
// name (a view into the run's node row).
using NodeKey = std::pair<int64_t, std::string_view>;
NodeKey KeyOf(const ProfileNodeRow& node) {
  if (node.op_id) return {*node.op_id, {}};
  return {-1, node.qnn_op_name.empty() ? node.label : node.qnn_op_name};
}

}  // namespace

GraphNodeSeries CollectNodeSeries(const Run& run, uint32_t graph) {
  GraphNodeSeries out;
  for (const auto& e : run.executions)  // executions built by hand may have no block
    if (e.graph == graph && e.block < run.profile_blocks.size()) out.executions.push_back(&e);
  if (out.executions.empty()) return out;
  // A later execution mostly lists the nodes in the first one's order: a
  // node whose key is the one at its position there takes that series
  // without a lookup.
  const ProfileBlockRow& first_block = run.profile_blocks[out.executions[0]->block];
  absl::flat_hash_map<NodeKey, uint32_t> series_of;
  series_of.reserve(first_block.node_count);
  std::vector<NodeKey> key_at;           // the first execution's node keys, by position
  std::vector<uint32_t> series_at;       // ... and their series
  std::vector<uint32_t> last_execution;  // per series: the last execution it got a sample from + 1
  key_at.reserve(first_block.node_count);
  series_at.reserve(first_block.node_count);
  size_t lines = 0;
  for (const ExecutionRow* e : out.executions) lines += run.profile_blocks[e->block].node_count;
  out.samples.reserve(lines);
  bool in_order = true;  // samples already by series then execution
  for (uint32_t x = 0; x < out.executions.size(); ++x) {
    const ProfileBlockRow& block = run.profile_blocks[out.executions[x]->block];
    for (uint32_t k = 0; k < block.node_count; ++k) {
      const ProfileNodeRow& node = run.profile_nodes[block.first_node + k];
      const NodeKey key = KeyOf(node);
      uint32_t series;
      if (x > 0 && k < key_at.size() && key_at[k] == key) {
        series = series_at[k];
      } else {
        auto [it, inserted] =
            series_of.try_emplace(key, static_cast<uint32_t>(out.first_node.size()));
        if (inserted) {
          out.first_node.push_back(&node);
          last_execution.push_back(0);
        }
        series = it->second;
        if (x == 0) {
          key_at.push_back(key);
          series_at.push_back(series);
        }
      }
      if (last_execution[series] == x + 1) continue;  // listed twice in this execution
      last_execution[series] = x + 1;
      if (!out.samples.empty() && x > 0) in_order = false;
      out.samples.push_back({series, x, node.cycles});
    }
  }
  if (!in_order)
    StableRadixSort(out.samples, [](const NodeSample& sample) { return sample.series; });
  return out;
}

std::vector<GraphNodeSeries> CollectNodeSeriesOfGraphs(const Run& run) {
  std::vector<GraphNodeSeries> out;
  out.reserve(run.graphs.size());
  for (uint32_t g = 0; g < run.graphs.size(); ++g) out.push_back(CollectNodeSeries(run, g));
  return out;
}

std::string_view FirstSourceOp(std::optional<std::string_view> source_ops) {
  if (!source_ops) return {};
  return Trim(source_ops->substr(0, source_ops->find(';')));
}

}  // namespace htpscope
