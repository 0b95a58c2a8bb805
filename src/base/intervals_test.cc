#include "base/intervals.h"

#include <gtest/gtest.h>

namespace htpscope::intervals_test {
namespace {

TEST(UnionLength, OverlapsCountOnce) {
  std::vector<std::pair<int64_t, int64_t>> v{{10, 20}, {0, 5}, {15, 30}, {30, 31}, {40, 40}};
  EXPECT_EQ(UnionLength(v), 5 + 21);
  std::vector<std::pair<int64_t, int64_t>> empty;
  EXPECT_EQ(UnionLength(empty), 0);
}

// Intervals sharing a start, in either order of their ends, already sorted
// by start (taken as they are) or not (sorted first): the same union.
TEST(UnionLength, SharedStartsInAnyOrderOfEnds) {
  std::vector<std::pair<int64_t, int64_t>> sorted{{0, 5}, {3, 4}, {10, 20}, {10, 12}, {30, 31}};
  EXPECT_EQ(UnionLength(sorted), 5 + 10 + 1);
  std::vector<std::pair<int64_t, int64_t>> unsorted{{10, 12}, {30, 31}, {3, 4}, {10, 20}, {0, 5}};
  EXPECT_EQ(UnionLength(unsorted), 5 + 10 + 1);
}

}  // namespace
}  // namespace htpscope::intervals_test
