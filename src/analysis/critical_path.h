// Two views of what bounds the graph wall (all figures in HTP cycles):
//
//  * the critical path: the longest path through the dependency graph when
//    each op weighs its measured duration (first slice start to last slice
//    end) and edges weigh nothing — what the graph would take with unlimited
//    units and no dispatch cost.  Removing dependencies (what-if) and
//    recomputing it estimates the wall saving; it is an estimate, not a
//    prediction: durations are kept as measured and resources are not
//    modelled.
//
//  * the dominant path, computed the way QHAS computes dominant_path_htp_0:
//    at each cycle the highest-priority running slice — HMX op > HVX op >
//    DMA read > DMA write > DmaCheckpointSet/Wait > SyncOp, ties to the
//    lowest thread id — and idle where nothing runs.  It covers the whole
//    wall (Σ segments = graph wall) and gives each *slice* its dominant-path
//    cycles, where the optrace repeats one slice's DPC on every slice of a
//    multi-slice op.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/dependency_graph.h"
#include "formats/optrace.h"
#include "formats/qhas.h"

namespace htpscope {

struct CriticalPath {
  std::vector<uint32_t> nodes;  // node indices, in dependency order
  int64_t length_cycles = 0;    // Σ durations along the path
  uint8_t kinds = 0;            // edge kinds followed
  size_t dropped_edges = 0;     // node edges left out (what-if)
  bool cycle_broken = false;    // the edges held a cycle; edges against time order were ignored
};

// Longest path over edges of `kinds`, leaving out every node edge from a node
// of group a to a node of group b for each (a, b) in `dropped`.
CriticalPath LongestPath(const DependencyGraph& graph, const NodeGroups& groups, uint8_t kinds,
                         const std::vector<std::pair<uint32_t, uint32_t>>& dropped = {});

// QHAS's priority classes, highest first.
enum class DominantClass : uint8_t {
  kIdle,
  kSync,
  kDmaCheckpoint,
  kDmaWrite,
  kDmaRead,
  kHvx,
  kHmx
};
const char* DominantClassName(DominantClass c);
// From the slice's flags (a slice without known flags takes its thread's
// unit).  A DMA op writes when it is an output slice or a TcmToDram copy.
DominantClass DominantClassOf(const OpSlice& slice, const Optrace& trace);

struct DominantSegment {
  int64_t start_cycles = 0, end_cycles = 0;  // absolute
  int32_t slice = -1;                        // index into trace.slices; -1: idle
  uint64_t op_id = 0;                        // 0 when idle
  bool partial = false;                      // only part of the slice is on the path
  int64_t cycles() const { return end_cycles - start_cycles; }
};

struct DominantPath {
  std::vector<DominantSegment> segments;  // in time order, idle ones included
  std::vector<int64_t> slice_cycles;      // per trace slice: its dominant-path cycles
  int64_t wall_cycles = 0;                // Σ segments = last end − first start
  int64_t idle_cycles = 0;
};
DominantPath ComputeDominantPath(const Optrace& trace);

// Row-by-row comparison with QHAS's dominant_path_htp_0 (as a multiset of
// (op id, start, end, partial); QHAS lists idle rows after the op rows).
struct DominantPathComparison {
  size_t ours_rows = 0, qhas_rows = 0, matched_rows = 0;
  int64_t ours_idle_cycles = 0, qhas_idle_cycles = 0;
  bool identical() const { return matched_rows == ours_rows && matched_rows == qhas_rows; }
  std::vector<std::string> differences;  // the first few rows found on one side only
};
DominantPathComparison CompareDominantPath(const DominantPath& ours,
                                           const std::vector<QhasPathSegment>& qhas);

}  // namespace htpscope
