// The figures of an AI Hub profile and of a Genie profile (model/
// device_profiles.h), each labelled with what it measures
// (docs/formats-beyond-sdk.md):
//  * AI Hub inference µs are end-to-end on the device (the runtime's
//    invoke), not the HTP graph wall of qnn-profile-viewer; the first of
//    all_inference_times is the cold run, the rest the steady state, and
//    estimated_inference_time is AI Hub's own figure, shown beside them;
//  * AI Hub per-layer µs are the runtime's per-layer times, not optrace
//    dominant-path cycles;
//  * compute-unit coverage is by count of layers and by Σ per-layer time,
//    since a graph can be 95 % NPU by count while one CPU layer dominates
//    the clock;
//  * Genie: per dialog, init time (GenieDialog_create's init-time), each
//    query's TTFT, prompt and generation rates and token counts, the free
//    time; the first query is cold, queries 2..N the steady state;
//  * an ExecuTorch LLM runner's log: each generation's TTFT, prefill and
//    decode times and rates by the runner's own definitions (its wall clock
//    on the host, ms resolution, not HTP cycles); the first generation is
//    cold, generations 2..N the steady state.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/statistics.h"
#include "model/run.h"

namespace htpscope {

// One AI Hub stage: the profile's figure, and its all_<stage>_times.
struct AihubStageFigures {
  const AihubStageRow* row = nullptr;
  std::vector<int64_t> samples_us;       // all_<stage>_times, in order
  std::optional<SampleStats> samples;    // over every sample
  std::optional<int64_t> cold_us;        // inference only: the first sample
  std::optional<SampleStats> steady_us;  // inference only: samples 2..N
};

// Layers and per-layer time on one compute unit.
struct AihubUnitCoverage {
  std::string unit;  // "NPU", "GPU", "CPU", "UNSPECIFIED", or as written
  int64_t layers = 0;
  int64_t timed_layers = 0;  // of those, the layers with an execution_time
  int64_t time_us = 0;       // Σ execution_time of its layers
  double layers_pct = 0;     // layers ÷ every layer × 100
  // time_us ÷ Σ every layer's execution_time × 100; absent when no layer has one.
  std::optional<double> time_pct;
};

// A layer that did not run on the NPU.
struct AihubFallbackLayer {
  const AihubLayerRow* layer = nullptr;
  std::optional<double> time_pct;  // of Σ every layer's execution_time
};

struct AihubSummary {
  const AihubProfileTables* tables = nullptr;
  std::vector<AihubStageFigures> stages;         // compile, first_load, warm_load, inference
  const AihubStageFigures* inference = nullptr;  // into stages
  int64_t layers = 0;
  int64_t timed_layers = 0;
  std::optional<int64_t> layer_time_us;  // Σ execution_time; absent when no layer has one
  // NPU, GPU, CPU first (each even when empty), then other units as they appear.
  std::vector<AihubUnitCoverage> coverage;
  std::vector<AihubFallbackLayer> fallbacks;  // non-NPU layers, in order
  std::optional<double> npu_layers_pct, npu_time_pct;
  int64_t fallback_layers = 0;
  std::optional<int64_t> fallback_time_us;
  std::optional<double> fallback_time_pct;
  std::vector<std::string> notes;  // what a reader must know about these figures
};

AihubSummary SummarizeAihub(const AihubProfileTables& tables);

struct GenieQuery {
  const GenieEventRow* event = nullptr;
  bool cold = false;  // the component's first query
  std::optional<double> ttft_us, prompt_rate_tps, generation_rate_tps, generation_us;
  std::optional<double> prompt_tokens, generated_tokens, token_acceptance_rate;
};

// Queries 2..N of one component.
struct GenieSteady {
  int first = 2, last = 2;
  std::optional<SampleStats> ttft_us, prompt_rate_tps, generation_rate_tps, duration_us;
};

struct GenieComponentSummary {
  std::string name, type;
  std::optional<double> init_us;                   // GenieDialog_create / _create's init-time
  std::optional<int64_t> create_us;                // the create event's duration
  std::optional<int64_t> free_us;                  // the free event's duration
  std::vector<GenieQuery> queries;                 // in order
  std::optional<GenieSteady> steady;               // with two or more queries
  std::vector<const GenieEventRow*> other_events;  // neither create, query nor free
};

struct GenieSummary {
  const GenieProfileTables* tables = nullptr;
  std::vector<GenieComponentSummary> components;  // in file order
  std::vector<std::string> notes;
};

GenieSummary SummarizeGenie(const GenieProfileTables& tables);

// Generations 2..N of a runner's log.
struct LlmRunnerSteady {
  int first = 2, last = 2;
  std::optional<SampleStats> ttft_us, prefill_us, prefill_rate_tps, decode_us, decode_rate_tps,
      inference_us;
};

struct LlmRunnerSummary {
  const LlmRunnerStatsTables* tables = nullptr;
  const LlmGenerationRow* cold = nullptr;  // generation 1
  std::optional<LlmRunnerSteady> steady;   // with two or more generations
  // The first generation's model load that was measured, and its generation.
  std::optional<int64_t> model_load_us;
  std::optional<uint32_t> model_load_generation;
  std::vector<std::string> notes;
};

LlmRunnerSummary SummarizeLlmRunner(const LlmRunnerStatsTables& tables);

}  // namespace htpscope
