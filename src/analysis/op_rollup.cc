#include "analysis/op_rollup.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>

namespace htpscope {

const char* RollupClassName(RollupClass c) {
  switch (c) {
    case RollupClass::kCompute:
      return "compute";
    case RollupClass::kStaging:
      return "staging";
    case RollupClass::kDma:
      return "dma";
    case RollupClass::kOther:
      return "other";
  }
  return "other";
}

RollupClass RollupClassOf(const OpInstanceRow& op) {
  if (op.flags & (kFlagDma | kFlagDmaSet | kFlagDmaWait)) return RollupClass::kDma;
  if (op.format_change || op.reference_op || op.category == OpCategory::kBoundary)
    return RollupClass::kStaging;
  if (op.flags & (kFlagUsesHmx | kFlagUsesHvx)) return RollupClass::kCompute;
  return RollupClass::kOther;
}

OpRollup ComputeOpRollup(const Run& run) {
  OpRollup out;
  // Rows in first-seen order, found by name through a flat index: no node
  // per op and no second copy of the rows.
  absl::flat_hash_map<StringId, uint32_t> row_of;
  row_of.reserve(run.qnn_ops.size());
  out.ops.reserve(run.qnn_ops.size());
  for (const auto& op : run.op_instances) {
    RollupClass c = RollupClassOf(op);
    auto [it, inserted] = row_of.try_emplace(op.qnn_op_name, out.ops.size());
    if (inserted) {
      OpRollupRow& added = out.ops.emplace_back();
      added.name = std::string(run.Str(op.qnn_op_name));
      added.type = std::string(run.Str(op.qnn_op_type));
    }
    OpRollupRow& row = out.ops[it->second];
    for (OpRollupRow* r : {&row, &out.total}) {
      r->work[c] += op.work_cycles;
      r->dpc[c] += op.dpc_cycles;
      ++r->instances;
    }
  }
  std::sort(out.ops.begin(), out.ops.end(), [](const OpRollupRow& a, const OpRollupRow& b) {
    int64_t wa = a.work.Total(), wb = b.work.Total();
    return wa != wb ? wa > wb : a.name < b.name;
  });
  return out;
}

}  // namespace htpscope
