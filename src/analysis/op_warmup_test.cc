#include "analysis/op_warmup.h"

#include <gtest/gtest.h>

#include "base/corpus_test_util.h"
#include "formats/linting_example_test_util.h"

namespace htpscope::op_warmup_test {
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

// A profile node line: `op_id` (the n of OpId_n), its QNN op name or label.
ProfileNodeRow Node(std::optional<uint32_t> op_id, std::string name, std::string label,
                    int64_t cycles) {
  ProfileNodeRow n;
  n.op_id = op_id;
  n.qnn_op_name = std::move(name);
  n.label = std::move(label);
  n.cycles = cycles;
  return n;
}

// Appends an execution of graph 0 listing `nodes` to `run`.
void AddExecution(htpscope::Run& run, const std::vector<ProfileNodeRow>& nodes) {
  ProfileBlockRow block;
  block.first_node = static_cast<uint32_t>(run.profile_nodes.size());
  block.node_count = static_cast<uint32_t>(nodes.size());
  ExecutionRow e;
  e.block = static_cast<uint32_t>(run.profile_blocks.size());
  run.profile_blocks.push_back(block);
  run.executions.push_back(e);
  run.profile_nodes.insert(run.profile_nodes.end(), nodes.begin(), nodes.end());
}

// Expects `w` to be node `name` over `executions` executions with these
// cycles (nullopt: none).
void ExpectRow(const OpWarmup& w, const std::string& name, int executions, int64_t cold,
               std::optional<int64_t> warm, std::optional<double> steady_median) {
  SCOPED_TRACE(name);
  EXPECT_EQ(w.name, name);
  EXPECT_EQ(w.executions, executions);
  EXPECT_EQ(w.cold_cycles, cold);
  EXPECT_EQ(w.warm_cycles, warm);
  EXPECT_EQ(w.steady_median_cycles, steady_median);
}

// Executions that list their nodes in different orders, with a node the
// first execution lacks, one a later execution lacks, a node listed twice
// and one named only by its label; by hand:
//   a (OpId_1): 100, 40, 30, 50      -> steady median 40, excess 60
//   b ("b"):    500, 100, 400, 600   -> steady median 500, excess 0
//   c (OpId_3): 90, 30, (missing), 20 -> series stops at 2: excess 60 (warm 30)
//   d ("dlabel"): 70 (twice in exec 1: the first counts), 10, 10, 10 -> excess 60
//   e (OpId_9, exec 2 only): never reported.
TEST(OpWarmup, NodesInAnyOrderKeepTheirOwnSeries) {
  htpscope::Run run;
  run.graphs.push_back({});
  auto node = Node;
  for (const auto& nodes : std::vector<std::vector<ProfileNodeRow>>{
           {node(1, "a", "", 100), node({}, "b", "", 500), node(3, "c", "", 90),
            node({}, "", "dlabel", 70), node({}, "", "dlabel", 999)},
           {node(3, "c", "", 30), node(1, "a", "", 40), node(9, "e", "", 5), node({}, "b", "", 100),
            node({}, "", "dlabel", 10)},
           {node(1, "a", "", 30), node({}, "b", "", 400), node({}, "", "dlabel", 10)},
           {node(1, "a", "", 50), node({}, "b", "", 600), node(3, "c", "", 20),
            node({}, "", "dlabel", 10)},
       })
    AddExecution(run, nodes);
  const std::vector<OpWarmup> rows = ComputeOpWarmup(run);
  ASSERT_EQ(rows.size(), 4u);
  // Excess 60 three times (in the first execution's order), then b's 0.
  ExpectRow(rows[0], "a", 4, 100, 40, 40);
  EXPECT_DOUBLE_EQ(rows[0].cold_over_steady.value_or(0), 2.5);
  ExpectRow(rows[1], "c", 2, 90, 30, std::nullopt);
  ExpectRow(rows[2], "dlabel", 4, 70, 10, 10);
  ExpectRow(rows[3], "b", 4, 500, 100, 500);
}

// Many executions that list fewer nodes than the first: each node's series
// stops at its first gap.  a: 1000, then 2, 4, 6, ... in executions 2..60
// (steady = executions 3..60: 4..118, median 61); b only in the first two.
TEST(OpWarmup, ManyExecutionsOfFewNodes) {
  htpscope::Run run;
  run.graphs.push_back({});
  for (int x = 0; x < 60; ++x) {
    std::vector<ProfileNodeRow> nodes = {Node(1, "a", "", x == 0 ? 1000 : 2 * x)};
    if (x < 2) nodes.push_back(Node(2, "b", "", 7));
    AddExecution(run, nodes);
  }
  const std::vector<OpWarmup> rows = ComputeOpWarmup(run);
  ASSERT_EQ(rows.size(), 2u);
  ExpectRow(rows[0], "a", 60, 1000, 2, 61);
  ExpectRow(rows[1], "b", 2, 7, 7, std::nullopt);
}

}  // namespace
}  // namespace htpscope::op_warmup_test
