#include "analysis/op_groups.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "base/sort_util.h"

namespace htpscope {

std::optional<uint32_t> NodeGroups::Find(std::string_view name) const {
  if (!index.empty()) {
    auto it = index.find(absl::string_view(name.data(), name.size()));
    if (it == index.end()) return std::nullopt;
    return it->second;
  }
  for (uint32_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return i;
  return std::nullopt;
}

std::vector<SharedTensor> FindSharedTensors(const DependencyGraph& graph,
                                            const NodeGroups& groups) {
  std::vector<SharedTensor> out;
  for (const auto& t : graph.tensors) {
    std::optional<uint32_t> producer_group;
    if (t.producer) producer_group = groups.of_node[*t.producer];
    std::set<uint32_t> consumer_groups;
    for (uint32_t c : t.consumers)
      if (groups.of_node[c] != producer_group) consumer_groups.insert(groups.of_node[c]);
    if (consumer_groups.size() < 2) continue;
    SharedTensor s;
    s.tensor = t.id;
    s.kind = t.kind;
    if (producer_group) s.producer_group = groups.names[*producer_group];
    for (uint32_t gi : consumer_groups) s.consumer_groups.push_back(groups.names[gi]);
    std::sort(s.consumer_groups.begin(), s.consumer_groups.end());
    for (uint32_t c : t.consumers)
      if (groups.of_node[c] != producer_group) s.consumer_ops.push_back(graph.nodes[c].id);
    SortUnique(s.consumer_ops);
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<GroupedPredecessors> PredecessorsByGroup(const DependencyGraph& graph,
                                                     const NodeGroups& groups, uint32_t node) {
  std::map<uint32_t, std::vector<uint64_t>> by_group;
  for (uint32_t e : graph.in_edges[node]) {
    uint32_t from = graph.edges[e].from;
    by_group[groups.of_node[from]].push_back(graph.nodes[from].id);
  }
  std::vector<GroupedPredecessors> out;
  for (auto& [gi, ids] : by_group) {
    SortUnique(ids);
    out.push_back({groups.names[gi], std::move(ids)});
  }
  return out;
}

}  // namespace htpscope
