// Interval arithmetic on half-open [start, end) ranges of one unit (cycles).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace htpscope {

// Length of the union of [start, end) intervals, in the intervals' unit.
// Sorts `intervals` in place by start (unless they already are).
int64_t UnionLength(std::vector<std::pair<int64_t, int64_t>>& intervals);

}  // namespace htpscope
