// ExecuTorch LLM runners' stats lines: what a runner's stdout (or the log it
// was captured in) holds after each generation.  ExecuTorch's
// extension/llm/runner/stats.h (print_report) writes
//
//   PyTorchObserver {"prompt_tokens":12,"generated_tokens":100,
//     "model_load_start_ms":..,"model_load_end_ms":..,"inference_start_ms":..,
//     "inference_end_ms":..,"prompt_eval_end_ms":..,"first_token_ms":..,
//     "aggregate_sampling_time_ms":..,
//     "gpu_total_bytes":..,"gpu_free_before_load_bytes":..,            (CUDA builds,
//     "gpu_free_after_load_bytes":..,"gpu_free_after_generate_bytes":..,  each only
//     "gpu_peak_usage_mb":1234.5,                                          when measured)
//     "SCALING_FACTOR_UNITS_PER_SECOND":1000}
//
// on one line of its own (printf("PyTorchObserver %s\n", ...)); the QNN
// llama runner of examples/qualcomm writes the same object (its
// statsToJsonString), older runners fewer fields.  The timestamps are the
// runner's steady clock in 1/SCALING_FACTOR_UNITS_PER_SECOND s (ms).  Every
// other line of the log (the generated text, ET_LOG lines) is passed over.
// Definition and what is read: docs/formats-beyond-sdk.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace htpscope {

// What a stats line starts with, before its JSON object.
inline constexpr std::string_view kPyTorchObserverMarker = "PyTorchObserver {";

// The bytes of a log scanned for a stats line to recognise it when its first
// kArtifactSniffBytes hold none: a runner prints its model-loading log and
// the generated text before the first one.
inline constexpr uint64_t kLlmRunnerScanBytes = 4 << 20;

// The longest JSON object a stats line may carry (a runner's is ~500 bytes).
inline constexpr size_t kLlmRunnerMaxObjectBytes = 64 << 10;

// One stats line: one generation, as written.  A field the line does not
// have is absent (older runners print fewer), never 0.
struct LlmRunnerStatsLine {
  uint64_t line = 0;  // 1-based line of the log
  std::optional<int64_t> prompt_tokens, generated_tokens;
  // Timestamps of the runner's steady clock and the running total of its
  // sampling time, in 1/units_per_second s (ms in every runner known).
  std::optional<int64_t> model_load_start_ms, model_load_end_ms, inference_start_ms,
      inference_end_ms, prompt_eval_end_ms, first_token_ms, aggregate_sampling_time_ms;
  // SCALING_FACTOR_UNITS_PER_SECOND as written; absent in older runners.
  std::optional<int64_t> units_per_second;
  std::optional<int64_t> gpu_total_bytes, gpu_free_before_load_bytes, gpu_free_after_load_bytes,
      gpu_free_after_generate_bytes;
  std::optional<double> gpu_peak_usage_mb;  // MiB (bytes ÷ 1024²), a fraction

  // units_per_second, or the definition's 1000 when the line has none.
  int64_t UnitsPerSecond() const { return units_per_second.value_or(1000); }
};

struct LlmRunnerStats {
  std::vector<LlmRunnerStatsLine> lines;  // in log order: the first is the cold generation
  uint64_t log_lines = 0;                 // lines in the log
  // PyTorchObserver lines of PyTorch's benchmark observer ({"type", "metric",
  // "value", ...}: speed_benchmark_torch), passed over.
  uint64_t other_observer_lines = 0;
  std::vector<std::string> unknown_keys;  // keys not in the definition, each once
};

// `units` of 1/units_per_second s in µs (rounded to the nearest), or nullopt
// when that does not fit in int64 or units_per_second is not positive.
std::optional<int64_t> LlmRunnerUnitsToUs(int64_t units, int64_t units_per_second);

// True when `text` (a file's first bytes) has a line holding
// kPyTorchObserverMarker that is not PyTorch's benchmark observer's (whose
// object has "metric" and no "prompt_tokens").  A line cut at the end of
// `text` counts.
bool LooksLikeLlmRunnerStats(std::string_view text);

// The same over the first `max_bytes` of the file at `path` (plain or gzip),
// streamed.  Damage past the first bytes reads as the end of the file.
// Throws InputError only when the file cannot be opened.
bool LlmRunnerStatsWithin(const std::string& path, uint64_t max_bytes);

// Reads the runner log at `path` (plain or gzip) line by line, in bounded
// memory.  Throws InputError naming the file and the 1-based line when a
// stats line is malformed: JSON that does not parse or has text after its
// object, an object longer than kLlmRunnerMaxObjectBytes, a field twice, a
// value of the wrong type (integers; gpu_peak_usage_mb any number), a
// negative count, timestamp or size, a SCALING_FACTOR_UNITS_PER_SECOND
// that is not positive, a time whose µs do not fit in 64 bits, or an object
// without prompt_tokens or generated_tokens; and, naming the file only,
// when the log holds no stats line.
LlmRunnerStats ReadLlmRunnerStats(const std::string& path);

// The same for a log in memory, fed to the line reader in pieces of
// `piece_bytes` (0: all at once), as a stream delivers it.
LlmRunnerStats ParseLlmRunnerStats(const std::string& path, std::string_view text,
                                   size_t piece_bytes = 0);

}  // namespace htpscope
