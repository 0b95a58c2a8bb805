// Executed HTP op instances, joined from the optrace's slices.
//
// An instance is one op ID.  A multi-threaded HVX op has several slices with
// one ID; its op-level args (Start Cycle, Duration, DPC) repeat on every
// slice, so op-level figures are taken once per ID while thread occupancy
// comes from the slices.  All *_cycles are HTP cycles.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "formats/optrace.h"
#include "formats/qhas.h"

namespace htpscope {

// What an op is for, from its HTP op type, QNN op type and flags (rules in
// docs/metrics.md):
//  * kSystemService: belongs to no model op — DMA checkpoints (dma_set,
//    dma_wait), Sync, DramToTcm/TcmToDram and *_to_vtcm copies, BlockZap,
//    SystemService ops;
//  * kBoundary: inserted by the compiler at layout/memory boundaries —
//    @Spill/@Fill, Concat, ForceFormat*, flat_from_vtcm, Input/Output slices;
//  * kCompute: everything else (the model's own work).
enum class OpCategory : uint8_t { kCompute, kSystemService, kBoundary };
const char* OpCategoryName(OpCategory category);
OpCategory ClassifyOp(std::string_view htp_op_type, std::string_view qnn_op_type, uint8_t flags);
// A QHAS op instance's flag columns as OpFlag bits, for ClassifyOp.
uint8_t OpFlagsOf(const QhasOpInstance& op);

struct OpInstance {
  uint64_t op_id = 0;
  StringId htp_op_type = StringPool::kEmpty;
  StringId qnn_op_name = StringPool::kEmpty;
  StringId qnn_op_type = StringPool::kEmpty;
  uint32_t slice_count = 0;        // here, not below: fills the padding after the ids
  int64_t op_start_cycles = 0;     // args "Start Cycle"
  int64_t op_duration_cycles = 0;  // args "Duration (cycles)"
  int64_t dpc_cycles = 0;          // args "Dominant Path Cycles", once per ID
  int64_t work_cycles = 0;         // Σ slice durations: thread-aggregate work
  int64_t first_start_cycles = 0;  // earliest slice start
  int64_t last_end_cycles = 0;     // latest slice end
  uint32_t first_slice = 0;        // index into the optrace's slices of one slice
  uint8_t flags = 0;               // OpFlag bits, OR over slices
  OpCategory category = OpCategory::kCompute;
  bool on_hmx_thread = false;  // any slice on tid 256
  bool on_hvx_thread = false;  // any slice on an HVX tid
};

// Joins slices by op ID.  Returns instances ordered by first start cycle
// (ties by ID).  Warnings for slices of one ID disagreeing on op-level args go
// to `warnings` when given.
std::vector<OpInstance> BuildOpInstances(const Optrace& trace,
                                         std::vector<std::string>* warnings = nullptr);

}  // namespace htpscope
