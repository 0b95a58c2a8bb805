#include "analysis/op_rollup.h"

#include <algorithm>

#include "analysis/rows_by_name.h"

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
  RowsByName<OpRollupRow> by_name(run, out.ops);
  by_name.reserve(run.qnn_ops.size());
  for (const auto& op : run.op_instances) {
    RollupClass c = RollupClassOf(op);
    OpRollupRow& row = by_name[op.qnn_op_name];
    if (row.instances == 0) row.type = op.qnn_op_type;
    for (OpRollupRow* r : {&row, &out.total}) {
      r->work[c] += op.work_cycles;
      r->dpc[c] += op.dpc_cycles;
      ++r->instances;
    }
  }
  // In place, not SortByRankThenName: its keys, made while the path-by-unit
  // table is sorted on the other core, were an optrace summary's peak.
  std::sort(out.ops.begin(), out.ops.end(), [&run](const OpRollupRow& a, const OpRollupRow& b) {
    int64_t wa = a.work.Total(), wb = b.work.Total();
    return wa != wb ? wa > wb : run.Str(a.name) < run.Str(b.name);
  });
  return out;
}

}  // namespace htpscope
