#include "analysis/critical_path.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace htpscope {

CriticalPath LongestPath(const DependencyGraph& graph, const NodeGroups& groups, uint8_t kinds,
                         const std::vector<std::pair<uint32_t, uint32_t>>& dropped) {
  CriticalPath path;
  path.kinds = kinds;
  const size_t n = graph.nodes.size();
  std::set<std::pair<uint32_t, uint32_t>> drop(dropped.begin(), dropped.end());
  std::vector<bool> use(graph.edges.size(), false);
  for (uint32_t e = 0; e < graph.edges.size(); ++e) {
    const DepEdge& edge = graph.edges[e];
    if (!(edge.kinds & kinds)) continue;
    if (drop.count({groups.of_node[edge.from], groups.of_node[edge.to]})) {
      ++path.dropped_edges;
      continue;
    }
    use[e] = true;
  }
  // Kahn's topological order.
  std::vector<int> indegree(n, 0);
  for (uint32_t e = 0; e < graph.edges.size(); ++e)
    if (use[e]) ++indegree[graph.edges[e].to];
  std::vector<uint32_t> order, ready;
  for (uint32_t v = 0; v < n; ++v)
    if (indegree[v] == 0) ready.push_back(v);
  while (!ready.empty()) {
    uint32_t v = ready.back();
    ready.pop_back();
    order.push_back(v);
    for (uint32_t e : graph.out_edges[v])
      if (use[e] && --indegree[graph.edges[e].to] == 0) ready.push_back(graph.edges[e].to);
  }
  if (order.size() != n) {
    // A cycle: keep only the edges that go forward in node order (by start
    // cycle), which the execution itself proves possible.
    path.cycle_broken = true;
    order.clear();
    for (uint32_t v = 0; v < n; ++v) order.push_back(v);
    for (uint32_t e = 0; e < graph.edges.size(); ++e)
      if (graph.edges[e].from >= graph.edges[e].to) use[e] = false;
  }
  std::vector<int64_t> dist(n, 0);
  std::vector<int64_t> via(n, -1);
  for (uint32_t v : order) {
    int64_t best = 0;
    for (uint32_t e : graph.in_edges[v]) {  // ascending predecessor index: ties keep the first
      if (!use[e]) continue;
      uint32_t u = graph.edges[e].from;
      if (via[v] < 0 || dist[u] > best) {
        best = dist[u];
        via[v] = u;
      }
    }
    dist[v] = best + graph.nodes[v].duration_cycles;
  }
  int64_t end = -1;
  for (uint32_t v = 0; v < n; ++v)
    if (end < 0 || dist[v] > dist[end]) end = v;
  if (end < 0) return path;
  path.length_cycles = dist[end];
  for (int64_t v = end; v >= 0; v = via[v]) path.nodes.push_back(static_cast<uint32_t>(v));
  std::reverse(path.nodes.begin(), path.nodes.end());
  return path;
}

}  // namespace htpscope
