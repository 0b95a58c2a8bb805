#include "analysis/path_by_unit.h"

#include <algorithm>
#include <unordered_map>

#include "analysis/rows_by_name.h"

namespace htpscope {

const char* PathUnitName(PathUnit unit) {
  switch (unit) {
    case PathUnit::kHmx:
      return "hmx";
    case PathUnit::kHvx:
      return "hvx";
    case PathUnit::kDma:
      return "dma";
    case PathUnit::kDmaWait:
      return "dma_wait";
    case PathUnit::kSync:
      return "sync";
    case PathUnit::kOther:
      return "other";
    case PathUnit::kIdle:
      return "idle";
  }
  return "other";
}

PathUnit PathUnitOfFlags(uint8_t flags) {
  if (flags & kFlagUsesHmx) return PathUnit::kHmx;
  if (flags & kFlagUsesHvx) return PathUnit::kHvx;
  if (flags & (kFlagDma | kFlagDmaSet)) return PathUnit::kDma;
  if (flags & kFlagDmaWait) return PathUnit::kDmaWait;
  if (flags & kFlagSync) return PathUnit::kSync;
  return PathUnit::kOther;
}

std::optional<PathByUnit> ComputePathByUnit(const Run& run) {
  PathByUnit out;
  // Each segment's op instance (index into op_instances), or -1.
  const std::vector<DominantSegmentRow>* segments = nullptr;
  if (run.Gives(RunData::kTimedSlices) && !run.slices.empty()) {
    segments = &run.dominant_path;
    out.source = Source::kReconstructed;
  } else if (!run.qhas_dominant_path.empty()) {
    segments = &run.qhas_dominant_path;
    out.source = Source::kQhas;
  }
  if (!segments || segments->empty()) return std::nullopt;
  std::unordered_map<uint64_t, uint32_t> instance_of;
  if (out.source == Source::kQhas)
    for (uint32_t i = 0; i < run.op_instances.size(); ++i)
      instance_of.emplace(run.op_instances[i].op_id, i);
  RowsByName<PathByUnitOp> by_name(run, out.ops);  // kEmpty: ops QHAS's lists lack
  by_name.reserve(run.qnn_ops.size() + 1);
  for (const auto& seg : *segments) {
    ++out.segments;
    if (seg.idle) {
      out.total[PathUnit::kIdle] += seg.cycles();
      continue;
    }
    const OpInstanceRow* op = nullptr;
    if (seg.slice >= 0 && static_cast<size_t>(seg.slice) < run.slices.size()) {
      op = &run.op_instances[run.slices[seg.slice].instance];
    } else if (auto it = instance_of.find(seg.op_id); it != instance_of.end()) {
      op = &run.op_instances[it->second];
    }
    PathUnit unit = op ? PathUnitOfFlags(op->flags) : PathUnit::kOther;
    StringId name = op ? op->qnn_op_name : StringPool::kEmpty;
    out.total[unit] += seg.cycles();
    PathByUnitOp& row = by_name[name];
    row.cycles[unit] += seg.cycles();
    row.path_cycles += seg.cycles();
  }
  out.path_cycles = out.total.Total();
  // In place, not SortByRankThenName: its keys, made while the op roll-up is
  // sorted on the other core, were an optrace summary's peak.
  std::sort(out.ops.begin(), out.ops.end(), [&run](const PathByUnitOp& a, const PathByUnitOp& b) {
    return a.path_cycles != b.path_cycles ? a.path_cycles > b.path_cycles
                                          : run.Str(a.name) < run.Str(b.name);
  });
  return out;
}

}  // namespace htpscope
