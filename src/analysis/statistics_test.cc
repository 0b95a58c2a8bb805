#include "analysis/statistics.h"

#include <gtest/gtest.h>

namespace htpscope {
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

}  // namespace
}  // namespace htpscope
