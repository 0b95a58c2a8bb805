#include "analysis/concurrency.h"

#include <gtest/gtest.h>

namespace htpscope {
namespace {

TEST(Concurrency, SweepCountsEachIntervalOnceAndTouchingIsNotOverlap) {
  // [0,10) [5,15) [10,20) [12,14): at 12..14 three run (5-15, 10-20, 12-14).
  ConcurrencyStats s = ComputeConcurrency({{0, 10}, {5, 15}, {10, 20}, {12, 14}});
  EXPECT_EQ(s.intervals, 4u);
  EXPECT_EQ(s.busy_cycles, 10 + 10 + 10 + 2);
  EXPECT_EQ(s.first_start_cycles, 0);
  EXPECT_EQ(s.last_end_cycles, 20);
  EXPECT_EQ(s.span_cycles, 20);
  EXPECT_EQ(s.active_cycles, 20);
  EXPECT_EQ(s.max_concurrency, 3);
  EXPECT_EQ(s.max_concurrency_at_cycles, 12);
  EXPECT_DOUBLE_EQ(s.busy_over_span(), 32.0 / 20.0);
  // Back to back: never two at once.
  ConcurrencyStats chain = ComputeConcurrency({{0, 5}, {5, 10}, {20, 30}});
  EXPECT_EQ(chain.max_concurrency, 1);
  EXPECT_EQ(chain.active_cycles, 20);
  EXPECT_EQ(chain.span_cycles, 30);
  EXPECT_EQ(ComputeConcurrency({}).max_concurrency, 0);
  EXPECT_DOUBLE_EQ(ComputeConcurrency({}).busy_over_span(), 0.0);
}

TEST(Concurrency, OverlapOfTwoSets) {
  EXPECT_EQ(OverlapCycles({{0, 10}, {20, 30}}, {{5, 25}}), 5 + 5);
  EXPECT_EQ(OverlapCycles({{0, 10}}, {{10, 20}}), 0);
  // Overlapping intervals inside one set count once.
  EXPECT_EQ(OverlapCycles({{0, 10}, {0, 10}}, {{0, 4}, {2, 6}}), 6);
  EXPECT_EQ(OverlapCycles({}, {{0, 4}}), 0);
}

TEST(SerializedGroups, BackToBackIndependentGroupsOnDifferentUnits) {
  const std::vector<uint32_t> two_hvx = {512, 513}, hmx = {256};
  std::vector<GroupActivity> groups = {
      {"hvx_stage", 0, 100, true, two_hvx, true},
      {"spill", 100, 150, true, hmx, false},  // boundary work: not a compute group
      {"hmx_stage", 160, 300, true, hmx, true},
      {"tail", 300, 310, true, hmx, true},
      {"idle", 400, 500, false, two_hvx, true},  // no slices: its span is not one
  };
  auto none = [](size_t, size_t) { return false; };
  auto pairs = FindSerializedGroups(groups, none);
  // hvx_stage -> hmx_stage (gap 60); hmx_stage -> tail share thread 256 only: never reported.
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].first, "hvx_stage");
  EXPECT_EQ(pairs[0].second, "hmx_stage");
  EXPECT_EQ(pairs[0].gap_cycles(), 60);
  // A dependency either way removes the warning.
  auto depends = [](size_t a, size_t b) { return a == 0 && b == 2; };
  EXPECT_TRUE(FindSerializedGroups(groups, depends).empty());
  // Overlapping groups are not serialized.
  groups[2].first_start_cycles = 90;
  EXPECT_TRUE(FindSerializedGroups(groups, none).empty());
}

}  // namespace
}  // namespace htpscope
