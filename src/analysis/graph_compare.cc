#include "analysis/graph_compare.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <utility>

namespace htpscope {

DagComparison CompareWithExpected(const DependencyGraph& graph, const NodeGroups& groups,
                                  const std::vector<ExpectedEdge>& expected) {
  DagComparison cmp;
  std::set<std::string> named;
  for (const auto& e : expected) named.insert({e.from, e.to});
  std::set<uint32_t> named_groups;
  for (const auto& name : named) {
    auto gi = groups.Find(name);
    if (gi)
      named_groups.insert(*gi);
    else
      cmp.unknown_names.push_back(name);
  }
  // From each named group, walk through unnamed groups (and its own nodes)
  // and stop at the first named group met; once over data edges only, once
  // over every edge.
  auto actual = [&](uint8_t kinds) {
    std::set<std::pair<uint32_t, uint32_t>> found;
    for (uint32_t a : named_groups)
      WalkFromGroup(graph, groups, a, kinds, [&](uint32_t w) {
        uint32_t gw = groups.of_node[w];
        if (gw != a && named_groups.count(gw)) {
          found.insert({a, gw});
          return false;
        }
        return gw != a;  // own nodes are seeds already
      });
    return found;
  };
  auto data = actual(kDataEdges);
  auto all = actual(kAllEdges);
  std::set<std::pair<std::string, std::string>> expected_pairs;
  for (const auto& e : expected) {
    expected_pairs.insert({e.from, e.to});
    auto a = groups.Find(e.from), b = groups.Find(e.to);
    if (!a || !b || !all.count({*a, *b})) cmp.missing.push_back(e);
  }
  for (const auto& [a, b] : all) {
    GroupEdge ge{groups.names[a], groups.names[b], data.count({a, b}) > 0};
    if (expected_pairs.count({ge.from, ge.to}))
      cmp.matched.push_back(ge);
    else
      cmp.extra.push_back(ge);
  }
  auto by_name = [](const GroupEdge& x, const GroupEdge& y) {
    return std::tie(x.from, x.to) < std::tie(y.from, y.to);
  };
  std::sort(cmp.extra.begin(), cmp.extra.end(), by_name);
  std::sort(cmp.matched.begin(), cmp.matched.end(), by_name);
  return cmp;
}

}  // namespace htpscope
