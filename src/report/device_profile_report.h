// Rendering AI Hub and Genie profiles and ExecuTorch LLM runner logs
// (analysis/device_profile_summary.h) and their diffs
// (analysis/device_profile_diff.h) for people (text, markdown, HTML) and
// machines (JSON).  The JSON members are documented in docs/summary-json.md
// ("aihub", "genie", "llm_runner") and docs/diff.md (htpscope.device_diff/1);
// field names carry their unit.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/device_profile_diff.h"
#include "analysis/device_profile_summary.h"
#include "analysis/gate.h"
#include "model/run.h"
#include "report/diff_report.h"

namespace htpscope {

// The text sections of an AI Hub profile: figures, compute-unit coverage by
// count and by time, the fallback layers, the `top_n` slowest layers.
std::string RenderAihubText(const AihubSummary& summary, int top_n);
// Per dialog: init and free times, each query, the steady state.
std::string RenderGenieText(const GenieSummary& summary);
// The model load, each generation, the steady state, GPU memory when given.
std::string RenderLlmRunnerText(const LlmRunnerSummary& summary);

nlohmann::json AihubSummaryToJson(const AihubSummary& summary);
nlohmann::json GenieSummaryToJson(const GenieSummary& summary);
nlohmann::json LlmRunnerSummaryToJson(const LlmRunnerSummary& summary);

// The sections of every device profile `run` holds ("" when none); with
// `header`, the run's "read ..." lines first (for a run of only these).
std::string RenderDeviceProfilesText(const Run& run, int top_n, bool header);
// Adds to a summary document "aihub" and "genie" (each null when the run has
// none) when the run holds either, and "llm_runner" when it holds a
// runner's log; nothing for a run of none of them.
void AddDeviceProfilesJson(const Run& run, nlohmann::json& doc);

// A diff of AI Hub or Genie profiles or runner logs in `format`; `top_n` limits the layer
// table of text and markdown.
std::string RenderDeviceDiff(const DeviceProfileDiff& diff, const std::vector<GateResult>& gates,
                             DiffFormat format, int top_n);
// Schema htpscope.device_diff/1 (docs/diff.md).
nlohmann::json DeviceDiffToJson(const DeviceProfileDiff& diff,
                                const std::vector<GateResult>& gates);

// A standalone HTML page of the run's device profiles: the figures, the
// coverage and every layer (AI Hub), every query (Genie), every generation
// (a runner's log).
std::string RenderDeviceProfilesHtml(const Run& run);

}  // namespace htpscope
