#include "model/dominant_path.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <tuple>

#include "base/corpus_test_util.h"
#include "base/test_paths.h"
#include "model/fake_run_test_util.h"

namespace htpscope::dominant_path_test {
namespace {

using testing_support::FakeRun;
using testing_support::kFakeOrigin;
using testing_support::OptraceJson;

TEST(DominantPath, PriorityClassesThenLowestThread) {
  htpscope::Run run = FakeRun(OptraceJson({
                                  {0x10, "mm", "q::MatMul", "uses_hmx", 256, 0, 100},
                                  {0x20, "v1", "q::Add", "uses_hvx", 513, 50, 150},
                                  {0x30, "v0", "q::Add", "uses_hvx", 512, 150, 150},
                                  {0x40, "Input", "q::*InputSlice", "dma", 256, 100, 20},
                                  {0x50, "svc", "SyncOp", "sync", 256, 310, 10},
                              }),
                              "");
  ReconstructedPath d = ReconstructDominantPath(run);
  using Seg = std::tuple<int64_t, int64_t, uint64_t, bool>;
  std::vector<Seg> segs;
  for (const auto& s : d.segments)
    segs.push_back({s.start_cycle - kFakeOrigin, s.end_cycle - kFakeOrigin, s.op_id, s.partial});
  EXPECT_EQ(segs, (std::vector<Seg>{{0, 100, 0x10, false},
                                    {100, 150, 0x20, true},   // HVX beats the DMA
                                    {150, 300, 0x30, false},  // tid 512 beats tid 513
                                    {300, 310, 0, false},     // idle
                                    {310, 320, 0x50, false}}));
  EXPECT_EQ(d.wall_cycles, 320);
  EXPECT_EQ(d.idle_cycles, 10);
  // Slices in instance order (by first start): 0x10, 0x20, 0x40, 0x30, 0x50.
  EXPECT_EQ(d.slice_cycles, (std::vector<int64_t>{100, 50, 0, 150, 10}));
  const SliceRow& input = run.slices[2];
  EXPECT_EQ(input.op_id, 0x40u);
  EXPECT_EQ(DominantClassOf(run.op_instances[input.instance], input.tid, run),
            DominantClass::kDmaRead);
}

// The sweep against a cycle-by-cycle reference on random overlapping
// slices: at each cycle the running slice with the highest class, then the
// lowest tid, start and index holds the path.
TEST(DominantPath, MatchesACycleByCycleReferenceOnRandomSlices) {
  std::mt19937 random(17);
  const char* flags[] = {"uses_hmx", "uses_hvx", "dma", "dma_wait", "dma_set", "sync", ""};
  const uint32_t tids[] = {256, 512, 513, 514};
  for (int round = 0; round < 20; ++round) {
    std::vector<testing_support::FakeSlice> fake;
    for (uint64_t k = 0; k < 40; ++k) {
      const int64_t ts = std::uniform_int_distribution<int64_t>(0, 400)(random);
      const int64_t dur = std::uniform_int_distribution<int64_t>(0, 60)(random);
      fake.push_back({0x100 + k, fmt::format("q{}", k), "Op", flags[random() % 7],
                      tids[random() % 4], ts, dur});
    }
    htpscope::Run run = FakeRun(OptraceJson(fake), "");
    const auto& slices = run.slices;
    ASSERT_EQ(slices.size(), fake.size());
    // The reference: the holder of each cycle, then runs of equal holders.
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (const auto& s : slices)
      if (s.dur_cycles > 0)
        first = std::min(first, s.start_cycle), last = std::max(last, s.end_cycle());
    std::vector<int32_t> holder;
    for (int64_t c = first; c < last; ++c) {
      int32_t best = -1;
      for (int32_t i = 0; i < static_cast<int32_t>(slices.size()); ++i) {
        const SliceRow& s = slices[i];
        if (!(s.start_cycle <= c && c < s.end_cycle())) continue;
        auto key = [&](int32_t j) {
          const SliceRow& t = slices[j];
          return std::make_tuple(
              -static_cast<int>(DominantClassOf(run.op_instances[t.instance], t.tid, run)), t.tid,
              t.start_cycle, j);
        };
        if (best < 0 || key(i) < key(best)) best = i;
      }
      holder.push_back(best);
    }
    std::vector<std::tuple<int64_t, int64_t, int32_t>> expected;
    std::vector<int64_t> expected_cycles(slices.size(), 0);
    for (size_t c = 0; c < holder.size(); ++c) {
      const int64_t cycle = first + static_cast<int64_t>(c);
      if (c == 0 || holder[c] != holder[c - 1])
        expected.push_back({cycle, cycle + 1, holder[c]});
      else
        std::get<1>(expected.back()) = cycle + 1;
      if (holder[c] >= 0) ++expected_cycles[holder[c]];
    }
    ReconstructedPath d = ReconstructDominantPath(run);
    std::vector<std::tuple<int64_t, int64_t, int32_t>> got;
    for (const auto& seg : d.segments) got.push_back({seg.start_cycle, seg.end_cycle, seg.slice});
    EXPECT_EQ(got, expected) << "round " << round;
    EXPECT_EQ(d.slice_cycles, expected_cycles) << "round " << round;
    EXPECT_EQ(d.wall_cycles, last - first);
    // The import keeps the same path in the run's table.
    ASSERT_EQ(run.dominant_path.size(), d.segments.size());
    for (size_t i = 0; i < d.segments.size(); ++i) {
      EXPECT_EQ(run.dominant_path[i].start_cycle, d.segments[i].start_cycle);
      EXPECT_EQ(run.dominant_path[i].slice, d.segments[i].slice);
    }
    EXPECT_EQ(run.slice_dominant_cycles, d.slice_cycles);
  }
}

// The run keeps the path (the SQL/Python dominant_path table) even when
// no op's DPC needed it: on the example QHAS gives every multi-slice DPC,
// and the path still covers the graph wall exactly.
TEST(DominantPath, TheRunKeepsThePathEvenWhenQhasGaveEveryDpc) {
  htpscope::Run run = LoadRun({std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run"});
  ASSERT_TRUE(run.Has(ArtifactKind::kQhas));
  for (const auto& op : run.op_instances) EXPECT_NE(op.dpc_basis, DpcBasis::kReconstructed);
  ASSERT_FALSE(run.dominant_path.empty());
  int64_t covered = 0;
  for (const auto& seg : run.dominant_path) covered += seg.cycles();
  EXPECT_EQ(covered, *run.figures.graph_wall_cycles);
  EXPECT_EQ(run.slice_dominant_cycles.size(), run.slices.size());
}

// The comparison counts rows as a multiset: a row the recomputed path has
// twice matches one QHAS row once; idle rows compare with op 0.
TEST(CompareDominantPaths, CountsRowsOnEachSideAsMultisets) {
  auto row = [](int64_t start, int64_t end, uint64_t op, bool partial, bool idle) {
    return DominantSegmentRow{.start_cycle = start,
                              .end_cycle = end,
                              .op_id = op,
                              .slice = -1,
                              .partial = partial,
                              .idle = idle};
  };
  const std::vector<DominantSegmentRow> ours = {
      row(100, 150, 7, false, false), row(100, 150, 7, false, false), row(150, 160, 0, false, true),
      row(160, 200, 9, true, false)};
  const std::vector<DominantSegmentRow> qhas = {row(160, 200, 9, false, false),
                                                row(100, 150, 7, false, false),
                                                row(150, 170, 0, false, true)};
  DominantPathComparison c = CompareDominantPaths(ours, qhas);
  EXPECT_EQ(c.ours_rows, 4u);
  EXPECT_EQ(c.qhas_rows, 3u);
  EXPECT_EQ(c.matched_rows, 1u);  // (100, 150, op 7) once; partial differs on op 9
  EXPECT_FALSE(c.identical());
  EXPECT_EQ(c.ours_idle_cycles, 10);
  EXPECT_EQ(c.qhas_idle_cycles, 20);
  // Only-ours rows in (start, end, op, partial) order, then only-QHAS rows.
  ASSERT_EQ(c.differences.size(), 5u);
  EXPECT_EQ(c.differences[0], "only recomputed: 0x0000000000000007 [100, 150) 50 cycles");
  EXPECT_EQ(c.differences[1], "only recomputed: idle [150, 160) 10 cycles");
  EXPECT_EQ(c.differences[2], "only recomputed: 0x0000000000000009 [160, 200) 40 cycles partial");
  EXPECT_EQ(c.differences[3], "only QHAS: idle [150, 170) 20 cycles");
  EXPECT_EQ(c.differences[4], "only QHAS: 0x0000000000000009 [160, 200) 40 cycles");
}

// At most ten rows found only in the recomputed path are listed, then
// QHAS-only rows up to twenty in all; the counts cover every row.
TEST(CompareDominantPaths, ListsTheFirstRowsOfEachSideUpToTwenty) {
  auto path = [](int n, uint64_t op) {
    std::vector<DominantSegmentRow> p;
    for (int i = 0; i < n; ++i)
      p.push_back({.start_cycle = 10 * i, .end_cycle = 10 * i + 5, .op_id = op, .slice = -1});
    return p;
  };
  DominantPathComparison c = CompareDominantPaths(path(12, 1), path(30, 2));
  EXPECT_EQ(c.matched_rows, 0u);
  EXPECT_EQ(c.ours_rows, 12u);
  EXPECT_EQ(c.qhas_rows, 30u);
  ASSERT_EQ(c.differences.size(), 20u);
  EXPECT_EQ(c.differences[9], "only recomputed: 0x0000000000000001 [90, 95) 5 cycles");
  EXPECT_EQ(c.differences[10], "only QHAS: 0x0000000000000002 [0, 5) 5 cycles");
  c = CompareDominantPaths(path(3, 1), path(30, 2));
  ASSERT_EQ(c.differences.size(), 20u);
  EXPECT_EQ(c.differences[3], "only QHAS: 0x0000000000000002 [0, 5) 5 cycles");
  EXPECT_EQ(c.differences[19], "only QHAS: 0x0000000000000002 [160, 165) 5 cycles");
  // The same rows on both sides, one side reversed: every row matches.
  std::vector<DominantSegmentRow> reversed = path(30, 2);
  std::reverse(reversed.begin(), reversed.end());
  c = CompareDominantPaths(path(30, 2), reversed);
  EXPECT_EQ(c.matched_rows, 30u);
  EXPECT_TRUE(c.identical());
  EXPECT_TRUE(c.differences.empty());
}

// QHAS's dominant_path_htp_0 is reproduced row for row from the optrace on
// every corpus run, and so are the per-slice dominant-path cycles QHAS gives
// each htp_op_instances row (one row per slice) — which the optrace itself
// repeats from one slice on every slice of a multi-slice op.
class DominantPathCorpus : public ::testing::TestWithParam<const char*> {};

TEST_P(DominantPathCorpus, ReproducesQhasExactly) {
  HTPSCOPE_REQUIRE_CORPUS(GetParam());
  htpscope::Run run = LoadRun({testing_support::CorpusRun(GetParam())});
  ASSERT_TRUE(run.Has(ArtifactKind::kOptrace) && run.Has(ArtifactKind::kQhas));
  ReconstructedPath d = ReconstructDominantPath(run);
  DominantPathComparison c = CompareDominantPaths(d.segments, run.qhas_dominant_path);
  EXPECT_TRUE(c.identical()) << c.matched_rows << " of " << c.ours_rows << " vs " << c.qhas_rows
                             << (c.differences.empty() ? "" : ": " + c.differences[0]);
  EXPECT_EQ(c.ours_idle_cycles, c.qhas_idle_cycles);
  EXPECT_EQ(d.wall_cycles, run.qhas_cores.at(0).timeline_cycles);
  // Single-slice ops: the optrace's own DPC; every op: the DPC the run
  // chose (QHAS's per-slice sums for multi-slice ops).
  std::map<uint64_t, int64_t> per_op;
  for (size_t i = 0; i < run.slices.size(); ++i) per_op[run.slices[i].op_id] += d.slice_cycles[i];
  for (const auto& op : run.op_instances) {
    if (op.slice_count == 1) {
      EXPECT_EQ(per_op[op.op_id], op.trace_dpc_cycles) << OpIdHex(op.op_id);
    }
    EXPECT_EQ(per_op[op.op_id], op.dpc_cycles) << OpIdHex(op.op_id);
  }
}

INSTANTIATE_TEST_SUITE_P(AllRuns, DominantPathCorpus,
                         ::testing::Values("v8c8_256", "native_256", "gdn_hvx_int16",
                                           "chain8_archive"));

TEST(DominantPathCorpus, GdnMultiSliceOpsGetTheirWholeShare) {
  HTPSCOPE_REQUIRE_CORPUS("gdn_hvx_int16");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("gdn_hvx_int16")});
  ReconstructedPath d = ReconstructDominantPath(run);
  int64_t solve = 0, trace_dpc = 0;
  for (size_t i = 0; i < run.slices.size(); ++i)
    if (run.slices[i].op_id == 0x0000101a00000010) {
      solve += d.slice_cycles[i];
      trace_dpc = run.op_instances[run.slices[i].instance].trace_dpc_cycles;
    }
  // The optrace says 1,010,387 (one slice's); the op held the path from its
  // first slice's start to its last slice's end.
  EXPECT_EQ(trace_dpc, 1010387);
  EXPECT_EQ(solve, 1759268 - 24856);
}

}  // namespace
}  // namespace htpscope::dominant_path_test
