#include "analysis/statistics.h"

#include <gtest/gtest.h>

#include <vector>

namespace htpscope::statistics_test {
namespace {

TEST(ComputeStats, MedianMinMaxMad) {
  EXPECT_FALSE(ComputeStats({}).has_value());
  auto odd = ComputeStats({5, 1, 3});
  ASSERT_TRUE(odd);
  EXPECT_EQ(odd->median, 3);
  EXPECT_EQ(odd->min, 1);
  EXPECT_EQ(odd->max, 5);
  EXPECT_EQ(odd->mad, 2);  // deviations 2,0,2
  EXPECT_EQ(odd->n, 3);
  auto even = ComputeStats({223, 208});
  EXPECT_EQ(even->median, 215.5);
  EXPECT_EQ(even->mad, 7.5);
}

// Read in place: the same figures as ComputeStats, one sample included.
TEST(StatsOf, SameAsComputeStats) {
  EXPECT_FALSE(StatsOf({}).has_value());
  const std::vector<double> one{-4.5};
  auto single = StatsOf(one);
  ASSERT_TRUE(single);
  EXPECT_EQ(single->median, -4.5);
  EXPECT_EQ(single->min, -4.5);
  EXPECT_EQ(single->max, -4.5);
  EXPECT_EQ(single->mad, 0);
  EXPECT_EQ(single->n, 1);
  for (const std::vector<double>& samples :
       std::vector<std::vector<double>>{{223, 208}, {5, 1, 3}, {9, 9, 1, 4, 100}}) {
    auto in_place = StatsOf(samples), copied = ComputeStats(samples);
    ASSERT_TRUE(in_place && copied);
    EXPECT_EQ(in_place->median, copied->median);
    EXPECT_EQ(in_place->min, copied->min);
    EXPECT_EQ(in_place->max, copied->max);
    EXPECT_EQ(in_place->mad, copied->mad);
    EXPECT_EQ(in_place->n, copied->n);
  }
}

}  // namespace
}  // namespace htpscope::statistics_test
