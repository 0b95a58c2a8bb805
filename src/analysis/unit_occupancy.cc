#include "analysis/unit_occupancy.h"

#include <algorithm>
#include <map>

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

std::vector<UnitOccupancy> ComputeUnitOccupancy(const Optrace& trace) {
  std::map<uint32_t, std::vector<std::pair<int64_t, int64_t>>> by_tid;
  std::map<uint32_t, UnitOccupancy> units;
  for (const auto& s : trace.slices) {
    by_tid[s.tid].emplace_back(s.start_cycles, s.end_cycles());
    auto [it, inserted] = units.try_emplace(s.tid);
    UnitOccupancy& u = it->second;
    if (inserted) {
      u.tid = s.tid;
      u.kind = UnitKindOfTid(s.tid);
      u.first_start_cycles = s.start_cycles;
      u.last_end_cycles = s.end_cycles();
    }
    u.busy_cycles += s.dur_cycles;
    u.first_start_cycles = std::min(u.first_start_cycles, s.start_cycles);
    u.last_end_cycles = std::max(u.last_end_cycles, s.end_cycles());
    ++u.slice_count;
  }
  std::vector<UnitOccupancy> out;
  for (auto& [tid, unit] : units) {
    unit.cycles_used = UnionLength(by_tid[tid]);
    out.push_back(unit);
  }
  return out;
}

}  // namespace htpscope
