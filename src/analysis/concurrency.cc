#include "analysis/concurrency.h"

#include <algorithm>
#include <limits>

namespace htpscope {
namespace {

// Sweep events: +1 at a start, -1 at an end; ends sort before starts at the
// same cycle so that touching intervals do not count as concurrent.
struct Edge {
  int64_t cycle;
  int delta;
};

// The sweep events of `intervals`, sorted, in `edges` (cleared first).
// Intervals already in order of start (a timeline's, a thread's) give their
// starts in order: only the ends are sorted, then merged in, instead of
// sorting twice as many mixed events.  The result is the same sequence:
// events equal in cycle and delta are alike.
void SortEdges(std::span<const Interval> intervals, std::vector<Edge>& edges) {
  edges.clear();
  edges.reserve(intervals.size() * 2);
  constexpr size_t kMergeFrom = 64;  // intervals; fewer sort in a blink either way
  const bool by_start =
      intervals.size() >= kMergeFrom &&
      std::is_sorted(intervals.begin(), intervals.end(),
                     [](const Interval& a, const Interval& b) { return a.start < b.start; });
  if (!by_start) {
    for (const auto& iv : intervals) {
      if (iv.end <= iv.start) continue;
      edges.push_back({iv.start, +1});
      edges.push_back({iv.end, -1});
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
      return a.cycle != b.cycle ? a.cycle < b.cycle : a.delta < b.delta;
    });
    return;
  }
  thread_local std::vector<int64_t> ends;
  ends.clear();
  for (const auto& iv : intervals)
    if (iv.end > iv.start) ends.push_back(iv.end);
  std::sort(ends.begin(), ends.end());
  size_t next_end = 0;
  for (const auto& iv : intervals) {
    if (iv.end <= iv.start) continue;
    // Ends at or before this start come first (an end before a start at one cycle).
    while (next_end < ends.size() && ends[next_end] <= iv.start)
      edges.push_back({ends[next_end++], -1});
    edges.push_back({iv.start, +1});
  }
  for (; next_end < ends.size(); ++next_end) edges.push_back({ends[next_end], -1});
}

std::vector<Edge> SortedEdges(std::span<const Interval> intervals) {
  std::vector<Edge> edges;
  SortEdges(intervals, edges);
  return edges;
}

}  // namespace

ConcurrencyStats ComputeConcurrency(const std::vector<Interval>& intervals) {
  ConcurrencyStats s;
  s.intervals = intervals.size();
  if (intervals.empty()) return s;
  s.first_start_cycles = std::numeric_limits<int64_t>::max();
  s.last_end_cycles = std::numeric_limits<int64_t>::min();
  for (const auto& iv : intervals) {
    s.busy_cycles += iv.end - iv.start;
    s.first_start_cycles = std::min(s.first_start_cycles, iv.start);
    s.last_end_cycles = std::max(s.last_end_cycles, iv.end);
  }
  s.span_cycles = s.last_end_cycles - s.first_start_cycles;
  int running = 0;
  int64_t active_since = 0;
  thread_local std::vector<Edge> edges;
  SortEdges(intervals, edges);
  for (const auto& e : edges) {
    if (e.delta > 0 && running == 0) active_since = e.cycle;
    running += e.delta;
    if (running == 0) s.active_cycles += e.cycle - active_since;
    if (running > s.max_concurrency) {
      s.max_concurrency = running;
      s.max_concurrency_at_cycles = e.cycle;
    }
  }
  return s;
}

int64_t OverlapCycles(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  // Tag the two sets apart by sweeping them together.
  struct Tagged {
    int64_t cycle;
    int delta;
    int set;
  };
  // Each set's events are sorted: merged (a's first at a tie, as a stable
  // sort of a's then b's would order them).
  const std::vector<Edge> edges_a = SortedEdges(a), edges_b = SortedEdges(b);
  std::vector<Tagged> events;
  events.reserve(edges_a.size() + edges_b.size());
  size_t i = 0, j = 0;
  while (i < edges_a.size() || j < edges_b.size()) {
    const bool take_b =
        i == edges_a.size() || (j < edges_b.size() && (edges_b[j].cycle != edges_a[i].cycle
                                                           ? edges_b[j].cycle < edges_a[i].cycle
                                                           : edges_b[j].delta < edges_a[i].delta));
    if (take_b) {
      events.push_back({edges_b[j].cycle, edges_b[j].delta, 1});
      ++j;
    } else {
      events.push_back({edges_a[i].cycle, edges_a[i].delta, 0});
      ++i;
    }
  }
  int running[2] = {0, 0};
  int64_t overlap = 0, since = 0;
  for (const auto& e : events) {
    bool before = running[0] > 0 && running[1] > 0;
    running[e.set] += e.delta;
    bool after = running[0] > 0 && running[1] > 0;
    if (!before && after) since = e.cycle;
    if (before && !after) overlap += e.cycle - since;
  }
  return overlap;
}

std::vector<SerializedPair> FindSerializedGroups(
    const std::vector<GroupActivity>& groups, const std::function<bool(size_t, size_t)>& depends) {
  struct Range {
    size_t group;
    int64_t start, end;
  };
  std::vector<Range> ranges;
  for (size_t i = 0; i < groups.size(); ++i) {
    const GroupActivity& g = groups[i];
    // Only the group's span counts here: its first start and last end.
    if (!g.compute || !g.has_slices || g.last_end_cycles - g.first_start_cycles <= 0) continue;
    ranges.push_back({i, g.first_start_cycles, g.last_end_cycles});
  }
  // By start (ties in group order) to find each A's B; ends sorted to see
  // whether another group ends between A's end and B's start.
  std::vector<uint32_t> by_start(ranges.size());
  std::vector<int64_t> ends;
  for (uint32_t i = 0; i < ranges.size(); ++i) {
    by_start[i] = i;
    ends.push_back(ranges[i].end);
  }
  std::stable_sort(by_start.begin(), by_start.end(),
                   [&](uint32_t x, uint32_t y) { return ranges[x].start < ranges[y].start; });
  std::sort(ends.begin(), ends.end());
  std::vector<SerializedPair> out;
  for (const auto& a : ranges) {
    // B: the first compute group to start at or after A's end (never A itself,
    // whose span is positive).
    auto it = std::partition_point(by_start.begin(), by_start.end(),
                                   [&](uint32_t i) { return ranges[i].start < a.end; });
    if (it == by_start.end()) continue;
    const Range* next = &ranges[*it];
    // A must be the last compute group to end at or before B's start: no end
    // in (A's end, B's start] (B's own end lies after its start).
    auto later_end = std::upper_bound(ends.begin(), ends.end(), a.end);
    if (later_end != ends.end() && *later_end <= next->start) continue;
    const auto& ta = groups[a.group].tids;
    const auto& tb = groups[next->group].tids;
    if (ta.size() == 1 && tb.size() == 1 && tb[0] == ta[0])
      continue;  // one thread: they could never overlap
    if (depends(a.group, next->group) || depends(next->group, a.group)) continue;
    out.push_back({std::string(groups[a.group].name), std::string(groups[next->group].name), a.end,
                   next->start});
  }
  return out;
}

}  // namespace htpscope
