// Op groups over a dependency graph: a partition of its nodes into named
// groups (by QNN op, HTP op type or user groups) and what is asked of it —
// the tensors shared across groups, each op's predecessors by group, and the
// walk out of one group along chosen edge kinds.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/strings/string_view.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/dependency_graph.h"

namespace htpscope {

// A partition of the nodes into named groups.  `of_node[i]` indexes `names`.
struct NodeGroups {
  std::vector<std::string> names;  // in order of first appearance over the nodes
  std::vector<uint32_t> of_node;
  // name -> index into `names`; filled by GroupNodes (Find scans `names` when
  // a hand-built partition leaves it empty).
  absl::flat_hash_map<std::string, uint32_t> index;
  std::optional<uint32_t> Find(std::string_view name) const;
};
// Groups each node under `name_of(node)`: a std::string, or a
// std::string_view that outlives the call (no string is then built for a
// node whose group is known).
template <typename NameOf>
NodeGroups GroupNodes(const DependencyGraph& graph, NameOf&& name_of) {
  NodeGroups groups;
  groups.of_node.reserve(graph.nodes.size());
  // Groups are usually a few HTP ops each: room for that many, grown if not.
  groups.index.reserve(graph.nodes.size() / 2);
  for (const auto& n : graph.nodes) {
    const auto& name = name_of(n);
    const std::string_view view(name);
    // The nodes of one op group mostly follow one another (sorted by start):
    // the previous node's group is tried before the index.
    if (!groups.of_node.empty() && groups.names[groups.of_node.back()] == view) {
      groups.of_node.push_back(groups.of_node.back());
      continue;
    }
    // Found, or added, with one hash of the name.
    const absl::string_view key(view.data(), view.size());
    const auto it = groups.index.lazy_emplace(key, [&](const auto& construct) {
      construct(std::string(view), static_cast<uint32_t>(groups.names.size()));
      groups.names.emplace_back(view);
    });
    groups.of_node.push_back(it->second);
  }
  return groups;
}

// Walks the edges of `kinds` (DepEdgeKind bits) out of every node of group
// `from`, depth first.  `visit(w)` is called for each edge's target w not yet
// walked through and says whether to walk on from w (which is then never
// visited again).
template <typename Visit>
void WalkFromGroup(const DependencyGraph& graph, const NodeGroups& groups, uint32_t from,
                   uint8_t kinds, Visit visit) {
  std::vector<bool> seen(graph.nodes.size(), false);
  std::vector<uint32_t> stack;
  for (uint32_t v = 0; v < graph.nodes.size(); ++v)
    if (groups.of_node[v] == from) stack.push_back(v);
  while (!stack.empty()) {
    uint32_t v = stack.back();
    stack.pop_back();
    for (uint32_t e : graph.out_edges[v]) {
      if (!(graph.edges[e].kinds & kinds)) continue;
      uint32_t w = graph.edges[e].to;
      if (seen[w] || !visit(w)) continue;
      seen[w] = true;
      stack.push_back(w);
    }
  }
}

// A tensor (or op output) consumed by ops of more than one group other than
// its producer's: with a static tensor or a constant copy this is the
// signature of the compiler's constant de-duplication, which can tie branches
// meant to be independent to one buffer.
struct SharedTensor {
  uint64_t tensor = 0;
  TensorKind kind = TensorKind::kOther;
  std::string producer_group;                // "" when no op produces it
  std::vector<std::string> consumer_groups;  // sorted
  std::vector<uint64_t> consumer_ops;        // sorted
  bool constant() const { return kind == TensorKind::kStatic || kind == TensorKind::kConstantCopy; }
};
// Every such tensor, in tensor id order.
std::vector<SharedTensor> FindSharedTensors(const DependencyGraph& graph, const NodeGroups& groups);

// Predecessors of each node, grouped by the predecessor's group.
struct GroupedPredecessors {
  std::string group;
  std::vector<uint64_t> ops;  // predecessor op ids, sorted
};
// Node `node`'s predecessors (over every edge kind), one entry per group in
// group index order.
std::vector<GroupedPredecessors> PredecessorsByGroup(const DependencyGraph& graph,
                                                     const NodeGroups& groups, uint32_t node);

}  // namespace htpscope
