#include "model/op_instance.h"

#include <gtest/gtest.h>

#include "formats/corpus_test_util.h"

namespace htpscope {
namespace {

TEST(ClassifyOp, DocumentedRules) {
  EXPECT_EQ(ClassifyOp("DmaCheckpointSet", "Input", kFlagDmaSet), OpCategory::kSystemService);
  // A dma_wait slice carries the type of the op it waits for.
  EXPECT_EQ(ClassifyOp("q::*InputSlice", "Input", kFlagDmaWait), OpCategory::kSystemService);
  EXPECT_EQ(ClassifyOp("SyncOp", "SystemService_ChunkPreload", kFlagSync),
            OpCategory::kSystemService);
  EXPECT_EQ(ClassifyOp("q::ConvLayer.opt.weights_to_vtcm", "FullyConnected", kFlagDma),
            OpCategory::kSystemService);
  EXPECT_EQ(ClassifyOp("DramToTcm", "", 0), OpCategory::kSystemService);
  EXPECT_EQ(ClassifyOp("q::*InputSlice", "Input", kFlagDma), OpCategory::kBoundary);
  EXPECT_EQ(ClassifyOp("q::ForceFormat_Crouton", "FullyConnected", kFlagUsesHvx),
            OpCategory::kBoundary);
  EXPECT_EQ(ClassifyOp("@Spill", "", 0), OpCategory::kBoundary);
  EXPECT_EQ(ClassifyOp("q::Concat", "", kFlagUsesHvx), OpCategory::kBoundary);
  EXPECT_EQ(ClassifyOp("q::flat_from_vtcm", "", 0), OpCategory::kBoundary);
  EXPECT_EQ(ClassifyOp("q::ConvLayer_s1.opt", "FullyConnected", kFlagUsesHmx),
            OpCategory::kCompute);
  EXPECT_EQ(ClassifyOp("GdnSolvePackage::GdnSolve", "GdnSolvePackage::GdnSolve", kFlagUsesHvx),
            OpCategory::kCompute);
}

TEST(OpInstances, GdnJoinsSlicesByIdWithThreadAggregateWork) {
  HTPSCOPE_REQUIRE_CORPUS("gdn_hvx_int16");
  Optrace t = ReadOptrace(testing_support::CorpusFile("gdn_hvx_int16", "chrometrace.json"));
  std::vector<std::string> warnings;
  auto ops = BuildOpInstances(t, &warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(ops.size(), 24u);
  const OpInstance* solve = nullptr;
  for (const auto& op : ops)
    if (op.op_id == 0x0000101a00000010u) solve = &op;
  ASSERT_NE(solve, nullptr);
  EXPECT_EQ(solve->slice_count, 6u);
  // 746569 + 623108 + 1447776 + 723563 + 613430 + 1010387
  EXPECT_EQ(solve->work_cycles, 5164833);
  EXPECT_EQ(solve->op_duration_cycles, 1010387);
  EXPECT_EQ(solve->dpc_cycles, 1010387);
  EXPECT_TRUE(solve->on_hvx_thread);
  EXPECT_FALSE(solve->on_hmx_thread);
  EXPECT_EQ(solve->category, OpCategory::kCompute);
  for (size_t i = 1; i < ops.size(); ++i)
    EXPECT_LE(ops[i - 1].first_start_cycles, ops[i].first_start_cycles);
}

}  // namespace
}  // namespace htpscope
