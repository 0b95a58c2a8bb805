#include "analysis/group_reachability.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>

namespace htpscope {
namespace {

constexpr uint32_t kUnranked = std::numeric_limits<uint32_t>::max();

}  // namespace

GroupReachability::GroupReachability(const DependencyGraph& graph, const NodeGroups& groups,
                                     uint8_t kinds)
    : graph_(graph), groups_(groups), kinds_(kinds) {
  const size_t n = graph.nodes.size();
  // Ready nodes leave in index order (nodes are sorted by start cycle), so
  // ranks follow execution time and groups that ran close together are
  // close in rank.  When every edge goes to a later index (a producer
  // starts before its consumers, as it does in a trace) that order is the
  // index order itself, with no queue.
  bool forward = true;
  for (const auto& e : graph.edges) forward = forward && (!(e.kinds & kinds) || e.from < e.to);
  if (forward) {
    rank_.resize(n);
    for (uint32_t v = 0; v < n; ++v) rank_[v] = v;
  } else {
    std::vector<uint32_t> in_degree(n, 0);
    for (const auto& e : graph.edges)
      if (e.kinds & kinds) ++in_degree[e.to];
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
    for (uint32_t v = 0; v < n; ++v)
      if (in_degree[v] == 0) ready.push(v);
    rank_.assign(n, kUnranked);
    uint32_t next_rank = 0;
    while (!ready.empty()) {
      uint32_t v = ready.top();
      ready.pop();
      rank_[v] = next_rank++;
      for (uint32_t e : graph.out_edges[v]) {
        if (!(graph.edges[e].kinds & kinds)) continue;
        if (--in_degree[graph.edges[e].to] == 0) ready.push(graph.edges[e].to);
      }
    }
  }
  members_.resize(groups.names.size());
  max_rank_.assign(groups.names.size(), 0);
  for (uint32_t v = 0; v < n; ++v) {
    uint32_t g = groups.of_node[v];
    members_[g].push_back(v);
    max_rank_[g] = std::max(max_rank_[g], rank_[v]);
  }
  seen_.assign(n, 0);
}

bool GroupReachability::Reaches(uint32_t from_group, uint32_t to_group) {
  if (members_[to_group].empty()) return false;
  const uint32_t limit = max_rank_[to_group];
  if (++stamp_ == 0) {  // wrapped: forget every earlier walk
    std::fill(seen_.begin(), seen_.end(), 0);
    stamp_ = 1;
  }
  // Seeds are not "reached" themselves: only edge targets are.
  stack_.assign(members_[from_group].begin(), members_[from_group].end());
  while (!stack_.empty()) {
    uint32_t v = stack_.back();
    stack_.pop_back();
    for (uint32_t e : graph_.out_edges[v]) {
      if (!(graph_.edges[e].kinds & kinds_)) continue;
      uint32_t w = graph_.edges[e].to;
      if (seen_[w] == stamp_) continue;
      seen_[w] = stamp_;
      if (groups_.of_node[w] == to_group) return true;
      // Every path out of w climbs in rank: past the target's last node it
      // cannot come back to it.
      if (rank_[w] > limit) continue;
      stack_.push_back(w);
    }
  }
  return false;
}

}  // namespace htpscope
