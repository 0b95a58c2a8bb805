// The dependency graph of one compiled and executed HTP graph.
//
// Nodes are HTP ops, keyed by the 16-digit op ID shared by the optrace
// (args.ID) and `*_htp.json` (node keys).  A node's id equals its output
// tensor's id, so "input id is a node" is a node->node edge; input ids that
// are no node are tensors (static weights, $Const, $Shape, graph inputs).
// Edges come from, and remember, four sources:
//  * kEdgeGraphInput    — a node's `input_names` in `*_htp.json`;
//  * kEdgeTraceInput    — an executed op's `Inputs Ops` in the optrace, used
//                         only for ops the HTP graph lacks (DMA waits, output
//                         slices, sync) or when there is no HTP graph;
//  * kEdgeDataFlow      — an optrace flow arrow of category input_output;
//  * kEdgeSequencerFlow — an optrace flow arrow of category sequencer
//                         (scheduling order between threads, not data).
// Times are absolute HTP cycles; durations are cycles.  The graph's op groups
// and what is asked of them are in analysis/op_groups.h, its comparison with
// an expected DAG in analysis/graph_compare.h.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/run.h"

namespace htpscope {

enum DepEdgeKind : uint8_t {
  kEdgeGraphInput = 1 << 0,
  kEdgeTraceInput = 1 << 1,
  kEdgeDataFlow = 1 << 2,
  kEdgeSequencerFlow = 1 << 3,
};
inline constexpr uint8_t kDataEdges = kEdgeGraphInput | kEdgeTraceInput | kEdgeDataFlow;
inline constexpr uint8_t kAllEdges = kDataEdges | kEdgeSequencerFlow;
// "graph_input+data_flow", ... in the order of the bits.
std::string EdgeKindNames(uint8_t kinds);

// The names are views of the Run's strings (its string pool or HTP graph
// table): the graph must not outlive the Run it was built from.  The lists
// are views of the graph's own storage (DependencyGraph::lists), which
// moves with it.
struct DepNode {
  uint64_t id = 0;
  std::string_view qnn_op_name;  // the QNN op the compiler grouped this HTP op under
  std::string_view qnn_op_type;
  std::string_view htp_op_type;
  bool in_graph = false;        // a node of *_htp.json
  bool executed = false;        // has slices in the optrace
  bool timed = false;           // has measured times (optrace, else htp.json cycles_start/duration)
  int64_t start_cycles = 0;     // first slice start
  int64_t end_cycles = 0;       // last slice end
  int64_t duration_cycles = 0;  // end − start: the op's measured wall; 0 when not timed
  int64_t work_cycles = 0;      // Σ slice durations (thread-aggregate)
  uint32_t slices = 0;
  std::span<const uint32_t> tids;  // threads it ran on, sorted
  OpCategory category = OpCategory::kCompute;
  uint8_t flags = 0;                    // OpFlag bits
  std::span<const uint64_t> input_ids;  // inputs as listed by its source, repeats removed
  std::string_view inputs_source;       // "htp_graph", "optrace" or "" (none listed)
};

struct DepEdge {
  uint32_t from = 0, to = 0;  // node indices
  uint8_t kinds = 0;          // DepEdgeKind bits
};

// Every id that appears as an input: a node's output or a tensor.
enum class TensorKind : uint8_t {
  kStatic,        // static tensor (HTP graph type STATIC, or a $Const in the optrace)
  kShape,         // a $Shape tensor of the optrace (shape metadata)
  kConstantCopy,  // output of an op of a $Const QNN op (a constant copied into VTCM)
  kActivation,    // output of any other op
  kOther,         // a tensor the artifacts say nothing more about
};
const char* TensorKindName(TensorKind kind);

struct DepTensor {
  uint64_t id = 0;
  TensorKind kind = TensorKind::kOther;
  std::optional<uint32_t> producer;     // node index
  std::span<const uint32_t> consumers;  // node indices, sorted, unique
};

// Op ID -> node index: (id, index) pairs in ID order, looked up by binary
// search (the graph's own building reads it in order, by merging).
struct NodeIndex {
  std::vector<std::pair<uint64_t, uint32_t>> by_id;  // ascending id, each once

  std::optional<uint32_t> Find(uint64_t id) const;
  // The index of op `id`'s node; throws std::out_of_range when there is none.
  uint32_t at(uint64_t id) const;
  bool contains(uint64_t id) const { return Find(id).has_value(); }
  size_t size() const { return by_id.size(); }
};

// Moves, never copies: its nodes, tensors and edge lists view its storage.
struct DependencyGraph {
  DependencyGraph() = default;
  DependencyGraph(DependencyGraph&&) = default;
  DependencyGraph& operator=(DependencyGraph&&) = default;
  DependencyGraph(const DependencyGraph&) = delete;
  DependencyGraph& operator=(const DependencyGraph&) = delete;

  std::vector<DepNode> nodes;  // by (start cycle, id); untimed nodes last, by id
  NodeIndex index;             // op id -> node index
  std::vector<DepEdge> edges;  // unique (from, to), sorted
  std::vector<std::span<const uint32_t>> in_edges;  // node -> edge indices, ascending
  std::vector<std::span<const uint32_t>> out_edges;
  std::vector<DepTensor> tensors;                           // every input id, sorted by id
  std::vector<std::pair<uint64_t, uint64_t>> producer_map;  // (tensor id, node id) from htp.json
  // The node of each of the run's op instances (by index into
  // run.op_instances); empty when the graph was built without an optrace.
  std::vector<uint32_t> node_of_instance;
  size_t graph_nodes = 0;       // nodes taken from *_htp.json
  size_t trace_only_nodes = 0;  // executed ops *_htp.json lacks
  size_t flows_matched = 0, flows_unmatched = 0;
  std::vector<std::string> warnings;

  const DepNode* Find(uint64_t id) const;
  const DepTensor* FindTensor(uint64_t id) const;
  // Fills in_edges and out_edges from `edges`, whose ends index `nodes`.
  void IndexEdges();

  // What the spans above view, one flat array each instead of a heap block
  // per node and tensor (an 80k-op run's graph held ~900 k of them).
  struct Lists {
    std::vector<uint32_t> edges;  // in_edges, then out_edges
    std::vector<uint32_t> tids;
    std::vector<uint64_t> inputs;
    std::vector<uint32_t> consumers;
  } lists;
};

// Builds the graph from whatever the run has: the HTP graph's nodes, the
// optrace's op instances and flows, or both.
DependencyGraph BuildDependencyGraph(const Run& run);

}  // namespace htpscope
