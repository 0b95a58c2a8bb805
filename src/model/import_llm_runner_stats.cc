#include "model/import_llm_runner_stats.h"

#include <utility>

#include "base/checked_math.h"

namespace htpscope::model_import {
namespace {

// `later` − `earlier` when both are given and the difference is not negative.
std::optional<int64_t> RunnerSpanUs(std::optional<int64_t> earlier, std::optional<int64_t> later) {
  if (!earlier || !later || *later < *earlier) return std::nullopt;
  return CheckedSub(*later, *earlier);
}

// `tokens` per second over `us`, when both are given and the time is positive.
std::optional<double> RunnerRateTps(std::optional<int64_t> tokens, std::optional<int64_t> us) {
  if (!tokens || !us || *us <= 0) return std::nullopt;
  return static_cast<double>(*tokens) * 1e6 / static_cast<double>(*us);
}

}  // namespace

LlmRunnerStatsTables ImportLlmRunnerStats(LlmRunnerStats&& stats) {
  LlmRunnerStatsTables t;
  t.log_lines = stats.log_lines;
  t.other_observer_lines = stats.other_observer_lines;
  t.unknown_keys = std::move(stats.unknown_keys);
  t.generations.reserve(stats.lines.size());
  for (const LlmRunnerStatsLine& l : stats.lines) {
    const int64_t per_second = l.UnitsPerSecond();
    // The reader checked that every time it keeps converts.
    auto us = [per_second](std::optional<int64_t> units) -> std::optional<int64_t> {
      if (!units) return std::nullopt;
      return LlmRunnerUnitsToUs(*units, per_second);
    };
    LlmGenerationRow g;
    g.generation = static_cast<uint32_t>(t.generations.size() + 1);
    g.line = l.line;
    g.prompt_tokens = l.prompt_tokens;
    g.generated_tokens = l.generated_tokens;
    g.model_load_start_us = us(l.model_load_start_ms);
    g.model_load_end_us = us(l.model_load_end_ms);
    g.inference_start_us = us(l.inference_start_ms);
    g.prompt_eval_end_us = us(l.prompt_eval_end_ms);
    g.first_token_us = us(l.first_token_ms);
    g.inference_end_us = us(l.inference_end_ms);
    // Both 0: the runner's stats were reset (after a warmup) and the model
    // was not loaded in this generation.
    if (!(g.model_load_start_us == 0 && g.model_load_end_us == 0))
      g.model_load_us = RunnerSpanUs(g.model_load_start_us, g.model_load_end_us);
    g.prefill_us = RunnerSpanUs(g.inference_start_us, g.prompt_eval_end_us);
    g.ttft_us = RunnerSpanUs(g.inference_start_us, g.first_token_us);
    g.decode_us = RunnerSpanUs(g.prompt_eval_end_us, g.inference_end_us);
    g.inference_us = RunnerSpanUs(g.inference_start_us, g.inference_end_us);
    g.prefill_rate_tps = RunnerRateTps(g.prompt_tokens, g.prefill_us);
    g.decode_rate_tps = RunnerRateTps(g.generated_tokens, g.decode_us);
    g.sampling_us = us(l.aggregate_sampling_time_ms);
    g.gpu_total_bytes = l.gpu_total_bytes;
    g.gpu_free_before_load_bytes = l.gpu_free_before_load_bytes;
    g.gpu_free_after_load_bytes = l.gpu_free_after_load_bytes;
    g.gpu_free_after_generate_bytes = l.gpu_free_after_generate_bytes;
    g.gpu_peak_usage_mb = l.gpu_peak_usage_mb;
    g.units_per_second = per_second;
    t.generations.push_back(std::move(g));
  }
  return t;
}

}  // namespace htpscope::model_import
