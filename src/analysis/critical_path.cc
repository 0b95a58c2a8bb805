#include "analysis/critical_path.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace htpscope {

CriticalPath LongestPath(const DependencyGraph& graph, const NodeGroups& groups, uint8_t kinds,
                         const std::vector<std::pair<uint32_t, uint32_t>>& dropped) {
  CriticalPath path;
  path.kinds = kinds;
  const size_t n = graph.nodes.size();
  std::set<std::pair<uint32_t, uint32_t>> drop(dropped.begin(), dropped.end());
  std::vector<bool> use(graph.edges.size(), false);
  for (uint32_t e = 0; e < graph.edges.size(); ++e) {
    const DepEdge& edge = graph.edges[e];
    if (!(edge.kinds & kinds)) continue;
    if (drop.count({groups.of_node[edge.from], groups.of_node[edge.to]})) {
      ++path.dropped_edges;
      continue;
    }
    use[e] = true;
  }
  // Kahn's topological order.
  std::vector<int> indegree(n, 0);
  for (uint32_t e = 0; e < graph.edges.size(); ++e)
    if (use[e]) ++indegree[graph.edges[e].to];
  std::vector<uint32_t> order, ready;
  for (uint32_t v = 0; v < n; ++v)
    if (indegree[v] == 0) ready.push_back(v);
  while (!ready.empty()) {
    uint32_t v = ready.back();
    ready.pop_back();
    order.push_back(v);
    for (uint32_t e : graph.out_edges[v])
      if (use[e] && --indegree[graph.edges[e].to] == 0) ready.push_back(graph.edges[e].to);
  }
  if (order.size() != n) {
    // A cycle: keep only the edges that go forward in node order (by start
    // cycle), which the execution itself proves possible.
    path.cycle_broken = true;
    order.clear();
    for (uint32_t v = 0; v < n; ++v) order.push_back(v);
    for (uint32_t e = 0; e < graph.edges.size(); ++e)
      if (graph.edges[e].from >= graph.edges[e].to) use[e] = false;
  }
  std::vector<int64_t> dist(n, 0);
  std::vector<int64_t> via(n, -1);
  for (uint32_t v : order) {
    int64_t best = 0;
    for (uint32_t e : graph.in_edges[v]) {  // ascending predecessor index: ties keep the first
      if (!use[e]) continue;
      uint32_t u = graph.edges[e].from;
      if (via[v] < 0 || dist[u] > best) {
        best = dist[u];
        via[v] = u;
      }
    }
    dist[v] = best + graph.nodes[v].duration_cycles;
  }
  int64_t end = -1;
  for (uint32_t v = 0; v < n; ++v)
    if (end < 0 || dist[v] > dist[end]) end = v;
  if (end < 0) return path;
  path.length_cycles = dist[end];
  for (int64_t v = end; v >= 0; v = via[v]) path.nodes.push_back(static_cast<uint32_t>(v));
  std::reverse(path.nodes.begin(), path.nodes.end());
  return path;
}

const char* DominantClassName(DominantClass c) {
  switch (c) {
    case DominantClass::kIdle:
      return "idle";
    case DominantClass::kSync:
      return "sync";
    case DominantClass::kDmaCheckpoint:
      return "dma_checkpoint";
    case DominantClass::kDmaWrite:
      return "dma_write";
    case DominantClass::kDmaRead:
      return "dma_read";
    case DominantClass::kHvx:
      return "hvx";
    case DominantClass::kHmx:
      return "hmx";
  }
  return "idle";
}

DominantClass DominantClassOf(const OpSlice& slice, const Optrace& trace) {
  if (slice.flags & kFlagUsesHmx) return DominantClass::kHmx;
  if (slice.flags & kFlagUsesHvx) return DominantClass::kHvx;
  if (slice.flags & kFlagDma) {
    std::string_view type = trace.Str(slice.htp_op_type);
    bool write = type.find("OutputSlice") != std::string_view::npos ||
                 type.find("TcmToDram") != std::string_view::npos;
    return write ? DominantClass::kDmaWrite : DominantClass::kDmaRead;
  }
  if (slice.flags & (kFlagDmaSet | kFlagDmaWait)) return DominantClass::kDmaCheckpoint;
  if (slice.flags & kFlagSync) return DominantClass::kSync;
  std::string_view type = trace.Str(slice.htp_op_type);
  if (type.find("DmaCheckpoint") != std::string_view::npos) return DominantClass::kDmaCheckpoint;
  if (type.find("SyncOp") != std::string_view::npos) return DominantClass::kSync;
  return UnitKindOfTid(slice.tid) == UnitKind::kHvx ? DominantClass::kHvx : DominantClass::kHmx;
}

DominantPath ComputeDominantPath(const Optrace& trace) {
  DominantPath path;
  const auto& slices = trace.slices;
  path.slice_cycles.assign(slices.size(), 0);
  if (slices.empty()) return path;
  std::vector<DominantClass> cls(slices.size());
  for (size_t i = 0; i < slices.size(); ++i) cls[i] = DominantClassOf(slices[i], trace);
  // Active slices ordered by priority: class (high first), then thread id,
  // then start, then index.
  auto key = [&](uint32_t i) {
    return std::make_tuple(-static_cast<int>(cls[i]), slices[i].tid, slices[i].start_cycles, i);
  };
  auto less = [&](uint32_t a, uint32_t b) { return key(a) < key(b); };
  std::set<uint32_t, decltype(less)> active(less);
  // Events: (cycle, is_start, slice); ends first at equal cycles.
  std::vector<std::tuple<int64_t, int, uint32_t>> events;
  for (uint32_t i = 0; i < slices.size(); ++i) {
    if (slices[i].dur_cycles <= 0) continue;
    events.emplace_back(slices[i].start_cycles, 1, i);
    events.emplace_back(slices[i].end_cycles(), 0, i);
  }
  std::sort(events.begin(), events.end());
  if (events.empty()) return path;
  int64_t first = std::get<0>(events.front());
  int64_t prev = first;
  auto emit = [&](int64_t from, int64_t to, int32_t slice) {
    if (to <= from) return;
    if (!path.segments.empty() && path.segments.back().slice == slice &&
        path.segments.back().end_cycles == from) {
      path.segments.back().end_cycles = to;
    } else {
      DominantSegment seg;
      seg.start_cycles = from;
      seg.end_cycles = to;
      seg.slice = slice;
      seg.op_id = slice >= 0 ? slices[slice].op_id : 0;
      path.segments.push_back(seg);
    }
  };
  for (const auto& [cycle, is_start, i] : events) {
    if (cycle > prev) {
      emit(prev, cycle, active.empty() ? -1 : static_cast<int32_t>(*active.begin()));
      prev = cycle;
    }
    if (is_start)
      active.insert(i);
    else
      active.erase(i);
  }
  for (auto& seg : path.segments) {
    if (seg.slice < 0) {
      path.idle_cycles += seg.cycles();
      continue;
    }
    const OpSlice& s = slices[seg.slice];
    seg.partial = seg.start_cycles != s.start_cycles || seg.end_cycles != s.end_cycles();
    path.slice_cycles[seg.slice] += seg.cycles();
  }
  path.wall_cycles = prev - first;
  return path;
}

DominantPathComparison CompareDominantPath(const DominantPath& ours,
                                           const std::vector<QhasPathSegment>& qhas) {
  using Row = std::tuple<int64_t, int64_t, uint64_t, bool>;  // start, end, op, partial
  std::multiset<Row> a, b;
  DominantPathComparison cmp;
  for (const auto& s : ours.segments) {
    a.insert({s.start_cycles, s.end_cycles, s.op_id, s.partial});
    if (s.slice < 0) cmp.ours_idle_cycles += s.cycles();
  }
  for (const auto& s : qhas) {
    b.insert({s.start_cycle, s.end_cycle, s.is_idle() ? 0 : s.op_id, s.partial});
    if (s.is_idle()) cmp.qhas_idle_cycles += s.dp_cycles;
  }
  cmp.ours_rows = a.size();
  cmp.qhas_rows = b.size();
  std::vector<Row> only_a, only_b;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(only_a));
  std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(only_b));
  cmp.matched_rows = a.size() - only_a.size();
  auto describe = [](const char* side, const Row& r) {
    const auto& [start, end, op, partial] = r;
    return fmt::format("{}: {} [{}, {}) {} cycles{}", side, op ? OpIdHex(op) : "idle", start, end,
                       end - start, partial ? " partial" : "");
  };
  constexpr size_t kMaxListed = 10;
  for (size_t i = 0; i < only_a.size() && cmp.differences.size() < kMaxListed; ++i)
    cmp.differences.push_back(describe("only recomputed", only_a[i]));
  for (size_t i = 0; i < only_b.size() && cmp.differences.size() < 2 * kMaxListed; ++i)
    cmp.differences.push_back(describe("only QHAS", only_b[i]));
  return cmp;
}

}  // namespace htpscope
