// The compiled-graph view (`htpscope graph`): dependency graph, shared
// tensors, expected-vs-compiled DAG, critical path with what-ifs, and the
// dominant path recomputed the QHAS way and checked against QHAS.  Rendered
// as text, JSON (schema in docs/timeline-and-graph.md) and Graphviz DOT.
// Cycle figures are HTP cycles.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/graph_view.h"
#include "analysis/summary.h"
#include "report/lazy_json.h"

namespace htpscope {

// Lists of ops, dependencies, tensors, path steps and warnings show at most
// `max_rows` rows each (0: all) and count the rest.
std::string RenderGraphText(const GraphView& view, const Run& run, size_t max_rows = 0);
// The document `graph --json` prints (docs/timeline-and-graph.md), its long
// arrays (nodes, edges, producer_map, dominant_path.segments) built element by
// element as they are written.  Holds references to `view` and `run`.
LazyObject GraphJson(const GraphView& view, const Run& run);
std::string RenderGraphDot(const GraphView& view);

// Escapes a string for a double-quoted DOT id or label: backslash, quote and
// line breaks (which become \n), so no input text can end the string.
std::string DotEscape(std::string_view text);

}  // namespace htpscope
