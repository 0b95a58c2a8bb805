// Transparent huge pages for the big arrays the readers and tables grow.
//
// A run's tables and the readers' per-chunk arrays are hundreds of MB that
// are written once, front to back.  In 4 KiB pages each is faulted in page
// by page (a 1.25 GB run directory took ~275 000 faults, a fifth of the
// CPU time); in 2 MiB pages the kernel faults it in 512 times fewer steps.
// The policy is the kernel's: nothing changes when transparent huge pages are
// "never", and with "madvise" (Debian's default) only advised memory gets them.
// Advised memory may make a fault compact memory when no free 2 MiB block is
// left, which stalls instead of helping: blocks are advised only while the
// kernel reports at least 1 GiB free in blocks of a huge page or more.
// Nor are they advised on a virtual machine whose host takes back the
// guest's free pages (virtio balloon free page reporting, as Firecracker and
// QEMU offer): the host drops the free blocks of a huge page or more that
// the guest reports, so each fresh huge page is faulted in again on the
// host, at 0.5-0.9 GB/s where 4 KiB pages fault in at ~3 GB/s
// (docs/performance.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace htpscope {

// The whole huge pages inside [address, address + bytes): [begin, end),
// empty (begin == end) when no page of `huge_page_bytes` (a power of two)
// fits.  Addresses in bytes.
struct HugePageSpan {
  uintptr_t begin = 0;
  uintptr_t end = 0;
};
HugePageSpan WholeHugePages(uintptr_t address, size_t bytes, size_t huge_page_bytes);

// No machine has smaller transparent huge pages (x86-64 and 4 KiB-page
// arm64: 2 MiB): blocks under this are never advised.
inline constexpr size_t kSmallestHugePageBytes = size_t{2} << 20;

// Bytes free in blocks of at least `block_bytes`, from the text of
// /proc/buddyinfo: per zone, "Node 0, zone   Normal  23505 7903 ... 1658",
// the free blocks of 2^k pages of `page_bytes` for k = 0, 1, ...  Lines that
// do not parse count nothing.
uint64_t FreeBytesInBlocks(std::string_view buddyinfo, size_t page_bytes, size_t block_bytes);

// Whether a virtio device, by its sysfs `device` id ("0x0005", a balloon)
// and `features` text (one '0' or '1' per feature bit, bit 0 first), is a
// balloon that reports the guest's free pages to the host (bit 5,
// VIRTIO_BALLOON_F_REPORTING).
bool BalloonReportsFreePages(std::string_view device_id, std::string_view feature_bits);

// The huge page size AdviseHugePages uses, in bytes: the kernel's
// transparent huge page size (/sys/kernel/mm/transparent_hugepage/
// hpage_pmd_size), or 0 when the kernel does not say, has less than
// kMinFreeHugeBlockBytes free in blocks of that size (/proc/buddyinfo), or
// runs on a host that takes back free pages (BalloonReportsFreePages).
// Read once; allocates nothing (operator new calls it).
inline constexpr uint64_t kMinFreeHugeBlockBytes = uint64_t{1} << 30;
size_t AdvisedHugePageBytes();

// Advises the kernel to back the whole huge pages of a block of `bytes`
// bytes at `block` with huge pages (madvise MADV_HUGEPAGE).  A hint: does
// nothing for blocks smaller than a huge page or when AdvisedHugePageBytes()
// is 0, and ignores refusal.
void AdviseHugePages(void* block, size_t bytes);

// Hands back to the kernel the pages of an array's storage past its used
// bytes: [data + used_bytes, data + capacity_bytes), whole pages of the
// system's page size only (madvise MADV_DONTNEED).  For an array that will
// not grow again, whose last huge page was faulted in whole by its last
// element; they read as zeros if touched again.  Sizes in bytes.
void ReleaseUnusedCapacity(void* data, size_t used_bytes, size_t capacity_bytes);

// Faults in the whole pages of [block, block + bytes) for writing, half of
// them on a second thread (madvise MADV_POPULATE_WRITE), so that an array
// about to be filled on one thread has its fresh pages zeroed by the kernel
// on both cores: on the virtual machines this runs on, zeroing is most of
// the time such a fill takes.  A hint: nothing is done for less than
// kParallelPrefaultMinBytes, and a kernel without the advice (before Linux
// 5.14) leaves the faults to the fill.  Sizes in bytes.
inline constexpr size_t kParallelPrefaultMinBytes = size_t{8} << 20;
void PrefaultInParallel(void* block, size_t bytes);

// Makes room in `array` for `count` elements in all, its fresh capacity
// faulted in on both cores (PrefaultInParallel): for the big arrays a serial
// step fills.
template <typename Array>
void ReservePrefaulted(Array& array, size_t count) {
  array.reserve(count);
  if (count > array.size())
    PrefaultInParallel(array.data() + array.size(), (count - array.size()) * sizeof(array[0]));
}

// The same for a std::vector-like array.
template <typename Array>
void ReleaseUnusedCapacity(Array& array) {
  ReleaseUnusedCapacity(array.data(), array.size() * sizeof(array[0]),
                        array.capacity() * sizeof(array[0]));
}

}  // namespace htpscope
