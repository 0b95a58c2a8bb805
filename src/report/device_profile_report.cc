#include "report/device_profile_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "base/number_text.h"
#include "model/figures.h"
#include "report/format_util.h"
#include "report/gate_report.h"
#include "report/json_values.h"
#include "report/module_diff_report.h"
#include "report/module_report.h"
#include "report/run_sections.h"
#include "report/text_sanitize.h"

namespace htpscope {
namespace {

using json = nlohmann::json;

std::string Us(std::optional<int64_t> v) { return v ? GroupDigits(*v) : std::string("-"); }
std::string Us(std::optional<double> v) { return v ? FormatFigure(*v) : std::string("-"); }
std::string Pct(std::optional<double> v) { return v ? FormatMeasure(*v, 1) : std::string("-"); }
std::string Bytes(std::optional<int64_t> v) { return v ? HumanBytes(*v) : std::string("-"); }
std::string Range(std::optional<int64_t> lo, std::optional<int64_t> hi) {
  if (!lo || !hi) return "-";
  return fmt::format("{} – {}", HumanBytes(*lo), HumanBytes(*hi));
}
json RangeJson(std::optional<int64_t> lo, std::optional<int64_t> hi) {
  if (!lo || !hi) return nullptr;
  return json::array({*lo, *hi});
}

json SteadyJson(const std::optional<SampleStats>& s, int first, int last) {
  if (!s) return nullptr;
  return {{"first_index", first},
          {"last_index", last},
          {"median", s->median},
          {"min", s->min},
          {"max", s->max},
          {"mad", s->mad},
          {"n", s->n}};
}

}  // namespace

std::string RenderAihubText(const AihubSummary& s, int top_n) {
  const AihubProfileTables& t = *s.tables;
  std::string out;
  AppendSection(out, fmt::format("AI Hub profile ({} layout)", t.layout));
  const AihubStageFigures& inf = *s.inference;
  out += "  inference, end-to-end on the device (not the HTP graph wall):\n";
  out += fmt::format("    {:<40} {:>12} µs\n", "estimated (AI Hub's figure)", Us(inf.row->time_us));
  out += fmt::format("    {:<40} {:>12} µs\n", "cold first run (all_inference_times[0])",
                     Us(inf.cold_us));
  if (inf.steady_us) {
    const SampleStats& st = *inf.steady_us;
    out += fmt::format("    {:<40} {:>12} µs median (min {}, max {}, n {})\n",
                       fmt::format("steady state (runs 2..{})", inf.samples_us.size()),
                       FormatFigure(st.median), FormatFigure(st.min), FormatFigure(st.max), st.n);
  } else {
    out += fmt::format("    {:<40} {:>12}\n", "steady state (runs 2..N)",
                       inf.samples_us.empty() ? "- (no all_inference_times)" : "- (one run)");
  }
  out +=
      "\n  stage        time µs   peak memory  increase range          peak range"
      "              samples (median µs)\n";
  for (const auto& f : s.stages) {
    const AihubStageRow& r = *f.row;
    out += fmt::format(
        "  {:<10} {:>10}   {:>11}  {:<23} {:<23} {}\n", r.stage, Us(r.time_us),
        Bytes(r.peak_memory_bytes), Range(r.increase_lower_bytes, r.increase_upper_bytes),
        Range(r.peak_lower_bytes, r.peak_upper_bytes),
        f.samples ? fmt::format("{} ({})", f.samples->n, FormatFigure(f.samples->median))
                  : std::string("-"));
  }
  out +=
      "  (the inference row's time is the estimate; its peak memory is "
      "estimated_inference_peak_memory)\n";

  AppendSection(out, "Compute units: by count of layers and by Σ per-layer time");
  out += "  unit          layers  layers %   timed   time µs   time %\n";
  for (const auto& c : s.coverage)
    out += fmt::format(
        "  {:<12} {:>7} {:>9} {:>7} {:>9} {:>8}\n", TerminalSafe(c.unit), GroupDigits(c.layers),
        FormatMeasure(c.layers_pct, 1), GroupDigits(c.timed_layers),
        c.timed_layers > 0 ? GroupDigits(c.time_us) : std::string("-"), Pct(c.time_pct));
  out += fmt::format(
      "  {} layers, {} with an execution_time, Σ {} µs (the runtime's per-layer times, not "
      "optrace DPC)\n",
      GroupDigits(s.layers), GroupDigits(s.timed_layers), Us(s.layer_time_us));

  AppendSection(out, fmt::format("Fallback layers (not on the NPU): {} of {} layers, {} µs = {} % "
                                 "of Σ layer time",
                                 GroupDigits(s.fallback_layers), GroupDigits(s.layers),
                                 Us(s.fallback_time_us), Pct(s.fallback_time_pct)));
  if (s.fallbacks.empty()) out += "  none: every layer ran on the NPU\n";
  const size_t shown = std::min(s.fallbacks.size(), static_cast<size_t>(std::max(top_n, 1)) * 5);
  for (size_t i = 0; i < shown; ++i) {
    const AihubFallbackLayer& f = s.fallbacks[i];
    out += fmt::format("  {:>5}  {:<12} {:>9} µs {:>6} %  {}  {}\n", f.layer->index,
                       TerminalSafe(f.layer->compute_unit), Us(f.layer->time_us), Pct(f.time_pct),
                       TerminalSafe(f.layer->type), TerminalSafe(f.layer->name));
  }
  if (shown < s.fallbacks.size())
    out += fmt::format("  … {} more (--json for all)\n", FormatCount(s.fallbacks.size() - shown));

  std::vector<const AihubLayerRow*> timed;
  for (const auto& l : t.layers)
    if (l.time_us) timed.push_back(&l);
  std::stable_sort(timed.begin(), timed.end(),
                   [](const auto* x, const auto* y) { return *x->time_us > *y->time_us; });
  if (!timed.empty()) {
    AppendSection(out, fmt::format("Slowest layers (top {} by execution_time)",
                                   std::min(timed.size(), static_cast<size_t>(top_n))));
    out += "      #  unit           time µs     cycles  type / name\n";
    for (size_t i = 0; i < timed.size() && i < static_cast<size_t>(top_n); ++i) {
      const AihubLayerRow& l = *timed[i];
      out += fmt::format("  {:>5}  {:<12} {:>9} {:>10}  {} / {}\n", l.index,
                         TerminalSafe(l.compute_unit), Us(l.time_us), Us(l.cycles),
                         TerminalSafe(l.type), TerminalSafe(l.name));
    }
  }
  if (!s.notes.empty()) {
    out += "\n";
    for (const auto& n : s.notes) out += "  * " + n + "\n";
  }
  return out;
}

std::string RenderGenieText(const GenieSummary& s) {
  const GenieProfileTables& t = *s.tables;
  std::string out;
  AppendSection(out,
                fmt::format("Genie profile (version {}, header {})", t.version, t.header_version));
  for (const auto& c : s.components) {
    out +=
        fmt::format("  {} {}: init {} µs (create event {} µs), free {} µs\n", TerminalSafe(c.type),
                    TerminalSafe(c.name), Us(c.init_us), Us(c.create_us), Us(c.free_us));
    if (!c.queries.empty()) {
      out +=
          "    query        TTFT µs  prompt toks  prompt toks/s  gen toks  gen toks/s"
          "    gen time µs   duration µs\n";
      for (const auto& q : c.queries)
        out +=
            fmt::format("    {:>2} {:<5} {:>10} {:>12} {:>14} {:>9} {:>11} {:>14} {:>13}\n",
                        *q.event->query, q.cold ? "cold" : "", Us(q.ttft_us), Us(q.prompt_tokens),
                        Us(q.prompt_rate_tps), Us(q.generated_tokens), Us(q.generation_rate_tps),
                        Us(q.generation_us), GroupDigits(q.event->duration_us));
    }
    if (c.steady) {
      const GenieSteady& st = *c.steady;
      auto med = [](const std::optional<SampleStats>& x) {
        return x ? FormatFigure(x->median) : std::string("-");
      };
      out += fmt::format(
          "    steady state (queries {}..{}, median): TTFT {} µs, prompt {} toks/s, generation "
          "{} toks/s, duration {} µs\n",
          st.first, st.last, med(st.ttft_us), med(st.prompt_rate_tps), med(st.generation_rate_tps),
          med(st.duration_us));
    } else if (c.queries.size() == 1) {
      out += "    one query: cold only, no steady state\n";
    }
    for (const GenieEventRow* e : c.other_events)
      out += fmt::format("    {} {} µs\n", TerminalSafe(e->type), GroupDigits(e->duration_us));
  }
  for (const auto& n : s.notes) out += "  * " + n + "\n";
  return out;
}

std::string RenderLlmRunnerText(const LlmRunnerSummary& s) {
  const LlmRunnerStatsTables& t = *s.tables;
  std::string out;
  AppendSection(out,
                fmt::format("ExecuTorch LLM runner log ({} generation{}, PyTorchObserver lines)",
                            t.generations.size(), t.generations.size() == 1 ? "" : "s"));
  out += "  the runner's own timings: wall clock of the host runtime (ms), not HTP cycles\n";
  out += s.model_load_us
             ? fmt::format("  model load {} µs (generation {})\n", GroupDigits(*s.model_load_us),
                           s.model_load_generation.value_or(0))
             : std::string("  model load: not measured in this log\n");
  out +=
      "    gen          TTFT µs   prefill µs  prompt toks  prefill toks/s    decode µs  gen toks"
      "  decode toks/s     total µs  sampling µs\n";
  for (const auto& g : t.generations)
    out += fmt::format(
        "    {:>3} {:<5} {:>11} {:>12} {:>12} {:>15} {:>12} {:>9} {:>14} {:>12} {:>12}\n",
        g.generation, g.generation == 1 ? "cold" : "", Us(g.ttft_us), Us(g.prefill_us),
        Us(g.prompt_tokens), Us(g.prefill_rate_tps), Us(g.decode_us), Us(g.generated_tokens),
        Us(g.decode_rate_tps), Us(g.inference_us), Us(g.sampling_us));
  if (s.steady) {
    const LlmRunnerSteady& st = *s.steady;
    auto med = [](const std::optional<SampleStats>& x) {
      return x ? FormatFigure(x->median) : std::string("-");
    };
    out += fmt::format(
        "    steady state (generations {}..{}, median): TTFT {} µs, prefill {} µs ({} toks/s), "
        "decode {} µs ({} toks/s), total {} µs\n",
        st.first, st.last, med(st.ttft_us), med(st.prefill_us), med(st.prefill_rate_tps),
        med(st.decode_us), med(st.decode_rate_tps), med(st.inference_us));
  } else {
    out += "    one generation: cold only, no steady state\n";
  }
  bool gpu = false;
  for (const auto& g : t.generations) gpu = gpu || g.gpu_total_bytes || g.gpu_peak_usage_mb;
  if (gpu) {
    out +=
        "  GPU memory    total   free before load   free after load   free after generate"
        "   peak MiB\n";
    for (const auto& g : t.generations)
      out += fmt::format("    {:>3} {:>12} {:>18} {:>17} {:>21} {:>10}\n", g.generation,
                         Bytes(g.gpu_total_bytes), Bytes(g.gpu_free_before_load_bytes),
                         Bytes(g.gpu_free_after_load_bytes), Bytes(g.gpu_free_after_generate_bytes),
                         Us(g.gpu_peak_usage_mb));
  }
  for (const auto& n : s.notes) out += "  * " + n + "\n";
  return out;
}

json AihubSummaryToJson(const AihubSummary& s) {
  using D = DeviceFigure;
  const AihubProfileTables& t = *s.tables;
  json j;
  j["layout"] = t.layout;
  j["stages"] = json::array();
  for (const auto& f : s.stages) {
    const AihubStageRow& r = *f.row;
    j["stages"].push_back(
        {{"stage", r.stage},
         {"time_us", OptionalJson(r.time_us)},
         {"peak_memory_bytes", OptionalJson(r.peak_memory_bytes)},
         {"memory_increase_range_bytes", RangeJson(r.increase_lower_bytes, r.increase_upper_bytes)},
         {"memory_peak_range_bytes", RangeJson(r.peak_lower_bytes, r.peak_upper_bytes)},
         {"samples_us", f.samples_us},
         {"samples", StatsJson(f.samples)}});
  }
  const AihubStageFigures& inf = *s.inference;
  j["inference"] = {
      {"measures", "end-to-end on the device (the runtime's invoke), not the HTP graph wall"},
      {"estimated_us", OptionalJson(inf.row->time_us)},
      {"cold_us", OptionalJson(inf.cold_us)},
      {"steady_state", SteadyJson(inf.steady_us, 2, static_cast<int>(inf.samples_us.size()))},
      {"peak_memory_bytes", OptionalJson(inf.row->peak_memory_bytes)}};
  j[DeviceFigureName(D::kLayers)] = s.layers;
  j["timed_layers"] = s.timed_layers;
  j["layer_time_us"] = OptionalJson(s.layer_time_us);
  j["coverage"] = json::array();
  for (const auto& c : s.coverage)
    j["coverage"].push_back({{"compute_unit", c.unit},
                             {"layers", c.layers},
                             {"layers_pct", c.layers_pct},
                             {"timed_layers", c.timed_layers},
                             {"time_us", c.timed_layers > 0 ? json(c.time_us) : json(nullptr)},
                             {"time_pct", OptionalJson(c.time_pct)}});
  j[DeviceFigureName(D::kNpuLayersPct)] = OptionalJson(s.npu_layers_pct);
  j[DeviceFigureName(D::kNpuTimePct)] = OptionalJson(s.npu_time_pct);
  j[DeviceFigureName(D::kFallbackLayers)] = s.fallback_layers;
  j[DeviceFigureName(D::kFallbackTimeUs)] = OptionalJson(s.fallback_time_us);
  j["fallback_time_pct"] = OptionalJson(s.fallback_time_pct);
  j["fallbacks"] = json::array();
  for (const auto& f : s.fallbacks)
    j["fallbacks"].push_back({{"index", f.layer->index},
                              {"name", f.layer->name},
                              {"type", f.layer->type},
                              {"compute_unit", f.layer->compute_unit},
                              {"time_us", OptionalJson(f.layer->time_us)},
                              {"time_pct", OptionalJson(f.time_pct)}});
  j["layer_table"] = json::array();
  for (const auto& l : t.layers)
    j["layer_table"].push_back({{"index", l.index},
                                {"name", l.name},
                                {"occurrence", l.occurrence},
                                {"type", l.type},
                                {"compute_unit", l.compute_unit},
                                {"time_us", OptionalJson(l.time_us)},
                                {"cycles", OptionalJson(l.cycles)}});
  j["unknown_keys"] = t.unknown_keys;
  j["notes"] = s.notes;
  return j;
}

json GenieSummaryToJson(const GenieSummary& s) {
  using D = DeviceFigure;
  const GenieProfileTables& t = *s.tables;
  json j;
  j["header_version"] = t.header_version;
  j["version"] = t.version;
  j["timestamp_us"] = OptionalJson(t.timestamp_us);
  j["trace_events"] = t.has_trace_events;
  j["components"] = json::array();
  auto metrics = [&t](const GenieEventRow& e) {
    json m = json::array();
    for (uint32_t i = e.first_metric; i < e.first_metric + e.metric_count; ++i)
      m.push_back({{"name", t.metrics[i].name},
                   {"value", t.metrics[i].value},
                   {"unit", t.metrics[i].unit}});
    return m;
  };
  for (const auto& c : s.components) {
    json cj{{"name", c.name},
            {"type", c.type},
            {DeviceFigureName(D::kInitUs), OptionalJson(c.init_us)},
            {"create_us", OptionalJson(c.create_us)},
            {DeviceFigureName(D::kFreeUs), OptionalJson(c.free_us)},
            {"queries", json::array()},
            {"steady_state", nullptr},
            {"other_events", json::array()}};
    for (const auto& q : c.queries)
      cj["queries"].push_back(
          {{"query", *q.event->query},
           {"cold", q.cold},
           {"start_us", q.event->start_us},
           {"duration_us", q.event->duration_us},
           {DeviceFigureName(D::kTtftUs), OptionalJson(q.ttft_us)},
           {DeviceFigureName(D::kPromptTokens), OptionalJson(q.prompt_tokens)},
           {"prompt_rate_tps", OptionalJson(q.prompt_rate_tps)},
           {DeviceFigureName(D::kGeneratedTokens), OptionalJson(q.generated_tokens)},
           {"generation_rate_tps", OptionalJson(q.generation_rate_tps)},
           {"generation_us", OptionalJson(q.generation_us)},
           {"token_acceptance_rate", OptionalJson(q.token_acceptance_rate)},
           {"metrics", metrics(*q.event)}});
    if (c.steady)
      cj["steady_state"] = {{"first_query", c.steady->first},
                            {"last_query", c.steady->last},
                            {DeviceFigureName(D::kTtftUs), StatsJson(c.steady->ttft_us)},
                            {"prompt_rate_tps", StatsJson(c.steady->prompt_rate_tps)},
                            {"generation_rate_tps", StatsJson(c.steady->generation_rate_tps)},
                            {"duration_us", StatsJson(c.steady->duration_us)}};
    for (const GenieEventRow* e : c.other_events)
      cj["other_events"].push_back(
          {{"type", e->type}, {"duration_us", e->duration_us}, {"metrics", metrics(*e)}});
    j["components"].push_back(std::move(cj));
  }
  j["notes"] = s.notes;
  return j;
}

json LlmRunnerSummaryToJson(const LlmRunnerSummary& s) {
  using D = DeviceFigure;
  const LlmRunnerStatsTables& t = *s.tables;
  json j;
  j["measures"] =
      "the runner's own timings: wall clock of the host runtime in ms (ExecuTorch stats.h), not "
      "HTP cycles";
  j["log_lines"] = t.log_lines;
  j[DeviceFigureName(D::kModelLoadUs)] = OptionalJson(s.model_load_us);
  j["model_load_generation"] = OptionalJson(s.model_load_generation);
  j["generations"] = json::array();
  for (const auto& g : t.generations)
    j["generations"].push_back(
        {{"generation", g.generation},
         {"cold", g.generation == 1},
         {"line", g.line},
         {DeviceFigureName(D::kPromptTokens), OptionalJson(g.prompt_tokens)},
         {DeviceFigureName(D::kGeneratedTokens), OptionalJson(g.generated_tokens)},
         {DeviceFigureName(D::kModelLoadUs), OptionalJson(g.model_load_us)},
         {DeviceFigureName(D::kTtftUs), OptionalJson(g.ttft_us)},
         {DeviceFigureName(D::kPrefillUs), OptionalJson(g.prefill_us)},
         {"prefill_rate_tps", OptionalJson(g.prefill_rate_tps)},
         {DeviceFigureName(D::kDecodeUs), OptionalJson(g.decode_us)},
         {"decode_rate_tps", OptionalJson(g.decode_rate_tps)},
         {"inference_us", OptionalJson(g.inference_us)},
         {"sampling_us", OptionalJson(g.sampling_us)},
         {"model_load_start_us", OptionalJson(g.model_load_start_us)},
         {"model_load_end_us", OptionalJson(g.model_load_end_us)},
         {"inference_start_us", OptionalJson(g.inference_start_us)},
         {"prompt_eval_end_us", OptionalJson(g.prompt_eval_end_us)},
         {"first_token_us", OptionalJson(g.first_token_us)},
         {"inference_end_us", OptionalJson(g.inference_end_us)},
         {"units_per_second", g.units_per_second},
         {"gpu_total_bytes", OptionalJson(g.gpu_total_bytes)},
         {"gpu_free_before_load_bytes", OptionalJson(g.gpu_free_before_load_bytes)},
         {"gpu_free_after_load_bytes", OptionalJson(g.gpu_free_after_load_bytes)},
         {"gpu_free_after_generate_bytes", OptionalJson(g.gpu_free_after_generate_bytes)},
         {DeviceFigureName(D::kGpuPeakUsageMb), OptionalJson(g.gpu_peak_usage_mb)}});
  j["steady_state"] = nullptr;
  if (s.steady)
    j["steady_state"] = {{"first_generation", s.steady->first},
                         {"last_generation", s.steady->last},
                         {DeviceFigureName(D::kTtftUs), StatsJson(s.steady->ttft_us)},
                         {DeviceFigureName(D::kPrefillUs), StatsJson(s.steady->prefill_us)},
                         {"prefill_rate_tps", StatsJson(s.steady->prefill_rate_tps)},
                         {DeviceFigureName(D::kDecodeUs), StatsJson(s.steady->decode_us)},
                         {"decode_rate_tps", StatsJson(s.steady->decode_rate_tps)},
                         {"inference_us", StatsJson(s.steady->inference_us)}};
  j["other_observer_lines"] = t.other_observer_lines;
  j["unknown_keys"] = t.unknown_keys;
  j["notes"] = s.notes;
  return j;
}

std::string RenderDeviceProfilesText(const Run& run, int top_n, bool header) {
  std::string out;
  if (header) {
    out += fmt::format("htpscope summary: {}\n", TerminalSafe(run.label));
    out += ReadArtifactLines(run.artifacts);
    for (const auto& s : run.skipped) out += fmt::format("  skipped {}\n", TerminalSafe(s));
  }
  if (run.aihub) out += RenderAihubText(SummarizeAihub(*run.aihub), top_n);
  if (run.genie) out += RenderGenieText(SummarizeGenie(*run.genie));
  if (run.llm_runner) out += RenderLlmRunnerText(SummarizeLlmRunner(*run.llm_runner));
  return out;
}

void AddDeviceProfilesJson(const Run& run, json& doc) {
  // "llm_runner" only when present: the members of runs without one stay as
  // they were.
  if (run.llm_runner)
    doc["llm_runner"] = LlmRunnerSummaryToJson(SummarizeLlmRunner(*run.llm_runner));
  if (!run.aihub && !run.genie) return;
  doc["aihub"] = run.aihub ? AihubSummaryToJson(SummarizeAihub(*run.aihub)) : json(nullptr);
  doc["genie"] = run.genie ? GenieSummaryToJson(SummarizeGenie(*run.genie)) : json(nullptr);
}

// ---- diff ------------------------------------------------------------------

namespace {

std::string Cell(std::optional<double> v) { return v ? FormatFigure(*v) : std::string("-"); }

std::string SignedCell(std::optional<double> v) {
  if (!v) return "-";
  return (*v > 0 ? "+" : "") + FormatFigure(*v);
}

std::string PctCell(const MetricDelta& d) {
  if (!d.change_pct) return "";
  return fmt::format("{}{} %", *d.change_pct > 0 ? "+" : "", FormatMeasure(*d.change_pct, 1));
}

std::string NoiseCell(const MetricDelta& d) {
  if (!d.both()) return "";
  if (!d.noise_bound) return fmt::format("noise not assessed (n {}/{})", d.a->n, d.b->n);
  return fmt::format("{} ±{}", d.within_noise ? "within noise" : "beyond noise",
                     FormatFigure(*d.noise_bound));
}

std::string KindTitle(const DeviceProfileDiff& d) {
  if (d.kind == "aihub") return "AI Hub profiles";
  if (d.kind == "llm_runner") return "ExecuTorch LLM runner logs";
  return "Genie profiles";
}

// The headline in words: the first figure both sides have.
std::string Verdict(const DeviceProfileDiff& d) {
  const DeviceFigure order[] = {DeviceFigure::kInferenceUs, DeviceFigure::kEstimatedInferenceUs,
                                DeviceFigure::kTtftUs, DeviceFigure::kTokenRate,
                                DeviceFigure::kDecodeTokenRate};
  std::vector<std::string> parts;
  for (DeviceFigure figure : order) {
    const NamedDelta* m = d.Find(DeviceFigureName(figure));
    if (!m || !m->delta.both() || !m->delta.change) continue;
    const MetricDelta& x = m->delta;
    parts.push_back(fmt::format("{}: {} → {} {} ({}{})", m->label, Cell(x.a_value()),
                                Cell(x.b_value()), x.unit == "us" ? "µs" : x.unit,
                                SignedCell(x.change),
                                x.change_pct ? ", " + PctCell(x) : std::string()) +
                    (x.noise_bound ? (x.within_noise ? ", within noise" : ", beyond noise") : ""));
  }
  if (parts.empty()) return "No headline figure exists on both sides.";
  return fmt::format("{}.", fmt::join(parts, "; "));
}

}  // namespace

json DeviceDiffToJson(const DeviceProfileDiff& d, const std::vector<GateResult>& gates) {
  json j;
  j["schema"] = "htpscope.device_diff/1";
  j["kind"] = d.kind;
  j["a"] = {{"labels", d.a_labels}};
  j["b"] = {{"labels", d.b_labels}};
  j["verdict"] = Verdict(d);
  j["metrics"] = json::object();
  for (const auto& m : d.metrics) {
    json x = DeltaJson(m.delta);
    x["label"] = m.label;
    j["metrics"][m.name] = std::move(x);
  }
  j["layers"] = json::array();
  for (const auto& l : d.layers)
    j["layers"].push_back({{"key", l.key},
                           {"name", l.name},
                           {"occurrence", l.occurrence},
                           {"type", l.type},
                           {"status", OpMatchName(l.status)},
                           {"a_compute_unit", l.a_unit.empty() ? json(nullptr) : json(l.a_unit)},
                           {"b_compute_unit", l.b_unit.empty() ? json(nullptr) : json(l.b_unit)},
                           {"compute_unit_changed", l.unit_changed()},
                           {"time_us", DeltaJson(l.time_us)},
                           {"cycles", DeltaJson(l.cycles)}});
  if (d.kind == "aihub") j["modules"] = ModuleDiffToJson(d.modules);
  j["notes"] = d.notes;
  j["gates"] = GatesJson(gates);
  j["exit_status"] = GateExitStatus(gates);
  return j;
}

std::string RenderDeviceDiff(const DeviceProfileDiff& d, const std::vector<GateResult>& gates,
                             DiffFormat format, int top_n) {
  if (format == DiffFormat::kJson) return DeviceDiffToJson(d, gates).dump(2) + "\n";
  if (format == DiffFormat::kJunit)
    return GatesToJunit(gates, "htpscope diff (" + KindTitle(d) + ")", Verdict(d));
  const bool md = format == DiffFormat::kMarkdown;
  // Layers that changed: by |Δ time| (absent = 0), unit changes and
  // added/removed layers first.
  std::vector<const LayerDelta*> layers;
  for (const auto& l : d.layers)
    if (l.status != OpMatch::kMatched || l.unit_changed() ||
        (l.time_us.change && *l.time_us.change != 0))
      layers.push_back(&l);
  auto weight = [](const LayerDelta* l) {
    const bool structural = l->status != OpMatch::kMatched || l->unit_changed();
    double change = l->time_us.change ? std::abs(*l->time_us.change) : 0;
    if (!l->time_us.change && l->status != OpMatch::kMatched)
      change = l->time_us.a_value().value_or(0) + l->time_us.b_value().value_or(0);
    return std::pair(structural ? 1 : 0, change);
  };
  std::stable_sort(layers.begin(), layers.end(),
                   [&](const auto* x, const auto* y) { return weight(x) > weight(y); });
  std::string out;
  if (md) {
    out += fmt::format("### htpscope diff: {}\n\n{}\n\n", KindTitle(d), Verdict(d));
    out += "| figure | A | B | change | change % | noise |\n|---|--:|--:|--:|--:|---|\n";
    for (const auto& m : d.metrics)
      out += fmt::format("| {} (`{}`, {}) | {} | {} | {} | {} | {} |\n", m.label, m.name,
                         m.delta.unit, Cell(m.delta.a_value()), Cell(m.delta.b_value()),
                         SignedCell(m.delta.change), PctCell(m.delta), NoiseCell(m.delta));
    if (!layers.empty()) {
      out +=
          "\n| layer | unit A → B | A µs | B µs | change µs | status |\n"
          "|---|---|--:|--:|--:|---|\n";
      for (size_t i = 0; i < layers.size() && i < static_cast<size_t>(top_n); ++i) {
        const LayerDelta& l = *layers[i];
        out += fmt::format("| `{}` | {} → {} | {} | {} | {} | {} |\n", l.key,
                           l.a_unit.empty() ? "-" : l.a_unit, l.b_unit.empty() ? "-" : l.b_unit,
                           Cell(l.time_us.a_value()), Cell(l.time_us.b_value()),
                           SignedCell(l.time_us.change), OpMatchName(l.status));
      }
    }
    AppendModuleDiffMarkdown(d.modules, top_n, out);
    if (!gates.empty()) {
      out += "\n| gate | result | detail |\n|---|---|---|\n";
      for (const auto& g : gates)
        out += fmt::format("| `{}` | {} | {} |\n", g.expr, GateMark(g), g.detail);
    }
    for (const auto& n : d.notes) out += "- " + n + "\n";
    return out;
  }
  out += fmt::format("htpscope diff ({}): A = baseline, B = candidate\n", KindTitle(d));
  out += fmt::format("  A: {}\n  B: {}\n",
                     TerminalSafe(fmt::format("{}", fmt::join(d.a_labels, ", "))),
                     TerminalSafe(fmt::format("{}", fmt::join(d.b_labels, ", "))));
  AppendSection(out, "Verdict");
  out += "  " + Verdict(d) + "\n";
  AppendSection(out, "Figures");
  out += fmt::format("  {:<34} {:>14} {:>14} {:>14} {:>9}  {}\n", "figure", "A", "B", "change",
                     "change %", "noise");
  for (const auto& m : d.metrics)
    out += fmt::format("  {:<34} {:>14} {:>14} {:>14} {:>9}  {}\n",
                       fmt::format("{} {}", m.name, m.delta.unit == "us" ? "µs" : m.delta.unit),
                       Cell(m.delta.a_value()), Cell(m.delta.b_value()), SignedCell(m.delta.change),
                       PctCell(m.delta), NoiseCell(m.delta));
  if (d.kind == "aihub") {
    AppendSection(out, fmt::format("Layers that changed ({} of {}; by name, repeats in order)",
                                   layers.size(), d.layers.size()));
    if (layers.empty()) out += "  none\n";
    for (size_t i = 0; i < layers.size() && i < static_cast<size_t>(top_n); ++i) {
      const LayerDelta& l = *layers[i];
      out += fmt::format("  {:<8} {:>3} → {:<3} {:>10} {:>10} {:>11}  {}\n", OpMatchName(l.status),
                         l.a_unit.empty() ? "-" : l.a_unit, l.b_unit.empty() ? "-" : l.b_unit,
                         Cell(l.time_us.a_value()), Cell(l.time_us.b_value()),
                         SignedCell(l.time_us.change), TerminalSafe(l.key));
    }
    if (layers.size() > static_cast<size_t>(top_n))
      out += fmt::format("  … {} more (--top, or --format json for all)\n",
                         FormatCount(layers.size() - top_n));
    AppendModuleDiffText(d.modules, top_n, out);
  }
  if (!d.notes.empty()) {
    out += "\n";
    for (const auto& n : d.notes) out += "  * " + n + "\n";
  }
  if (!gates.empty()) {
    AppendSection(out, "Gates (--fail-on)");
    for (const auto& g : gates)
      out += fmt::format("  {:<5}  {}  — {}\n", GateMark(g), g.expr, g.detail);
    const int status = GateExitStatus(gates);
    out += fmt::format("  exit status {}: {}\n", status,
                       status == 0   ? "every gate passed"
                       : status == 1 ? "a gate found a regression"
                                     : "a gate could not be evaluated from these inputs");
  }
  return out;
}

// ---- HTML ------------------------------------------------------------------

namespace {

// A view's parts (DeviceProfileViews): a heading, a note, a table whose
// columns are (key, label, type).
json DeviceViewHeading(std::string text) {
  return {{"kind", "heading"}, {"text", std::move(text)}};
}
json DeviceViewNote(std::string text) { return {{"kind", "note"}, {"text", std::move(text)}}; }

struct DeviceViewColumn {
  const char* key;
  const char* label;
  const char* type;  // text, us, count, num, pct, bytes, cycles
};

json DeviceViewTable(std::string id, std::string title, std::string help,
                     std::initializer_list<DeviceViewColumn> columns, json rows) {
  json cols = json::array();
  for (const DeviceViewColumn& c : columns)
    cols.push_back({{"key", c.key}, {"label", c.label}, {"type", c.type}});
  json t{{"id", std::move(id)},        {"title", std::move(title)}, {"help", std::move(help)},
         {"columns", std::move(cols)}, {"shown_rows", rows.size()}, {"total_rows", rows.size()},
         {"rows", std::move(rows)}};
  return {{"kind", "table"}, {"table", std::move(t)}};
}

// A row of figure, median, min, max, n (n null when the figure is absent).
json DeviceViewStatsRow(std::string figure, const std::optional<SampleStats>& s) {
  if (!s) return json::array({std::move(figure), nullptr, nullptr, nullptr, nullptr});
  return json::array({std::move(figure), s->median, s->min, s->max, s->n});
}

// The steady-state table of a Genie dialog or a runner log: rows of
// DeviceViewStatsRow over items first..last ("queries", "generations").
json DeviceViewSteadyTable(std::string id, const char* items, int first, int last, json rows) {
  return DeviceViewTable(std::move(id), fmt::format("Steady state ({} {}..{})", items, first, last),
                         "",
                         {{"figure", "figure", "text"},
                          {"median", "median", "num"},
                          {"min", "min", "num"},
                          {"max", "max", "num"},
                          {"n", items, "count"}},
                         std::move(rows));
}

json AihubView(const AihubProfileTables& t, size_t max_layer_rows) {
  const AihubSummary s = SummarizeAihub(t);
  const AihubStageFigures& inf = *s.inference;
  json blocks = json::array();
  // What a reader must know about these figures (what they measure) first.
  for (const auto& n : s.notes) blocks.push_back(DeviceViewNote(n));

  json inference = json::array();
  inference.push_back(json::array(
      {"estimated (AI Hub's figure)", OptionalJson(inf.row->time_us), nullptr, nullptr, nullptr}));
  inference.push_back(
      json::array({"cold first run (all_inference_times[0])", OptionalJson(inf.cold_us), nullptr,
                   nullptr, inf.cold_us ? json(1) : json(nullptr)}));
  if (inf.steady_us)
    inference.push_back(DeviceViewStatsRow(
        fmt::format("steady state median (runs 2..{})", inf.samples_us.size()), inf.steady_us));
  else
    inference.push_back(DeviceViewStatsRow(inf.samples_us.empty()
                                               ? "steady state (runs 2..N): no all_inference_times"
                                               : "steady state (runs 2..N): one run only",
                                           std::nullopt));
  blocks.push_back(DeviceViewTable("aihub_inference",
                                   "Inference, end-to-end on the device (not the HTP graph wall)",
                                   "The first run is cold; runs 2..N are the steady state.",
                                   {{"figure", "figure", "text"},
                                    {"time_us", "µs", "us"},
                                    {"min_us", "min µs", "us"},
                                    {"max_us", "max µs", "us"},
                                    {"runs", "runs", "count"}},
                                   std::move(inference)));

  json stages = json::array();
  for (const auto& f : s.stages) {
    const AihubStageRow& r = *f.row;
    stages.push_back(
        json::array({r.stage, OptionalJson(r.time_us), OptionalJson(r.peak_memory_bytes),
                     Range(r.increase_lower_bytes, r.increase_upper_bytes),
                     Range(r.peak_lower_bytes, r.peak_upper_bytes),
                     f.samples ? json(f.samples->n) : json(nullptr),
                     f.samples ? json(f.samples->median) : json(nullptr)}));
  }
  blocks.push_back(
      DeviceViewTable("aihub_stages", "Stages: load, compile and inference",
                      "The inference row's time is AI Hub's estimate and its peak memory "
                      "estimated_inference_peak_memory; samples are the stage's all_<stage>_times.",
                      {{"stage", "stage", "text"},
                       {"time_us", "time µs", "us"},
                       {"peak_memory_bytes", "peak memory", "bytes"},
                       {"memory_increase_range", "memory increase range", "text"},
                       {"memory_peak_range", "memory peak range", "text"},
                       {"samples", "samples", "count"},
                       {"samples_median_us", "samples median µs", "us"}},
                      std::move(stages)));

  json coverage = json::array();
  for (const auto& c : s.coverage)
    coverage.push_back(json::array({c.unit, c.layers, c.layers_pct, c.timed_layers,
                                    c.timed_layers > 0 ? json(c.time_us) : json(nullptr),
                                    OptionalJson(c.time_pct)}));
  json coverage_table = DeviceViewTable(
      "aihub_coverage", "Compute units: by count of layers and by Σ per-layer time",
      fmt::format("{} layers, {} with an execution_time, Σ {} µs (the runtime's per-layer times, "
                  "not optrace DPC): a graph can be mostly NPU by count while one CPU layer "
                  "dominates the clock.",
                  GroupDigits(s.layers), GroupDigits(s.timed_layers), Us(s.layer_time_us)),
      {{"compute_unit", "unit", "text"},
       {"layers", "layers", "count"},
       {"layers_pct", "layers %", "pct"},
       {"timed_layers", "timed layers", "count"},
       {"time_us", "time µs", "us"},
       {"time_pct", "time %", "pct"}},
      std::move(coverage));
  coverage_table["table"]["share_column"] = "time_us";
  blocks.push_back(std::move(coverage_table));

  const std::string fallback_title =
      fmt::format("Fallback layers (not on the NPU): {} of {} layers, {} µs = {} % of Σ layer time",
                  GroupDigits(s.fallback_layers), GroupDigits(s.layers), Us(s.fallback_time_us),
                  Pct(s.fallback_time_pct));
  if (s.fallbacks.empty()) {
    blocks.push_back(DeviceViewHeading(fallback_title));
    blocks.push_back(DeviceViewNote("None: every layer ran on the NPU."));
  } else {
    json fallbacks = json::array();
    for (const auto& f : s.fallbacks)
      fallbacks.push_back(
          json::array({f.layer->index, f.layer->compute_unit, OptionalJson(f.layer->time_us),
                       OptionalJson(f.time_pct), f.layer->type, f.layer->name}));
    blocks.push_back(DeviceViewTable("aihub_fallbacks", fallback_title, "",
                                     {{"index", "#", "count"},
                                      {"compute_unit", "unit", "text"},
                                      {"time_us", "time µs", "us"},
                                      {"time_pct", "time %", "pct"},
                                      {"type", "type", "text"},
                                      {"name", "name", "text"}},
                                     std::move(fallbacks)));
  }

  // Every layer in order, or the slowest `max_layer_rows` of them (still in
  // order) for a profile with more.
  std::vector<const AihubLayerRow*> kept;
  for (const auto& l : t.layers) kept.push_back(&l);
  if (kept.size() > max_layer_rows) {
    std::stable_sort(kept.begin(), kept.end(), [](const auto* x, const auto* y) {
      return x->time_us.value_or(-1) > y->time_us.value_or(-1);
    });
    kept.resize(max_layer_rows);
    std::sort(kept.begin(), kept.end(),
              [](const auto* x, const auto* y) { return x->index < y->index; });
  }
  json layers = json::array(), row_classes = json::array();
  for (const AihubLayerRow* l : kept) {
    layers.push_back(json::array({l->index, l->name, l->type, l->compute_unit,
                                  OptionalJson(l->time_us), OptionalJson(l->cycles)}));
    row_classes.push_back(l->compute_unit == "NPU" ? "" : "fallback");
  }
  json layer_table =
      DeviceViewTable("aihub_layers", fmt::format("Layers ({})", FormatCount(t.layers.size())),
                      "The runtime's per-layer time and cycles; the layers off the NPU are marked.",
                      {{"index", "#", "count"},
                       {"name", "name", "text"},
                       {"type", "type", "text"},
                       {"compute_unit", "unit", "text"},
                       {"time_us", "time µs", "us"},
                       {"cycles", "cycles", "cycles"}},
                      std::move(layers));
  json& lt = layer_table["table"];
  lt["row_classes"] = std::move(row_classes);
  lt["share_column"] = "time_us";
  lt["total_rows"] = t.layers.size();
  if (kept.size() < t.layers.size()) lt["kept"] = "the slowest layers by execution_time";
  blocks.push_back(std::move(layer_table));
  return {{"title", fmt::format("AI Hub profile ({} layout)", t.layout)},
          {"blocks", std::move(blocks)}};
}

json GenieView(const GenieProfileTables& t) {
  const GenieSummary s = SummarizeGenie(t);
  json blocks = json::array();
  for (const auto& n : s.notes) blocks.push_back(DeviceViewNote(n));
  for (size_t i = 0; i < s.components.size(); ++i) {
    const GenieComponentSummary& c = s.components[i];
    const std::string id = fmt::format("genie_{}_", i);
    blocks.push_back(DeviceViewHeading(fmt::format("{} {}", c.type, c.name)));
    json events = json::array();
    events.push_back(json::array({"init (the create event's init-time)", OptionalJson(c.init_us)}));
    events.push_back(json::array({"create event", OptionalJson(c.create_us)}));
    events.push_back(json::array({"free event", OptionalJson(c.free_us)}));
    for (const GenieEventRow* e : c.other_events)
      events.push_back(json::array({e->type, e->duration_us}));
    blocks.push_back(DeviceViewTable(id + "events", "Init and free", "",
                                     {{"event", "event", "text"}, {"time_us", "µs", "us"}},
                                     std::move(events)));
    if (c.queries.empty()) continue;
    json queries = json::array();
    for (const auto& q : c.queries)
      queries.push_back(
          json::array({*q.event->query, q.cold ? "cold" : "steady", OptionalJson(q.ttft_us),
                       OptionalJson(q.prompt_tokens), OptionalJson(q.prompt_rate_tps),
                       OptionalJson(q.generated_tokens), OptionalJson(q.generation_rate_tps),
                       OptionalJson(q.generation_us), q.event->duration_us}));
    blocks.push_back(DeviceViewTable(
        id + "queries", "Queries: the first is cold, queries 2..N the steady state", "",
        {{"query", "query", "count"},
         {"run", "run", "text"},
         {"ttft_us", "TTFT µs", "us"},
         {"prompt_tokens", "prompt tokens", "count"},
         {"prompt_rate_tps", "prompt toks/s", "num"},
         {"generated_tokens", "generated tokens", "count"},
         {"generation_rate_tps", "gen toks/s", "num"},
         {"generation_us", "gen time µs", "us"},
         {"duration_us", "duration µs", "us"}},
        std::move(queries)));
    if (c.steady) {
      const GenieSteady& st = *c.steady;
      json rows = json::array({DeviceViewStatsRow("TTFT µs", st.ttft_us),
                               DeviceViewStatsRow("prompt toks/s", st.prompt_rate_tps),
                               DeviceViewStatsRow("generation toks/s", st.generation_rate_tps),
                               DeviceViewStatsRow("duration µs", st.duration_us)});
      blocks.push_back(
          DeviceViewSteadyTable(id + "steady", "queries", st.first, st.last, std::move(rows)));
    } else if (c.queries.size() == 1) {
      blocks.push_back(DeviceViewNote("One query: cold only, no steady state."));
    }
  }
  return {
      {"title", fmt::format("Genie profile (version {}, header {})", t.version, t.header_version)},
      {"blocks", std::move(blocks)}};
}

json LlmRunnerView(const LlmRunnerStatsTables& t) {
  const LlmRunnerSummary s = SummarizeLlmRunner(t);
  json blocks = json::array();
  blocks.push_back(DeviceViewNote(
      "The runner's own timings: wall clock of the host runtime (ms), not HTP cycles "
      "or a graph wall."));
  for (const auto& n : s.notes) blocks.push_back(DeviceViewNote(n));
  blocks.push_back(DeviceViewNote(s.model_load_us
                                      ? fmt::format("Model load {} µs (generation {}).",
                                                    GroupDigits(*s.model_load_us),
                                                    s.model_load_generation.value_or(0))
                                      : std::string("Model load: not measured in this log.")));
  json generations = json::array();
  for (const auto& g : t.generations)
    generations.push_back(
        json::array({g.generation, g.generation == 1 ? "cold" : "steady", OptionalJson(g.ttft_us),
                     OptionalJson(g.prefill_us), OptionalJson(g.prompt_tokens),
                     OptionalJson(g.prefill_rate_tps), OptionalJson(g.decode_us),
                     OptionalJson(g.generated_tokens), OptionalJson(g.decode_rate_tps),
                     OptionalJson(g.inference_us), OptionalJson(g.sampling_us)}));
  blocks.push_back(
      DeviceViewTable("llm_runner_generations",
                      "Generations: the first is cold, generations 2..N the steady state", "",
                      {{"generation", "generation", "count"},
                       {"run", "run", "text"},
                       {"ttft_us", "TTFT µs", "us"},
                       {"prefill_us", "prefill µs", "us"},
                       {"prompt_tokens", "prompt tokens", "count"},
                       {"prefill_rate_tps", "prefill toks/s", "num"},
                       {"decode_us", "decode µs", "us"},
                       {"generated_tokens", "generated tokens", "count"},
                       {"decode_rate_tps", "decode toks/s", "num"},
                       {"inference_us", "total µs", "us"},
                       {"sampling_us", "sampling µs", "us"}},
                      std::move(generations)));
  if (s.steady) {
    const LlmRunnerSteady& st = *s.steady;
    json rows = json::array({DeviceViewStatsRow("TTFT µs", st.ttft_us),
                             DeviceViewStatsRow("prefill µs", st.prefill_us),
                             DeviceViewStatsRow("prefill toks/s", st.prefill_rate_tps),
                             DeviceViewStatsRow("decode µs", st.decode_us),
                             DeviceViewStatsRow("decode toks/s", st.decode_rate_tps),
                             DeviceViewStatsRow("total µs", st.inference_us)});
    blocks.push_back(DeviceViewSteadyTable("llm_runner_steady", "generations", st.first, st.last,
                                           std::move(rows)));
  } else {
    blocks.push_back(DeviceViewNote("One generation: cold only, no steady state."));
  }
  bool gpu = false;
  for (const auto& g : t.generations) gpu = gpu || g.gpu_total_bytes || g.gpu_peak_usage_mb;
  if (gpu) {
    json rows = json::array();
    for (const auto& g : t.generations)
      rows.push_back(json::array(
          {g.generation, OptionalJson(g.gpu_total_bytes),
           OptionalJson(g.gpu_free_before_load_bytes), OptionalJson(g.gpu_free_after_load_bytes),
           OptionalJson(g.gpu_free_after_generate_bytes), OptionalJson(g.gpu_peak_usage_mb)}));
    blocks.push_back(
        DeviceViewTable("llm_runner_gpu", "GPU memory", "",
                        {{"generation", "generation", "count"},
                         {"gpu_total_bytes", "total", "bytes"},
                         {"gpu_free_before_load_bytes", "free before load", "bytes"},
                         {"gpu_free_after_load_bytes", "free after load", "bytes"},
                         {"gpu_free_after_generate_bytes", "free after generate", "bytes"},
                         {"gpu_peak_usage_mb", "peak MiB", "num"}},
                        std::move(rows)));
  }
  return {
      {"title", fmt::format("ExecuTorch LLM runner log ({} generation{}, PyTorchObserver lines)",
                            t.generations.size(), t.generations.size() == 1 ? "" : "s")},
      {"blocks", std::move(blocks)}};
}

std::string H(std::string_view s) { return XmlEscape(s); }

// One cell of a view's table as the device-only page prints it.
std::string DeviceViewCellHtml(const json& v, const std::string& type) {
  if (v.is_null()) return "-";
  if (v.is_string()) return H(v.get<std::string>());
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "";
  if (type == "pct") return FormatMeasure(v.get<double>(), 1);
  if (type == "bytes") return HumanBytes(v.get<int64_t>());
  if (v.is_number_integer()) return GroupDigits(v.get<int64_t>());  // signed or unsigned
  return FormatFigure(v.get<double>());
}

// A view (DeviceProfileViews) as HTML: its title, then its blocks in order.
std::string DeviceViewHtml(const json& view) {
  std::string out = "<h2>" + H(view["title"].get<std::string>()) + "</h2>\n";
  for (const json& b : view["blocks"]) {
    const std::string kind = b["kind"];
    if (kind == "heading") {
      out += "<h3>" + H(b["text"].get<std::string>()) + "</h3>\n";
      continue;
    }
    if (kind == "note") {
      out += "<p class=\"note\">" + H(b["text"].get<std::string>()) + "</p>\n";
      continue;
    }
    const json& t = b["table"];
    out += "<h3>" + H(t["title"].get<std::string>()) + "</h3>\n";
    if (!t["help"].get<std::string>().empty())
      out += "<p class=\"note\">" + H(t["help"].get<std::string>()) + "</p>\n";
    if (t["rows"].size() < t["total_rows"].get<size_t>())
      out += fmt::format("<p class=\"note\">Showing {} of {} rows: {}.</p>\n",
                         FormatCount(t["rows"].size()), FormatCount(t["total_rows"].get<size_t>()),
                         H(t["kept"].get<std::string>()));
    out += "<table><tr>";
    std::vector<std::string> types;
    for (const json& c : t["columns"]) {
      out += "<th>" + H(c["label"].get<std::string>()) + "</th>";
      types.push_back(c["type"]);
    }
    out += "</tr>\n";
    const json* classes = t.contains("row_classes") ? &t["row_classes"] : nullptr;
    for (size_t r = 0; r < t["rows"].size(); ++r) {
      const std::string cls = classes ? (*classes)[r].get<std::string>() : std::string();
      out += cls.empty() ? "<tr>" : "<tr class=\"" + H(cls) + "\">";
      const json& row = t["rows"][r];
      for (size_t i = 0; i < types.size(); ++i)
        out += (types[i] == "text" ? "<td>" : "<td class=\"n\">") +
               DeviceViewCellHtml(row[i], types[i]) + "</td>";
      out += "</tr>\n";
    }
    out += "</table>\n";
  }
  return out;
}

}  // namespace

json DeviceProfileViews(const Run& run, size_t max_layer_rows) {
  json views = json::object();
  if (run.aihub) views["aihub"] = AihubView(*run.aihub, max_layer_rows);
  if (run.genie) views["genie"] = GenieView(*run.genie);
  if (run.llm_runner) views["llm_runner"] = LlmRunnerView(*run.llm_runner);
  return views;
}

std::string RenderDeviceProfilesHtml(const Run& run) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>htpscope "
      "report: " +
      H(run.label) +
      "</title>\n<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
      "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px}"
      "td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f3f3f3}"
      "tr.fallback td{background:#fff3e0}.note{color:#555}</style></head><body>\n";
  out += "<h1>htpscope report: " + H(run.label) + "</h1>\n<ul>\n";
  for (const auto& a : run.artifacts)
    out += "<li>" + H(ArtifactKindName(a.type)) + ": " + H(a.path) + "</li>\n";
  out += "</ul>\n";
  const json views = DeviceProfileViews(run);
  if (views.contains("aihub")) {
    out += DeviceViewHtml(views["aihub"]);
    // Its layers by the model's own modules, with where they ran.
    out += RenderModulesHtml(ComputeRunModules(run), kDefaultModuleDepth);
  }
  for (const char* key : {"genie", "llm_runner"})
    if (views.contains(key)) out += DeviceViewHtml(views[key]);
  out += "</body></html>\n";
  return out;
}

}  // namespace htpscope
