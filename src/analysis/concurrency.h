// Busy time, span and concurrency of sets of op slices, and the overlap of
// two sets (e.g. HMX work against HVX work).
//
// Every figure is in HTP cycles.  Inputs are half-open [start, end)
// intervals, one per optrace slice: a multi-slice op (one ID on several
// threads) contributes one interval per slice; the per-QNN-op duplicates of
// the trace never reach here (the reader keeps the pid-0 copy only).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace htpscope {

struct Interval {
  int64_t start = 0;
  int64_t end = 0;
};

struct ConcurrencyStats {
  uint64_t intervals = 0;
  int64_t first_start_cycles = 0;  // absolute; 0 when there are no intervals
  int64_t last_end_cycles = 0;
  int64_t busy_cycles = 0;    // Σ interval lengths (thread-aggregate work)
  int64_t span_cycles = 0;    // last end − first start
  int64_t active_cycles = 0;  // cycles with at least one interval running (union)
  int max_concurrency = 0;    // most intervals running at one cycle (sweep over starts/ends)
  int64_t max_concurrency_at_cycles = 0;  // first cycle at which that maximum is reached

  // busy ÷ span: above 1 only when intervals run in parallel; 0 when span is 0.
  double busy_over_span() const {
    return span_cycles > 0 ? static_cast<double>(busy_cycles) / static_cast<double>(span_cycles)
                           : 0.0;
  }
};

// One sweep over the starts and ends.  An interval ending at cycle c and one
// starting at c do not overlap (ends are processed first).  Allocates nothing
// after its first calls on a thread (the sweep's edges are kept per thread):
// a timeline calls it once per op group, tens of thousands of times.
ConcurrencyStats ComputeConcurrency(const std::vector<Interval>& intervals);

// Cycles during which at least one interval of `a` and at least one of `b`
// are running.
int64_t OverlapCycles(const std::vector<Interval>& a, const std::vector<Interval>& b);

// What one op group did in time, for the serialization check: views of the
// caller's group (a timeline's), which must outlive the check.
struct GroupActivity {
  std::string_view name;
  // Its slices' first start and last end (cycles); meaningless without slices.
  int64_t first_start_cycles = 0, last_end_cycles = 0;
  bool has_slices = false;
  std::span<const uint32_t> tids;  // hardware threads used, sorted, unique
  bool compute = false;            // holds at least one compute op (not only boundary/system ops)
};

// Two groups that ran one after the other with zero overlap although neither
// depends on the other.
struct SerializedPair {
  std::string first, second;
  int64_t first_end_cycles = 0;
  int64_t second_start_cycles = 0;
  int64_t gap_cycles() const { return second_start_cycles - first_end_cycles; }
};

// Pairs (A, B) of compute groups such that A's last slice ends no later than
// B's first slice starts, they are back to back (B is the first compute group
// to start at or after A's end, and A the last to end at or before B's
// start), they could have overlapped (not both confined to one and the same
// thread), and `depends(a, b)` is false both ways (indices into `groups`).
std::vector<SerializedPair> FindSerializedGroups(
    const std::vector<GroupActivity>& groups, const std::function<bool(size_t, size_t)>& depends);

}  // namespace htpscope
