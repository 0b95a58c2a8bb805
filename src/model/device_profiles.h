// The tables of the profiles users hold beyond the QNN SDK's own artifacts
// (docs/formats-beyond-sdk.md): a Qualcomm AI Hub profile, a Genie (LLM
// runtime) profile and an ExecuTorch LLM runner's log.  They measure other
// things than the HTP artifacts do and are kept apart from them: AI Hub's
// inference time is end-to-end on the device (runtime and all), not an HTP
// graph wall; its per-layer time is the runtime's per-layer time, not a
// dominant-path (DPC) figure; an ExecuTorch runner's times are its own
// wall-clock readings on the host CPU, in ms.
//
// Units are in the names: *_us µs, *_bytes bytes, *_tps tokens per second.
// The schema SQL and Python see: docs/tables.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace htpscope {

// One stage's AI Hub figures ("compile", "first_load", "warm_load",
// "inference"), each absent when the profile has none (null, or a layout
// without it).
struct AihubStageRow {
  std::string stage;
  std::optional<int64_t> time_us;            // estimated_inference_time, first_load_time, ...
  std::optional<int64_t> peak_memory_bytes;  // *_peak_memory
  std::optional<int64_t> increase_lower_bytes, increase_upper_bytes;  // *_memory_increase_range
  std::optional<int64_t> peak_lower_bytes, peak_upper_bytes;          // *_memory_peak_range
  uint32_t samples = 0;  // rows of aihub_samples for this stage
};

// One element of all_<stage>_times: the stage measured once, in order.
struct AihubSampleRow {
  std::string stage;
  uint32_t index = 0;  // 0-based; index 0 of "inference" is the cold first run
  int64_t time_us = 0;
};

// One layer of execution_detail, in order.
struct AihubLayerRow {
  uint32_t index = 0;  // 0-based position in execution_detail
  std::string name, type;
  // "NPU", "GPU", "CPU", "UNSPECIFIED", or as written for another value
  // (the "COMPUTE_UNIT_" prefix of older clients removed).
  std::string compute_unit;
  std::optional<int64_t> time_us;  // execution_time: the runtime's per-layer time
  std::optional<int64_t> cycles;   // execution_cycles
  uint32_t occurrence = 1;         // 1 for the first layer of its name, 2 for the second, ...
};

struct AihubProfileTables {
  std::string layout;                 // "tetra_hub" or "qai_hub"
  std::vector<AihubStageRow> stages;  // compile, first_load, warm_load, inference
  std::vector<AihubSampleRow> samples;
  std::vector<AihubLayerRow> layers;
  std::vector<std::string> unknown_keys;  // execution_summary keys not in the definition

  const AihubStageRow* Stage(std::string_view name) const;
  std::vector<int64_t> SamplesOf(std::string_view stage) const;  // in order
};

// One Genie profile event, in file order within its component.
struct GenieEventRow {
  std::string component;       // "dialog0"
  std::string component_type;  // "dialog", "embedding", ...
  uint32_t index = 0;          // 0-based within its component
  std::string type;            // "GenieDialog_create", "GenieDialog_query", ...
  // 1-based number of the query (GenieDialog_query, GenieEmbedding_generate)
  // within its component; absent for other events.
  std::optional<uint32_t> query;
  int64_t start_us = 0, duration_us = 0;
  std::optional<int64_t> stop_us;
  uint32_t first_metric = 0, metric_count = 0;  // its rows of genie_metrics
};

// One metric of an event, as written: {"value", "unit"}.
struct GenieMetricRow {
  uint32_t event = 0;  // index into GenieProfileTables::events
  std::string name;    // "time-to-first-token"
  double value = 0;
  std::string unit;  // "us", "toks/sec", "toks/iteration", "" (a count), ...
};

struct GenieProfileTables {
  std::string header_version, version;
  std::optional<int64_t> timestamp_us;
  bool has_trace_events = false;
  std::vector<GenieEventRow> events;
  std::vector<GenieMetricRow> metrics;

  // The value of metric `name` of event `e`, or nullopt.
  std::optional<double> Metric(const GenieEventRow& e, std::string_view name) const;
};

// One stats line of an ExecuTorch LLM runner's log ("PyTorchObserver
// {json}"): one generation, in log order.  Times are µs of the runner's
// steady clock (its ms × 1000: ms resolution); a figure the line cannot
// give is absent, never 0.
struct LlmGenerationRow {
  uint32_t generation = 0;  // 1-based, in log order; generation 1 is the cold one
  uint64_t line = 0;        // 1-based line of the log
  std::optional<int64_t> prompt_tokens, generated_tokens;
  // The runner's timestamps as written, in µs.
  std::optional<int64_t> model_load_start_us, model_load_end_us, inference_start_us,
      prompt_eval_end_us, first_token_us, inference_end_us;
  // The runner's own definitions (stats.h print_report), each absent when a
  // timestamp is or when the difference is negative:
  std::optional<int64_t> model_load_us;    // model_load_end − model_load_start; absent when both
                                           // are 0 (no load in this generation)
  std::optional<int64_t> prefill_us;       // prompt_eval_end − inference_start (tokenizing too)
  std::optional<int64_t> ttft_us;          // first_token − inference_start
  std::optional<int64_t> decode_us;        // inference_end − prompt_eval_end
  std::optional<int64_t> inference_us;     // inference_end − inference_start
  std::optional<double> prefill_rate_tps;  // prompt_tokens ÷ prefill s (prefill_us > 0)
  std::optional<double> decode_rate_tps;   // generated_tokens ÷ decode s (decode_us > 0)
  // aggregate_sampling_time: the runner's running total since its stats were last reset.
  std::optional<int64_t> sampling_us;
  std::optional<int64_t> gpu_total_bytes, gpu_free_before_load_bytes, gpu_free_after_load_bytes,
      gpu_free_after_generate_bytes;
  std::optional<double> gpu_peak_usage_mb;  // MiB, as written
  int64_t units_per_second = 1000;          // SCALING_FACTOR_UNITS_PER_SECOND (1000 when unwritten)
};

struct LlmRunnerStatsTables {
  std::vector<LlmGenerationRow> generations;  // in log order
  uint64_t log_lines = 0;
  uint64_t other_observer_lines = 0;      // PyTorch benchmark observer lines, passed over
  std::vector<std::string> unknown_keys;  // stats keys not in the definition
};

// True when `path` is a regular file holding a profile of this header (AI
// Hub, Genie, ExecuTorch runner log; by content, formats/artifact_kind.h).
// Throws InputError only when the file cannot be opened.
bool IsDeviceProfileFile(const std::string& path);

}  // namespace htpscope
