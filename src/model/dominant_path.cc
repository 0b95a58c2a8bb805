#include "model/dominant_path.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>
#include <tuple>

#include "base/huge_pages.h"
#include "base/number_text.h"
#include "model/run.h"

namespace htpscope {

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

DominantClass DominantClassOf(const OpInstanceRow& op, uint32_t tid, const TraceTables& run) {
  if (op.flags & kFlagUsesHmx) return DominantClass::kHmx;
  if (op.flags & kFlagUsesHvx) return DominantClass::kHvx;
  if (op.flags & kFlagDma) {
    std::string_view type = run.Str(op.htp_op_type);
    bool write = type.find("OutputSlice") != std::string_view::npos ||
                 type.find("TcmToDram") != std::string_view::npos;
    return write ? DominantClass::kDmaWrite : DominantClass::kDmaRead;
  }
  if (op.flags & (kFlagDmaSet | kFlagDmaWait)) return DominantClass::kDmaCheckpoint;
  if (op.flags & kFlagSync) return DominantClass::kSync;
  std::string_view type = run.Str(op.htp_op_type);
  if (type.find("DmaCheckpoint") != std::string_view::npos) return DominantClass::kDmaCheckpoint;
  if (type.find("SyncOp") != std::string_view::npos) return DominantClass::kSync;
  return UnitKindOfTid(tid) == UnitKind::kHvx ? DominantClass::kHvx : DominantClass::kHmx;
}

ReconstructedPath ReconstructDominantPath(const TraceTables& run) {
  ReconstructedPath path;
  const auto& slices = run.slices;
  path.slice_cycles.assign(slices.size(), 0);
  if (slices.empty()) return path;
  std::vector<DominantClass> cls(slices.size());
  for (size_t i = 0; i < slices.size(); ++i)
    cls[i] = DominantClassOf(run.op_instances[slices[i].instance], slices[i].tid, run);
  // The running slices in a binary heap, highest priority on top: class
  // (high first), then thread id, then start, then index.  An ended slice
  // stays in the heap until it reaches the top (lazy deletion), so each
  // slice is pushed and popped once: O(n log n) without a node per slice.
  struct Active {
    int neg_class;
    uint32_t tid;
    int64_t start_cycle;
    uint32_t slice;
    bool operator>(const Active& o) const {
      return std::tie(neg_class, tid, start_cycle, slice) >
             std::tie(o.neg_class, o.tid, o.start_cycle, o.slice);
    }
  };
  std::vector<Active> active;
  std::vector<uint8_t> ended(slices.size(), 0);
  // Events (cycle, slice, is_start).  Which events share a cycle never
  // matters: the path is emitted only when the cycle advances, from the
  // running set once every event at the previous cycle is applied.
  struct Event {
    int64_t cycle;
    uint32_t slice;
    bool is_start;
  };
  std::vector<Event> events;
  events.reserve(2 * slices.size());
  for (uint32_t i = 0; i < slices.size(); ++i) {
    if (slices[i].dur_cycles <= 0) continue;
    events.push_back({slices[i].start_cycle, i, true});
    events.push_back({slices[i].end_cycle(), i, false});
  }
  std::sort(events.begin(), events.end(),
            [](const Event& a, const Event& b) { return a.cycle < b.cycle; });
  if (events.empty()) return path;
  path.segments.reserve(events.size());  // at most one per event; only what is used is touched
  int64_t first = events.front().cycle;
  int64_t prev = first;
  auto emit = [&](int64_t from, int64_t to, int32_t slice) {
    if (to <= from) return;
    if (!path.segments.empty() && path.segments.back().slice == slice &&
        path.segments.back().end_cycle == from) {
      path.segments.back().end_cycle = to;
    } else {
      DominantSegmentRow seg;
      seg.start_cycle = from;
      seg.end_cycle = to;
      seg.slice = slice;
      seg.idle = slice < 0;
      seg.op_id = slice >= 0 ? slices[slice].op_id : 0;
      path.segments.push_back(seg);
    }
  };
  const auto lower_priority = std::greater<Active>();
  for (const Event& e : events) {
    if (e.cycle > prev) {
      while (!active.empty() && ended[active.front().slice]) {
        std::pop_heap(active.begin(), active.end(), lower_priority);
        active.pop_back();
      }
      emit(prev, e.cycle, active.empty() ? -1 : static_cast<int32_t>(active.front().slice));
      prev = e.cycle;
    }
    if (e.is_start) {
      const SliceRow& s = slices[e.slice];
      active.push_back({-static_cast<int>(cls[e.slice]), s.tid, s.start_cycle, e.slice});
      std::push_heap(active.begin(), active.end(), lower_priority);
    } else {
      ended[e.slice] = 1;
    }
  }
  for (auto& seg : path.segments) {
    if (seg.slice < 0) {
      path.idle_cycles += seg.cycles();
      continue;
    }
    const SliceRow& s = slices[seg.slice];
    seg.partial = seg.start_cycle != s.start_cycle || seg.end_cycle != s.end_cycle();
    path.slice_cycles[seg.slice] += seg.cycles();
  }
  path.wall_cycles = prev - first;
  ReleaseUnusedCapacity(path.segments);  // kept by the run: its last huge page's tail goes back
  return path;
}

namespace {

using PathRow = std::tuple<int64_t, int64_t, uint64_t, bool>;  // start, end, op, partial

PathRow KeyOf(const DominantSegmentRow& s) {
  return {s.start_cycle, s.end_cycle, s.idle ? 0 : s.op_id, s.partial};
}

// A path's rows as sorted keys: read from the path itself when it is in
// order already (paths are written in time order), else a sorted copy.
class SortedPathRows {
 public:
  explicit SortedPathRows(const std::vector<DominantSegmentRow>& path) : path_(&path) {
    auto by_key = [](const DominantSegmentRow& x, const DominantSegmentRow& y) {
      return KeyOf(x) < KeyOf(y);
    };
    if (std::is_sorted(path.begin(), path.end(), by_key)) return;
    copy_.reserve(path.size());
    for (const auto& s : path) copy_.push_back(KeyOf(s));
    std::sort(copy_.begin(), copy_.end());
    path_ = nullptr;
  }
  size_t size() const { return path_ ? path_->size() : copy_.size(); }
  PathRow operator[](size_t i) const { return path_ ? KeyOf((*path_)[i]) : copy_[i]; }

 private:
  const std::vector<DominantSegmentRow>* path_;
  std::vector<PathRow> copy_;
};

}  // namespace

DominantPathComparison CompareDominantPaths(const std::vector<DominantSegmentRow>& ours,
                                            const std::vector<DominantSegmentRow>& qhas) {
  DominantPathComparison cmp;
  for (const auto& s : ours)
    if (s.idle) cmp.ours_idle_cycles += s.cycles();
  for (const auto& s : qhas)
    if (s.idle) cmp.qhas_idle_cycles += s.cycles();
  // Compared as multisets, in one merge of the sorted rows (a row repeated
  // on one side matches as many repeats on the other); the first rows found
  // on one side only are kept to be listed.
  const SortedPathRows a(ours), b(qhas);
  cmp.ours_rows = a.size();
  cmp.qhas_rows = b.size();
  constexpr size_t kMaxListed = 10;
  std::vector<PathRow> only_a, only_b;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    const bool take_a = j == b.size() || (i < a.size() && a[i] < b[j]);
    const bool take_b = i == a.size() || (j < b.size() && b[j] < a[i]);
    if (take_a) {
      if (only_a.size() < kMaxListed) only_a.push_back(a[i]);
      ++i;
    } else if (take_b) {
      if (only_b.size() < 2 * kMaxListed) only_b.push_back(b[j]);
      ++j;
    } else {
      ++cmp.matched_rows;
      ++i;
      ++j;
    }
  }
  auto describe = [](const char* side, const PathRow& r) {
    const auto& [start, end, op, partial] = r;
    return fmt::format("{}: {} [{}, {}) {} cycles{}", side, op ? OpIdHex(op) : "idle",
                       GroupDigits(start), GroupDigits(end), GroupDigits(end - start),
                       partial ? " partial" : "");
  };
  for (size_t k = 0; k < only_a.size() && cmp.differences.size() < kMaxListed; ++k)
    cmp.differences.push_back(describe("only recomputed", only_a[k]));
  for (size_t k = 0; k < only_b.size() && cmp.differences.size() < 2 * kMaxListed; ++k)
    cmp.differences.push_back(describe("only QHAS", only_b[k]));
  return cmp;
}

}  // namespace htpscope
