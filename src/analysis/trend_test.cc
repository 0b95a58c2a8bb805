#include "analysis/trend.h"

#include <gtest/gtest.h>

#include <string>

#include "base/errors.h"

namespace htpscope::trend_test {
namespace {

TrendPoint Point(int64_t run_id, std::vector<double> samples) {
  TrendPoint p;
  p.run_id = run_id;
  p.samples = std::move(samples);
  return p;
}

TEST(Trend, MarksEachRunAgainstTheRunsBeforeIt) {
  std::vector<TrendRow> rows =
      ComputeTrend({Point(1, {100, 102, 98}), Point(2, {101, 99, 100}), Point(3, {200, 201, 199}),
                    Point(4, {}), Point(5, {200.5, 199.5, 201.5})},
                   1, "us");
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].mark, TrendMark::kFirst);
  EXPECT_FALSE(rows[0].delta.has_value());
  EXPECT_EQ(rows[1].mark, TrendMark::kUnchanged);  // medians 100 and 100
  EXPECT_EQ(rows[2].mark, TrendMark::kUp);         // 100 -> 200, MADs of 1
  EXPECT_TRUE(rows[2].noise_assessed);
  EXPECT_DOUBLE_EQ(*rows[2].delta->change, 100);
  EXPECT_DOUBLE_EQ(*rows[2].delta->change_pct, 100);
  EXPECT_EQ(rows[2].baseline_runs, (std::vector<int64_t>{2}));
  EXPECT_EQ(rows[3].mark, TrendMark::kNoValue);
  // Run 5 is compared with run 3, the nearest earlier run with samples:
  // +0.5 is well inside 3 × 1.4826 × MAD (MADs of 1).
  EXPECT_EQ(rows[4].mark, TrendMark::kWithinNoise);
  EXPECT_EQ(rows[4].baseline_runs, (std::vector<int64_t>{3}));
  EXPECT_DOUBLE_EQ(*rows[4].delta->change, 0.5);
}

TEST(Trend, PoolsSeveralBaselineRunsAndSaysWhenNoiseIsNotAssessed) {
  std::vector<TrendRow> rows =
      ComputeTrend({Point(1, {10}), Point(2, {20}), Point(3, {30}), Point(4, {14})}, 2, "cycles");
  EXPECT_EQ(rows[3].baseline_runs, (std::vector<int64_t>{2, 3}));
  EXPECT_DOUBLE_EQ(*rows[3].delta->change, 14 - 25.0);  // median of {20, 30} is 25
  EXPECT_EQ(rows[3].mark, TrendMark::kDown);
  EXPECT_FALSE(rows[1].noise_assessed);  // one sample a side
  EXPECT_EQ(rows[1].mark, TrendMark::kUp);
  try {
    ComputeTrend({}, 0, "us");
    ADD_FAILURE();
  } catch (const ValueError& e) {
    EXPECT_EQ(e.role(), ValueRole::kTrendBaselineRuns);
    EXPECT_EQ(std::string(e.what()), "baseline runs: expected 1 or more runs");
  }
}

}  // namespace
}  // namespace htpscope::trend_test
