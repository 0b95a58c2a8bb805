#include "analysis/op_groups.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/dependency_graph_test_util.h"
#include "base/corpus_test_util.h"
#include "model/run.h"

namespace htpscope::op_groups_test {
namespace {

using testing_support::GroupsByQnnOp;
using testing_support::TwoBranchesSharingOneConstant;

using namespace testing_support::two_branches;  // kInput, kBranchA, ... of the graph

TEST(OpGroups, TwoBranchesReadTheInputAndOneConstant) {
  htpscope::Run run = TwoBranchesSharingOneConstant();
  DependencyGraph g = BuildDependencyGraph(run);
  NodeGroups groups = GroupsByQnnOp(g);
  auto shared = FindSharedTensors(g, groups);
  ASSERT_EQ(shared.size(), 2u);  // by tensor id
  EXPECT_EQ(shared[1].tensor, kZeros);
  EXPECT_TRUE(shared[1].constant());
  EXPECT_EQ(shared[1].producer_group, "");
  EXPECT_EQ(shared[1].consumer_groups, (std::vector<std::string>{"branch_a", "branch_b"}));
  EXPECT_EQ(shared[1].consumer_ops, (std::vector<uint64_t>{kBranchA, kBranchB}));
  // The input feeds both branches too: an activation read by two groups is
  // listed, but it is no constant.
  EXPECT_EQ(shared[0].tensor, kInput);
  EXPECT_EQ(shared[0].kind, TensorKind::kActivation);
  EXPECT_EQ(shared[0].producer_group, "Input");
  EXPECT_FALSE(shared[0].constant());

  auto preds = PredecessorsByGroup(g, groups, g.index.at(kOutput));
  ASSERT_EQ(preds.size(), 2u);
  EXPECT_EQ(preds[0].group, "branch_a");
  EXPECT_EQ(preds[0].ops, (std::vector<uint64_t>{kBranchA}));
}

TEST(OpGroupsCorpus, NativeMatmulsShareDeduplicatedStaticTensors) {
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("native_256")});
  DependencyGraph g = BuildDependencyGraph(run);
  EXPECT_EQ(g.graph_nodes, 64u);
  EXPECT_EQ(g.flows_unmatched, 0u);
  NodeGroups groups = GroupsByQnnOp(g);
  auto shared = FindSharedTensors(g, groups);
  std::vector<uint64_t> constants;
  for (const auto& s : shared)
    if (s.constant()) {
      constants.push_back(s.tensor);
      EXPECT_EQ(s.consumer_groups.size(), 8u);
      EXPECT_EQ(s.consumer_groups.front(), "MatMul_0");
      EXPECT_EQ(s.kind, TensorKind::kStatic);
    }
  EXPECT_EQ(constants, (std::vector<uint64_t>{0x0000100200000008, 0x0000126300000019}));
  // $Shape tensors read by Input and Output slices are listed, not flagged.
  const DepTensor* shape = g.FindTensor(0x0000100382d28377);
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape->kind, TensorKind::kShape);
}

TEST(OpGroupsCorpus, V8c8WeightsCopiedOnceForEightMatmuls) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("v8c8_256")});
  DependencyGraph g = BuildDependencyGraph(run);
  EXPECT_EQ(g.nodes.size(), 53u);   // 26 graph nodes + 27 executed ops the graph lacks
  EXPECT_EQ(g.flows_matched, 72u);  // 92 arrows, 20 of them from tid-1 tensors
  NodeGroups groups = GroupsByQnnOp(g);
  auto shared = FindSharedTensors(g, groups);
  int copies = 0;
  for (const auto& s : shared)
    if (s.kind == TensorKind::kConstantCopy) {
      ++copies;
      EXPECT_EQ(s.consumer_groups.size(), 8u);
      EXPECT_TRUE(s.producer_group == "$Const_11" || s.producer_group == "$Const_12");
    }
  EXPECT_EQ(copies, 2);
}

// A hand-built partition (no index) is searched by name all the same.
TEST(OpGroups, FindWithAndWithoutTheIndex) {
  htpscope::Run run = TwoBranchesSharingOneConstant();
  DependencyGraph g = BuildDependencyGraph(run);
  NodeGroups groups = GroupsByQnnOp(g);
  ASSERT_EQ(groups.names, (std::vector<std::string>{"Input", "branch_a", "branch_b", "Output"}));
  EXPECT_EQ(groups.Find("branch_b"), 2u);
  EXPECT_EQ(groups.Find("nobody"), std::nullopt);
  NodeGroups by_hand;
  by_hand.names = {"x", "y"};
  by_hand.of_node = {0, 1, 1, 0};
  EXPECT_EQ(by_hand.Find("y"), 1u);
  EXPECT_EQ(by_hand.Find("z"), std::nullopt);
}

// The walk out of a group follows only the edge kinds asked for, visits each
// node once, and goes on only from the nodes `visit` accepts.
TEST(OpGroups, WalkFromGroupFollowsTheKindsAskedFor) {
  DependencyGraph g;
  g.nodes.resize(5);
  // 0 -> 1 -> 2 -> 3 by data, 0 -> 4 by sequencer order only, 1 -> 3 too.
  g.edges = {{0, 1, kEdgeGraphInput},
             {0, 4, kEdgeSequencerFlow},
             {1, 2, kEdgeDataFlow},
             {1, 3, kEdgeTraceInput},
             {2, 3, kEdgeGraphInput}};
  g.IndexEdges();
  NodeGroups groups;
  groups.names = {"a", "b", "c"};
  groups.of_node = {0, 1, 1, 2, 2};
  auto walk = [&](uint8_t kinds, auto stop_at) {
    std::vector<uint32_t> visited;
    WalkFromGroup(g, groups, 0, kinds, [&](uint32_t w) {
      visited.push_back(w);
      return w != stop_at;
    });
    std::sort(visited.begin(), visited.end());
    return visited;
  };
  EXPECT_EQ(walk(kDataEdges, UINT32_MAX), (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(walk(kAllEdges, UINT32_MAX), (std::vector<uint32_t>{1, 2, 3, 4}));
  EXPECT_EQ(walk(kEdgeSequencerFlow, UINT32_MAX), (std::vector<uint32_t>{4}));
  // Not walking on from node 1: its targets are never offered.
  EXPECT_EQ(walk(kDataEdges, 1u), (std::vector<uint32_t>{1}));
}

}  // namespace
}  // namespace htpscope::op_groups_test
