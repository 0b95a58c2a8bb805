#include "analysis/path_by_unit.h"

#include <gtest/gtest.h>

#include "model/fake_qhas_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::path_by_unit_test {
namespace {

namespace ts = testing_support;

const PathByUnitOp* FindOp(const Run& run, const PathByUnit& p, const std::string& name) {
  for (const auto& op : p.ops)
    if (run.Str(op.name) == name) return &op;
  return nullptr;
}

// One op of every kind, by hand (ts in cycles from the origin):
//   conv  q::Conv (hmx, tid 256)       [0, 100)   holds the path 0..100
//   conv  q::ForceFormat (hvx, 512)    [50, 150)  hidden by HMX until 100: 100..150
//   idle                                [150, 200)
//   Input q::*InputSlice (dma, 256)    [200, 230)
//   Input DmaCheckpointWait (dma_wait) [230, 250)
//   sys   SyncOp (sync)                [250, 260)
//   Output DmaCheckpointSet (dma_set)  [260, 265)
//   odd   q::Odd (no flag, tid 512)    [265, 280)
std::vector<ts::FakeSlice> EveryUnit() {
  return {{0x100000000001, "conv", "q::Conv", "uses_hmx", 256, 0, 100},
          {0x100100000001, "conv", "q::ForceFormat_Crouton", "uses_hvx", 512, 50, 100},
          {0x100200000002, "Input", "q::*InputSlice", "dma", 256, 200, 30},
          {0x100300000002, "Input", "DmaCheckpointWait", "dma_wait", 256, 230, 20},
          {0x100400000003, "sys", "SyncOp", "sync", 256, 250, 10},
          {0x100500000004, "Output", "DmaCheckpointSet", "dma_set", 256, 260, 5},
          {0x100600000005, "odd", "q::Odd", "", 512, 265, 15}};
}

TEST(PathByUnit, OptraceSplitSumsToThePathByHand) {
  htpscope::Run run = ts::FakeRun(ts::OptraceJson(EveryUnit()), "");
  auto p = ComputePathByUnit(run);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->source, Source::kReconstructed);
  EXPECT_EQ(p->total[PathUnit::kHmx], 100);
  EXPECT_EQ(p->total[PathUnit::kHvx], 50);
  EXPECT_EQ(p->total[PathUnit::kDma], 35);  // 30 transfer + 5 dma_set
  EXPECT_EQ(p->total[PathUnit::kDmaWait], 20);
  EXPECT_EQ(p->total[PathUnit::kSync], 10);
  EXPECT_EQ(p->total[PathUnit::kOther], 15);
  EXPECT_EQ(p->total[PathUnit::kIdle], 50);
  EXPECT_EQ(p->path_cycles, 280);  // = the wall, 0..280
  EXPECT_EQ(run.figures.graph_wall_cycles, 280);
  ASSERT_EQ(p->ops.size(), 5u);
  EXPECT_EQ(run.Str(p->ops[0].name), "conv");  // most path cycles first
  EXPECT_EQ(p->ops[0].path_cycles, 150);
  EXPECT_EQ(p->ops[0].cycles[PathUnit::kHmx], 100);
  EXPECT_EQ(p->ops[0].cycles[PathUnit::kHvx], 50);
  const PathByUnitOp* input = FindOp(run, *p, "Input");
  ASSERT_TRUE(input);
  EXPECT_EQ(input->cycles[PathUnit::kDma], 30);
  EXPECT_EQ(input->cycles[PathUnit::kDmaWait], 20);
  EXPECT_EQ(input->path_cycles, 50);
  EXPECT_EQ(input->cycles[PathUnit::kIdle], 0);
}

TEST(PathByUnit, FlagPriorityHmxHvxDmaWaitSync) {
  EXPECT_EQ(PathUnitOfFlags(kFlagUsesHmx | kFlagDma), PathUnit::kHmx);
  EXPECT_EQ(PathUnitOfFlags(kFlagUsesHvx | kFlagDmaWait), PathUnit::kHvx);
  EXPECT_EQ(PathUnitOfFlags(kFlagDmaSet), PathUnit::kDma);
  EXPECT_EQ(PathUnitOfFlags(kFlagDmaWait | kFlagSync), PathUnit::kDmaWait);
  EXPECT_EQ(PathUnitOfFlags(kFlagSync), PathUnit::kSync);
  EXPECT_EQ(PathUnitOfFlags(0), PathUnit::kOther);
  EXPECT_STREQ(PathUnitName(PathUnit::kDmaWait), "dma_wait");
}

// Without an optrace the split reads QHAS's own path; a path row whose op the
// lists lack counts as "other" under the unnamed op.
TEST(PathByUnit, QhasPathJoinedWithItsInstanceFlags) {
  ts::FakeQhasCore core;
  core.timeline_cycles = 1000;
  core.resources = {{"HMX", 256, 700}, {"HVX", 512, 200}};
  core.path = {
      {0x11, 0, 600}, {0x12, 600, 800}, {0x13, 800, 900}, {0x99, 900, 950}, {0, 950, 1000}};
  std::vector<ts::FakeQhasInstance> rows = {
      {0x11, "q::MatMul", "mm", "hmx", 256, 0, 600, 600},
      {0x12, "q::Softmax", "sm", "hvx", 512, 600, 200, 200},
      {0x13, "q::*InputSlice", "sm", "dma_wait", 256, 800, 100, 100}};
  htpscope::Run run = ts::FakeRun("", "", ts::FakeQhasJson({core}, rows));
  auto p = ComputePathByUnit(run);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->source, Source::kQhas);
  EXPECT_EQ(p->path_cycles, 1000);
  EXPECT_EQ(p->total[PathUnit::kHmx], 600);
  EXPECT_EQ(p->total[PathUnit::kHvx], 200);
  EXPECT_EQ(p->total[PathUnit::kDmaWait], 100);
  EXPECT_EQ(p->total[PathUnit::kOther], 50);  // 0x99: not in htp_op_instances
  EXPECT_EQ(p->total[PathUnit::kIdle], 50);
  const PathByUnitOp* sm = FindOp(run, *p, "sm");
  ASSERT_TRUE(sm);
  EXPECT_EQ(sm->path_cycles, 300);
  const PathByUnitOp* unlisted = FindOp(run, *p, "");
  ASSERT_TRUE(unlisted);
  EXPECT_EQ(unlisted->cycles[PathUnit::kOther], 50);
}

TEST(PathByUnit, NoPathWithoutOptraceOrQhasPath) {
  htpscope::Run run =
      ts::FakeRun("", "", ts::FakeQhasJson({{0, 100, 0, {{"HMX", 256, 50}}, {}}}, {}));
  EXPECT_FALSE(ComputePathByUnit(run));
}

// v8c8_256: the split of the path recomputed from the optrace equals the one
// computed by hand from QHAS's dominant_path_htp_0 joined with its
// htp_op_instances flags (a script over the JSON): HMX 145,106, HVX 19,953,
// DMA 18,251, DMA wait 200, sync 18, idle 3,119 = 186,647 cycles.
TEST(PathByUnit, CorpusV8c8MatchesQhasByHand_SkipsWithoutCorpus) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("v8c8_256")});
  auto p = ComputePathByUnit(run);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->source, Source::kReconstructed);
  EXPECT_EQ(p->path_cycles, 186647);
  EXPECT_EQ(p->total[PathUnit::kHmx], 145106);
  EXPECT_EQ(p->total[PathUnit::kHvx], 19953);
  EXPECT_EQ(p->total[PathUnit::kDma], 18251);
  EXPECT_EQ(p->total[PathUnit::kDmaWait], 200);
  EXPECT_EQ(p->total[PathUnit::kSync], 18);
  EXPECT_EQ(p->total[PathUnit::kOther], 0);
  EXPECT_EQ(p->total[PathUnit::kIdle], 3119);
  ASSERT_FALSE(p->ops.empty());
  EXPECT_EQ(run.Str(p->ops[0].name), "bbb_indep0");
  EXPECT_EQ(p->ops[0].cycles[PathUnit::kHmx], 87938);
  const PathByUnitOp* input = FindOp(run, *p, "Input");
  ASSERT_TRUE(input);
  EXPECT_EQ(input->cycles[PathUnit::kDma], 6439);
  EXPECT_EQ(input->cycles[PathUnit::kDmaWait], 200);
  EXPECT_EQ(input->cycles[PathUnit::kHvx], 16921);
}

}  // namespace
}  // namespace htpscope::path_by_unit_test
