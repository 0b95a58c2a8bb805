#include "model/op_instance.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

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

// A trace big enough that the ID sort runs on two cores, with each op's
// slices scattered over both halves, joined as a plain map join would:
// every field, the order (first start, then ID), and the count of slices
// that disagree with their op's first slice.
TEST(OpInstances, ScatteredSlicesOfALargeTraceJoinAsAMapJoinDoes) {
  Optrace t;
  std::mt19937_64 random(7);
  constexpr uint32_t kSlices = 90000, kOps = 30000;
  for (uint32_t i = 0; i < kSlices; ++i) {
    OpSlice s;
    const uint64_t op = random() % kOps;
    s.op_id = (op + 0x1000) << 32 | (op % 97);
    s.start_cycles = static_cast<int64_t>(random() % 1000000);
    s.dur_cycles = static_cast<int64_t>(random() % 500);
    s.op_start_cycles = static_cast<int64_t>(op * 10);
    s.op_duration_cycles = 5;
    s.dpc_cycles = random() % 50 == 0 ? 1 : 2;  // some slices disagree
    s.tid = random() % 2 ? 256 : 512;
    s.flags = static_cast<uint8_t>(1u << (random() % 3));
    t.slices.push_back(s);
  }
  struct Expected {
    OpInstance op;
    bool seen = false;
  };
  std::map<uint64_t, Expected> joined;
  size_t disagreeing = 0;
  for (uint32_t i = 0; i < kSlices; ++i) {
    const OpSlice& s = t.slices[i];
    Expected& e = joined[s.op_id];
    if (!e.seen) {
      e.seen = true;
      e.op.op_id = s.op_id;
      e.op.op_start_cycles = s.op_start_cycles;
      e.op.op_duration_cycles = s.op_duration_cycles;
      e.op.dpc_cycles = s.dpc_cycles;
      e.op.first_start_cycles = s.start_cycles;
      e.op.last_end_cycles = s.end_cycles();
      e.op.first_slice = i;
    } else if (s.dpc_cycles != e.op.dpc_cycles) {
      ++disagreeing;
    }
    e.op.work_cycles += s.dur_cycles;
    e.op.first_start_cycles = std::min(e.op.first_start_cycles, s.start_cycles);
    e.op.last_end_cycles = std::max(e.op.last_end_cycles, s.end_cycles());
    e.op.flags |= s.flags;
    ++e.op.slice_count;
    e.op.on_hmx_thread = e.op.on_hmx_thread || s.tid == 256;
    e.op.on_hvx_thread = e.op.on_hvx_thread || s.tid == 512;
  }
  std::vector<OpInstance> expected;
  for (const auto& [id, e] : joined) expected.push_back(e.op);
  std::sort(expected.begin(), expected.end(), [](const OpInstance& a, const OpInstance& b) {
    return std::pair(a.first_start_cycles, a.op_id) < std::pair(b.first_start_cycles, b.op_id);
  });
  ASSERT_GT(disagreeing, 0u);

  std::vector<std::string> warnings;
  const std::vector<OpInstance> ops = BuildOpInstances(t, &warnings);
  ASSERT_EQ(ops.size(), expected.size());
  for (size_t k = 0; k < ops.size(); ++k) {
    SCOPED_TRACE(k);
    const OpInstance &a = ops[k], &b = expected[k];
    ASSERT_EQ(a.op_id, b.op_id);
    EXPECT_EQ(a.first_slice, b.first_slice);
    EXPECT_EQ(a.slice_count, b.slice_count);
    EXPECT_EQ(a.work_cycles, b.work_cycles);
    EXPECT_EQ(a.first_start_cycles, b.first_start_cycles);
    EXPECT_EQ(a.last_end_cycles, b.last_end_cycles);
    EXPECT_EQ(a.dpc_cycles, b.dpc_cycles);
    EXPECT_EQ(a.op_start_cycles, b.op_start_cycles);
    EXPECT_EQ(a.flags, b.flags);
    EXPECT_EQ(a.on_hmx_thread, b.on_hmx_thread);
    EXPECT_EQ(a.on_hvx_thread, b.on_hvx_thread);
  }
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].rfind(std::to_string(disagreeing) + " slices disagree", 0), 0u)
      << warnings[0];
}

}  // namespace
}  // namespace htpscope
