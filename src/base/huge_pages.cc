#include "base/huge_pages.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <cstdio>
#include <future>

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

// The first bytes of `path` (at most `capacity`) into `buffer`, read with
// plain system calls: this runs inside operator new, so it must not
// allocate.  Returns how many were read (0 when the file cannot be read).
size_t ReadFileStart(const char* path, char* buffer, size_t capacity) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  size_t length = 0;
  for (ssize_t n; length < capacity && (n = ::read(fd, buffer + length, capacity - length)) > 0;)
    length += static_cast<size_t>(n);
  ::close(fd);
  return length;
}

// The transparent huge page size in bytes, or 0 when the kernel does not say.
size_t ReadHugePageBytes() {
  char text[32];
  const size_t n =
      ReadFileStart("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", text, sizeof text);
  const char* end = text + n;
  while (end > text && (end[-1] == '\n' || end[-1] == ' ')) --end;
  size_t value = 0;
  auto [ptr, ec] = std::from_chars(text, end, value);
  // A power of two, or nothing: the span arithmetic needs one.
  if (end == text || ec != std::errc() || ptr != end || value == 0 || (value & (value - 1)) != 0)
    return 0;
  return value;
}

void SkipSpaces(std::string_view& text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
}

// Whether a virtio balloon device of this machine reports free pages to the
// host (/sys/bus/virtio/devices/virtioN: its device id and feature bits).
bool HostReclaimsFreePages() {
  constexpr int kMaxVirtioDevices = 64;  // sysfs numbers them from 0; gaps are skipped
  for (int n = 0; n < kMaxVirtioDevices; ++n) {
    char path[64], device[16], features[160];
    std::snprintf(path, sizeof path, "/sys/bus/virtio/devices/virtio%d/device", n);
    const size_t device_length = ReadFileStart(path, device, sizeof device);
    if (device_length == 0) continue;
    std::snprintf(path, sizeof path, "/sys/bus/virtio/devices/virtio%d/features", n);
    const size_t features_length = ReadFileStart(path, features, sizeof features);
    if (BalloonReportsFreePages(std::string_view(device, device_length),
                                std::string_view(features, features_length)))
      return true;
  }
  return false;
}

size_t ReadAdvisedHugePageBytes() {
  const size_t huge = ReadHugePageBytes();
  const long page = ::sysconf(_SC_PAGESIZE);
  if (huge == 0 || page <= 0 || HostReclaimsFreePages()) return 0;
  char text[16384];  // a line per zone and node: ample for any machine this runs on
  const size_t length = ReadFileStart("/proc/buddyinfo", text, sizeof text);
  const uint64_t free_bytes =
      FreeBytesInBlocks(std::string_view(text, length), static_cast<size_t>(page), huge);
  return free_bytes >= kMinFreeHugeBlockBytes ? huge : 0;
}

}  // namespace

bool BalloonReportsFreePages(std::string_view device_id, std::string_view feature_bits) {
  while (!device_id.empty() && (device_id.back() == '\n' || device_id.back() == ' '))
    device_id.remove_suffix(1);
  constexpr size_t kFreePageReportingBit = 5;  // VIRTIO_BALLOON_F_REPORTING
  return device_id == "0x0005" && feature_bits.size() > kFreePageReportingBit &&
         feature_bits[kFreePageReportingBit] == '1';
}

uint64_t FreeBytesInBlocks(std::string_view buddyinfo, size_t page_bytes, size_t block_bytes) {
  uint64_t total = 0;
  while (!buddyinfo.empty()) {
    const size_t eol = buddyinfo.find('\n');
    std::string_view line = buddyinfo.substr(0, eol);
    buddyinfo.remove_prefix(eol == std::string_view::npos ? buddyinfo.size() : eol + 1);
    // "Node 0, zone   Normal  23505   7903 ...": the counts follow the zone's name.
    const size_t zone = line.find(" zone ");
    if (line.substr(0, 5) != "Node " || zone == std::string_view::npos) continue;
    line.remove_prefix(zone + 6);
    SkipSpaces(line);
    while (!line.empty() && line.front() != ' ' && line.front() != '\t') line.remove_prefix(1);
    for (unsigned order = 0;; ++order) {
      SkipSpaces(line);
      if (line.empty()) break;
      uint64_t count = 0;
      auto [ptr, ec] = std::from_chars(line.data(), line.data() + line.size(), count);
      if (ec != std::errc() || order >= 48) break;
      line.remove_prefix(static_cast<size_t>(ptr - line.data()));
      const uint64_t block = uint64_t{page_bytes} << order;
      if (block >= block_bytes) total += count * block;
    }
  }
  return total;
}

size_t AdvisedHugePageBytes() {
  // Not a function-local static: its guard would be re-entered when the
  // first call comes from operator new.  Two threads may both read; they
  // read the same value.
  constexpr size_t kNotRead = ~size_t{0};
  static std::atomic<size_t> bytes{kNotRead};
  size_t value = bytes.load(std::memory_order_relaxed);
  if (value == kNotRead) {
    value = ReadAdvisedHugePageBytes();
    bytes.store(value, std::memory_order_relaxed);
  }
  return value;
}

void AdviseHugePages(void* block, size_t bytes) {
  if (bytes < kSmallestHugePageBytes) return;  // the common case, with no system call
  // Empty when huge pages are not advised (0) or none fits in the block.
  const HugePageSpan span =
      WholeHugePages(reinterpret_cast<uintptr_t>(block), bytes, AdvisedHugePageBytes());
  if (span.begin < span.end)
    ::madvise(reinterpret_cast<void*>(span.begin), span.end - span.begin, MADV_HUGEPAGE);
}

void PrefaultInParallel(void* block, size_t bytes) {
  static const long page = ::sysconf(_SC_PAGESIZE);
  if (block == nullptr || page <= 0 || bytes < kParallelPrefaultMinBytes) return;
  const HugePageSpan span =
      WholeHugePages(reinterpret_cast<uintptr_t>(block), bytes, static_cast<size_t>(page));
  if (span.begin >= span.end) return;
  // Split at a huge page boundary where there is one, so that no huge page
  // is faulted from both halves.
  const uintptr_t middle_page =
      (span.begin + (span.end - span.begin) / 2) & ~(uintptr_t{kSmallestHugePageBytes} - 1);
  const uintptr_t middle = middle_page > span.begin ? middle_page : span.end;
  auto populate = [](uintptr_t begin, uintptr_t end) {
    if (begin < end) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
  };
  std::future<void> second =
      std::async(std::launch::async | std::launch::deferred, populate, middle, span.end);
  populate(span.begin, middle);
  second.get();
}

void ReleaseUnusedCapacity(void* data, size_t used_bytes, size_t capacity_bytes) {
  static const long page = ::sysconf(_SC_PAGESIZE);
  if (data == nullptr || page <= 0 || capacity_bytes <= used_bytes) return;
  // The whole pages inside the unused bytes, as for huge pages inside a block.
  const HugePageSpan span = WholeHugePages(reinterpret_cast<uintptr_t>(data) + used_bytes,
                                           capacity_bytes - used_bytes, static_cast<size_t>(page));
  if (span.begin < span.end)
    ::madvise(reinterpret_cast<void*>(span.begin), span.end - span.begin, MADV_DONTNEED);
}

}  // namespace htpscope
