#include "model/op_instance.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

namespace htpscope {
namespace {

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

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
  std::vector<std::pair<uint64_t, uint32_t>> by_id(trace.slices.size());
  for (uint32_t i = 0; i < trace.slices.size(); ++i) by_id[i] = {trace.slices[i].op_id, i};
  std::sort(by_id.begin(), by_id.end());
  size_t distinct = 0;
  for (size_t k = 0; k < by_id.size(); ++k)
    distinct += k == 0 || by_id[k - 1].first != by_id[k].first;
  std::vector<OpInstance> ops;
  ops.reserve(distinct);  // exact: no doubling at the memory peak
  size_t mismatches = 0;
  for (size_t k = 0; k < by_id.size(); ++k) {
    const uint32_t i = by_id[k].second;
    const OpSlice& s = trace.slices[i];
    const bool inserted = k == 0 || by_id[k - 1].first != s.op_id;
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
