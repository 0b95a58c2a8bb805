#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <memory>

#include "base/sort_util.h"
#include "model/dominant_path.h"
#include "model/import.h"

namespace htpscope::model_import {
namespace {

// The slices' (op ID, slice index) pairs in ascending order, as two sorted
// halves: each half is filled and sorted on its own core, and read in
// merged order through a Cursor, so no merged copy is made.
class SortedSliceIds {
 public:
  struct IdAndSlice {
    uint64_t id;
    uint32_t slice;
    bool operator<(const IdAndSlice& o) const { return id != o.id ? id < o.id : slice < o.slice; }
  };

  explicit SortedSliceIds(const std::vector<OpSlice>& slices)
      : n_(static_cast<uint32_t>(slices.size())),
        half_(n_ < kSecondCoreFrom ? n_ : n_ / 2),
        pairs_(new IdAndSlice[n_]) {  // not zeroed: each half is written by the core sorting it
    // Returns the distinct IDs of the half.
    auto sort = [&](uint32_t begin, uint32_t end) {
      for (uint32_t i = begin; i < end; ++i) pairs_[i] = {slices[i].op_id, i};
      std::sort(pairs_.get() + begin, pairs_.get() + end);
      size_t distinct = 0;
      for (uint32_t i = begin; i < end; ++i)
        distinct += i == begin || pairs_[i - 1].id != pairs_[i].id;
      return distinct;
    };
    if (half_ == n_) {
      distinct_bound_ = sort(0, n_);
      return;
    }
    auto first_half = std::async(std::launch::async, sort, 0, half_);
    distinct_bound_ = sort(half_, n_);
    distinct_bound_ += first_half.get();
  }

  // The distinct IDs, counting once more each ID found in both halves: an
  // upper bound, exact when no ID spans the halves.
  size_t distinct_bound() const { return distinct_bound_; }

  // Steps through the pairs in ascending order: after each true Next(),
  // slice() is the pair's slice and NewId() whether its ID differs from the
  // previous pair's (true for the first).
  class Cursor {
   public:
    explicit Cursor(const SortedSliceIds& ids) : ids_(ids), a_(0), b_(ids.half_) {}
    bool Next() {
      const bool a_left = a_ < ids_.half_, b_left = b_ < ids_.n_;
      if (!a_left && !b_left) return false;
      const IdAndSlice* pairs = ids_.pairs_.get();
      const IdAndSlice& next =
          a_left && (!b_left || pairs[a_] < pairs[b_]) ? pairs[a_++] : pairs[b_++];
      new_id_ = first_ || next.id != id_;
      first_ = false;
      id_ = next.id;
      slice_ = next.slice;
      return true;
    }
    uint32_t slice() const { return slice_; }
    bool NewId() const { return new_id_; }

   private:
    const SortedSliceIds& ids_;
    uint32_t a_, b_;  // next pair of each half
    uint64_t id_ = 0;
    uint32_t slice_ = 0;
    bool first_ = true, new_id_ = false;
  };
  Cursor Walk() const { return Cursor(*this); }

 private:
  static constexpr uint32_t kSecondCoreFrom = 1u << 15;  // slices; fewer sort in a blink
  uint32_t n_, half_;
  std::unique_ptr<IdAndSlice[]> pairs_;
  size_t distinct_bound_ = 0;
};

// Builds tables.op_instances, one per op ID in ascending ID order, from the
// optrace's slices; returns the slices in that (walk) order, where instance k
// owns walk[first_slice_k, first_slice_k + slice_count_k).  Counts the slices
// whose op-level figures disagree with their ID's first slice in *mismatches.
std::vector<uint32_t> BuildInstances(const Optrace& trace, TraceTables& tables,
                                     size_t* mismatches) {
  // Slices grouped by op ID through a sort of (ID, slice index) pairs: a
  // hash map probes memory at random for each of hundreds of thousands of
  // slices, while the IDs arrive nearly sorted.  The pairs are freed on
  // return, before the slice table is made (4 MB off the import's peak).
  SortedSliceIds ids(trace.slices);
  std::vector<OpInstanceRow>& ops = tables.op_instances;
  // No doubling at the memory peak; capacity past the end is never touched.
  ops.reserve(ids.distinct_bound());
  std::vector<uint32_t> walk;
  walk.reserve(trace.slices.size());
  for (auto pair = ids.Walk(); pair.Next();) {
    const uint32_t i = pair.slice();
    const OpSlice& s = trace.slices[i];
    const OpSliceArgs& a = trace.slice_args[i];
    const bool inserted = pair.NewId();
    if (inserted) {
      OpInstanceRow op;
      op.op_id = s.op_id;
      op.htp_op_type = a.htp_op_type;
      op.qnn_op_name = a.qnn_op_name;
      op.qnn_op_type = a.qnn_op_type;
      op.data_type = a.data_type;
      op.description = a.description;
      op.op_start_cycle = a.op_start_cycles;
      op.op_duration_cycles = a.op_duration_cycles;
      op.dpc_cycles = a.dpc_cycles;
      op.trace_dpc_cycles = a.dpc_cycles;
      op.dpc_basis = DpcBasis::kOptrace;
      op.cycles_per_packet = a.cycles_per_packet;
      op.dims_begin = a.dims_begin;
      op.dims_count = a.dims_count;
      op.inputs_begin = a.inputs_begin;
      op.inputs_count = a.inputs_count;
      op.first_start_cycle = s.start_cycles;
      op.last_end_cycle = s.end_cycles();
      op.first_slice = static_cast<uint32_t>(walk.size());  // into `walk` until renumbered
      op.source = Source::kOptrace;
      ops.push_back(op);
    }
    OpInstanceRow& op = ops.back();
    if (!inserted &&
        (op.op_start_cycle != a.op_start_cycles || op.op_duration_cycles != a.op_duration_cycles ||
         op.dpc_cycles != a.dpc_cycles))
      ++*mismatches;
    op.work_cycles += s.dur_cycles;
    op.first_start_cycle = std::min(op.first_start_cycle, s.start_cycles);
    op.last_end_cycle = std::max(op.last_end_cycle, s.end_cycles());
    op.flags |= s.flags;
    ++op.slice_count;
    UnitKind unit = UnitKindOfTid(s.tid);
    op.on_hmx_thread = op.on_hmx_thread || unit == UnitKind::kHmx;
    op.on_hvx_thread = op.on_hvx_thread || unit == UnitKind::kHvx;
    walk.push_back(i);
  }
  return walk;
}

// Builds tables.op_instances (by first start, then ID) and tables.slices (by
// instance, then start, then tid) from the optrace's slices.  The slices'
// op-level args are freed once the instances hold them, before the slice
// table is made: the import's memory peak.
void JoinSlices(Optrace& trace, TraceTables& tables, std::vector<WarningRow>& warnings) {
  size_t mismatches = 0;
  const std::vector<uint32_t> walk = BuildInstances(trace, tables, &mismatches);
  std::vector<OpSliceArgs>().swap(trace.slice_args);
  std::vector<OpInstanceRow>& ops = tables.op_instances;
  OpClassifier classify(trace.strings);
  for (auto& op : ops) op.category = classify(op.htp_op_type, op.qnn_op_type, op.flags);
  // By first start, then ID (the order they are in): the 136-byte rows
  // moved once by their keys' order, not swapped through a sort (on a
  // million ops the in-place sort took 44 ms, 7.6x its time on a quarter).
  std::vector<uint32_t> order = StableOrderByKeys(
      ops.size(), [&ops](size_t i) { return ops[i].first_start_cycle; }, std::less<>());
  ApplyPermutation(ops, order);
  // The slice table in instance order; each instance's slices by start, tid.
  tables.slices.resize(walk.size());
  uint32_t next = 0;
  for (uint32_t k = 0; k < ops.size(); ++k) {
    OpInstanceRow& op = ops[k];
    const uint32_t walk_begin = op.first_slice;
    op.first_slice = next;
    for (uint32_t w = walk_begin; w < walk_begin + op.slice_count; ++w) {
      const OpSlice& s = trace.slices[walk[w]];
      tables.slices[next++] = {s.op_id, s.start_cycles, s.dur_cycles, s.tid, k};
    }
    if (op.slice_count > 1)
      std::sort(tables.slices.begin() + op.first_slice, tables.slices.begin() + next,
                [](const SliceRow& a, const SliceRow& b) {
                  return a.start_cycle != b.start_cycle ? a.start_cycle < b.start_cycle
                                                        : a.tid < b.tid;
                });
  }
  if (mismatches)
    Warn(warnings, WarningCode::reader,
         fmt::format("{}: {} slices disagree with another slice of the same op ID on op-level "
                     "Start Cycle / Duration / DPC; the first slice's values are used",
                     trace.path, mismatches));
}

}  // namespace

void ImportOptrace(Optrace&& trace, TraceTables& tables, std::vector<WarningRow>& warnings) {
  for (const auto& w : trace.warnings)
    Warn(warnings, WarningCode::reader, fmt::format("{}: {}", trace.path, w));
  RequireSumFits(
      trace.slices, [](const OpSlice& s) { return s.dur_cycles; }, trace.path,
      "the executed slices' durations");
  RequireSumFits(
      trace.slice_args, [](const OpSliceArgs& a) { return a.dpc_cycles; }, trace.path,
      "the slices' Dominant Path Cycles");
  for (const auto& s : trace.slices)
    if (!CheckedAdd(s.start_cycles, s.dur_cycles))
      throw InputError(trace.path, fmt::format("a slice of op {} ends past the largest cycle "
                                               "count (start {} + {} cycles)",
                                               OpIdHex(s.op_id), s.start_cycles, s.dur_cycles));
  JoinSlices(trace, tables, warnings);
  std::vector<OpSlice>().swap(trace.slices);  // the biggest table: free it before the rest
  tables.strings = std::move(trace.strings);
  tables.dims = std::move(trace.dims);
  tables.input_ids = std::move(trace.input_ids);
  tables.counters.reserve(trace.counters.size());
  for (auto& [name, samples] : trace.counters)
    tables.counters.push_back({name, std::move(samples)});
  trace.counters.clear();
  tables.flows = std::move(trace.flows);
  tables.non_executed.reserve(trace.non_executed.size());
  for (const auto& t : trace.non_executed) tables.non_executed.push_back({t.id, t.name});
  std::vector<NonExecutedTensor>().swap(trace.non_executed);
  for (const auto& t : trace.threads)
    if (t.pid == 0) tables.thread_names.push_back({t.tid, std::string(tables.Str(t.name))});
  std::vector<TraceThread>().swap(trace.threads);
  std::vector<TraceProcess>().swap(trace.processes);
  // Once, here, with the trace's own tables freed: the DPC of multi-slice
  // ops, the path by hardware, the graph view and the SQL table all read it.
  ReconstructedPath path = ReconstructDominantPath(tables);
  tables.dominant_path = std::move(path.segments);
  tables.slice_dominant_cycles = std::move(path.slice_cycles);
}

}  // namespace htpscope::model_import
