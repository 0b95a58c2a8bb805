#include "base/read_progress.h"

#include <atomic>

namespace htpscope::read_progress {
namespace {

std::atomic<uint64_t> g_read{0};
std::atomic<uint64_t> g_expected{0};
std::atomic<bool> g_unknown{false};

}  // namespace

void AddBytesRead(uint64_t bytes) { g_read.fetch_add(bytes, std::memory_order_relaxed); }

void AddBytesExpected(uint64_t bytes) { g_expected.fetch_add(bytes, std::memory_order_relaxed); }

void MarkTotalUnknown() { g_unknown.store(true, std::memory_order_relaxed); }

Snapshot Now() {
  Snapshot s;
  s.bytes_read = g_read.load(std::memory_order_relaxed);
  s.bytes_expected = g_expected.load(std::memory_order_relaxed);
  s.total_known = s.bytes_expected > 0 && !g_unknown.load(std::memory_order_relaxed);
  return s;
}

void Reset() {
  g_read.store(0, std::memory_order_relaxed);
  g_expected.store(0, std::memory_order_relaxed);
  g_unknown.store(false, std::memory_order_relaxed);
}

}  // namespace htpscope::read_progress
