// The compiled graph against an expected DAG over op group names
// (base/expected_edge.h): which expected dependencies it lacks, which it
// has beyond them, and which names it has no group for.
#pragma once

#include <string>
#include <vector>

#include "analysis/dependency_graph.h"
#include "analysis/op_groups.h"
#include "base/expected_edge.h"

namespace htpscope {

struct GroupEdge {
  std::string from, to;
  bool data = false;  // false: only sequencer arrows make this dependency
};

// The compiled graph's group-level edges among the groups the expectation
// names: A -> B when a path leads from A to B that crosses no other named
// group (unnamed groups are transparent, so format and DMA ops in between do
// not hide a dependency).
struct DagComparison {
  std::vector<ExpectedEdge> missing;  // expected, absent from the compiled graph; file order
  std::vector<GroupEdge> extra;       // in the compiled graph, not expected; by name
  std::vector<GroupEdge> matched;     // in both; by name
  std::vector<std::string>
      unknown_names;  // named by the expectation, absent from the graph; sorted
};
DagComparison CompareWithExpected(const DependencyGraph& graph, const NodeGroups& groups,
                                  const std::vector<ExpectedEdge>& expected);

}  // namespace htpscope
