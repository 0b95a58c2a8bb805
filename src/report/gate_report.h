// The pieces of a diff report every diff shares (run diffs, AI Hub and Genie
// profile diffs): a compared figure and the gates' results, as JSON, and a
// gate's one-word verdict.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/gate.h"

namespace htpscope {

// {a, b, change, change_pct, unit, basis, a_stats, b_stats, noise_bound,
// within_noise}: one figure of both sides (units as `d.unit` says).
nlohmann::json DeltaJson(const MetricDelta& d);

// [{expr, passed, within_noise, evaluated, compared, exceeded[], skipped[],
// detail}]: each gate's result (docs/diff.md, "JSON").
nlohmann::json GatesJson(const std::vector<GateResult>& gates);

// "PASS", "FAIL", "NOISE" (passed only because the change is within noise)
// or "ERROR" (the gate could not be evaluated).
std::string GateMark(const GateResult& g);

}  // namespace htpscope
