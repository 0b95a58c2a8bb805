#include "analysis/device_profile_summary.h"

#include <fmt/format.h>

#include <algorithm>

namespace htpscope {
namespace {

std::optional<SampleStats> StatsOfInts(const std::vector<int64_t>& values, size_t from) {
  std::vector<double> d;
  for (size_t i = from; i < values.size(); ++i) d.push_back(static_cast<double>(values[i]));
  return ComputeStats(std::move(d));
}

void AddIfGiven(std::vector<double>& samples, std::optional<int64_t> v) {
  if (v) samples.push_back(static_cast<double>(*v));
}
void AddIfGiven(std::vector<double>& samples, std::optional<double> v) {
  if (v) samples.push_back(*v);
}

// Statistics of `value(item)` over items 2..N (the steady state after the
// cold first), of the items that give it.
template <typename Item, typename Value>
std::optional<SampleStats> SteadyStatsOf(const std::vector<Item>& items, Value value) {
  std::vector<double> samples;
  for (size_t i = 1; i < items.size(); ++i) AddIfGiven(samples, value(items[i]));
  return ComputeStats(std::move(samples));
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

AihubSummary SummarizeAihub(const AihubProfileTables& t) {
  AihubSummary s;
  s.tables = &t;
  s.stages.reserve(t.stages.size());
  for (const auto& row : t.stages) {
    AihubStageFigures f;
    f.row = &row;
    f.samples_us = t.SamplesOf(row.stage);
    f.samples = StatsOfInts(f.samples_us, 0);
    if (row.stage == "inference") {
      if (!f.samples_us.empty()) f.cold_us = f.samples_us.front();
      f.steady_us = StatsOfInts(f.samples_us, 1);
    }
    s.stages.push_back(std::move(f));
  }
  for (const auto& f : s.stages)
    if (f.row->stage == "inference") s.inference = &f;

  for (const char* unit : {"NPU", "GPU", "CPU"}) {
    AihubUnitCoverage c;
    c.unit = unit;
    s.coverage.push_back(std::move(c));
  }
  auto unit_of = [&s](const std::string& unit) -> AihubUnitCoverage& {
    for (auto& c : s.coverage)
      if (c.unit == unit) return c;
    AihubUnitCoverage c;
    c.unit = unit;
    s.coverage.push_back(std::move(c));
    return s.coverage.back();
  };
  int64_t sum = 0;
  for (const auto& l : t.layers) {
    ++s.layers;
    AihubUnitCoverage& c = unit_of(l.compute_unit);
    ++c.layers;
    if (l.time_us) {
      ++s.timed_layers;
      ++c.timed_layers;
      c.time_us += *l.time_us;
      sum += *l.time_us;
    }
  }
  if (s.timed_layers > 0) s.layer_time_us = sum;
  for (auto& c : s.coverage) {
    c.layers_pct = s.layers > 0 ? 100.0 * static_cast<double>(c.layers) / s.layers : 0.0;
    if (s.layer_time_us && *s.layer_time_us > 0)
      c.time_pct = 100.0 * static_cast<double>(c.time_us) / static_cast<double>(*s.layer_time_us);
  }
  if (s.layers > 0) s.npu_layers_pct = s.coverage[0].layers_pct;
  s.npu_time_pct = s.coverage[0].time_pct;
  int64_t fallback_time = 0;
  bool fallback_timed = false;
  for (const auto& l : t.layers) {
    if (l.compute_unit == "NPU") continue;
    AihubFallbackLayer f;
    f.layer = &l;
    if (l.time_us) {
      fallback_time += *l.time_us;
      fallback_timed = true;
      if (s.layer_time_us && *s.layer_time_us > 0)
        f.time_pct =
            100.0 * static_cast<double>(*l.time_us) / static_cast<double>(*s.layer_time_us);
    }
    s.fallbacks.push_back(f);
    ++s.fallback_layers;
  }
  if (s.layer_time_us) {
    s.fallback_time_us = fallback_timed ? fallback_time : 0;
    if (*s.layer_time_us > 0)
      s.fallback_time_pct =
          100.0 * static_cast<double>(*s.fallback_time_us) / static_cast<double>(*s.layer_time_us);
  }

  s.notes.push_back(
      "inference times are end-to-end on the device (the runtime's invoke), not the HTP graph "
      "wall qnn-profile-viewer prints; per-layer times are the runtime's, not optrace "
      "dominant-path cycles");
  if (t.layout == "tetra_hub")
    s.notes.push_back(
        "tetra_hub layout: execution_time, load_time and peak_memory_usage read as the "
        "estimated inference time, the first load time and the compile peak memory");
  if (s.inference && s.inference->samples_us.empty())
    s.notes.push_back(
        "no all_inference_times (profiles before version 1.2): no cold run or steady state, only "
        "AI Hub's estimated inference time");
  if (s.layers > 0 && s.timed_layers == 0)
    s.notes.push_back("no layer has an execution_time: coverage by time is unknown, only by count");
  else if (s.timed_layers < s.layers)
    s.notes.push_back(fmt::format(
        "{} of {} layers {} no execution_time: coverage by time counts only the timed ones",
        s.layers - s.timed_layers, s.layers, s.layers - s.timed_layers == 1 ? "has" : "have"));
  if (!t.unknown_keys.empty())
    s.notes.push_back(
        fmt::format("execution_summary keys not read: {}", fmt::join(t.unknown_keys, ", ")));
  return s;
}

GenieSummary SummarizeGenie(const GenieProfileTables& t) {
  GenieSummary s;
  s.tables = &t;
  for (const auto& e : t.events) {
    if (s.components.empty() || s.components.back().name != e.component || e.index == 0) {
      GenieComponentSummary c;
      c.name = e.component;
      c.type = e.component_type;
      s.components.push_back(std::move(c));
    }
    GenieComponentSummary& c = s.components.back();
    if (EndsWith(e.type, "_create")) {
      c.create_us = e.duration_us;
      if (auto init = t.Metric(e, "init-time")) c.init_us = init;
    } else if (EndsWith(e.type, "_free")) {
      c.free_us = e.duration_us;
    } else if (e.query) {
      GenieQuery q;
      q.event = &e;
      q.cold = *e.query == 1;
      q.ttft_us = t.Metric(e, "time-to-first-token");
      q.prompt_rate_tps = t.Metric(e, "prompt-processing-rate");
      q.generation_rate_tps = t.Metric(e, "token-generation-rate");
      q.generation_us = t.Metric(e, "token-generation-time");
      q.prompt_tokens = t.Metric(e, "num-prompt-tokens");
      q.generated_tokens = t.Metric(e, "num-generated-tokens");
      q.token_acceptance_rate = t.Metric(e, "token-acceptance-rate");
      c.queries.push_back(q);
    } else {
      c.other_events.push_back(&e);
    }
  }
  for (auto& c : s.components) {
    if (c.queries.size() < 2) continue;
    GenieSteady st;
    st.last = static_cast<int>(c.queries.size());
    const auto& q = c.queries;
    st.ttft_us = SteadyStatsOf(q, [](const GenieQuery& x) { return x.ttft_us; });
    st.prompt_rate_tps = SteadyStatsOf(q, [](const GenieQuery& x) { return x.prompt_rate_tps; });
    st.generation_rate_tps =
        SteadyStatsOf(q, [](const GenieQuery& x) { return x.generation_rate_tps; });
    st.duration_us = SteadyStatsOf(
        q, [](const GenieQuery& x) { return std::optional<int64_t>(x.event->duration_us); });
    c.steady = st;
  }
  s.notes.push_back(
      "time-to-first-token is the prompt processing time of a query (Genie's "
      "prompt.last_usec); rates are Genie's tokens per second; the first query of a dialog is "
      "cold, queries 2..N the steady state");
  if (t.has_trace_events) s.notes.push_back("traceEvents (trace profiling) present, not read");
  return s;
}

LlmRunnerSummary SummarizeLlmRunner(const LlmRunnerStatsTables& t) {
  LlmRunnerSummary s;
  s.tables = &t;
  if (!t.generations.empty()) s.cold = &t.generations.front();
  for (const auto& g : t.generations)
    if (g.model_load_us) {
      s.model_load_us = g.model_load_us;
      s.model_load_generation = g.generation;
      break;
    }
  if (t.generations.size() >= 2) {
    LlmRunnerSteady st;
    st.last = static_cast<int>(t.generations.size());
    const auto& g = t.generations;
    using Row = LlmGenerationRow;
    st.ttft_us = SteadyStatsOf(g, [](const Row& r) { return r.ttft_us; });
    st.prefill_us = SteadyStatsOf(g, [](const Row& r) { return r.prefill_us; });
    st.prefill_rate_tps = SteadyStatsOf(g, [](const Row& r) { return r.prefill_rate_tps; });
    st.decode_us = SteadyStatsOf(g, [](const Row& r) { return r.decode_us; });
    st.decode_rate_tps = SteadyStatsOf(g, [](const Row& r) { return r.decode_rate_tps; });
    st.inference_us = SteadyStatsOf(g, [](const Row& r) { return r.inference_us; });
    s.steady = st;
  }

  s.notes.push_back(
      "the runner's own definitions (ExecuTorch stats.h): prefill is prompt_eval_end − "
      "inference_start (tokenizing included), TTFT first_token − inference_start, decode "
      "inference_end − prompt_eval_end, total inference_end − inference_start; rates are tokens "
      "÷ those times; the first generation is cold, generations 2..N the steady state");
  // Figures a line's timestamps should give but cannot: out of order.
  std::vector<std::string> disordered;
  auto check = [&disordered](const LlmGenerationRow& g, const char* figure,
                             std::optional<int64_t> earlier, std::optional<int64_t> later,
                             const std::optional<int64_t>& value) {
    if (earlier && later && !value)
      disordered.push_back(
          fmt::format("{} of generation {} (line {})", figure, g.generation, g.line));
  };
  int repeated_loads = 0, reset_loads = 0;
  for (size_t i = 0; i < t.generations.size(); ++i) {
    const LlmGenerationRow& g = t.generations[i];
    check(g, "prefill", g.inference_start_us, g.prompt_eval_end_us, g.prefill_us);
    check(g, "TTFT", g.inference_start_us, g.first_token_us, g.ttft_us);
    check(g, "decode", g.prompt_eval_end_us, g.inference_end_us, g.decode_us);
    check(g, "total inference", g.inference_start_us, g.inference_end_us, g.inference_us);
    if (g.model_load_start_us == 0 && g.model_load_end_us == 0)
      ++reset_loads;
    else
      check(g, "model load", g.model_load_start_us, g.model_load_end_us, g.model_load_us);
    if (i > 0 && g.model_load_us && g.model_load_start_us == t.generations[0].model_load_start_us &&
        g.model_load_end_us == t.generations[0].model_load_end_us)
      ++repeated_loads;
  }
  if (!disordered.empty())
    s.notes.push_back(
        fmt::format("timestamps out of order, figure not given: {}", fmt::join(disordered, ", ")));
  if (repeated_loads > 0)
    s.notes.push_back(fmt::format(
        "{} later generation{} repeat{} generation 1's model load timestamps: one load, "
        "reported again (the runner does not reset its stats between generations)",
        repeated_loads, repeated_loads == 1 ? "" : "s", repeated_loads == 1 ? "s" : ""));
  if (reset_loads > 0)
    s.notes.push_back(fmt::format(
        "{} generation{} with model_load_start_ms = model_load_end_ms = 0: the model was loaded "
        "before (the runner resets its stats after a warmup), no load time",
        reset_loads, reset_loads == 1 ? "" : "s"));
  bool older = false;
  for (const auto& g : t.generations)
    older = older || !g.inference_end_us || !g.first_token_us || !g.model_load_end_us;
  if (older)
    s.notes.push_back(
        "some stats lines lack fields (older runners print fewer): their figures are absent, "
        "not 0");
  if (t.other_observer_lines > 0)
    s.notes.push_back(fmt::format(
        "{} PyTorchObserver line{} of PyTorch's benchmark observer ({{type, metric, value}}) "
        "passed over",
        t.other_observer_lines, t.other_observer_lines == 1 ? "" : "s"));
  if (!t.unknown_keys.empty())
    s.notes.push_back(fmt::format("stats keys not read: {}", fmt::join(t.unknown_keys, ", ")));
  return s;
}

}  // namespace htpscope
