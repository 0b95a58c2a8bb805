// Rendering the module tree of a run (analysis/module_run.h) for people
// (text: `summary --modules[=DEPTH]`) and machines (the "modules" section of
// `summary --json`, docs/summary-json.md).  Every time is labelled with its
// basis: DPC cycles, steady-state median cycles or µs.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/module_run.h"

namespace htpscope {

inline constexpr int kDefaultModuleDepth = 3;

// The tree down to `depth` levels below the root (deeper modules are summed
// into their ancestor at `depth`), each node's longest op, then the
// repeated-block table with the blocks far from their siblings named.
// `top_n` limits the blocks listed per family (the named ones always show).
std::string RenderModulesText(const RunModules& modules, int depth, int top_n);

// When the ops say where they ran (an AI Hub profile's compute units), a
// table of each module's time and op count per compute unit follows the
// tree, then the ops that left the NPU grouped by module.
// The "modules" object: basis, unit, every node (pre-order) with its time,
// share, op counts and top ops (and its time_by_unit / ops_by_unit when
// ops say where they ran, with the tree's off_npu_ops), the block families
// and findings.
nlohmann::json ModulesToJson(const RunModules& modules);

// The tree as static HTML for a page without the interactive report (an AI
// Hub profile's page): a table down to `depth` levels with the compute-unit
// split when ops say where they ran, the ops off the NPU, the findings.
// "" when the run has no tree or no op name carries a module.
std::string RenderModulesHtml(const RunModules& modules, int depth);

// The blocks named by the repeated-block rule, one sentence each
// ("resnet/encoder/stages.2/layers.1 is 1.63 × the median of the 4 blocks of
// its family (slow)").
std::vector<std::string> ModuleFindings(const ModuleTree& tree);

}  // namespace htpscope
