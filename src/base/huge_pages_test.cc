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

// /proc/buddyinfo as Linux prints it: free blocks of 2^0 .. 2^10 pages.
constexpr std::string_view kBuddyInfo =
    "Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      "
    "1      3 \n"
    "Node 0, zone    DMA32     96     86     36     34     21     20     19     14     14     "
    "15    738 \n"
    "Node 0, zone   Normal  23505   7903   1605    252     83     65     34     21    181    "
    "680   1658 \n";

TEST(FreeBytesInBlocks, CountsBlocksOfAtLeastTheSizeAsked) {
  constexpr size_t kPage = 4096;
  // 2 MiB blocks are order 9 (512 pages): orders 9 and 10 of every zone.
  // DMA 1 × 2 MiB + 3 × 4 MiB, DMA32 15 × 2 MiB + 738 × 4 MiB, Normal 680 × 2 MiB + 1658 × 4 MiB.
  const uint64_t mib = uint64_t{1} << 20;
  EXPECT_EQ(FreeBytesInBlocks(kBuddyInfo, kPage, kTwoMiB),
            (1 + 15 + 680) * 2 * mib + (3 + 738 + 1658) * 4 * mib);
  // 4 MiB blocks: order 10 only.
  EXPECT_EQ(FreeBytesInBlocks(kBuddyInfo, kPage, 2 * kTwoMiB), (3 + 738 + 1658) * 4 * mib);
  // Every block: order 0 counts single pages.
  EXPECT_EQ(FreeBytesInBlocks("Node 0, zone   Normal  3 1\n", kPage, kPage), 3 * kPage + 2 * kPage);
}

TEST(FreeBytesInBlocks, LinesThatDoNotParseCountNothing) {
  EXPECT_EQ(FreeBytesInBlocks("", 4096, kTwoMiB), 0u);
  EXPECT_EQ(FreeBytesInBlocks("garbage\nNode 0 zone\n", 4096, 4096), 0u);
  // A count that is not a number ends its line: the orders before it still count.
  EXPECT_EQ(FreeBytesInBlocks("Node 1, zone Normal 2 x 5\n", 4096, 4096), 2u * 4096);
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
