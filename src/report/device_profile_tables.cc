#include "report/device_profile_tables.h"

#include <fmt/format.h>

#include <optional>

namespace htpscope {
namespace {

const AihubStageRow& Stage(const Run& r, size_t i) { return r.aihub->stages[i]; }
const AihubSampleRow& Sample(const Run& r, size_t i) { return r.aihub->samples[i]; }
const AihubLayerRow& Layer(const Run& r, size_t i) { return r.aihub->layers[i]; }
const GenieEventRow& Event(const Run& r, size_t i) { return r.genie->events[i]; }
const GenieMetricRow& Metric(const Run& r, size_t i) { return r.genie->metrics[i]; }

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
        RealColumn("ttft_us", "time-to-first-token (queries; null otherwise)",
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
}

namespace {

struct DeviceTrend {
  TrendMetric metric;
  std::string sql;
};

const std::vector<DeviceTrend>& DeviceTrends() {
  // Genie's steady state: queries 2..N of a component, or its only query.
  static constexpr char kSteadyQuery[] =
      "SELECT {0} FROM genie_events e WHERE e.run_id = ?1 AND e.{0} IS NOT NULL AND "
      "(e.query_index > 1 OR (e.query_index = 1 AND NOT EXISTS (SELECT 1 FROM genie_events f "
      "WHERE f.run_id = ?1 AND f.component = e.component AND f.query_index > 1))) ORDER BY "
      "e.event_id";
  static const std::vector<DeviceTrend> trends = {
      {{"inference_us", "us",
        "AI Hub all_inference_times 2..N (end-to-end on the device, not the HTP graph wall)"},
       "SELECT time_us FROM aihub_samples WHERE run_id = ?1 AND stage = 'inference' AND "
       "sample_index > 0 ORDER BY sample_index"},
      {{"cold_inference_us", "us", "AI Hub all_inference_times[0], the cold first run"},
       "SELECT time_us FROM aihub_samples WHERE run_id = ?1 AND stage = 'inference' AND "
       "sample_index = 0"},
      {{"estimated_inference_us", "us", "AI Hub's estimated_inference_time"},
       "SELECT time_us FROM aihub_stages WHERE run_id = ?1 AND stage = 'inference' AND time_us "
       "IS NOT NULL"},
      {{"npu_time_pct", "pct", "AI Hub: NPU layers' Σ execution_time ÷ every layer's × 100"},
       "SELECT 100.0 * sum(CASE WHEN compute_unit = 'NPU' THEN time_us ELSE 0 END) / "
       "sum(time_us) FROM aihub_layers WHERE run_id = ?1 HAVING sum(time_us) > 0"},
      {{"fallback_layers", "layers", "AI Hub: layers not on the NPU"},
       "SELECT count(*) - count(CASE WHEN compute_unit = 'NPU' THEN 1 END) FROM aihub_layers "
       "WHERE run_id = ?1 HAVING count(*) > 0"},
      {{"ttft_us", "us", "Genie time-to-first-token, queries 2..N (a dialog's only query)"},
       fmt::format(fmt::runtime(kSteadyQuery), "ttft_us")},
      {{"cold_ttft_us", "us", "Genie time-to-first-token of each dialog's first query"},
       "SELECT ttft_us FROM genie_events WHERE run_id = ?1 AND query_index = 1 AND ttft_us IS "
       "NOT NULL ORDER BY event_id"},
      {{"token_rate", "toks/s",
        "Genie token-generation-rate, queries 2..N (a dialog's only query)"},
       fmt::format(fmt::runtime(kSteadyQuery), "token_rate_tps")},
      {{"prompt_rate", "toks/s",
        "Genie prompt-processing-rate, queries 2..N (a dialog's only query)"},
       fmt::format(fmt::runtime(kSteadyQuery), "prompt_rate_tps")},
  };
  return trends;
}

}  // namespace

const std::vector<TrendMetric>& DeviceProfileTrendMetrics() {
  static const std::vector<TrendMetric> metrics = [] {
    std::vector<TrendMetric> m;
    for (const auto& t : DeviceTrends()) m.push_back(t.metric);
    return m;
  }();
  return metrics;
}

std::string DeviceProfileTrendSql(const std::string& name) {
  for (const auto& t : DeviceTrends())
    if (t.metric.name == name) return t.sql;
  return "";
}

}  // namespace htpscope
