#include "base/huge_pages.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <charconv>

namespace htpscope {

HugePageSpan WholeHugePages(uintptr_t address, size_t bytes, size_t huge_page_bytes) {
  if (huge_page_bytes == 0 || bytes < huge_page_bytes) return {};
  const uintptr_t mask = ~(static_cast<uintptr_t>(huge_page_bytes) - 1);
  const uintptr_t begin = (address + huge_page_bytes - 1) & mask;
  const uintptr_t end = (address + bytes) & mask;
  if (begin >= end) return {};
  return {begin, end};
}

namespace {

// Read with plain system calls into a stack buffer: this runs inside
// operator new, so it must not allocate.
size_t ReadHugePageBytes() {
  const int fd = ::open("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[32];
  const ssize_t n = ::read(fd, text, sizeof text);
  ::close(fd);
  if (n <= 0) return 0;
  const char* end = text + n;
  while (end > text && (end[-1] == '\n' || end[-1] == ' ')) --end;
  size_t value = 0;
  auto [ptr, ec] = std::from_chars(text, end, value);
  // A power of two, or nothing: the span arithmetic needs one.
  if (ec != std::errc() || ptr != end || value == 0 || (value & (value - 1)) != 0) return 0;
  return value;
}

constexpr size_t kNotRead = ~size_t{0};

}  // namespace

size_t TransparentHugePageBytes() {
  // Not a function-local static: its guard would be re-entered when the
  // first call comes from operator new.  Two threads may both read; they
  // read the same value.
  static std::atomic<size_t> bytes{kNotRead};
  size_t value = bytes.load(std::memory_order_relaxed);
  if (value == kNotRead) {
    value = ReadHugePageBytes();
    bytes.store(value, std::memory_order_relaxed);
  }
  return value;
}

void AdviseHugePages(void* block, size_t bytes) {
  if (bytes < kSmallestHugePageBytes) return;  // the common case, with no system call
  const size_t huge = TransparentHugePageBytes();
  if (huge == 0 || bytes < huge) return;
  const HugePageSpan span = WholeHugePages(reinterpret_cast<uintptr_t>(block), bytes, huge);
  if (span.begin < span.end)
    ::madvise(reinterpret_cast<void*>(span.begin), span.end - span.begin, MADV_HUGEPAGE);
}

}  // namespace htpscope
