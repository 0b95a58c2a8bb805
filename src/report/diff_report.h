// Rendering a run diff (htpscope diff A B) and a lowering-stage diff
// (htpscope diff --stages) for people (text, markdown for PR comments) and
// machines (JSON, JUnit XML with one testcase per gate).
//
// The JSON schemas are documented in docs/diff.md; field names carry their
// unit (_us, _cycles, _bytes, _pct, _seconds).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/gate.h"
#include "analysis/run_diff.h"
#include "analysis/stage_timings.h"

namespace htpscope {

enum class DiffFormat { kText, kMarkdown, kJson, kJunit };

// "text", "markdown", "json" or "junit"; nullopt for anything else.
std::optional<DiffFormat> ParseDiffFormat(std::string_view name);

// The verdict in words: the wall change (steady-state µs, or traced cycles
// when a side has no steady state — said so), the work change beside it, which
// part of the wall moved (overhead or compute-busy), the cold execution, the
// ops whose DPC changed most, and whether the noise could be assessed.
std::string DiffVerdict(const RunDiff& diff);

// The whole report in `format`; `top_n` limits the op tables of the text and
// markdown formats (JSON lists every op).
std::string RenderRunDiff(const RunDiff& diff, const std::vector<GateResult>& gates,
                          DiffFormat format, int top_n);

// Schema htpscope.diff/1 (docs/diff.md).
nlohmann::json RunDiffToJson(const RunDiff& diff, const std::vector<GateResult>& gates);

// Lowering stages: per-stage and total change and improvement %.
std::string StageVerdict(const StageDiff& diff);
std::string RenderStageDiff(const StageDiff& diff, const std::vector<GateResult>& gates,
                            DiffFormat format);
// Schema htpscope.stage_diff/1 (docs/diff.md).
nlohmann::json StageDiffToJson(const StageDiff& diff, const std::vector<GateResult>& gates);

// JUnit XML: one testsuite, one testcase per gate (failure for a regression,
// error for a gate the inputs cannot evaluate); `verdict` goes to the suite's
// system-out.
std::string GatesToJunit(const std::vector<GateResult>& gates, std::string_view suite_name,
                         std::string_view verdict);

}  // namespace htpscope
