// Comparing AI Hub profiles, or Genie profiles, between two sides (A =
// baseline, B = candidate), each side one or more runs of the same
// configuration, by the noise rule and gates of analysis/gate.h
// (docs/diff.md, docs/formats-beyond-sdk.md).
//
// AI Hub run-level figures (family ""):
//   inference_us            steady-state median of all_inference_times 2..N, pooled
//   cold_inference_us       the first of all_inference_times of each run
//   estimated_inference_us  AI Hub's estimated_inference_time, one per run
//   first_load_us, warm_load_us, compile_us, inference_peak_memory_bytes   one per run
//   npu_layers_pct, npu_time_pct, fallback_layers, fallback_time_us, layers   one per run
// and per layer (family "layer", fields time_us and cycles): layers match by
// name, the k-th layer of a name on A with the k-th of that name on B (a
// repeated name's key is "name#k" from k = 2), so repeats keep their order.
// and per module of the model (family "module", field us): each run's layers
// rolled up their module paths (analysis/module_run.h, docs/modules.md).
//
// Genie run-level figures: ttft_us, token_rate (toks/s), prompt_rate
// (toks/s), query_us (the query event's duration): the queries 2..N of each
// dialog, pooled (a dialog of one query gives that query, the basis says
// so); cold_ttft_us: each dialog's first query; init_us, free_us: one per
// dialog; prompt_tokens, generated_tokens: per query.
//
// ExecuTorch LLM runner logs (the runner's own wall-clock timings): ttft_us,
// prefill_us, prefill_token_rate (toks/s), decode_us, decode_token_rate
// (toks/s), generation_us (inference_end − inference_start): generations
// 2..N of each log, pooled (a log of one generation gives that one, a note
// says so); cold_ttft_us: each log's first generation; model_load_us: each
// log's first measured load; prompt_tokens, generated_tokens: per
// generation; gpu_peak_usage_mb: per generation, where given.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/gate.h"
#include "analysis/run_diff.h"
#include "model/run.h"

namespace htpscope {

struct LayerDelta {
  std::string key;  // name, or "name#k" for the k-th layer of that name (k >= 2)
  std::string name;
  uint32_t occurrence = 1;
  std::string type;            // B's, else A's
  std::string a_unit, b_unit;  // compute units; "" on the side without the layer
  OpMatch status = OpMatch::kMatched;
  MetricDelta time_us, cycles;  // medians over the side's runs
  bool unit_changed() const { return !a_unit.empty() && !b_unit.empty() && a_unit != b_unit; }
};

struct DeviceProfileDiff {
  std::string kind;                             // "aihub", "genie" or "llm_runner"
  std::vector<std::string> a_labels, b_labels;  // one per run
  std::vector<NamedDelta> metrics;              // in the order of the header's list
  // AI Hub only: every layer of either side, in B's order, A-only layers
  // after the B layer they followed on A; units that changed, fallbacks.
  std::vector<LayerDelta> layers;
  // AI Hub only: the layers' execution_time by module (analysis/module_diff.h).
  ModuleDiff modules;
  std::vector<std::string> notes;

  const NamedDelta* Find(std::string_view name) const;
};

// Each side needs at least one run, each with an AI Hub profile
// (Run::aihub) — or each with a Genie profile (Run::genie), or each with a
// runner's log.
// Throws std::invalid_argument otherwise.
DeviceProfileDiff DiffAihubRuns(const std::vector<const Run*>& a, const std::vector<const Run*>& b);
DeviceProfileDiff DiffGenieRuns(const std::vector<const Run*>& a, const std::vector<const Run*>& b);
// Each run with an ExecuTorch runner's log (Run::llm_runner).
DeviceProfileDiff DiffLlmRunnerRuns(const std::vector<const Run*>& a,
                                    const std::vector<const Run*>& b);

// The figures gates may test: run-level metrics (family "") and, for AI
// Hub, every layer (family "layer", name = its key: time_us, cycles) and
// every module (family "module", name = its path: us).
std::vector<GateSubject> GateSubjects(const DeviceProfileDiff& diff);

}  // namespace htpscope
