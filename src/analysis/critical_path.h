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
//  * the dominant path (model/dominant_path.h): what actually ran on the
//    critical path, slice by slice, as QHAS computes it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/dependency_graph.h"
#include "analysis/op_groups.h"

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

}  // namespace htpscope
