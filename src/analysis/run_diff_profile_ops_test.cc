// The diff's per-op comparison of the profile's per-node cycles, with noise
// from the executions themselves.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "analysis/run_diff.h"
#include "base/corpus_test_util.h"
#include "formats/qnn_net_run_test_util.h"

namespace htpscope::run_diff_profile_ops_test {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void Replace(std::string& text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
}

const ProfileOpDelta* FindOp(const RunDiff& d, std::string_view name) {
  for (const auto& op : d.profile_ops)
    if (op.name == name) return &op;
  return nullptr;
}

// B is netrun_phases.csv with op a's steady cycles tripled (100, 120, 90 ->
// 300, 360, 270).  By hand: a's steady medians 100 -> 300 (+200); MADs 10
// and 30, so the noise bound is 3 × 1.4826 × √(10² + 30²) = 140.65 cycles:
// outside it.  b and c are unchanged (0 within noise); cold cycles equal.
TEST(DiffProfileOps, SteadyChangeOutsideTheExecutionsNoise) {
  std::string b_text = ReadFile(testing_support::ProfileTestdata("netrun_phases.csv"));
  Replace(b_text, "5000,EXECUTE,100,CYCLES,BACKEND,SUB-EVENT,a:OpId_10",
          "5000,EXECUTE,300,CYCLES,BACKEND,SUB-EVENT,a:OpId_10");
  Replace(b_text, "6000,EXECUTE,120,CYCLES,BACKEND,SUB-EVENT,a:OpId_10",
          "6000,EXECUTE,360,CYCLES,BACKEND,SUB-EVENT,a:OpId_10");
  Replace(b_text, "7000,EXECUTE,90,CYCLES,BACKEND,SUB-EVENT,a:OpId_10",
          "7000,EXECUTE,270,CYCLES,BACKEND,SUB-EVENT,a:OpId_10");
  const std::string dir = testing_support::TempDir("diff_profile_ops");
  const std::string b_path = dir + "/b.csv";
  std::ofstream(b_path) << b_text;
  std::vector<RunFacts> a = {
      CollectRunFacts(LoadRun({testing_support::ProfileTestdata("netrun_phases.csv")}))};
  std::vector<RunFacts> b = {CollectRunFacts(LoadRun({b_path}))};
  RunDiff d = DiffRuns(a, b);
  ASSERT_EQ(d.profile_ops.size(), 3u);
  const ProfileOpDelta& op = d.profile_ops[0];
  EXPECT_EQ(op.name, "a");
  EXPECT_EQ(op.status, OpMatch::kMatched);
  EXPECT_EQ(op.a_op_id, 10u);
  EXPECT_DOUBLE_EQ(op.steady_cycles.a_value().value_or(0), 100);
  EXPECT_DOUBLE_EQ(op.steady_cycles.b_value().value_or(0), 300);
  EXPECT_DOUBLE_EQ(op.steady_change_cycles().value_or(0), 200);
  EXPECT_NEAR(op.steady_cycles.noise_bound.value_or(0), 3 * 1.4826 * std::sqrt(100.0 + 900.0),
              1e-9);
  EXPECT_FALSE(op.steady_cycles.within_noise);
  EXPECT_DOUBLE_EQ(op.cold_cycles.change.value_or(-1), 0);
  // Ties at no change by name.
  EXPECT_EQ(d.profile_ops[1].name, "b");
  EXPECT_TRUE(d.profile_ops[1].steady_cycles.within_noise);
  EXPECT_EQ(d.profile_ops[2].name, "c");

  // A gate on the profile op's steady cycles fails; one on b passes.
  std::vector<GateSubject> subjects = GateSubjects(d);
  GateResult fail = EvaluateGate(ParseGate("profile_op:a:steady_cycles>+50%"), subjects);
  EXPECT_TRUE(fail.evaluated);
  EXPECT_FALSE(fail.passed);
  GateResult pass = EvaluateGate(ParseGate("profile_op:b:steady_cycles>+50%"), subjects);
  EXPECT_TRUE(pass.passed);
}

// Added and removed ops count whole.
TEST(DiffProfileOps, AddedAndRemovedCountWhole) {
  std::vector<RunFacts> a = {
      CollectRunFacts(LoadRun({testing_support::ProfileTestdata("netrun_phases.csv")}))};
  LoadOptions decode;
  decode.graph = "d";
  std::vector<RunFacts> b = {CollectRunFacts(
      LoadRun({testing_support::ProfileTestdata("netrun_two_graphs.csv")}, decode))};
  RunDiff d = DiffRuns(a, b);
  // A: a 100, b 80, c 20 (steady medians); B (graph d): x 7, z 3.
  ASSERT_EQ(d.profile_ops.size(), 5u);
  EXPECT_EQ(d.profile_ops[0].name, "a");
  EXPECT_EQ(d.profile_ops[0].status, OpMatch::kRemoved);
  EXPECT_DOUBLE_EQ(d.profile_ops[0].steady_change_cycles().value_or(0), -100);
  const ProfileOpDelta* x = FindOp(d, "x");
  ASSERT_TRUE(x);
  EXPECT_EQ(x->status, OpMatch::kAdded);
  EXPECT_DOUBLE_EQ(x->steady_change_cycles().value_or(0), 7);
}

// The real pair, prefill (A) against decode (B), figures worked out from
// the CSVs: 61 ops matched by name, 9 only in prefill, 5 only in decode;
// the largest steady-median changes _Mul_11 54,050 -> 0 (inside its noise
// of 72,886 cycles: its executions spread widely), _MatMul_3 60,482 ->
// 7,492 (-52,990, noise 24,916: a real change), _Mul_15 39,476 -> 6,647.
TEST(DiffProfileOps, CorpusPrefillVersusDecodeSkipsWithoutCorpus) {
  HTPSCOPE_REQUIRE_QNN_NET_RUN_CORPUS();
  std::vector<RunFacts> a = {CollectRunFacts(LoadRun({testing_support::QnnNetRunCsv("prefill")}))};
  std::vector<RunFacts> b = {CollectRunFacts(LoadRun({testing_support::QnnNetRunCsv("decode")}))};
  RunDiff d = DiffRuns(a, b);
  int matched = 0, added = 0, removed = 0;
  for (const auto& op : d.profile_ops) {
    matched += op.status == OpMatch::kMatched;
    added += op.status == OpMatch::kAdded;
    removed += op.status == OpMatch::kRemoved;
  }
  EXPECT_EQ(matched, 61);
  EXPECT_EQ(removed, 9);
  EXPECT_EQ(added, 5);
  ASSERT_GE(d.profile_ops.size(), 3u);
  EXPECT_EQ(d.profile_ops[0].name, "_Mul_11");
  EXPECT_DOUBLE_EQ(d.profile_ops[0].steady_change_cycles().value_or(0), -54050);
  EXPECT_TRUE(d.profile_ops[0].steady_cycles.within_noise);
  EXPECT_EQ(d.profile_ops[1].name, "_MatMul_3");
  EXPECT_DOUBLE_EQ(d.profile_ops[1].steady_change_cycles().value_or(0), -52990);
  EXPECT_NEAR(d.profile_ops[1].steady_cycles.noise_bound.value_or(0), 24915.86, 0.01);
  EXPECT_FALSE(d.profile_ops[1].steady_cycles.within_noise);
  EXPECT_EQ(d.profile_ops[2].name, "_Mul_15");
  EXPECT_DOUBLE_EQ(d.profile_ops[2].steady_change_cycles().value_or(0), -32829);
}

}  // namespace
}  // namespace htpscope::run_diff_profile_ops_test
