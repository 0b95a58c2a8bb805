#include "analysis/concurrency.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace htpscope::concurrency_test {
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

// Intervals in order of start take the merge of sorted ends; shuffled, the
// full sort.  Both must give what counting cycle by cycle gives, on
// intervals with many ties (shared starts and ends, empty ones).
TEST(Concurrency, InStartOrderOrShuffledMatchesCountingEachCycle) {
  uint64_t state = 12345;
  auto next = [&state](int64_t below) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((state >> 33) % static_cast<uint64_t>(below));
  };
  std::vector<Interval> a, b;
  for (int i = 0; i < 400; ++i) {
    const int64_t start = next(1500);
    a.push_back({start, start + next(40)});  // some empty
    const int64_t start_b = next(1500);
    b.push_back({start_b, start_b + next(25)});
  }
  auto by_start = [](const Interval& x, const Interval& y) { return x.start < y.start; };
  std::vector<Interval> a_sorted = a, b_sorted = b;
  std::stable_sort(a_sorted.begin(), a_sorted.end(), by_start);
  std::stable_sort(b_sorted.begin(), b_sorted.end(), by_start);
  // Counted cycle by cycle.
  constexpr int64_t kCycles = 1600;
  std::vector<int> in_a(kCycles, 0), in_b(kCycles, 0);
  for (const auto& iv : a)
    for (int64_t c = iv.start; c < iv.end; ++c) ++in_a[c];
  for (const auto& iv : b)
    for (int64_t c = iv.start; c < iv.end; ++c) ++in_b[c];
  int64_t active = 0, overlap = 0, max_at = -1;
  int max = 0;
  for (int64_t c = 0; c < kCycles; ++c) {
    active += in_a[c] > 0;
    overlap += in_a[c] > 0 && in_b[c] > 0;
    if (in_a[c] > max) {
      max = in_a[c];
      max_at = c;
    }
  }
  for (const auto* intervals : {&a, &a_sorted}) {
    const ConcurrencyStats s = ComputeConcurrency(*intervals);
    EXPECT_EQ(s.active_cycles, active);
    EXPECT_EQ(s.max_concurrency, max);
    EXPECT_EQ(s.max_concurrency_at_cycles, max_at);
  }
  EXPECT_EQ(OverlapCycles(a, b), overlap);
  EXPECT_EQ(OverlapCycles(a_sorted, b_sorted), overlap);
  EXPECT_EQ(OverlapCycles(b_sorted, a), overlap);

  // Back to back in start order, enough to be merged: each end is taken
  // before the start at its cycle, so no two ever run at once.
  std::vector<Interval> chain;
  for (int64_t i = 0; i < 100; ++i) chain.push_back({10 * i, 10 * i + 10});
  const ConcurrencyStats c = ComputeConcurrency(chain);
  EXPECT_EQ(c.max_concurrency, 1);
  EXPECT_EQ(c.max_concurrency_at_cycles, 0);
  EXPECT_EQ(c.active_cycles, 1000);
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
}  // namespace htpscope::concurrency_test
