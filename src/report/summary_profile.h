// The summary's profile sections beyond the coarse view: the phases before
// the first inference (first_inference.h) and the per-op steady state from
// the profile's per-node cycles (op_steady_state.h).  Text and JSON
// (docs/summary-json.md).
#pragma once

#include <string>

#include "analysis/summary.h"
#include "report/lazy_json.h"

namespace htpscope {

// "Phases: time to first inference" ("" when the profile prints no phase).
std::string RenderFirstInferenceText(const Summary& summary);

// Whether the summary shows the per-op steady state table: the profile has
// per-node lines and no optrace or QHAS gives DPC.
bool ShowsOpSteadyState(const Summary& summary);

// "Per-op steady state" ("" when there are no rows); `top_n` ops per graph.
std::string RenderOpSteadyStateText(const Summary& summary, int top_n);

// Sets "first_inference" (null when the profile prints no phase),
// "profile_phases" (every row of Run::profile_phases) and
// "op_steady_state" (every op, per graph by steady median) in `doc`.
void AddProfilePhasesJson(const Summary& summary, LazyObject& doc);

// graph (its name), name and op_id: how a JSON row of the per-node cycles
// (op_warmup, op_steady_state) starts.
void ProfileOpRow(const Run& run, const ProfileOp& op, JsonRow& row);

// The per-op steady state row as JSON and the sql/Python table write it:
// graph, name, op_id, cold_cycles, in_cold, steady_median_cycles,
// steady_min_cycles, steady_max_cycles, steady_mad_cycles,
// steady_executions, steady_share_pct (OpSteadyState::steady_share × 100).
void OpSteadyStateRow(const Run& run, const OpSteadyState& op, JsonRow& row);

}  // namespace htpscope
