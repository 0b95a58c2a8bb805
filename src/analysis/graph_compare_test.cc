#include "analysis/graph_compare.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/dependency_graph_test_util.h"
#include "base/corpus_test_util.h"
#include "formats/expected_dag.h"
#include "model/run.h"

namespace htpscope::graph_compare_test {
namespace {

using testing_support::GroupsByQnnOp;
using testing_support::TwoBranchesSharingOneConstant;

TEST(GraphCompare, ExpectedDagMissingExtraAndUnknown) {
  htpscope::Run run = TwoBranchesSharingOneConstant();
  DependencyGraph g = BuildDependencyGraph(run);
  NodeGroups groups = GroupsByQnnOp(g);
  auto expected = ParseExpectedDag("expect.txt",
                                   "# the intended DAG\n"
                                   "Input -> branch_a\n"
                                   "\n"
                                   "branch_a -> Output   # trailing comment\n"
                                   "branch_a -> branch_b\n"
                                   "ghost -> Output\n");
  ASSERT_EQ(expected.size(), 4u);
  EXPECT_EQ(expected[2].line, 5);
  DagComparison c = CompareWithExpected(g, groups, expected);
  // Missing: branch_a -> branch_b (no such dependency) and ghost -> Output.
  ASSERT_EQ(c.missing.size(), 2u);
  EXPECT_EQ(c.missing[0].from, "branch_a");
  EXPECT_EQ(c.missing[0].to, "branch_b");
  EXPECT_EQ(c.unknown_names, (std::vector<std::string>{"ghost"}));
  // Extra: Input -> branch_b and branch_b -> Output.
  ASSERT_EQ(c.extra.size(), 2u);
  EXPECT_EQ(c.extra[0].from, "Input");
  EXPECT_EQ(c.extra[0].to, "branch_b");
  EXPECT_TRUE(c.extra[0].data);
  EXPECT_EQ(c.extra[1].from, "branch_b");
  EXPECT_EQ(c.matched.size(), 2u);

  // Unnamed groups are transparent: Input -> Output through the branches.
  auto through = CompareWithExpected(g, groups, ParseExpectedDag("e", "Input -> Output"));
  EXPECT_TRUE(through.missing.empty());
  EXPECT_TRUE(through.extra.empty());
}

TEST(GraphCompareCorpus, Chain8ExpectedChainMatches) {
  HTPSCOPE_REQUIRE_CORPUS("chain8_archive");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("chain8_archive")});
  DependencyGraph g = BuildDependencyGraph(run);
  NodeGroups groups = GroupsByQnnOp(g);
  std::string dag = "Input -> MatMul_0\n";
  for (int i = 0; i < 7; ++i) dag += fmt::format("MatMul_{} -> MatMul_{}\n", i, i + 1);
  dag += "MatMul_7 -> Output\n";
  DagComparison c = CompareWithExpected(g, groups, ParseExpectedDag("chain.txt", dag));
  EXPECT_TRUE(c.missing.empty());
  EXPECT_TRUE(c.unknown_names.empty());
  EXPECT_EQ(c.matched.size(), 9u);
  EXPECT_TRUE(c.extra.empty());
  // Claiming the matmuls independent shows the chain as extra edges.
  DagComparison flat = CompareWithExpected(
      g, groups, ParseExpectedDag("flat.txt", "Input -> MatMul_0\nInput -> MatMul_1\n"));
  ASSERT_EQ(flat.missing.size(), 1u);  // Input -> MatMul_1 only through MatMul_0
  EXPECT_EQ(flat.missing[0].to, "MatMul_1");
  ASSERT_EQ(flat.extra.size(), 1u);
  EXPECT_EQ(flat.extra[0].from, "MatMul_0");
  EXPECT_EQ(flat.extra[0].to, "MatMul_1");
}

}  // namespace
}  // namespace htpscope::graph_compare_test
