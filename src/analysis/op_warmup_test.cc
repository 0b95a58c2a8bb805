#include "analysis/op_warmup.h"

#include <gtest/gtest.h>

#include "base/corpus_test_util.h"
#include "formats/linting_example_test_util.h"

namespace htpscope {
namespace {

const OpWarmup* Find(const std::vector<OpWarmup>& rows, uint32_t graph, uint32_t op_id) {
  for (const auto& w : rows)
    if (w.graph == graph && w.op_id == op_id) return &w;
  return nullptr;
}

// qairt247_linting_two_graphs.csv: prefill runs twice (q_proj OpId_40:
// 12,000,000 then 9,000,000 cycles), decode three times (q_proj 3,000,000,
// 2,500,000, 2,400,000; Input 200,000 every time).
TEST(OpWarmup, TwoGraphProfilePerGraphColdWarmSteady) {
  htpscope::Run run =
      LoadRun({testing_support::ProfileTestdata("qairt247_linting_two_graphs.csv")});
  std::vector<OpWarmup> rows = ComputeOpWarmup(run);
  ASSERT_EQ(rows.size(), 7u);  // prefill: 4 nodes, decode: 3
  // Per graph, the op that spends most beyond its settled cycles comes first.
  EXPECT_EQ(rows[0].graph, 0u);
  EXPECT_EQ(rows[0].op_id, 40u);
  EXPECT_EQ(rows[0].cold_cycles, 12000000);
  EXPECT_EQ(rows[0].warm_cycles, 9000000);
  EXPECT_FALSE(rows[0].steady_median_cycles);  // two executions: no steady state
  EXPECT_FALSE(rows[0].cold_over_steady);
  const OpWarmup* q = Find(rows, 1, 40);
  ASSERT_TRUE(q);
  EXPECT_EQ(q, &rows[4]);  // decode's first row
  EXPECT_EQ(q->executions, 3);
  EXPECT_EQ(q->cold_cycles, 3000000);
  EXPECT_EQ(q->warm_cycles, 2500000);
  EXPECT_DOUBLE_EQ(q->steady_median_cycles.value_or(0), 2400000);
  EXPECT_DOUBLE_EQ(q->cold_over_steady.value_or(0), 1.25);
  const OpWarmup* input = Find(rows, 1, 2);
  ASSERT_TRUE(input);
  EXPECT_DOUBLE_EQ(input->cold_over_steady.value_or(0), 1.0);
}

TEST(OpWarmup, OneExecutionGivesNothing) {
  htpscope::Run run;
  run.graphs.push_back({});
  EXPECT_TRUE(ComputeOpWarmup(run).empty());
}

// The real v8c8 profile: bbb_indep0 (OpId_19) 87,938 → 9,978 → 8,678 cycles.
TEST(OpWarmup, CorpusV8c8ColdWarmSteady) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({testing_support::CorpusFile("v8c8_256", "profile_text.txt")});
  std::vector<OpWarmup> rows = ComputeOpWarmup(run);
  const OpWarmup* op = Find(rows, 0, 19);
  ASSERT_TRUE(op);
  EXPECT_EQ(op->name, "bbb_indep0");
  EXPECT_EQ(op->cold_cycles, 87938);
  EXPECT_EQ(op->warm_cycles, 9978);
  EXPECT_DOUBLE_EQ(op->steady_median_cycles.value_or(0), 8678);
  EXPECT_NEAR(op->cold_over_steady.value_or(0), 10.133, 0.001);
}

}  // namespace
}  // namespace htpscope
