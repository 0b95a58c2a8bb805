#include "base/huge_pages.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

namespace htpscope::huge_pages_test {
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

// /sys/bus/virtio/devices/virtioN/{device,features} as Linux prints them;
// the balloon's features are those of a Firecracker guest (bits 1, 2 and 5:
// statistics, deflate on OOM, free page reporting; bit 32: VERSION_1).
constexpr std::string_view kBalloonId = "0x0005\n";
constexpr std::string_view kReportingBalloonFeatures =
    "0110010000000000000000000000000010000000000000000000000000000000\n";

TEST(BalloonReportsFreePages, AReportingBalloonIsFound) {
  EXPECT_TRUE(BalloonReportsFreePages(kBalloonId, kReportingBalloonFeatures));
  EXPECT_TRUE(BalloonReportsFreePages("0x0005", "000001"));  // no newline, bit 5 last
}

TEST(BalloonReportsFreePages, OtherDevicesAndBalloonsThatDoNotReportAreNot) {
  // A balloon without bit 5 (statistics and deflate on OOM only).
  EXPECT_FALSE(BalloonReportsFreePages(kBalloonId, "0110000000000000\n"));
  // A block device (id 2) whose bit 5 is set means something else.
  EXPECT_FALSE(BalloonReportsFreePages("0x0002\n", kReportingBalloonFeatures));
  // Too few bits, or files that could not be read.
  EXPECT_FALSE(BalloonReportsFreePages(kBalloonId, "01100"));
  EXPECT_FALSE(BalloonReportsFreePages("", ""));
}

TEST(AdviseHugePages, LeavesTheBlockUsable) {
  // A hint only: the block reads back what was written, whatever the kernel did.
  const size_t bytes = 3 * kTwoMiB;
  std::unique_ptr<unsigned char[]> block(new unsigned char[bytes]);
  AdviseHugePages(block.get(), bytes);
  for (size_t i = 0; i < bytes; i += 4096) block[i] = static_cast<unsigned char>(i >> 12);
  for (size_t i = 0; i < bytes; i += 4096) ASSERT_EQ(block[i], static_cast<unsigned char>(i >> 12));
}

// The used bytes keep their values, the partial page after them too; every
// whole page past them is handed back and reads as zeros.
TEST(ReleaseUnusedCapacity, ReleasesWholePagesPastTheUsedBytesOnly) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t capacity = 3 * kTwoMiB;
  std::unique_ptr<unsigned char[]> block(new unsigned char[capacity]);
  AdviseHugePages(block.get(), capacity);
  std::memset(block.get(), 0xab, capacity);
  const size_t used = kTwoMiB + 100;  // inside a page
  ReleaseUnusedCapacity(block.get(), used, capacity);
  const auto start = reinterpret_cast<uintptr_t>(block.get());
  const size_t first_released = ((start + used + page - 1) / page) * page - start;
  const size_t end_released = ((start + capacity) / page) * page - start;
  ASSERT_LT(first_released, end_released);
  size_t kept = 0, zeroed = 0;
  for (size_t i = 0; i < capacity; ++i) {
    const bool released = i >= first_released && i < end_released;
    kept += !released && block[i] == 0xab;
    zeroed += released && block[i] == 0;
  }
  EXPECT_EQ(kept, capacity - (end_released - first_released));
  EXPECT_EQ(zeroed, end_released - first_released);
}

TEST(ReleaseUnusedCapacity, NothingToReleaseIsANoOp) {
  std::vector<int> full(1000, 7);
  full.shrink_to_fit();
  ReleaseUnusedCapacity(full);  // size == capacity
  EXPECT_EQ(std::count(full.begin(), full.end(), 7), 1000);
  std::vector<int> empty;
  ReleaseUnusedCapacity(empty);  // no storage
  ReleaseUnusedCapacity(nullptr, 0, 1 << 20);
  std::vector<int> small;
  small.reserve(100);
  small.assign(10, 3);
  ReleaseUnusedCapacity(small);  // less than a page past the used bytes
  EXPECT_EQ(std::count(small.begin(), small.end(), 3), 10);
}

}  // namespace
}  // namespace htpscope::huge_pages_test
