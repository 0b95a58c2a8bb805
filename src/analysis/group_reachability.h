// Which op groups depend on which: reachability over the dependency graph,
// asked one pair at a time.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/dependency_graph.h"
#include "analysis/op_groups.h"

namespace htpscope {

// Answers "does a path of one or more edges of `kinds` lead from a node of
// group `from` to a node of group `to`?" on demand.  A group × group matrix
// is quadratic in the number of groups (an 80k-op graph has ~80k QNN-op
// groups); a query here walks only nodes that a topological order places no
// later than the last node of `to`, so asking about groups that ran close
// together costs little.  Holds references: `graph` and `groups` must
// outlive it.  Not thread-safe (queries reuse one walk buffer).
class GroupReachability {
 public:
  GroupReachability(const DependencyGraph& graph, const NodeGroups& groups, uint8_t kinds);

  bool Reaches(uint32_t from_group, uint32_t to_group);

 private:
  const DependencyGraph& graph_;
  const NodeGroups& groups_;
  uint8_t kinds_;
  // Kahn order over the edges of `kinds_`: every edge goes from a lower rank
  // to a higher one.  Nodes on or after a cycle get kUnranked; they reach
  // only nodes that are kUnranked too.
  std::vector<uint32_t> rank_;
  std::vector<uint32_t> max_rank_;              // per group: the highest rank of its nodes
  std::vector<std::vector<uint32_t>> members_;  // per group: its nodes
  std::vector<uint32_t> seen_;                  // query stamp of the last walk through a node
  uint32_t stamp_ = 0;
  std::vector<uint32_t> stack_;
};

}  // namespace htpscope
