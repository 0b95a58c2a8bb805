#include "model/op_instance.h"

#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <memory>
#include <unordered_map>

namespace htpscope {
namespace {

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

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

}  // namespace

const char* OpCategoryName(OpCategory category) {
  switch (category) {
    case OpCategory::kCompute:
      return "compute";
    case OpCategory::kSystemService:
      return "system_service";
    case OpCategory::kBoundary:
      return "boundary";
  }
  return "compute";
}

OpCategory ClassifyOp(std::string_view htp_op_type, std::string_view qnn_op_type, uint8_t flags) {
  // dma_wait slices carry the type of the op they wait for, so flags first.
  if (flags & (kFlagDmaSet | kFlagDmaWait | kFlagSync)) return OpCategory::kSystemService;
  if (Contains(htp_op_type, "DmaCheckpoint") || Contains(htp_op_type, "SyncOp") ||
      Contains(htp_op_type, "Sync Op") || Contains(htp_op_type, "DramToTcm") ||
      Contains(htp_op_type, "TcmToDram") || Contains(htp_op_type, "BlockZap") ||
      Contains(htp_op_type, "SystemService") || Contains(htp_op_type, "_to_vtcm") ||
      qnn_op_type.substr(0, 13) == "SystemService")
    return OpCategory::kSystemService;
  if (Contains(htp_op_type, "Spill") || Contains(htp_op_type, "Fill") ||
      Contains(htp_op_type, "Concat") || Contains(htp_op_type, "ForceFormat") ||
      Contains(htp_op_type, "flat_from_vtcm") || Contains(htp_op_type, "Slice"))
    return OpCategory::kBoundary;
  return OpCategory::kCompute;
}

uint8_t OpFlagsOf(const QhasOpInstance& op) {
  uint8_t flags = 0;
  if (op.dma) flags |= kFlagDma;
  if (op.dma_set) flags |= kFlagDmaSet;
  if (op.dma_wait) flags |= kFlagDmaWait;
  if (op.hmx) flags |= kFlagUsesHmx;
  if (op.hvx) flags |= kFlagUsesHvx;
  if (op.sync) flags |= kFlagSync;
  return flags;
}

std::vector<OpInstance> BuildOpInstances(const Optrace& trace, std::vector<std::string>* warnings) {
  // Slices grouped by op ID through a sort of (ID, slice index) pairs: a
  // hash map probes memory at random for each of hundreds of thousands of
  // slices, while the IDs arrive nearly sorted.
  SortedSliceIds ids(trace.slices);
  std::vector<OpInstance> ops;
  // No doubling at the memory peak; capacity past the end is never touched.
  ops.reserve(ids.distinct_bound());
  size_t mismatches = 0;
  for (auto pair = ids.Walk(); pair.Next();) {
    const uint32_t i = pair.slice();
    const OpSlice& s = trace.slices[i];
    const bool inserted = pair.NewId();
    if (inserted) {
      OpInstance op;
      op.op_id = s.op_id;
      op.htp_op_type = s.htp_op_type;
      op.qnn_op_name = s.qnn_op_name;
      op.qnn_op_type = s.qnn_op_type;
      op.op_start_cycles = s.op_start_cycles;
      op.op_duration_cycles = s.op_duration_cycles;
      op.dpc_cycles = s.dpc_cycles;
      op.first_start_cycles = s.start_cycles;
      op.last_end_cycles = s.end_cycles();
      op.first_slice = i;
      ops.push_back(op);
    }
    OpInstance& op = ops.back();
    if (!inserted &&
        (op.op_start_cycles != s.op_start_cycles || op.op_duration_cycles != s.op_duration_cycles ||
         op.dpc_cycles != s.dpc_cycles))
      ++mismatches;
    op.work_cycles += s.dur_cycles;
    op.first_start_cycles = std::min(op.first_start_cycles, s.start_cycles);
    op.last_end_cycles = std::max(op.last_end_cycles, s.end_cycles());
    op.flags |= s.flags;
    ++op.slice_count;
    UnitKind unit = UnitKindOfTid(s.tid);
    op.on_hmx_thread = op.on_hmx_thread || unit == UnitKind::kHmx;
    op.on_hvx_thread = op.on_hvx_thread || unit == UnitKind::kHvx;
  }
  // A few distinct (HTP type, QNN type, flags) triples cover every op:
  // classify each triple once.
  std::unordered_map<uint64_t, OpCategory> category_of;
  for (auto& op : ops) {
    const uint64_t key = (static_cast<uint64_t>(op.htp_op_type) << 40) ^
                         (static_cast<uint64_t>(op.qnn_op_type) << 8) ^ op.flags;
    auto [it, inserted] = category_of.try_emplace(key, OpCategory::kCompute);
    if (inserted || trace.strings.size() >= (1u << 24))  // key not unique: classify each op
      it->second = ClassifyOp(trace.Str(op.htp_op_type), trace.Str(op.qnn_op_type), op.flags);
    op.category = it->second;
  }
  std::sort(ops.begin(), ops.end(), [](const OpInstance& a, const OpInstance& b) {
    return a.first_start_cycles != b.first_start_cycles
               ? a.first_start_cycles < b.first_start_cycles
               : a.op_id < b.op_id;
  });
  if (warnings && mismatches)
    warnings->push_back(
        fmt::format("{} slices disagree with another slice of the same op ID on op-level "
                    "Start Cycle / Duration / DPC; the first slice's values are used",
                    mismatches));
  return ops;
}

}  // namespace htpscope
