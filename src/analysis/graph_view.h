// The compiled-graph view: dependency graph, shared tensors, expected-vs-
// compiled DAG, critical path with what-ifs, and the dominant path checked
// against QHAS.  Cycle figures are HTP cycles.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/critical_path.h"
#include "analysis/dependency_graph.h"
#include "analysis/graph_compare.h"
#include "analysis/op_groups.h"
#include "analysis/timeline.h"
#include "model/dominant_path.h"
#include "model/run.h"

namespace htpscope {

struct GraphViewOptions {
  Grouping grouping;
  std::optional<std::vector<ExpectedEdge>> expected;            // the DAG the user meant
  std::vector<std::pair<std::string, std::string>> drop_edges;  // group edges A -> B to drop
};

struct WhatIf {
  std::vector<std::pair<std::string, std::string>> dropped;  // group edges left out
  size_t edges_removed = 0;                                  // node edges they stand for
  int64_t critical_path_cycles = 0;
  int64_t saving_cycles = 0;  // baseline − this: an estimate of the wall saving
};

// The dominant path's totals, in HTP cycles; its segments and each slice's
// cycles on it are the run's (run.dominant_path, run.slice_dominant_cycles).
struct DominantPathTotals {
  int64_t wall_cycles = 0;  // Σ segments = last end − first start
  int64_t idle_cycles = 0;
};

// Where QHAS's dominant path and the dependency critical path agree.
struct PathAgreement {
  std::vector<uint64_t> both, only_critical, only_qhas;  // op ids, sorted
  int64_t only_qhas_cycles = 0;  // QHAS dp cycles of ops off the critical path
};

// The ops on the critical path (op ids, any order, repeats allowed) against
// the ops of QHAS's dominant path (idle rows skipped; an op's rows summed).
PathAgreement ComparePathOps(std::vector<uint64_t> critical_ops,
                             const std::vector<DominantSegmentRow>& qhas_path);

struct GraphView {
  std::string label;
  bool has_htp_graph = false, has_optrace = false, has_qhas = false;
  DependencyGraph graph;
  NodeGroups groups;
  std::vector<SharedTensor> shared_tensors;
  std::optional<DagComparison> expect;
  std::optional<int64_t> wall_cycles;  // optrace graph wall (else span of htp.json cycles)
  CriticalPath critical;               // over data and sequencer edges
  std::vector<WhatIf> what_if;
  std::optional<DominantPathTotals> dominant;  // needs the optrace
  std::optional<DominantPathComparison> dominant_vs_qhas;
  std::optional<PathAgreement> critical_vs_qhas;
  std::vector<WarningRow> warnings;
};

// Throws ValueError (kDroppedDependency) when an edge to drop names an unknown group,
// and InputError when the run has neither an HTP graph nor an optrace.  The
// dominant path is the run's, built when its optrace was imported.
GraphView BuildGraphView(const Run& run, const GraphViewOptions& options);

}  // namespace htpscope
