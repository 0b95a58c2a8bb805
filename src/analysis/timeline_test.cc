#include "analysis/timeline.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "base/corpus_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::timeline_test {
namespace {

using testing_support::FakeRun;
using testing_support::FakeSlice;
using testing_support::kFakeOrigin;
using testing_support::OptraceJson;

const TimelineGroup* FindGroup(const Timeline& t, const std::string& name) {
  for (const auto& g : t.groups)
    if (g.name == name) return &g;
  return nullptr;
}

bool HasWarning(const Timeline& t, const std::string& code) {
  return std::any_of(t.warnings.begin(), t.warnings.end(),
                     [&](const WarningRow& f) { return WarningName(f.code) == code; });
}

// One op tiled over the 4 HVX threads (two slices on tid 512), after a DMA.
std::vector<FakeSlice> TiledOp() {
  constexpr uint64_t kTiled = 0x0000002000000007;
  return {
      {0x0000000100000002, "Input", "q::*InputSlice", "dma", 256, 0, 100},
      {kTiled, "tiled", "q::Conv", "uses_hvx", 512, 100, 1000},
      {kTiled, "tiled", "q::Conv", "uses_hvx", 513, 200, 800},
      {kTiled, "tiled", "q::Conv", "uses_hvx", 514, 300, 1000},
      {kTiled, "tiled", "q::Conv", "uses_hvx", 515, 400, 500},
      {kTiled, "tiled", "q::Conv", "uses_hvx", 512, 1100, 500},
  };
}

TEST(Timeline, TiledOpOnFourHvxThreads) {
  auto run = FakeRun(OptraceJson(TiledOp()), "");
  Timeline t = BuildTimeline(run, Grouping{}, {});
  EXPECT_EQ(t.graph_start_cycles, kFakeOrigin);
  EXPECT_EQ(t.graph_end_cycles, kFakeOrigin + 1600);
  ASSERT_EQ(t.rows.size(), 5u);  // 256 and 512..515
  EXPECT_EQ(t.rows[0].tid, 256u);
  EXPECT_EQ(t.rows[1].busy_cycles, 1500);  // tid 512: two slices, back to back
  const TimelineGroup* g = FindGroup(t, "tiled");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->ops, 1u);
  EXPECT_EQ(g->stats.intervals, 5u);
  EXPECT_EQ(g->stats.busy_cycles, 1000 + 800 + 1000 + 500 + 500);
  EXPECT_EQ(g->stats.first_start_cycles, kFakeOrigin + 100);
  EXPECT_EQ(g->stats.span_cycles, 1500);
  EXPECT_NEAR(g->stats.busy_over_span(), 3800.0 / 1500.0, 1e-12);
  EXPECT_EQ(g->stats.max_concurrency, 4);  // 400..900: all four threads
  EXPECT_EQ(g->stats.max_concurrency_at_cycles, kFakeOrigin + 400);
  EXPECT_EQ(g->tids, (std::vector<uint32_t>{512, 513, 514, 515}));
  EXPECT_EQ(g->category, OpCategory::kCompute);
  // The input slice is a boundary op: drawn with its own mark.
  EXPECT_EQ(t.slices[0].mark, SliceMark::kSlice);
  EXPECT_EQ(FindGroup(t, "Input")->category, OpCategory::kBoundary);
  EXPECT_EQ(t.all.max_concurrency, 4);
  EXPECT_EQ(t.hmx_hvx_overlap_cycles, 0);  // DMA on tid 256 is no HMX work
}

TEST(Timeline, WindowByCyclesAndByOpsClipsSlices) {
  auto run = FakeRun(OptraceJson(TiledOp()), "");
  TimelineWindow w;
  w.from_cycle = 500;
  w.to_cycle = 700;
  Timeline t = BuildTimeline(run, Grouping{}, w);
  EXPECT_EQ(t.window_start_cycles, kFakeOrigin + 500);
  EXPECT_EQ(t.window_cycles(), 200);
  const TimelineGroup* g = FindGroup(t, "tiled");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->stats.busy_cycles, 4 * 200);   // every tile runs across the window
  EXPECT_EQ(FindGroup(t, "Input"), nullptr);  // ended before the window

  TimelineWindow by_op;
  by_op.from_op = "Input";
  by_op.to_op = "q::*InputSlice";  // HTP op types match too
  Timeline only_input = BuildTimeline(run, Grouping{}, by_op);
  EXPECT_EQ(only_input.window_cycles(), 100);
  by_op.to_op = "tiled";
  EXPECT_EQ(BuildTimeline(run, Grouping{}, by_op).window_cycles(), 1600);
  by_op.to_op = "no_such_op";
  EXPECT_THROW(BuildTimeline(run, Grouping{}, by_op), std::invalid_argument);
  TimelineWindow empty;
  empty.from_cycle = 900;
  empty.to_cycle = 800;
  EXPECT_THROW(BuildTimeline(run, Grouping{}, empty), std::invalid_argument);
}

// Rows carry the trace's thread names; a trace whose slices all sit at one
// cycle has an empty window, refused unless the caller allows it.
TEST(Timeline, RowNamesAndAnEmptyWholeTrace) {
  auto run = FakeRun(OptraceJson(TiledOp()), "");
  run.thread_names = {{513, "hvx one"}, {256, "main"}};
  Timeline named = BuildTimeline(run, Grouping{}, {});
  ASSERT_EQ(named.rows.size(), 5u);
  EXPECT_EQ(named.rows[0].name, "main");
  EXPECT_EQ(named.rows[1].name, "");
  EXPECT_EQ(named.rows[2].name, "hvx one");

  auto instant =
      FakeRun(OptraceJson({{0x0000000100000002, "Input", "q::*InputSlice", "dma", 256, 5, 0},
                           {0x0000000200000010, "conv", "q::Conv", "uses_hvx", 512, 5, 0}}),
              "");
  EXPECT_THROW(BuildTimeline(instant, Grouping{}, {}), std::invalid_argument);
  TimelineWindow whole;
  whole.allow_empty = true;
  Timeline t = BuildTimeline(instant, Grouping{}, whole);
  EXPECT_EQ(t.window_cycles(), 0);
  EXPECT_EQ(t.slices.size(), 2u);
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[1].tid, 512u);
  EXPECT_EQ(t.rows[1].slices, std::vector<uint32_t>{1});
  // A window that ends before it starts stays an error.
  whole.from_cycle = 1;
  whole.to_cycle = 0;
  EXPECT_THROW(BuildTimeline(run, Grouping{}, whole), std::invalid_argument);
}

// Stage 1 on two HVX threads, Spill and Fill on the main thread, then stage 2
// on HMX.  With `dependent`, stage 2 reads stage 1's output.
Run HandoffRun(bool dependent) {
  std::vector<FakeSlice> slices = {
      {0x0000000100000011, "stage1_conv_a", "q::Conv", "uses_hvx", 512, 0, 1000},
      {0x0000000200000012, "stage1_conv_b", "q::Conv", "uses_hvx", 513, 0, 900},
      {0x0000000300000013, "spill_0", "@Spill", "dma", 256, 1000, 200},
      {0x0000000400000014, "fill_0", "@Fill", "dma", 256, 1250, 250},
      {0x0000000500000015, "stage2_mm", "q::MatMul", "uses_hmx", 256, 1500, 2000,
       dependent ? std::vector<uint64_t>{0x0000000100000011} : std::vector<uint64_t>{}},
  };
  return FakeRun(OptraceJson(slices), "");
}

Grouping Stages() {
  Grouping g;
  g.user.push_back(ParseUserGroup("stage1=^stage1"));
  g.user.push_back(ParseUserGroup("stage2=^stage2"));
  return g;
}

TEST(Timeline, SerializedHvxToHmxHandoffWithSpillFillInTheGap) {
  htpscope::Run run = HandoffRun(false);
  Grouping grouping = Stages();
  Timeline t = BuildTimeline(run, grouping, {});
  ASSERT_NE(FindGroup(t, "stage1"), nullptr);
  EXPECT_EQ(FindGroup(t, "stage1")->stats.max_concurrency, 2);
  EXPECT_EQ(FindGroup(t, "stage1")->stats.span_cycles, 1000);
  EXPECT_EQ(FindGroup(t, "stage2")->stats.busy_cycles, 2000);
  EXPECT_EQ(FindGroup(t, "spill_0")->category, OpCategory::kBoundary);
  EXPECT_EQ(t.hmx_active_cycles, 2000);
  EXPECT_EQ(t.hvx_active_cycles, 1000);
  EXPECT_EQ(t.hmx_hvx_overlap_cycles, 0);
  EXPECT_DOUBLE_EQ(t.hmx_hvx_overlap_pct, 0.0);
  int spill_marks = 0;
  for (const auto& s : t.slices) spill_marks += s.mark == SliceMark::kSpillFill;
  EXPECT_EQ(spill_marks, 2);

  DependencyGraph graph = BuildDependencyGraph(run);
  AddSerializationWarnings(t, graph, grouping);
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_EQ(WarningName(t.warnings[0].code), "serialized_groups");
  const std::string& m = t.warnings[0].message;
  EXPECT_NE(m.find("stage1 and stage2"), std::string::npos) << m;
  EXPECT_NE(m.find("(500 cycles later; in the gap: spill/fill 450 cycles)"), std::string::npos)
      << m;

  // Once stage 2 reads stage 1's output the order is a real dependency.
  htpscope::Run dep = HandoffRun(true);
  Timeline td = BuildTimeline(dep, grouping, {});
  AddSerializationWarnings(td, BuildDependencyGraph(dep), grouping);
  EXPECT_FALSE(HasWarning(td, "serialized_groups"));
}

// What ran in a serialization gap is listed by kind in name order, each
// kind's cycles summed over its slices and clipped to the gap; the check
// made in two steps (its timeline part first) gives the same warning.
TEST(Timeline, SerializationGapListsEachKindOnceInNameOrder) {
  std::vector<FakeSlice> slices = {
      {0x0000000100000011, "stage1_conv_a", "q::Conv", "uses_hvx", 512, 0, 1000},
      {0x0000000300000013, "spill_0", "@Spill", "dma", 256, 1000, 200},
      {0x0000000600000016, "sync_0", "q::SyncOp", "sync", 257, 900, 200},  // 100 in the gap
      {0x0000000400000014, "fill_0", "@Fill", "dma", 256, 1250, 250},
      {0x0000000500000015, "stage2_mm", "q::MatMul", "uses_hmx", 256, 1500, 2000},
  };
  htpscope::Run run = FakeRun(OptraceJson(slices), "");
  Grouping grouping = Stages();
  Timeline t = BuildTimeline(run, grouping, {});
  const SerializationCheck check(t);
  check.AddWarnings(t, BuildDependencyGraph(run), grouping);
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_NE(t.warnings[0].message.find("in the gap: spill/fill 450 cycles, sync 100 cycles)"),
            std::string::npos)
      << t.warnings[0].message;
  Timeline again = BuildTimeline(run, grouping, {});
  AddSerializationWarnings(again, BuildDependencyGraph(run), grouping);
  ASSERT_EQ(again.warnings.size(), 1u);
  EXPECT_EQ(again.warnings[0].message, t.warnings[0].message);
}

TEST(Grouping, UserGroupsByQnnNameThenHtpTypeAndBadSpecs) {
  Grouping g;
  g.by = GroupBy::kHtpOpType;
  g.user.push_back(ParseUserGroup("convs=^conv"));
  g.user.push_back(ParseUserGroup("spills=Spill|Fill"));
  EXPECT_EQ(g.GroupOf("conv_1", "q::Conv"), "convs");
  EXPECT_EQ(g.GroupOf("x", "@Spill"), "spills");
  EXPECT_EQ(g.GroupOf("x", "q::Add"), "q::Add");  // falls back to the HTP op type
  EXPECT_THROW(ParseUserGroup("noequals"), std::invalid_argument);
  EXPECT_THROW(ParseUserGroup("=x"), std::invalid_argument);
  EXPECT_THROW(ParseUserGroup("a=("), std::invalid_argument);
}

TEST(TimelineCorpus, GdnSolveSlicesRunFourWide) {
  HTPSCOPE_REQUIRE_CORPUS("gdn_hvx_int16");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("gdn_hvx_int16")});
  Timeline t = BuildTimeline(run, Grouping{}, {});
  const TimelineGroup* g = FindGroup(t, "GdnSolve_0");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->stats.max_concurrency, 4);
  // 4 GdnSolve instances of 6 slices each, and the 634-cycle SyncOp the
  // compiler grouped under GdnSolve_0.
  EXPECT_EQ(g->ops, 5u);
  EXPECT_EQ(g->stats.intervals, 25u);
  // QHAS cycles_used of the HVX threads, 4,932,549 + 4,680,342 + 3,198,933 +
  // 3,693,108 = 16,504,932, plus the SyncOp's 634.
  EXPECT_EQ(g->stats.busy_cycles, 16504932 + 634);
  EXPECT_EQ(t.window_cycles(), 6038358);   // QHAS timeline_cycles
  EXPECT_EQ(t.hmx_hvx_overlap_cycles, 0);  // no HMX work at all in this run
  DependencyGraph graph = BuildDependencyGraph(run);
  AddSerializationWarnings(t, graph, Grouping{});
  EXPECT_TRUE(t.warnings.empty());
}

TEST(TimelineCorpus, V8c8ThreadsMatchQhasAndHmxHvxOverlap) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("v8c8_256")});
  Timeline t = BuildTimeline(run, Grouping{}, {});
  std::vector<int64_t> active;
  for (const auto& r : t.rows) active.push_back(r.active_cycles);
  // QHAS htp_resources cycles_used for tids 256, 512..515.
  EXPECT_EQ(active, (std::vector<int64_t>{169635, 52067, 27730, 21089, 46962}));
  // The 8 matmuls (145,106 cycles) against the HVX format/slice work (80,291):
  // 60,338 cycles overlap (checked cycle by cycle outside htpscope).
  EXPECT_EQ(t.hmx_active_cycles, 145106);
  EXPECT_EQ(t.hvx_active_cycles, 80291);
  EXPECT_EQ(t.hmx_hvx_overlap_cycles, 60338);
  EXPECT_NEAR(t.hmx_hvx_overlap_pct, 100.0 * 60338 / 186647, 1e-9);
  EXPECT_EQ(FindGroup(t, "Input")->stats.max_concurrency, 5);
  EXPECT_EQ(FindGroup(t, "bbb_indep0")->stats.busy_cycles, 87938);
}

}  // namespace
}  // namespace htpscope::timeline_test
