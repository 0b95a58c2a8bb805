// Per-QNN-op roll-up of the traced execution: how much of each QNN op's
// cycles is compute on HMX/HVX, how much is staging (format changes,
// reference ops, slices and other compiler-inserted boundary ops) and how
// much is DMA — the community's compute / staging / DMA roll-up.  Every HTP
// op instance falls in exactly one class (rules in docs/metrics.md, "Compute,
// staging, DMA"), so a QNN op's classes sum to its work and DPC.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/cycles_by_kind.h"
#include "model/run.h"

namespace htpscope {

// First match wins:
//  kDma      flags dma, dma_set or dma_wait (DMA transfers, the checkpoints
//            that start them, the waits for them);
//  kStaging  QHAS fmt_change or ref_op, or a boundary op (ForceFormat*,
//            *Slice, Concat, @Spill/@Fill, flat_from_vtcm: OpCategory::kBoundary);
//  kCompute  uses_hmx or uses_hvx;
//  kOther    the rest (sync ops, ops without flags).
enum class RollupClass : uint8_t { kCompute, kStaging, kDma, kOther };
inline constexpr size_t kRollupClassCount = 4;
const char* RollupClassName(RollupClass c);  // "compute", "staging", "dma", "other"
RollupClass RollupClassOf(const OpInstanceRow& op);

using RollupCycles = CyclesByKind<RollupClass, kRollupClassCount>;  // HTP cycles per class

struct OpRollupRow {
  StringId name = StringPool::kEmpty;  // QNN op name: an id of the run's strings
  StringId type = StringPool::kEmpty;  // QNN op type, likewise
  RollupCycles work;                   // Σ slice durations (thread-aggregate work), per class
  RollupCycles dpc;  // dominant-path cycles, per class (on each instance's DPC basis)
  int64_t instances = 0;
};

struct OpRollup {
  std::vector<OpRollupRow> ops;  // by total work (descending), then name
  OpRollupRow total;             // over every op instance (name "")
};

// From run.op_instances; empty when the run has none (no optrace, no whole QHAS).
// The rows' names are ids of the run's strings.
OpRollup ComputeOpRollup(const Run& run);

}  // namespace htpscope
