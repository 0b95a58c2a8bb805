#include "analysis/op_rollup.h"

#include <gtest/gtest.h>

#include "model/fake_qhas_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::op_rollup_test {
namespace {

namespace ts = testing_support;

const OpRollupRow* FindRow(const Run& run, const OpRollup& r, const std::string& name) {
  for (const auto& row : r.ops)
    if (run.Str(row.name) == name) return &row;
  return nullptr;
}

// conv: a matmul on HMX (100 cycles, compute), a ForceFormat on HVX (100,
// staging) and its weights' DMA (40, dma); Input: an input slice moved by DMA
// (30) and its wait (20); sys: a sync op (10, other).
TEST(OpRollup, ComputeStagingDmaByHand) {
  htpscope::Run run = ts::FakeRun(
      ts::OptraceJson({{0x100000000001, "conv", "q::Conv", "uses_hmx", 256, 0, 100},
                       {0x100100000001, "conv", "q::ForceFormat_Crouton", "uses_hvx", 512, 50, 100},
                       {0x100200000001, "conv", "q::Conv.weights_to_vtcm", "dma", 256, 160, 40},
                       {0x100300000002, "Input", "q::*InputSlice", "dma", 256, 200, 30},
                       {0x100400000002, "Input", "q::*InputSlice", "dma_wait", 256, 230, 20},
                       {0x100500000003, "sys", "SyncOp", "sync", 256, 250, 10}}),
      "");
  OpRollup r = ComputeOpRollup(run);
  ASSERT_EQ(r.ops.size(), 3u);
  EXPECT_EQ(run.Str(r.ops[0].name), "conv");  // most work first
  EXPECT_EQ(r.ops[0].work[RollupClass::kCompute], 100);
  EXPECT_EQ(r.ops[0].work[RollupClass::kStaging], 100);
  EXPECT_EQ(r.ops[0].work[RollupClass::kDma], 40);
  EXPECT_EQ(r.ops[0].work[RollupClass::kOther], 0);
  EXPECT_EQ(r.ops[0].instances, 3);
  // DPC per class: the optrace's Dominant Path Cycles (= duration in the fake).
  EXPECT_EQ(r.ops[0].dpc[RollupClass::kStaging], 100);
  const OpRollupRow* input = FindRow(run, r, "Input");
  ASSERT_TRUE(input);
  EXPECT_EQ(input->work[RollupClass::kDma], 50);
  EXPECT_EQ(input->work[RollupClass::kStaging], 0);  // DMA comes before staging
  const OpRollupRow* sys = FindRow(run, r, "sys");
  ASSERT_TRUE(sys);
  EXPECT_EQ(sys->work[RollupClass::kOther], 10);
  EXPECT_EQ(r.total.work[RollupClass::kCompute], 100);
  EXPECT_EQ(r.total.work[RollupClass::kStaging], 100);
  EXPECT_EQ(r.total.work[RollupClass::kDma], 90);
  EXPECT_EQ(r.total.work[RollupClass::kOther], 10);
  EXPECT_EQ(r.total.work.Total(), *run.figures.work_cycles);
}

// QHAS's fmt_change marks a format change whatever its name.
TEST(OpRollup, QhasFormatChangeIsStaging) {
  ts::FakeQhasCore core{0, 500, 0, {{"HMX", 256, 300}, {"HVX", 512, 200}}, {}};
  ts::FakeQhasInstance mm{0x11, "q::MatMul", "mm", "hmx", 256, 0, 300, 300};
  ts::FakeQhasInstance relayout{0x12, "q::Relayout", "mm", "hvx", 512, 300, 200, 200};
  relayout.fmt_change = true;
  htpscope::Run run = ts::FakeRun("", "", ts::FakeQhasJson({core}, {mm, relayout}));
  OpRollup r = ComputeOpRollup(run);
  ASSERT_EQ(r.ops.size(), 1u);
  EXPECT_EQ(r.ops[0].work[RollupClass::kCompute], 300);
  EXPECT_EQ(r.ops[0].work[RollupClass::kStaging], 200);
}

// chain8_archive, by hand from its QHAS htp_op_instances (flags, fmt_change,
// HTP op names): compute 12,312 (ConvLayer_s1 on HMX), staging 29,862
// (ForceFormat_Crouton 24,061 + ForceFormat_Flat 5,801), DMA 26,191, other 261
// (SyncOp); MatMul_0: compute 4,095, staging 24,061, DMA 4,551.
TEST(OpRollup, CorpusChain8MatchesQhasByHand_SkipsWithoutCorpus) {
  HTPSCOPE_REQUIRE_CORPUS("chain8_archive");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("chain8_archive")});
  OpRollup r = ComputeOpRollup(run);
  EXPECT_EQ(r.total.work[RollupClass::kCompute], 12312);
  EXPECT_EQ(r.total.work[RollupClass::kStaging], 29862);
  EXPECT_EQ(r.total.work[RollupClass::kDma], 26191);
  EXPECT_EQ(r.total.work[RollupClass::kOther], 261);
  const OpRollupRow* mm = FindRow(run, r, "MatMul_0");
  ASSERT_TRUE(mm);
  EXPECT_EQ(mm->work[RollupClass::kCompute], 4095);
  EXPECT_EQ(mm->work[RollupClass::kStaging], 24061);
  EXPECT_EQ(mm->work[RollupClass::kDma], 4551);
}

}  // namespace
}  // namespace htpscope::op_rollup_test
