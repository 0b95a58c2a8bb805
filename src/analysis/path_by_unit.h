// The dominant (critical) path of the traced execution split by the hardware
// that held it: HMX, HVX, DMA transfer, DMA wait, sync, and idle — per QNN op
// and in total.  What community scripts compute from QHAS's
// dominant_path_htp_0 joined with each HTP op's flags.
//
// Every figure is in HTP cycles of the one traced (cold) execution.  The
// buckets of the total sum to the path's length (= the graph wall: idle is a
// bucket of its own); each QNN op's buckets sum to its cycles on the path.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/cycles_by_kind.h"
#include "model/run.h"

namespace htpscope {

// The hardware an op holds the path on, from its flags (an op with several
// takes the first that applies, in this order):
//  kHmx     uses_hmx;
//  kHvx     uses_hvx;
//  kDma     dma or dma_set (a DMA transfer, or the checkpoint that starts one);
//  kDmaWait dma_wait (the main thread waiting for a DMA to finish);
//  kSync    sync;
//  kOther   an op with none of these flags (or, on QHAS's path, an op the
//           file's op lists do not hold);
//  kIdle    nothing runs.
enum class PathUnit : uint8_t { kHmx, kHvx, kDma, kDmaWait, kSync, kOther, kIdle };
inline constexpr size_t kPathUnitCount = 7;
// "hmx", "hvx", "dma", "dma_wait", "sync", "other", "idle".
const char* PathUnitName(PathUnit unit);
PathUnit PathUnitOfFlags(uint8_t flags);

using PathUnitCycles = CyclesByKind<PathUnit, kPathUnitCount>;

struct PathByUnitOp {
  StringId name = StringPool::kEmpty;  // the QNN op name, an id of the run's strings; kEmpty
                                       // for ops QHAS's lists lack
  PathUnitCycles cycles;
  int64_t path_cycles = 0;  // Σ of its buckets: its cycles on the dominant path
};

struct PathByUnit {
  // kReconstructed: the path recomputed from the optrace's slices (QHAS's
  // method, model/dominant_path.h); kQhas: QHAS's dominant_path_htp_0.
  Source source = Source::kNone;
  int64_t path_cycles = 0;  // Σ segments (idle included): the graph wall the path covers
  size_t segments = 0;
  PathUnitCycles total;           // idle included
  std::vector<PathByUnitOp> ops;  // by path cycles (descending), then name
};

// The split, from the optrace when the run has one (else QHAS's path of core
// 0); nullopt when neither gives a path.  The rows' names are ids of the
// run's strings.
std::optional<PathByUnit> ComputePathByUnit(const Run& run);

}  // namespace htpscope
