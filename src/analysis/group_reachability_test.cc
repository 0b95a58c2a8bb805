#include "analysis/group_reachability.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "analysis/dependency_graph_test_util.h"

namespace htpscope::group_reachability_test {
namespace {

// A graph of `n` nodes with the given edges (all data edges unless a kind
// is given) and a partition of its nodes.
struct SmallGraph {
  DependencyGraph graph;
  NodeGroups groups;
};

SmallGraph MakeGraph(size_t n, const std::vector<DepEdge>& edges,
                     const std::vector<uint32_t>& group_of_node, size_t n_groups) {
  SmallGraph s;
  s.graph.nodes.resize(n);
  s.graph.edges = edges;
  s.graph.IndexEdges();
  for (size_t g = 0; g < n_groups; ++g) s.groups.names.push_back("g" + std::to_string(g));
  s.groups.of_node = group_of_node;
  return s;
}

// The definition, walked plainly: a path of one or more edges from a node of
// `from` to a node of `to`.
bool ReachesByDefinition(const SmallGraph& s, uint32_t from, uint32_t to, uint8_t kinds) {
  const size_t n = s.graph.nodes.size();
  std::vector<bool> reached(n, false);
  std::vector<uint32_t> stack;
  for (uint32_t v = 0; v < n; ++v)
    if (s.groups.of_node[v] == from) stack.push_back(v);
  while (!stack.empty()) {
    uint32_t v = stack.back();
    stack.pop_back();
    for (uint32_t e : s.graph.out_edges[v]) {
      if (!(s.graph.edges[e].kinds & kinds)) continue;
      uint32_t w = s.graph.edges[e].to;
      if (reached[w]) continue;
      reached[w] = true;
      stack.push_back(w);
    }
  }
  for (uint32_t v = 0; v < n; ++v)
    if (reached[v] && s.groups.of_node[v] == to) return true;
  return false;
}

TEST(GroupReachability, ChainAndBranches) {
  // 0 -> 1 -> 3, 0 -> 2 -> 3; groups: {0}, {1}, {2}, {3}.
  SmallGraph s = MakeGraph(4,
                           {{0, 1, kEdgeGraphInput},
                            {1, 3, kEdgeGraphInput},
                            {0, 2, kEdgeGraphInput},
                            {2, 3, kEdgeGraphInput}},
                           {0, 1, 2, 3}, 4);
  GroupReachability reach(s.graph, s.groups, kDataEdges);
  EXPECT_TRUE(reach.Reaches(0, 3));
  EXPECT_TRUE(reach.Reaches(1, 3));
  EXPECT_FALSE(reach.Reaches(1, 2));
  EXPECT_FALSE(reach.Reaches(2, 1));
  EXPECT_FALSE(reach.Reaches(3, 0));
  EXPECT_FALSE(reach.Reaches(0, 0));  // no path back into its own group
}

TEST(GroupReachability, EdgeKindsOutsideTheQueryAreNotWalked) {
  SmallGraph s = MakeGraph(3, {{0, 1, kEdgeSequencerFlow}, {1, 2, kEdgeDataFlow}}, {0, 1, 2}, 3);
  GroupReachability data(s.graph, s.groups, kDataEdges);
  EXPECT_FALSE(data.Reaches(0, 2));
  EXPECT_TRUE(data.Reaches(1, 2));
  GroupReachability all(s.graph, s.groups, kAllEdges);
  EXPECT_TRUE(all.Reaches(0, 2));
}

TEST(GroupReachability, CyclesAndWhatFollowsThemAreStillReached) {
  // 0 -> 1 -> 2 -> 1 (a cycle), 2 -> 3; a group spanning the cycle.
  SmallGraph s = MakeGraph(5,
                           {{0, 1, kEdgeGraphInput},
                            {1, 2, kEdgeGraphInput},
                            {2, 1, kEdgeGraphInput},
                            {2, 3, kEdgeGraphInput}},
                           {0, 1, 1, 2, 3}, 4);
  GroupReachability reach(s.graph, s.groups, kDataEdges);
  EXPECT_TRUE(reach.Reaches(0, 2));
  EXPECT_TRUE(reach.Reaches(1, 1));  // through the cycle
  EXPECT_TRUE(reach.Reaches(1, 2));
  EXPECT_FALSE(reach.Reaches(2, 1));
  EXPECT_FALSE(reach.Reaches(3, 0));
}

// Every pair of every random graph, against the plain walk: the rank
// pruning must never hide a path.  Graphs of three kinds: every edge to a
// later node (ranked by index), acyclic in another order (some edges go to
// earlier nodes), and with cycles.
TEST(GroupReachability, AgreesWithThePlainWalkOnRandomGraphs) {
  std::mt19937 rng(17);
  size_t positives = 0, pairs = 0;
  for (int round = 0; round < 300; ++round) {
    const size_t n = 2 + rng() % 30, n_groups = 1 + rng() % n;
    const bool acyclic = round % 3 != 2, in_index_order = round % 3 == 0;
    std::vector<uint32_t> order(n);  // an acyclic graph's edges go forward in it
    for (uint32_t v = 0; v < n; ++v) order[v] = v;
    if (!in_index_order) std::shuffle(order.begin(), order.end(), rng);
    std::vector<DepEdge> edges;
    const size_t n_edges = rng() % (2 * n);
    for (size_t i = 0; i < n_edges; ++i) {
      uint32_t a = static_cast<uint32_t>(rng() % n), b = static_cast<uint32_t>(rng() % n);
      if (a == b) continue;
      if (acyclic && a > b) std::swap(a, b);
      if (acyclic) a = order[a], b = order[b];
      uint8_t kind = rng() % 4 == 0 ? kEdgeSequencerFlow : kEdgeGraphInput;
      edges.push_back({a, b, kind});
    }
    std::vector<uint32_t> group_of(n);
    for (auto& g : group_of) g = static_cast<uint32_t>(rng() % n_groups);
    SmallGraph s = MakeGraph(n, edges, group_of, n_groups);
    GroupReachability reach(s.graph, s.groups, kDataEdges);
    for (uint32_t a = 0; a < n_groups; ++a)
      for (uint32_t b = 0; b < n_groups; ++b) {
        bool expected = ReachesByDefinition(s, a, b, kDataEdges);
        ASSERT_EQ(reach.Reaches(a, b), expected) << "round " << round << " " << a << " -> " << b;
        positives += expected;
        ++pairs;
      }
  }
  // Both answers occur often enough for the comparison to mean something.
  EXPECT_GT(positives, pairs / 10);
  EXPECT_LT(positives, pairs * 9 / 10);
}

// Two branches fed by one input and read by one output, sharing a constant:
// data dependencies link the input to the output through both branches,
// never one branch to the other.
TEST(GroupReachability, TwoBranchesSharingOneConstantStayIndependent) {
  htpscope::Run run = testing_support::TwoBranchesSharingOneConstant();
  DependencyGraph g = BuildDependencyGraph(run);
  NodeGroups groups = testing_support::GroupsByQnnOp(g);
  GroupReachability reach(g, groups, kDataEdges);
  uint32_t in = *groups.Find("Input"), a = *groups.Find("branch_a"), b = *groups.Find("branch_b"),
           out = *groups.Find("Output");
  EXPECT_TRUE(reach.Reaches(in, out));
  EXPECT_TRUE(reach.Reaches(a, out));
  EXPECT_FALSE(reach.Reaches(a, b));
  EXPECT_FALSE(reach.Reaches(b, a));
  EXPECT_FALSE(reach.Reaches(out, in));
}

}  // namespace
}  // namespace htpscope::group_reachability_test
