#include "base/huge_pages.h"

#include <gtest/gtest.h>

#include <memory>

namespace htpscope {
namespace {

constexpr size_t kTwoMiB = size_t{2} << 20;

TEST(WholeHugePages, KeepsOnlyTheAlignedPagesInside) {
  // 0x1'00001000 .. +6 MiB: the first page starts at the next 2 MiB
  // boundary (0x1'00200000), the last ends at the boundary before the end.
  const uintptr_t start = 0x100001000;
  const HugePageSpan span = WholeHugePages(start, 3 * kTwoMiB, kTwoMiB);
  EXPECT_EQ(span.begin, uintptr_t{0x100200000});
  EXPECT_EQ(span.end, uintptr_t{0x100600000});
}

TEST(WholeHugePages, AnAlignedBlockIsWhole) {
  const HugePageSpan span = WholeHugePages(0x40000000, 2 * kTwoMiB, kTwoMiB);
  EXPECT_EQ(span.begin, uintptr_t{0x40000000});
  EXPECT_EQ(span.end, uintptr_t{0x40000000} + 2 * kTwoMiB);
}

TEST(WholeHugePages, EmptyWhenNoWholePageFits) {
  // 2.5 MiB starting 1 MiB past a boundary: no whole 2 MiB page inside.
  HugePageSpan span = WholeHugePages(0x40100000, 5 * kTwoMiB / 4, kTwoMiB);
  EXPECT_EQ(span.begin, span.end);
  span = WholeHugePages(0x40000000, kTwoMiB - 1, kTwoMiB);
  EXPECT_EQ(span.begin, span.end);
  span = WholeHugePages(0x40000000, 8 * kTwoMiB, 0);  // the kernel gave no size
  EXPECT_EQ(span.begin, span.end);
}

TEST(AdviseHugePages, LeavesTheBlockUsable) {
  // A hint only: the block reads back what was written, whatever the kernel did.
  const size_t bytes = 3 * kTwoMiB;
  std::unique_ptr<unsigned char[]> block(new unsigned char[bytes]);
  AdviseHugePages(block.get(), bytes);
  for (size_t i = 0; i < bytes; i += 4096) block[i] = static_cast<unsigned char>(i >> 12);
  for (size_t i = 0; i < bytes; i += 4096) ASSERT_EQ(block[i], static_cast<unsigned char>(i >> 12));
}

}  // namespace
}  // namespace htpscope
