#include "report/format_util.h"

#include <gtest/gtest.h>

namespace htpscope::format_util_test {
namespace {

TEST(EllipsizeLeft, KeepsTheTailThatTellsPathsApart) {
  // 40 columns of path, 20 kept: "…" and the last 19 columns, from a '/'.
  const std::string a = "/home/user/profiles/2026-11-20/run_a/heap.txt";
  const std::string b = "/home/user/profiles/2026-11-20/run_b/heap.txt";
  EXPECT_EQ(EllipsizeLeft(a, 20), "…/run_a/heap.txt");
  EXPECT_EQ(EllipsizeLeft(b, 20), "…/run_b/heap.txt");
  // Cut mid-name when no '/' falls in the first half of the tail.
  EXPECT_EQ(EllipsizeLeft("abcdefghijklmnopqrstuvwxyz", 6), "…vwxyz");
  // Short enough: unchanged.
  EXPECT_EQ(EllipsizeLeft("run/heap.txt", 12), "run/heap.txt");
  EXPECT_EQ(EllipsizeLeft("x", 0), "x");
  // Code points, not bytes: "µ" is one column.
  EXPECT_EQ(EllipsizeLeft("µµµµµµ", 4), "…µµµ");
}

}  // namespace
}  // namespace htpscope::format_util_test
