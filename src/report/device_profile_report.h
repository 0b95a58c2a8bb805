// Rendering AI Hub and Genie profiles and ExecuTorch LLM runner logs
// (analysis/device_profile_summary.h) and their diffs
// (analysis/device_profile_diff.h) for people (text, markdown, HTML) and
// machines (JSON).  The JSON members are documented in docs/summary-json.md
// ("aihub", "genie", "llm_runner") and docs/diff.md (htpscope.device_diff/1);
// field names carry their unit.
#pragma once

#include <limits>
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

// The HTML views of the run's device profiles, one per profile it holds,
// under "aihub", "genie" and "llm_runner" (an empty object for a run of
// none).  A view is {title, blocks}; a block is {kind: "heading" | "note",
// text} or {kind: "table", table: {id, title, help, columns: [{key, label,
// type}], rows: [[…]], shown_rows, total_rows, kept?, row_classes?,
// share_column?}}, a column's type one of text, us, count, num, pct, bytes,
// cycles.  AI Hub: the inference (estimate, cold first run, steady state of
// runs 2..N), the stages with their peak memory and ranges, compute-unit
// coverage by count and by time, the fallback layers, the layers (at most
// `max_layer_rows`: the slowest, in their order; the rows off the NPU have
// the class "fallback").  Genie: per component its init and free, each
// query (the first cold), the steady state.  A runner's log: the model
// load, each generation (the first cold), the steady state, GPU memory when
// given.  Every figure a view shows is chosen here once: the device-only
// page (RenderDeviceProfilesHtml) prints these views and the main report
// (BuildLazyReportModel) carries them for its script to draw.
nlohmann::json DeviceProfileViews(const Run& run,
                                  size_t max_layer_rows = std::numeric_limits<size_t>::max());

// A standalone HTML page of the run's device profiles: their views
// (DeviceProfileViews, every layer), and an AI Hub profile's layers by the
// model's own modules.
std::string RenderDeviceProfilesHtml(const Run& run);

}  // namespace htpscope
