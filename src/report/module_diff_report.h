// The module part of a run diff (analysis/module_diff.h) for people and
// machines: a text section, a markdown table and the "modules" object of
// the diff JSON (docs/diff.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/module_diff.h"

namespace htpscope {

// Appends "Modules by |Δ|" (the `top_n` largest changes) to `out`; nothing
// when neither side's op names carry modules.
void AppendModuleDiffText(const ModuleDiff& diff, int top_n, std::string& out);
// The same as a collapsed markdown table.
void AppendModuleDiffMarkdown(const ModuleDiff& diff, int top_n, std::string& out);
// {"basis", "time_unit", "has_modules", "slowest_block", "modules": [...], "notes"}.
nlohmann::json ModuleDiffToJson(const ModuleDiff& diff);

}  // namespace htpscope
