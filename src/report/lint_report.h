// Rendering a linting analysis for people (text) and machines (JSON,
// schema "htpscope.lint/1", documented in docs/lint-heap-memory.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/lint.h"

namespace htpscope {

struct LintReportOptions {
  int rows = 25;  // op-table rows per graph (most exposed first)
};

// Every graph of `lint`, each with its op table, consistency check,
// bottlenecks and hints.
std::string RenderLintText(const LintAnalysis& lint, const LintReportOptions& options = {});

// Top-level ops / critical_path_cycles / bottlenecks describe graph
// `selected_graph` (an index into lint.graphs); "graphs" holds all of them.
nlohmann::json LintToJson(const LintAnalysis& lint, size_t selected_graph = 0);

}  // namespace htpscope
