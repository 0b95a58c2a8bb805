#include "analysis/critical_path.h"

#include <gtest/gtest.h>

#include "base/corpus_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::critical_path_test {
namespace {

using testing_support::FakeRun;
using testing_support::FakeSlice;
using testing_support::kFakeOrigin;
using testing_support::OptraceJson;

constexpr uint64_t kInput = 0x0000000100000002;
constexpr uint64_t kBranchA = 0x0000000200000010;
constexpr uint64_t kBranchB = 0x0000000300000020;
constexpr uint64_t kOutput = 0x0000000400000003;
constexpr uint64_t kZeros = 0x0000100200000008;

// Branch B waits for branch A although it needs only the shared constant:
// the false dependency de-duplication creates, visible as A in B's inputs.
Run SerializedBranches() {
  return FakeRun(
      OptraceJson({
          {kInput, "Input", "q::*InputSlice", "dma", 256, 0, 100},
          {kBranchA, "branch_a", "q::Conv", "uses_hvx", 512, 100, 400, {kInput, kZeros}},
          {kBranchB, "branch_b", "q::Conv", "uses_hvx", 513, 500, 300, {kInput, kZeros, kBranchA}},
          {kOutput, "Output", "q::*OutputSlice", "dma", 256, 800, 50, {kBranchA, kBranchB}},
      }),
      "");
}

TEST(CriticalPath, LongestPathByMeasuredDurationsAndWhatIf) {
  htpscope::Run run = SerializedBranches();
  DependencyGraph g = BuildDependencyGraph(run);
  NodeGroups groups = GroupNodes(g, [](const DepNode& n) { return std::string(n.qnn_op_name); });
  CriticalPath p = LongestPath(g, groups, kAllEdges);
  EXPECT_EQ(p.length_cycles, 100 + 400 + 300 + 50);
  std::vector<uint64_t> ids;
  for (uint32_t n : p.nodes) ids.push_back(g.nodes[n].id);
  EXPECT_EQ(ids, (std::vector<uint64_t>{kInput, kBranchA, kBranchB, kOutput}));
  EXPECT_FALSE(p.cycle_broken);
  // Without A -> B the branches are independent: Input, A, Output.
  uint32_t a = *groups.Find("branch_a"), b = *groups.Find("branch_b");
  CriticalPath what_if = LongestPath(g, groups, kAllEdges, {{a, b}});
  EXPECT_EQ(what_if.dropped_edges, 1u);
  EXPECT_EQ(what_if.length_cycles, 100 + 400 + 50);
  // Dropping an edge that does not exist changes nothing.
  CriticalPath none = LongestPath(g, groups, kAllEdges, {{b, a}});
  EXPECT_EQ(none.dropped_edges, 0u);
  EXPECT_EQ(none.length_cycles, p.length_cycles);
}

TEST(CriticalPath, CycleInTheEdgesIsBrokenByTimeOrder) {
  // A lists B and B lists A: impossible, but the tool must not loop.
  htpscope::Run run = FakeRun(OptraceJson({
                                  {kBranchA, "a", "q::Conv", "uses_hvx", 512, 0, 10, {kBranchB}},
                                  {kBranchB, "b", "q::Conv", "uses_hvx", 512, 10, 20, {kBranchA}},
                              }),
                              "");
  DependencyGraph g = BuildDependencyGraph(run);
  NodeGroups groups = GroupNodes(g, [](const DepNode& n) { return std::string(n.qnn_op_name); });
  CriticalPath p = LongestPath(g, groups, kAllEdges);
  EXPECT_TRUE(p.cycle_broken);
  EXPECT_EQ(p.length_cycles, 30);  // a (starts first) then b
}

TEST(CriticalPathCorpus, Chain8FollowsTheMatmulChain) {
  HTPSCOPE_REQUIRE_CORPUS("chain8_archive");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("chain8_archive")});
  DependencyGraph g = BuildDependencyGraph(run);
  NodeGroups groups = GroupNodes(g, [](const DepNode& n) { return std::string(n.qnn_op_name); });
  CriticalPath p = LongestPath(g, groups, kAllEdges);
  // Input slice 3,394 + Crouton 24,061 + MatMul_0..7 (4,095 1,181 1,178 1,170
  // 1,172 1,179 1,168 1,169) + Flat 5,801 + output slice 3,062.
  EXPECT_EQ(p.length_cycles, 48630);
  ASSERT_EQ(p.nodes.size(), 12u);
  EXPECT_EQ(g.nodes[p.nodes.front()].id, 0x0000125500000002u);
  EXPECT_EQ(g.nodes[p.nodes[1]].htp_op_type, "q::ForceFormat_Crouton");
  EXPECT_EQ(g.nodes[p.nodes.back()].id, 0x0000120d00000003u);
  // Without MatMul_3 -> MatMul_4 the chain splits; the longer half remains.
  CriticalPath cut =
      LongestPath(g, groups, kAllEdges, {{*groups.Find("MatMul_3"), *groups.Find("MatMul_4")}});
  EXPECT_EQ(cut.dropped_edges, 1u);
  EXPECT_EQ(cut.length_cycles, 3394 + 24061 + 4095 + 1181 + 1178 + 1170);
}

}  // namespace
}  // namespace htpscope::critical_path_test
