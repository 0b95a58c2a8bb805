#include "analysis/critical_path.h"

#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "analysis/fake_trace_test_util.h"
#include "formats/corpus_test_util.h"

namespace htpscope {
namespace {

using testing_support::FakeRun;
using testing_support::FakeSlice;
using testing_support::kFakeOrigin;
using testing_support::OptraceJson;

constexpr uint64_t kInput = 0x0000000100000002;
constexpr uint64_t kBranchA = 0x0000000200000010;
constexpr uint64_t kBranchB = 0x0000000300000020;
constexpr uint64_t kOutput = 0x0000000400000003;
constexpr uint64_t kZeros = 0x0000100200000008;

// Branch B waits for branch A although it needs only the shared constant:
// the false dependency de-duplication creates, visible as A in B's inputs.
ProfiledRun SerializedBranches() {
  return FakeRun(
      OptraceJson({
          {kInput, "Input", "q::*InputSlice", "dma", 256, 0, 100},
          {kBranchA, "branch_a", "q::Conv", "uses_hvx", 512, 100, 400, {kInput, kZeros}},
          {kBranchB, "branch_b", "q::Conv", "uses_hvx", 513, 500, 300, {kInput, kZeros, kBranchA}},
          {kOutput, "Output", "q::*OutputSlice", "dma", 256, 800, 50, {kBranchA, kBranchB}},
      }),
      "");
}

TEST(CriticalPath, LongestPathByMeasuredDurationsAndWhatIf) {
  ProfiledRun run = SerializedBranches();
  DependencyGraph g = BuildDependencyGraph(nullptr, &*run.optrace, &run.ops);
  NodeGroups groups = GroupNodes(g, [](const DepNode& n) { return n.qnn_op_name; });
  CriticalPath p = LongestPath(g, groups, kAllEdges);
  EXPECT_EQ(p.length_cycles, 100 + 400 + 300 + 50);
  std::vector<uint64_t> ids;
  for (uint32_t n : p.nodes) ids.push_back(g.nodes[n].id);
  EXPECT_EQ(ids, (std::vector<uint64_t>{kInput, kBranchA, kBranchB, kOutput}));
  EXPECT_FALSE(p.cycle_broken);
  // Without A -> B the branches are independent: Input, A, Output.
  uint32_t a = *groups.Find("branch_a"), b = *groups.Find("branch_b");
  CriticalPath what_if = LongestPath(g, groups, kAllEdges, {{a, b}});
  EXPECT_EQ(what_if.dropped_edges, 1u);
  EXPECT_EQ(what_if.length_cycles, 100 + 400 + 50);
  // Dropping an edge that does not exist changes nothing.
  CriticalPath none = LongestPath(g, groups, kAllEdges, {{b, a}});
  EXPECT_EQ(none.dropped_edges, 0u);
  EXPECT_EQ(none.length_cycles, p.length_cycles);
}

TEST(CriticalPath, CycleInTheEdgesIsBrokenByTimeOrder) {
  // A lists B and B lists A: impossible, but the tool must not loop.
  ProfiledRun run = FakeRun(OptraceJson({
                                {kBranchA, "a", "q::Conv", "uses_hvx", 512, 0, 10, {kBranchB}},
                                {kBranchB, "b", "q::Conv", "uses_hvx", 512, 10, 20, {kBranchA}},
                            }),
                            "");
  DependencyGraph g = BuildDependencyGraph(nullptr, &*run.optrace, &run.ops);
  NodeGroups groups = GroupNodes(g, [](const DepNode& n) { return n.qnn_op_name; });
  CriticalPath p = LongestPath(g, groups, kAllEdges);
  EXPECT_TRUE(p.cycle_broken);
  EXPECT_EQ(p.length_cycles, 30);  // a (starts first) then b
}

TEST(DominantPath, PriorityClassesThenLowestThread) {
  ProfiledRun run = FakeRun(OptraceJson({
                                {0x10, "mm", "q::MatMul", "uses_hmx", 256, 0, 100},
                                {0x20, "v1", "q::Add", "uses_hvx", 513, 50, 150},
                                {0x30, "v0", "q::Add", "uses_hvx", 512, 150, 150},
                                {0x40, "Input", "q::*InputSlice", "dma", 256, 100, 20},
                                {0x50, "svc", "SyncOp", "sync", 256, 310, 10},
                            }),
                            "");
  DominantPath d = ComputeDominantPath(*run.optrace);
  using Seg = std::tuple<int64_t, int64_t, uint64_t, bool>;
  std::vector<Seg> segs;
  for (const auto& s : d.segments)
    segs.push_back({s.start_cycles - kFakeOrigin, s.end_cycles - kFakeOrigin, s.op_id, s.partial});
  EXPECT_EQ(segs, (std::vector<Seg>{{0, 100, 0x10, false},
                                    {100, 150, 0x20, true},   // HVX beats the DMA
                                    {150, 300, 0x30, false},  // tid 512 beats tid 513
                                    {300, 310, 0, false},     // idle
                                    {310, 320, 0x50, false}}));
  EXPECT_EQ(d.wall_cycles, 320);
  EXPECT_EQ(d.idle_cycles, 10);
  EXPECT_EQ(d.slice_cycles, (std::vector<int64_t>{100, 50, 150, 0, 10}));
  EXPECT_EQ(DominantClassOf(run.optrace->slices[3], *run.optrace), DominantClass::kDmaRead);
}

// QHAS's dominant_path_htp_0 is reproduced row for row from the optrace on
// every corpus run, and so are the per-slice dominant-path cycles QHAS gives
// each htp_op_instances row (one row per slice) — which the optrace itself
// repeats from one slice on every slice of a multi-slice op.
class DominantPathCorpus : public ::testing::TestWithParam<const char*> {};

TEST_P(DominantPathCorpus, ReproducesQhasExactly) {
  HTPSCOPE_REQUIRE_CORPUS(GetParam());
  ProfiledRun run = LoadRun({testing_support::CorpusRun(GetParam())});
  ASSERT_TRUE(run.optrace && run.qhas);
  DominantPath d = ComputeDominantPath(*run.optrace);
  DominantPathComparison c = CompareDominantPath(d, run.qhas->dominant_path.at(0));
  EXPECT_TRUE(c.identical()) << c.matched_rows << " of " << c.ours_rows << " vs " << c.qhas_rows
                             << (c.differences.empty() ? "" : ": " + c.differences[0]);
  EXPECT_EQ(c.ours_idle_cycles, c.qhas_idle_cycles);
  EXPECT_EQ(d.wall_cycles, run.qhas->overall.at(0).timeline_cycles);

  std::map<std::tuple<uint32_t, int64_t, int64_t>, int64_t> per_slice;
  std::map<uint64_t, int> slices_of;
  for (const auto& s : run.optrace->slices) ++slices_of[s.op_id];
  for (size_t i = 0; i < run.optrace->slices.size(); ++i) {
    const OpSlice& s = run.optrace->slices[i];
    per_slice[{s.tid, s.start_cycles, s.dur_cycles}] = d.slice_cycles[i];
    // Single-slice ops: the optrace's own DPC.
    if (slices_of[s.op_id] == 1) {
      EXPECT_EQ(d.slice_cycles[i], s.dpc_cycles) << OpIdHex(s.op_id);
    }
  }
  ASSERT_EQ(run.qhas->htp_op_instances.size(), run.optrace->slices.size());
  for (const auto& inst : run.qhas->htp_op_instances) {
    auto it = per_slice.find({inst.tid, inst.start_cycle, inst.cycles});
    ASSERT_NE(it, per_slice.end()) << OpIdHex(inst.op_id);
    EXPECT_EQ(it->second, inst.dominant_path_cycles) << OpIdHex(inst.op_id) << " tid " << inst.tid;
  }
}

INSTANTIATE_TEST_SUITE_P(AllRuns, DominantPathCorpus,
                         ::testing::Values("v8c8_256", "native_256", "gdn_hvx_int16",
                                           "chain8_archive"));

TEST(DominantPathCorpus, GdnMultiSliceOpsGetTheirWholeShare) {
  HTPSCOPE_REQUIRE_CORPUS("gdn_hvx_int16");
  ProfiledRun run = LoadRun({testing_support::CorpusRun("gdn_hvx_int16")});
  DominantPath d = ComputeDominantPath(*run.optrace);
  int64_t solve = 0, trace_dpc = 0;
  for (size_t i = 0; i < run.optrace->slices.size(); ++i)
    if (run.optrace->slices[i].op_id == 0x0000101a00000010) {
      solve += d.slice_cycles[i];
      trace_dpc = run.optrace->slices[i].dpc_cycles;
    }
  // The optrace says 1,010,387 (one slice's); the op held the path from its
  // first slice's start to its last slice's end.
  EXPECT_EQ(trace_dpc, 1010387);
  EXPECT_EQ(solve, 1759268 - 24856);
}

TEST(CriticalPathCorpus, Chain8FollowsTheMatmulChain) {
  HTPSCOPE_REQUIRE_CORPUS("chain8_archive");
  ProfiledRun run = LoadRun({testing_support::CorpusRun("chain8_archive")});
  DependencyGraph g = BuildDependencyGraph(&*run.htp_graph, &*run.optrace, &run.ops);
  NodeGroups groups = GroupNodes(g, [](const DepNode& n) { return n.qnn_op_name; });
  CriticalPath p = LongestPath(g, groups, kAllEdges);
  // Input slice 3,394 + Crouton 24,061 + MatMul_0..7 (4,095 1,181 1,178 1,170
  // 1,172 1,179 1,168 1,169) + Flat 5,801 + output slice 3,062.
  EXPECT_EQ(p.length_cycles, 48630);
  ASSERT_EQ(p.nodes.size(), 12u);
  EXPECT_EQ(g.nodes[p.nodes.front()].id, 0x0000125500000002u);
  EXPECT_EQ(g.nodes[p.nodes[1]].htp_op_type, "q::ForceFormat_Crouton");
  EXPECT_EQ(g.nodes[p.nodes.back()].id, 0x0000120d00000003u);
  // Without MatMul_3 -> MatMul_4 the chain splits; the longer half remains.
  CriticalPath cut =
      LongestPath(g, groups, kAllEdges, {{*groups.Find("MatMul_3"), *groups.Find("MatMul_4")}});
  EXPECT_EQ(cut.dropped_edges, 1u);
  EXPECT_EQ(cut.length_cycles, 3394 + 24061 + 4095 + 1181 + 1178 + 1170);
}

}  // namespace
}  // namespace htpscope
