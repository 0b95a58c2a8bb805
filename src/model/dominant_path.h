// The dominant (critical) path of the traced execution, computed the way
// QHAS computes dominant_path_htp_0: at each cycle the highest-priority
// running slice — HMX op > HVX op > DMA read > DMA write >
// DmaCheckpointSet/Wait > SyncOp, ties to the lowest thread id — and idle
// where nothing runs.  It covers the whole wall (Σ segments = graph wall)
// and gives each *slice* its dominant-path cycles, where the optrace repeats
// one slice's DPC on every slice of a multi-slice op.  All figures in HTP
// cycles.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/tables.h"

namespace htpscope {

struct TraceTables;

// QHAS's priority classes, lowest first.
enum class DominantClass : uint8_t {
  kIdle,
  kSync,
  kDmaCheckpoint,
  kDmaWrite,
  kDmaRead,
  kHvx,
  kHmx
};
const char* DominantClassName(DominantClass c);  // "idle", "sync", ..., "hmx"

// From the op's flags (an op without known flags takes its thread's unit).
// A DMA op writes when it is an output slice or a TcmToDram copy.
DominantClass DominantClassOf(const OpInstanceRow& op, uint32_t tid, const TraceTables& run);

struct ReconstructedPath {
  std::vector<DominantSegmentRow> segments;  // time order, idle ones included
  std::vector<int64_t> slice_cycles;         // per run slice: its dominant-path cycles
  int64_t wall_cycles = 0;                   // Σ segments = last end − first start
  int64_t idle_cycles = 0;
};

// The path over run.slices (needs run.op_instances for the priority classes).
ReconstructedPath ReconstructDominantPath(const TraceTables& run);

// Row-by-row comparison of two paths (as a multiset of (op id, start, end,
// partial)); QHAS lists idle rows after the op rows, so order is ignored.
struct DominantPathComparison {
  size_t ours_rows = 0, qhas_rows = 0, matched_rows = 0;
  int64_t ours_idle_cycles = 0, qhas_idle_cycles = 0;
  bool identical() const { return matched_rows == ours_rows && matched_rows == qhas_rows; }
  std::vector<std::string> differences;  // the first few rows found on one side only
};
DominantPathComparison CompareDominantPaths(const std::vector<DominantSegmentRow>& ours,
                                            const std::vector<DominantSegmentRow>& qhas);

}  // namespace htpscope
