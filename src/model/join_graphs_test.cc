#include <gtest/gtest.h>

#include <stdexcept>

#include "base/errors.h"
#include "formats/linting_example_test_util.h"
#include "model/run.h"

namespace htpscope::join_graphs_test {
namespace {

// qairt247_linting_two_graphs.csv: executions prefill, decode, decode,
// prefill, decode (QNN accelerator µs 14,500 / 3,150 / 2,750 / 12,600 / 2,700).
std::string TwoGraphCsv() {
  return testing_support::ProfileTestdata("qairt247_linting_two_graphs.csv");
}

TEST(SelectGraph, KeepsOnlyTheNamedGraphsExecutionsInOrder) {
  LoadOptions options;
  options.graph = "model.decode";
  htpscope::Run run = LoadRun({TwoGraphCsv()}, options);
  ASSERT_EQ(run.graphs.size(), 1u);
  EXPECT_EQ(run.graphs[0].name, "model.decode");
  ASSERT_EQ(run.executions.size(), 3u);
  const double expected_us[] = {3150, 2750, 2700};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(run.executions[i].graph, 0u);
    EXPECT_DOUBLE_EQ(run.executions[i].qnn_accelerator_us.value_or(-1), expected_us[i]);
    // Blocks are renumbered and point back at their execution.
    EXPECT_EQ(run.profile_blocks[run.executions[i].block].execution, i);
  }
  EXPECT_TRUE(run.executions[0].cold);
  EXPECT_FALSE(run.executions[1].cold);
  for (const auto& node : run.profile_nodes) ASSERT_LT(node.block, run.profile_blocks.size());
}

TEST(SelectGraph, WithoutANameKeepsEveryGraph) {
  htpscope::Run run = LoadRun({TwoGraphCsv()});
  EXPECT_EQ(run.graphs.size(), 2u);
  EXPECT_EQ(run.executions.size(), 5u);
}

TEST(SelectGraph, UnknownNameListsTheGraphsThereAre) {
  LoadOptions options;
  options.graph = "model.encode";
  try {
    LoadRun({TwoGraphCsv()}, options);
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_EQ(e.role(), ValueRole::kGraphName);
    EXPECT_EQ(e.value(), "model.encode");
    EXPECT_EQ(e.problem(),
              "no graph named \"model.encode\" in the profile (graphs: model.prefill, "
              "model.decode)");
  }
}

}  // namespace
}  // namespace htpscope::join_graphs_test
