// Transparent huge pages for the big arrays the readers and tables grow.
//
// A run's tables and the readers' per-chunk arrays are hundreds of MB that
// are written once, front to back.  In 4 KiB pages each is faulted in page
// by page (a 1.25 GB run directory took ~275 000 faults, a quarter of the
// CPU time); in 2 MiB pages the kernel faults it in 512 times fewer steps.
// The policy is the kernel's: nothing changes when transparent huge pages are
// "never", and with "madvise" (Debian's default) only advised memory gets them.
#pragma once

#include <cstddef>
#include <cstdint>

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

// The size of a transparent huge page on this machine in bytes
// (/sys/kernel/mm/transparent_hugepage/hpage_pmd_size, read once), or 0
// when the kernel does not say (then AdviseHugePages does nothing).
// Allocates nothing: operator new calls it.
size_t TransparentHugePageBytes();

// Advises the kernel to back the whole huge pages of a block of `bytes`
// bytes at `block` with huge pages (madvise MADV_HUGEPAGE).  A hint: does
// nothing for blocks smaller than a huge page, and ignores refusal.
void AdviseHugePages(void* block, size_t bytes);

}  // namespace htpscope
