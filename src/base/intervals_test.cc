#include "base/intervals.h"

#include <gtest/gtest.h>

namespace htpscope {
namespace {

TEST(UnionLength, OverlapsCountOnce) {
  std::vector<std::pair<int64_t, int64_t>> v{{10, 20}, {0, 5}, {15, 30}, {30, 31}, {40, 40}};
  EXPECT_EQ(UnionLength(v), 5 + 21);
  std::vector<std::pair<int64_t, int64_t>> empty;
  EXPECT_EQ(UnionLength(empty), 0);
}

}  // namespace
}  // namespace htpscope
