#include "base/intervals.h"

#include <algorithm>

namespace htpscope {

int64_t UnionLength(std::vector<std::pair<int64_t, int64_t>>& intervals) {
  std::sort(intervals.begin(), intervals.end());
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
