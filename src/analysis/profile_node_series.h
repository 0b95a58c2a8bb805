// Each profile node's cycles across the executions of one graph: the
// series that per-op warm-up (op_warmup.h) and per-op steady state
// (op_steady_state.h) are computed from.  A node is followed across
// executions by its op ID when the profile prints one, else by its name.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "model/run.h"

namespace htpscope {

// One node line of one execution: `cycles` of series `series` in the
// graph's execution at position `execution` (0-based, in the graph's order).
struct NodeSample {
  uint32_t series = 0;
  uint32_t execution = 0;
  int64_t cycles = 0;
};

struct GraphNodeSeries {
  // The graph's executions that have a profile block, in order (position
  // 0 is the graph's first, cold execution when it has a block).
  std::vector<const ExecutionRow*> executions;
  // Per series: the node line that started it (the first met, in execution
  // then line order).
  std::vector<const ProfileNodeRow*> first_node;
  // Every node line, by series then execution; a node listed twice in one
  // execution counts once (its first line).
  std::vector<NodeSample> samples;
};

// The series of graph `graph` of `run` (views into the run's rows: valid as
// long as `run`).  Memory is in proportion to the graph's node lines.
GraphNodeSeries CollectNodeSeries(const Run& run, uint32_t graph);

// The series of every graph of `run`, by graph index: for the analyses that
// each read them all (op warm-up, op steady state), collected once.
std::vector<GraphNodeSeries> CollectNodeSeriesOfGraphs(const Run& run);

// The name of a profile node as reports show it: its QNN op name, else its label.
inline std::string_view NodeDisplayName(const ProfileNodeRow& node) {
  return node.qnn_op_name.empty() ? std::string_view(node.label) : node.qnn_op_name;
}

// The op a series follows, as the per-op rows of the per-node cycles (op
// warm-up, op steady state) name it.
struct ProfileOp {
  uint32_t graph = 0;             // index into Run::graphs
  std::string_view name;          // NodeDisplayName of the node that started the series
  std::optional<uint32_t> op_id;  // the n of OpId_n, when printed
  // The ONNX nodes it was built from, ';'-separated, as the node that started
  // the series gives them (ProfileNodeRow::source_ops: ONNX Runtime's "ONNX
  // Source Ops"); "" for an empty cell, nullopt when the profile has no such
  // column.
  std::optional<std::string_view> source_ops;
};

// The op of graph `graph` whose series `node` started.
inline ProfileOp ProfileOpOf(uint32_t graph, const ProfileNodeRow& node) {
  std::optional<std::string_view> source_ops;
  if (node.source_ops) source_ops = node.source_ops.ValueOrEmpty();
  return {graph, NodeDisplayName(node), node.op_id, source_ops};
}

// The first ONNX node of `source_ops` ("/l1/conv/Conv" of
// "/l1/conv/Conv;/l1/relu/Relu"), trimmed; "" when there is none.
std::string_view FirstSourceOp(std::optional<std::string_view> source_ops);

}  // namespace htpscope
