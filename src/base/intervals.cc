#include "base/intervals.h"

#include <algorithm>

namespace htpscope {

int64_t UnionLength(std::vector<std::pair<int64_t, int64_t>>& intervals) {
  // Only the starts' order matters; a thread's slices mostly come in it.
  auto by_start = [](const auto& a, const auto& b) { return a.first < b.first; };
  if (!std::is_sorted(intervals.begin(), intervals.end(), by_start))
    std::sort(intervals.begin(), intervals.end(), by_start);
  int64_t total = 0;
  bool open = false;
  int64_t run_start = 0, run_end = 0;
  for (const auto& [start, end] : intervals) {
    if (!open || start > run_end) {
      if (open) total += run_end - run_start;
      run_start = start;
      run_end = end;
      open = true;
    } else {
      run_end = std::max(run_end, end);
    }
  }
  if (open) total += run_end - run_start;
  return total;
}

}  // namespace htpscope
