#include "report/device_profile_tables.h"

#include <fmt/format.h>

#include <optional>

#include "model/figures.h"

namespace htpscope {
namespace {

const AihubStageRow& Stage(const Run& r, size_t i) { return r.aihub->stages[i]; }
const AihubSampleRow& Sample(const Run& r, size_t i) { return r.aihub->samples[i]; }
const AihubLayerRow& Layer(const Run& r, size_t i) { return r.aihub->layers[i]; }
const GenieEventRow& Event(const Run& r, size_t i) { return r.genie->events[i]; }
const GenieMetricRow& Metric(const Run& r, size_t i) { return r.genie->metrics[i]; }
const LlmGenerationRow& Generation(const Run& r, size_t i) { return r.llm_runner->generations[i]; }

// An int64 column of the runner's generations.
TableColumn GenerationIntColumn(const char* name, const char* meaning,
                                std::optional<int64_t> LlmGenerationRow::*field) {
  return IntColumn(name, meaning, [field](const Run& r, size_t i, CellSink& s) {
    PutOptional(s, Generation(r, i).*field);
  });
}
TableColumn GenerationRealColumn(const char* name, const char* meaning,
                                 std::optional<double> LlmGenerationRow::*field) {
  return RealColumn(name, meaning, [field](const Run& r, size_t i, CellSink& s) {
    PutOptional(s, Generation(r, i).*field);
  });
}

}  // namespace

void AppendDeviceProfileTables(std::vector<RunTable>& t) {
  t.push_back(
      {"aihub_stages",
       "one row per AI Hub stage (compile, first_load, warm_load, inference) of an AI Hub profile",
       {TextColumn("stage", "compile, first_load, warm_load or inference",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(Stage(r, i).stage); }),
        IntColumn(
            "time_us",
            "compile_time, first_load_time, warm_load_time, or estimated_inference_time (AI "
            "Hub's estimate: end-to-end on the device, not the HTP graph wall); null when unset",
            [](const Run& r, size_t i, CellSink& s) { PutOptional(s, Stage(r, i).time_us); }),
        IntColumn("peak_memory_bytes", "<stage>_peak_memory (estimated_inference_peak_memory)",
                  [](const Run& r, size_t i, CellSink& s) {
                    PutOptional(s, Stage(r, i).peak_memory_bytes);
                  }),
        IntColumn("increase_lower_bytes", "<stage>_memory_increase_range, lower end",
                  [](const Run& r, size_t i, CellSink& s) {
                    PutOptional(s, Stage(r, i).increase_lower_bytes);
                  }),
        IntColumn("increase_upper_bytes", "<stage>_memory_increase_range, upper end",
                  [](const Run& r, size_t i, CellSink& s) {
                    PutOptional(s, Stage(r, i).increase_upper_bytes);
                  }),
        IntColumn("peak_lower_bytes", "<stage>_memory_peak_range, lower end",
                  [](const Run& r, size_t i, CellSink& s) {
                    PutOptional(s, Stage(r, i).peak_lower_bytes);
                  }),
        IntColumn("peak_upper_bytes", "<stage>_memory_peak_range, upper end",
                  [](const Run& r, size_t i, CellSink& s) {
                    PutOptional(s, Stage(r, i).peak_upper_bytes);
                  }),
        IntColumn("sample_count", "rows of aihub_samples for the stage (all_<stage>_times)",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(Stage(r, i).samples); })},
       [](const Run& r) { return r.aihub ? r.aihub->stages.size() : 0; }});
  t.push_back(
      {"aihub_samples",
       "one row per element of an AI Hub profile's all_<stage>_times",
       {TextColumn("stage", "compile, first_load, warm_load or inference",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(Sample(r, i).stage); }),
        IntColumn("sample_index", "0-based, in order; sample 0 of inference is the cold first run",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(Sample(r, i).index); }),
        IntColumn("time_us", "the stage measured once (inference: end-to-end on the device)",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(Sample(r, i).time_us); })},
       [](const Run& r) { return r.aihub ? r.aihub->samples.size() : 0; }});
  t.push_back(
      {"aihub_layers",
       "one row per layer of an AI Hub profile's execution_detail, in order",
       {IntColumn("layer_index", "0-based position in execution_detail",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(Layer(r, i).index); }),
        TextColumn("name", "the layer's name (names may repeat)",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(Layer(r, i).name); }),
        IntColumn("occurrence_index", "1 for the first layer of its name, 2 for the second, ...",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(Layer(r, i).occurrence); }),
        TextColumn("type", "the layer's type",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(Layer(r, i).type); }),
        TextColumn("compute_unit",
                   "NPU, GPU, CPU or UNSPECIFIED (the COMPUTE_UNIT_ prefix removed)",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(Layer(r, i).compute_unit); }),
        IntColumn("time_us",
                  "execution_time: the runtime's per-layer time, not a DPC; null unmeasured",
                  [](const Run& r, size_t i, CellSink& s) { PutOptional(s, Layer(r, i).time_us); }),
        IntColumn("execution_cycles", "execution_cycles; null when not measured",
                  [](const Run& r, size_t i, CellSink& s) { PutOptional(s, Layer(r, i).cycles); })},
       [](const Run& r) { return r.aihub ? r.aihub->layers.size() : 0; }});
  t.push_back(
      {"genie_events",
       "one row per event of a Genie profile (GenieDialog_create, _query, _free, ...)",
       {IntColumn("event_id", "0-based row number; genie_metrics.event_id refers to it",
                  [](const Run&, size_t i, CellSink& s) { s.Int(static_cast<int64_t>(i)); }),
        TextColumn("component", "the component's name (dialog0, ...)",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(Event(r, i).component); }),
        TextColumn("component_type", "dialog, embedding, engine, pipeline or node",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(Event(r, i).component_type); }),
        TextColumn("type", "GenieDialog_create, GenieDialog_query, GenieDialog_free, ...",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(Event(r, i).type); }),
        IntColumn("query_index",
                  "1-based query number within its component (1 is cold); null otherwise",
                  [](const Run& r, size_t i, CellSink& s) { PutOptional(s, Event(r, i).query); }),
        IntColumn("start_us", "start, µs of Genie's clock",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(Event(r, i).start_us); }),
        IntColumn("duration_us", "the API call's duration",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(Event(r, i).duration_us); }),
        RealColumn(DeviceFigureName(DeviceFigure::kTtftUs),
                   "time-to-first-token (queries; null otherwise)",
                   [](const Run& r, size_t i, CellSink& s) {
                     auto v = r.genie->Metric(Event(r, i), "time-to-first-token");
                     v ? s.Real(*v) : s.Null();
                   }),
        RealColumn("token_rate_tps", "token-generation-rate, tokens per second",
                   [](const Run& r, size_t i, CellSink& s) {
                     auto v = r.genie->Metric(Event(r, i), "token-generation-rate");
                     v ? s.Real(*v) : s.Null();
                   }),
        RealColumn("prompt_rate_tps", "prompt-processing-rate, tokens per second",
                   [](const Run& r, size_t i, CellSink& s) {
                     auto v = r.genie->Metric(Event(r, i), "prompt-processing-rate");
                     v ? s.Real(*v) : s.Null();
                   })},
       [](const Run& r) { return r.genie ? r.genie->events.size() : 0; }});
  t.push_back(
      {"genie_metrics",
       "one row per metric of a Genie profile event, as written ({\"value\", \"unit\"})",
       {IntColumn("event_id", "its row of genie_events",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(Metric(r, i).event); }),
        TextColumn("name", "init-time, time-to-first-token, token-generation-rate, ...",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(Metric(r, i).name); }),
        RealColumn("value", "the value, in `unit`",
                   [](const Run& r, size_t i, CellSink& s) { s.Real(Metric(r, i).value); }),
        TextColumn("unit", "us, toks/sec, toks/iteration, bytes, cycles, or empty for a count",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(Metric(r, i).unit); })},
       [](const Run& r) { return r.genie ? r.genie->metrics.size() : 0; }});
  using G = LlmGenerationRow;
  t.push_back(
      {"llm_generations",
       "one row per PyTorchObserver stats line of an ExecuTorch LLM runner's log: one generation; "
       "times are the runner's wall clock (ms resolution), not HTP cycles",
       {IntColumn("generation_index", "1-based, in log order; 1 is the cold generation",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(Generation(r, i).generation); }),
        IntColumn("log_line_index", "1-based line of the log",
                  [](const Run& r, size_t i, CellSink& s) {
                    s.Int(static_cast<int64_t>(Generation(r, i).line));
                  }),
        GenerationIntColumn("prompt_token_count", "prompt_tokens", &G::prompt_tokens),
        GenerationIntColumn("generated_token_count", "generated_tokens", &G::generated_tokens),
        GenerationIntColumn(DeviceFigureName(DeviceFigure::kModelLoadUs),
                            "model_load_end − model_load_start; null when not loaded in this "
                            "generation (both 0)",
                            &G::model_load_us),
        GenerationIntColumn(DeviceFigureName(DeviceFigure::kTtftUs),
                            "first_token − inference_start", &G::ttft_us),
        GenerationIntColumn(DeviceFigureName(DeviceFigure::kPrefillUs),
                            "prompt_eval_end − inference_start (tokenizing included)",
                            &G::prefill_us),
        GenerationRealColumn("prefill_rate_tps", "prompt tokens ÷ prefill seconds",
                             &G::prefill_rate_tps),
        GenerationIntColumn(DeviceFigureName(DeviceFigure::kDecodeUs),
                            "inference_end − prompt_eval_end", &G::decode_us),
        GenerationRealColumn("decode_rate_tps", "generated tokens ÷ decode seconds",
                             &G::decode_rate_tps),
        // One generation's inference: the figure generation_us, the column
        // named as the runner's log and summary name it (not AI Hub's
        // inference_us).
        GenerationIntColumn("inference_us", "inference_end − inference_start", &G::inference_us),
        GenerationIntColumn("sampling_us",
                            "aggregate_sampling_time: the runner's running total since its "
                            "stats were reset",
                            &G::sampling_us),
        GenerationIntColumn("model_load_start_us", "the runner's steady clock",
                            &G::model_load_start_us),
        GenerationIntColumn("model_load_end_us", "the runner's steady clock",
                            &G::model_load_end_us),
        GenerationIntColumn("inference_start_us", "the runner's steady clock",
                            &G::inference_start_us),
        GenerationIntColumn("prompt_eval_end_us", "the runner's steady clock",
                            &G::prompt_eval_end_us),
        GenerationIntColumn("first_token_us", "the runner's steady clock", &G::first_token_us),
        GenerationIntColumn("inference_end_us", "the runner's steady clock", &G::inference_end_us),
        GenerationIntColumn("gpu_total_bytes", "CUDA builds: the GPU's memory",
                            &G::gpu_total_bytes),
        GenerationIntColumn("gpu_free_before_load_bytes", "free GPU memory before the load",
                            &G::gpu_free_before_load_bytes),
        GenerationIntColumn("gpu_free_after_load_bytes", "free GPU memory after the load",
                            &G::gpu_free_after_load_bytes),
        GenerationIntColumn("gpu_free_after_generate_bytes", "free GPU memory after generating",
                            &G::gpu_free_after_generate_bytes),
        GenerationRealColumn(DeviceFigureName(DeviceFigure::kGpuPeakUsageMb),
                             "the runner's peak GPU usage, MiB", &G::gpu_peak_usage_mb)},
       [](const Run& r) { return r.llm_runner ? r.llm_runner->generations.size() : 0; }});
}

namespace {

// A device figure `trend --metric` follows (DeviceFigureInfo::trend) and
// the query of one run's samples of it.
struct DeviceTrend {
  DeviceFigure figure;
  std::string sql;
};

// In `trend --metric`'s order (its help lists them so).
const std::vector<DeviceTrend>& DeviceTrends() {
  using D = DeviceFigure;
  // Genie's steady state: queries 2..N of a component, or its only query.
  static constexpr char kSteadyQuery[] =
      "SELECT {0} FROM genie_events e WHERE e.run_id = ?1 AND e.{0} IS NOT NULL AND "
      "(e.query_index > 1 OR (e.query_index = 1 AND NOT EXISTS (SELECT 1 FROM genie_events f "
      "WHERE f.run_id = ?1 AND f.component = e.component AND f.query_index > 1))) ORDER BY "
      "e.event_id";
  // A runner's steady state: generations 2..N of its log, or its only one.
  static constexpr char kRunnerSteady[] =
      "SELECT {0} FROM llm_generations g WHERE g.run_id = ?1 AND g.{0} IS NOT NULL AND "
      "(g.generation_index > 1 OR NOT EXISTS (SELECT 1 FROM llm_generations h WHERE h.run_id = "
      "?1 AND h.generation_index > 1)) ORDER BY g.generation_index";
  // Time to first token means the same in Genie's profile and a runner's
  // log (from the query's start to the first token): one trend for both,
  // from the column of that name in genie_events and llm_generations.
  auto both = [](const std::string& genie, const std::string& runner) {
    return fmt::format("SELECT * FROM ({}) UNION ALL SELECT * FROM ({})", genie, runner);
  };
  const char* ttft = DeviceFigureName(D::kTtftUs);
  static const std::vector<DeviceTrend> trends = {
      {D::kInferenceUs,
       "SELECT time_us FROM aihub_samples WHERE run_id = ?1 AND stage = 'inference' AND "
       "sample_index > 0 ORDER BY sample_index"},
      {D::kColdInferenceUs,
       "SELECT time_us FROM aihub_samples WHERE run_id = ?1 AND stage = 'inference' AND "
       "sample_index = 0"},
      {D::kEstimatedInferenceUs,
       "SELECT time_us FROM aihub_stages WHERE run_id = ?1 AND stage = 'inference' AND time_us "
       "IS NOT NULL"},
      {D::kNpuTimePct,
       "SELECT 100.0 * sum(CASE WHEN compute_unit = 'NPU' THEN time_us ELSE 0 END) / "
       "sum(time_us) FROM aihub_layers WHERE run_id = ?1 HAVING sum(time_us) > 0"},
      {D::kFallbackLayers,
       "SELECT count(*) - count(CASE WHEN compute_unit = 'NPU' THEN 1 END) FROM aihub_layers "
       "WHERE run_id = ?1 HAVING count(*) > 0"},
      {D::kTtftUs, both(fmt::format(fmt::runtime(kSteadyQuery), ttft),
                        fmt::format(fmt::runtime(kRunnerSteady), ttft))},
      {D::kColdTtftUs,
       both(fmt::format("SELECT {0} FROM genie_events WHERE run_id = ?1 AND query_index = 1 AND "
                        "{0} IS NOT NULL ORDER BY event_id",
                        ttft),
            fmt::format("SELECT {0} FROM llm_generations WHERE run_id = ?1 AND generation_index = "
                        "1 AND {0} IS NOT NULL",
                        ttft))},
      {D::kTokenRate, fmt::format(fmt::runtime(kSteadyQuery), "token_rate_tps")},
      {D::kPromptRate, fmt::format(fmt::runtime(kSteadyQuery), "prompt_rate_tps")},
      {D::kDecodeTokenRate, fmt::format(fmt::runtime(kRunnerSteady), "decode_rate_tps")},
      {D::kPrefillTokenRate, fmt::format(fmt::runtime(kRunnerSteady), "prefill_rate_tps")},
  };
  return trends;
}

}  // namespace

const std::vector<TrendMetric>& DeviceProfileTrendMetrics() {
  static const std::vector<TrendMetric> metrics = [] {
    std::vector<TrendMetric> m;
    for (const auto& t : DeviceTrends()) {
      const DeviceFigureInfo& f = InfoOf(t.figure);
      m.push_back({f.name, f.unit, f.description});
    }
    return m;
  }();
  return metrics;
}

std::string DeviceProfileTrendSql(const std::string& name) {
  for (const auto& t : DeviceTrends())
    if (name == DeviceFigureName(t.figure)) return t.sql;
  return "";
}

}  // namespace htpscope
