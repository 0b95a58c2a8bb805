#include "analysis/op_steady_state.h"

#include <gtest/gtest.h>

#include "formats/qnn_net_run_test_util.h"

namespace htpscope::op_steady_state_test {
namespace {

// Expects `op` to be `name` with these figures (worked out by hand).
void ExpectOp(const OpSteadyState& op, std::string_view name, uint32_t op_id, int64_t cold,
              double median, double min, double max, double mad, int n) {
  SCOPED_TRACE(std::string(name));
  EXPECT_EQ(op.name, name);
  EXPECT_EQ(op.op_id, op_id);
  EXPECT_EQ(op.cold_cycles, cold);
  EXPECT_DOUBLE_EQ(op.steady_median_cycles.value_or(-1), median);
  EXPECT_DOUBLE_EQ(op.steady_min_cycles.value_or(-1), min);
  EXPECT_DOUBLE_EQ(op.steady_max_cycles.value_or(-1), max);
  EXPECT_DOUBLE_EQ(op.steady_mad_cycles.value_or(-1), mad);
  EXPECT_EQ(op.steady_executions, n);
}

// netrun_phases.csv (qnn_net_run_test_util.h): the FINALIZE row is no
// execution, so the cold one is the first EXECUTE.
TEST(OpSteadyState, NetRunCsvColdAndSteadyByHand) {
  htpscope::Run run = LoadRun({testing_support::ProfileTestdata("netrun_phases.csv")});
  ASSERT_EQ(run.executions.size(), 4u);
  EXPECT_DOUBLE_EQ(SteadyAcceleratorCycles(run, 0).value_or(0), 200);
  std::vector<OpSteadyState> ops = ComputeOpSteadyState(run);
  ASSERT_EQ(ops.size(), 3u);
  ExpectOp(ops[0], "a", 10, 500, 100, 90, 120, 10, 3);
  ExpectOp(ops[1], "b", 11, 100, 80, 60, 90, 10, 3);
  ExpectOp(ops[2], "c", 12, 50, 20, 20, 20, 0, 3);
  EXPECT_DOUBLE_EQ(ops[0].steady_share.value_or(0), 0.5);
  EXPECT_DOUBLE_EQ(ops[1].steady_share.value_or(0), 0.4);
  EXPECT_DOUBLE_EQ(ops[2].steady_share.value_or(0), 0.1);
  EXPECT_TRUE(ops[0].in_cold);
}

ProfileNodeRow Node(std::optional<uint32_t> op_id, std::string name, int64_t cycles) {
  ProfileNodeRow n;
  n.op_id = op_id;
  n.qnn_op_name = name;
  n.label = op_id ? name + ":OpId_" + std::to_string(*op_id) : name;
  n.cycles = cycles;
  return n;
}

void AddExecution(Run& run, uint32_t graph, std::optional<int64_t> accelerator_cycles,
                  const std::vector<ProfileNodeRow>& nodes) {
  ProfileBlockRow block;
  block.first_node = static_cast<uint32_t>(run.profile_nodes.size());
  block.node_count = static_cast<uint32_t>(nodes.size());
  ExecutionRow e;
  e.graph = graph;
  e.accelerator_cycles = accelerator_cycles;
  e.block = static_cast<uint32_t>(run.profile_blocks.size());
  run.profile_blocks.push_back(block);
  run.executions.push_back(e);
  for (ProfileNodeRow n : nodes) {
    n.block = e.block;
    run.profile_nodes.push_back(std::move(n));
  }
}

// Ops missing from some executions, one only in the steady state, one only
// in the cold execution, two graphs; by hand:
//   graph 0: x (OpId_1): cold 10, steady 30, 50        -> median 40, MAD 10
//            y (OpId_2): absent cold, steady 70         -> cold 0, median 70
//            z ("z", no id): cold 99 only                -> no steady state, last
//            accelerator cycles steady 100, 200 -> median 150: x 40/150, y 70/150
//   graph 1: w (OpId_1): cold 5, steady 6, 6, 9 -> median 6, MAD 0, no share (no cycles)
TEST(OpSteadyState, MissingOpsAndGraphsByHand) {
  htpscope::Run run;
  run.graphs.resize(2);
  AddExecution(run, 0, 1000, {Node(1, "x", 10), Node({}, "z", 99)});
  AddExecution(run, 1, std::nullopt, {Node(1, "w", 5)});
  AddExecution(run, 0, 100, {Node(1, "x", 30)});
  AddExecution(run, 0, 200, {Node(2, "y", 70), Node(1, "x", 50)});
  for (int64_t c : {6, 6, 9}) AddExecution(run, 1, std::nullopt, {Node(1, "w", c)});
  std::vector<OpSteadyState> ops = ComputeOpSteadyState(run);
  ASSERT_EQ(ops.size(), 4u);
  ExpectOp(ops[0], "y", 2, 0, 70, 70, 70, 0, 1);
  EXPECT_FALSE(ops[0].in_cold);
  EXPECT_NEAR(ops[0].steady_share.value_or(0), 70.0 / 150, 1e-12);
  ExpectOp(ops[1], "x", 1, 10, 40, 30, 50, 10, 2);
  EXPECT_NEAR(ops[1].steady_share.value_or(0), 40.0 / 150, 1e-12);
  EXPECT_EQ(ops[2].name, "z");
  EXPECT_EQ(ops[2].cold_cycles, 99);
  EXPECT_FALSE(ops[2].steady_median_cycles);
  EXPECT_EQ(ops[2].steady_executions, 0);
  EXPECT_EQ(ops[3].graph, 1u);
  ExpectOp(ops[3], "w", 1, 5, 6, 6, 9, 0, 3);
  EXPECT_FALSE(ops[3].steady_share);
}

TEST(OpSteadyState, NoNodesNoRows) {
  htpscope::Run run;
  run.graphs.resize(1);
  AddExecution(run, 0, 10, {});
  EXPECT_TRUE(ComputeOpSteadyState(run).empty());
}

// The real QAIRT 2.47 pair; figures worked out from the CSV with a short
// script (the executions opened by the NETRUN EXECUTE rows, each op's
// SUB-EVENT cycles over executions 2..10).
TEST(OpSteadyState, CorpusQnnNetRunPrefillTopOpsSkipsWithoutCorpus) {
  HTPSCOPE_REQUIRE_QNN_NET_RUN_CORPUS();
  htpscope::Run run = LoadRun({testing_support::QnnNetRunCsv("prefill")});
  ASSERT_EQ(run.executions.size(), 10u);
  EXPECT_DOUBLE_EQ(SteadyAcceleratorCycles(run, 0).value_or(0), 360575);
  std::vector<OpSteadyState> ops = ComputeOpSteadyState(run);
  ASSERT_EQ(ops.size(), 70u);
  ExpectOp(ops[0], "_MatMul_3", 113, 179542, 60482, 44474, 77371, 5590, 9);
  ExpectOp(ops[1], "_Mul_11", 118, 30495, 54050, 14035, 73202, 16387, 9);
  ExpectOp(ops[2], "_Mul_15", 167, 59877, 39476, 36073, 65003, 1279, 9);
  ExpectOp(ops[3], "_Where", 123, 19951, 25606, 13508, 35505, 6117, 9);
  ExpectOp(ops[4], "_Mul_16", 174, 52310, 24992, 23693, 33376, 573, 9);
  EXPECT_NEAR(ops[0].steady_share.value_or(0), 60482.0 / 360575, 1e-12);
}

TEST(OpSteadyState, CorpusQnnNetRunDecodeTopOpsSkipsWithoutCorpus) {
  HTPSCOPE_REQUIRE_QNN_NET_RUN_CORPUS();
  htpscope::Run run = LoadRun({testing_support::QnnNetRunCsv("decode")});
  ASSERT_EQ(run.executions.size(), 10u);
  EXPECT_DOUBLE_EQ(SteadyAcceleratorCycles(run, 0).value_or(0), 149241);
  std::vector<OpSteadyState> ops = ComputeOpSteadyState(run);
  ASSERT_EQ(ops.size(), 66u);
  ExpectOp(ops[0], "_Transpose_3", 119, 17358, 13807, 12093, 16923, 1627, 9);
  ExpectOp(ops[1], "_Mul_3", 61, 6987, 9166, 3740, 10975, 666, 9);
  ExpectOp(ops[2], "_Mul_6", 70, 5639, 8452, 3734, 10942, 1327, 9);
  ExpectOp(ops[3], "rms_norm__Mul_2_output_0", 24, 33581, 7772, 4441, 12155, 2202, 9);
}

}  // namespace
}  // namespace htpscope::op_steady_state_test
