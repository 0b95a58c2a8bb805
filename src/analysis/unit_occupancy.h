// How busy each hardware thread of the HTP was in a traced execution.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/optrace.h"

namespace htpscope {

struct UnitOccupancy {
  uint32_t tid = 0;
  UnitKind kind = UnitKind::kUnknown;
  // Cycles during which at least one slice ran on this thread (union of the
  // slices' intervals): what QHAS calls cycles_used.
  int64_t cycles_used = 0;
  // Σ slice durations on this thread; exceeds cycles_used only when slices on
  // one thread overlap.
  int64_t busy_cycles = 0;
  int64_t first_start_cycles = 0;  // absolute
  int64_t last_end_cycles = 0;     // absolute
  uint64_t slice_count = 0;
};

// Occupancy of every thread present in the trace, ordered by tid.
std::vector<UnitOccupancy> ComputeUnitOccupancy(const Optrace& trace);

// Length of the union of [start, end) intervals, in the intervals' unit.
// Sorts `intervals` in place.
int64_t UnionLength(std::vector<std::pair<int64_t, int64_t>>& intervals);

}  // namespace htpscope
