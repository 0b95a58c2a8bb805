#include "analysis/device_profile_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "analysis/device_profile_summary.h"
#include "analysis/module_run.h"

namespace htpscope {

const NamedDelta* DeviceProfileDiff::Find(std::string_view name) const {
  for (const auto& m : metrics)
    if (m.name == name) return &m;
  return nullptr;
}

namespace {

using Samples = std::vector<double>;

std::string LayerKey(const AihubLayerRow& l) {
  return l.occurrence == 1 ? l.name : fmt::format("{}#{}", l.name, l.occurrence);
}

void AddOptional(Samples& s, std::optional<int64_t> v) {
  if (v) s.push_back(static_cast<double>(*v));
}
void AddOptional(Samples& s, std::optional<double> v) {
  if (v) s.push_back(*v);
}

std::vector<std::string> Labels(const std::vector<const Run*>& runs) {
  std::vector<std::string> out;
  for (const Run* r : runs) out.push_back(r->label);
  return out;
}

// Per-run samples of one AI Hub figure on one side.
struct AihubSide {
  Samples inference, cold, estimated, first_load, warm_load, compile, peak_memory;
  Samples npu_layers_pct, npu_time_pct, fallback_layers, fallback_time, layers;
  int runs_without_samples = 0;
};

AihubSide CollectAihub(const std::vector<const Run*>& runs) {
  AihubSide s;
  for (const Run* r : runs) {
    if (!r->aihub) throw std::invalid_argument(r->label + ": not an AI Hub profile");
    const AihubSummary sum = SummarizeAihub(*r->aihub);
    const AihubStageFigures& inf = *sum.inference;
    for (size_t i = 1; i < inf.samples_us.size(); ++i)
      s.inference.push_back(static_cast<double>(inf.samples_us[i]));
    if (inf.samples_us.empty()) ++s.runs_without_samples;
    AddOptional(s.cold, inf.cold_us);
    AddOptional(s.estimated, inf.row->time_us);
    AddOptional(s.peak_memory, inf.row->peak_memory_bytes);
    for (const auto& f : sum.stages) {
      if (f.row->stage == "first_load") AddOptional(s.first_load, f.row->time_us);
      if (f.row->stage == "warm_load") AddOptional(s.warm_load, f.row->time_us);
      if (f.row->stage == "compile") AddOptional(s.compile, f.row->time_us);
    }
    AddOptional(s.npu_layers_pct, sum.npu_layers_pct);
    AddOptional(s.npu_time_pct, sum.npu_time_pct);
    s.fallback_layers.push_back(static_cast<double>(sum.fallback_layers));
    AddOptional(s.fallback_time, sum.fallback_time_us);
    s.layers.push_back(static_cast<double>(sum.layers));
  }
  return s;
}

// The module trees of each side's layers (analysis/module_run.h), module by
// module.
ModuleDiff DiffAihubModules(const std::vector<const Run*>& a, const std::vector<const Run*>& b) {
  std::vector<ModuleTree> trees;
  trees.reserve(a.size() + b.size());
  for (const auto* side : {&a, &b})
    for (const Run* r : *side) trees.push_back(ComputeRunModules(*r).tree);
  std::vector<const ModuleTree*> ta, tb;
  for (size_t i = 0; i < trees.size(); ++i) (i < a.size() ? ta : tb).push_back(&trees[i]);
  return DiffModules(ta, tb);
}

}  // namespace

DeviceProfileDiff DiffAihubRuns(const std::vector<const Run*>& a,
                                const std::vector<const Run*>& b) {
  if (a.empty() || b.empty()) throw std::invalid_argument("each side needs at least one run");
  DeviceProfileDiff d;
  d.kind = "aihub";
  d.a_labels = Labels(a);
  d.b_labels = Labels(b);
  const AihubSide sa = CollectAihub(a), sb = CollectAihub(b);
  auto add = [&d](const char* name, const char* label, const Samples& x, const Samples& y,
                  const char* unit, const char* basis) {
    d.metrics.push_back({name, label, CompareSamples(x, y, unit, basis)});
  };
  add("inference_us", "inference (steady, end-to-end on device)", sa.inference, sb.inference, "us",
      "steady-state median of all_inference_times 2..N (end-to-end on device, not the HTP graph "
      "wall)");
  add("cold_inference_us", "inference (cold first)", sa.cold, sb.cold, "us",
      "first of all_inference_times, one per run");
  add("estimated_inference_us", "estimated inference (AI Hub)", sa.estimated, sb.estimated, "us",
      "AI Hub's estimated_inference_time, one per run");
  add("first_load_us", "first load", sa.first_load, sb.first_load, "us", "first_load_time per run");
  add("warm_load_us", "warm load", sa.warm_load, sb.warm_load, "us", "warm_load_time per run");
  add("compile_us", "compile (on device)", sa.compile, sb.compile, "us", "compile_time per run");
  add("inference_peak_memory_bytes", "inference peak memory", sa.peak_memory, sb.peak_memory,
      "bytes", "estimated_inference_peak_memory per run");
  add("npu_layers_pct", "NPU layers (by count)", sa.npu_layers_pct, sb.npu_layers_pct, "pct",
      "NPU layers ÷ layers × 100, per run");
  add("npu_time_pct", "NPU time (by Σ layer time)", sa.npu_time_pct, sb.npu_time_pct, "pct",
      "NPU layers' Σ execution_time ÷ every layer's × 100, per run");
  add("fallback_layers", "fallback layers (not NPU)", sa.fallback_layers, sb.fallback_layers,
      "layers", "layers on GPU, CPU or unspecified, per run");
  add("fallback_time_us", "fallback layers' time", sa.fallback_time, sb.fallback_time, "us",
      "Σ execution_time of the layers not on the NPU, per run");
  add("layers", "layers", sa.layers, sb.layers, "layers", "execution_detail rows, per run");
  if (sa.runs_without_samples > 0 || sb.runs_without_samples > 0)
    d.notes.push_back(
        "a profile without all_inference_times (before profile version 1.2) has no steady state "
        "or cold run: compare estimated_inference_us");

  // Layers: B's order, each A-only layer after the layer it followed on A.
  struct Sides {
    const AihubLayerRow* a_first = nullptr;
    const AihubLayerRow* b_first = nullptr;
    Samples a_time, b_time, a_cycles, b_cycles;
  };
  std::map<std::string, Sides> by_key;
  for (const Run* r : a)
    for (const auto& l : r->aihub->layers) {
      Sides& s = by_key[LayerKey(l)];
      if (!s.a_first && r == a.front()) s.a_first = &l;
      AddOptional(s.a_time, l.time_us);
      AddOptional(s.a_cycles, l.cycles);
    }
  for (const Run* r : b)
    for (const auto& l : r->aihub->layers) {
      Sides& s = by_key[LayerKey(l)];
      if (!s.b_first && r == b.front()) s.b_first = &l;
      AddOptional(s.b_time, l.time_us);
      AddOptional(s.b_cycles, l.cycles);
    }
  std::vector<std::string> order;
  for (const auto& l : b.front()->aihub->layers) order.push_back(LayerKey(l));
  size_t insert_at = 0;
  for (const auto& l : a.front()->aihub->layers) {
    const std::string key = LayerKey(l);
    auto found = std::find(order.begin(), order.end(), key);
    if (found != order.end()) {
      insert_at = static_cast<size_t>(found - order.begin()) + 1;
    } else {
      order.insert(order.begin() + static_cast<std::ptrdiff_t>(insert_at), key);
      ++insert_at;
    }
  }
  for (const auto& key : order) {
    const Sides& s = by_key[key];
    const AihubLayerRow* any = s.b_first ? s.b_first : s.a_first;
    if (!any) continue;  // a key only later runs of a side have
    LayerDelta ld;
    ld.key = key;
    ld.name = any->name;
    ld.occurrence = any->occurrence;
    ld.type = any->type;
    if (s.a_first) ld.a_unit = s.a_first->compute_unit;
    if (s.b_first) ld.b_unit = s.b_first->compute_unit;
    ld.status = s.a_first && s.b_first ? OpMatch::kMatched
                                       : (s.b_first ? OpMatch::kAdded : OpMatch::kRemoved);
    ld.time_us = CompareSamples(s.a_time, s.b_time, "us", "execution_time (runtime per layer)");
    ld.cycles = CompareSamples(s.a_cycles, s.b_cycles, "cycles", "execution_cycles");
    d.layers.push_back(std::move(ld));
  }
  int moved = 0;
  for (const auto& l : d.layers) moved += l.unit_changed() ? 1 : 0;
  if (moved > 0)
    d.notes.push_back(fmt::format("{} layer{} changed compute unit", moved, moved == 1 ? "" : "s"));
  d.modules = DiffAihubModules(a, b);
  return d;
}

namespace {

struct GenieSide {
  Samples ttft, cold_ttft, token_rate, prompt_rate, query, init, free, prompt_tokens,
      generated_tokens;
  int single_query_dialogs = 0;
};

GenieSide CollectGenie(const std::vector<const Run*>& runs) {
  GenieSide s;
  for (const Run* r : runs) {
    if (!r->genie) throw std::invalid_argument(r->label + ": not a Genie profile");
    const GenieSummary sum = SummarizeGenie(*r->genie);
    for (const auto& c : sum.components) {
      AddOptional(s.init, c.init_us);
      AddOptional(s.free, c.free_us);
      if (c.queries.empty()) continue;
      AddOptional(s.cold_ttft, c.queries.front().ttft_us);
      const size_t from = c.queries.size() >= 2 ? 1 : 0;
      if (from == 0) ++s.single_query_dialogs;
      for (size_t i = from; i < c.queries.size(); ++i) {
        const GenieQuery& q = c.queries[i];
        AddOptional(s.ttft, q.ttft_us);
        AddOptional(s.token_rate, q.generation_rate_tps);
        AddOptional(s.prompt_rate, q.prompt_rate_tps);
        s.query.push_back(static_cast<double>(q.event->duration_us));
      }
      for (const auto& q : c.queries) {
        AddOptional(s.prompt_tokens, q.prompt_tokens);
        AddOptional(s.generated_tokens, q.generated_tokens);
      }
    }
  }
  return s;
}

}  // namespace

DeviceProfileDiff DiffGenieRuns(const std::vector<const Run*>& a,
                                const std::vector<const Run*>& b) {
  if (a.empty() || b.empty()) throw std::invalid_argument("each side needs at least one run");
  DeviceProfileDiff d;
  d.kind = "genie";
  d.a_labels = Labels(a);
  d.b_labels = Labels(b);
  const GenieSide sa = CollectGenie(a), sb = CollectGenie(b);
  const char* steady =
      "median of queries 2..N of each dialog, pooled (a dialog's only query "
      "when it has one)";
  auto add = [&d](const char* name, const char* label, const Samples& x, const Samples& y,
                  const char* unit, const char* basis) {
    d.metrics.push_back({name, label, CompareSamples(x, y, unit, basis)});
  };
  add("ttft_us", "time to first token", sa.ttft, sb.ttft, "us", steady);
  add("cold_ttft_us", "time to first token (cold first query)", sa.cold_ttft, sb.cold_ttft, "us",
      "each dialog's first query");
  add("token_rate", "token generation rate", sa.token_rate, sb.token_rate, "toks/s", steady);
  add("prompt_rate", "prompt processing rate", sa.prompt_rate, sb.prompt_rate, "toks/s", steady);
  add("query_us", "query duration", sa.query, sb.query, "us", steady);
  add("init_us", "dialog init (GenieDialog_create init-time)", sa.init, sb.init, "us",
      "one per dialog");
  add("free_us", "dialog free (GenieDialog_free)", sa.free, sb.free, "us", "one per dialog");
  add("prompt_tokens", "prompt tokens", sa.prompt_tokens, sb.prompt_tokens, "tokens", "per query");
  add("generated_tokens", "generated tokens", sa.generated_tokens, sb.generated_tokens, "tokens",
      "per query");
  if (sa.single_query_dialogs > 0 || sb.single_query_dialogs > 0)
    d.notes.push_back(
        "a dialog of one query has no steady state: its only (cold) query stands in for ttft_us, "
        "token_rate, prompt_rate and query_us");
  const NamedDelta* pt = d.Find("prompt_tokens");
  const NamedDelta* gt = d.Find("generated_tokens");
  if ((pt && pt->delta.change && *pt->delta.change != 0) ||
      (gt && gt->delta.change && *gt->delta.change != 0))
    d.notes.push_back(
        "the sides processed different token counts: TTFT and rates depend on them, compare like "
        "with like");
  return d;
}

namespace {

struct LlmRunnerSide {
  Samples ttft, cold_ttft, prefill, prefill_rate, decode, decode_rate, generation, model_load,
      prompt_tokens, generated_tokens, gpu_peak;
  int single_generation_logs = 0;
};

LlmRunnerSide CollectLlmRunner(const std::vector<const Run*>& runs) {
  LlmRunnerSide s;
  for (const Run* r : runs) {
    if (!r->llm_runner) throw std::invalid_argument(r->label + ": not an ExecuTorch runner log");
    const LlmRunnerSummary sum = SummarizeLlmRunner(*r->llm_runner);
    const auto& gens = r->llm_runner->generations;
    if (gens.empty()) continue;
    AddOptional(s.cold_ttft, gens.front().ttft_us);
    AddOptional(s.model_load, sum.model_load_us);
    const size_t from = gens.size() >= 2 ? 1 : 0;
    if (from == 0) ++s.single_generation_logs;
    for (size_t i = from; i < gens.size(); ++i) {
      const LlmGenerationRow& g = gens[i];
      AddOptional(s.ttft, g.ttft_us);
      AddOptional(s.prefill, g.prefill_us);
      AddOptional(s.prefill_rate, g.prefill_rate_tps);
      AddOptional(s.decode, g.decode_us);
      AddOptional(s.decode_rate, g.decode_rate_tps);
      AddOptional(s.generation, g.inference_us);
    }
    for (const auto& g : gens) {
      AddOptional(s.prompt_tokens, g.prompt_tokens);
      AddOptional(s.generated_tokens, g.generated_tokens);
      AddOptional(s.gpu_peak, g.gpu_peak_usage_mb);
    }
  }
  return s;
}

}  // namespace

DeviceProfileDiff DiffLlmRunnerRuns(const std::vector<const Run*>& a,
                                    const std::vector<const Run*>& b) {
  if (a.empty() || b.empty()) throw std::invalid_argument("each side needs at least one run");
  DeviceProfileDiff d;
  d.kind = "llm_runner";
  d.a_labels = Labels(a);
  d.b_labels = Labels(b);
  const LlmRunnerSide sa = CollectLlmRunner(a), sb = CollectLlmRunner(b);
  const char* steady =
      "generations 2..N of each log, pooled (a log's only generation when it has one); the "
      "runner's wall clock, ms resolution";
  auto add = [&d](const char* name, const char* label, const Samples& x, const Samples& y,
                  const char* unit, const char* basis) {
    d.metrics.push_back({name, label, CompareSamples(x, y, unit, basis)});
  };
  add("ttft_us", "time to first token", sa.ttft, sb.ttft, "us", steady);
  add("cold_ttft_us", "time to first token (cold first generation)", sa.cold_ttft, sb.cold_ttft,
      "us", "each log's first generation");
  add("prefill_us", "prefill (prompt eval, tokenizing included)", sa.prefill, sb.prefill, "us",
      steady);
  add("prefill_token_rate", "prefill rate", sa.prefill_rate, sb.prefill_rate, "toks/s", steady);
  add("decode_us", "decode", sa.decode, sb.decode, "us", steady);
  add("decode_token_rate", "decode rate", sa.decode_rate, sb.decode_rate, "toks/s", steady);
  add("generation_us", "total inference (one generation)", sa.generation, sb.generation, "us",
      steady);
  add("model_load_us", "model load", sa.model_load, sb.model_load, "us",
      "each log's first measured model load");
  add("prompt_tokens", "prompt tokens", sa.prompt_tokens, sb.prompt_tokens, "tokens",
      "per generation");
  add("generated_tokens", "generated tokens", sa.generated_tokens, sb.generated_tokens, "tokens",
      "per generation");
  add("gpu_peak_usage_mb", "GPU peak usage", sa.gpu_peak, sb.gpu_peak, "MiB",
      "per generation, where the runner measured it");
  if (sa.single_generation_logs > 0 || sb.single_generation_logs > 0)
    d.notes.push_back(
        "a log of one generation has no steady state: its only (cold) generation stands in for "
        "ttft_us, prefill_us, prefill_token_rate, decode_us, decode_token_rate and generation_us");
  const NamedDelta* pt = d.Find("prompt_tokens");
  const NamedDelta* gt = d.Find("generated_tokens");
  if ((pt && pt->delta.change && *pt->delta.change != 0) ||
      (gt && gt->delta.change && *gt->delta.change != 0))
    d.notes.push_back(
        "the sides processed different token counts: times and rates depend on them, compare "
        "like with like");
  return d;
}

std::vector<GateSubject> GateSubjects(const DeviceProfileDiff& d) {
  std::vector<GateSubject> out;
  for (const auto& m : d.metrics) out.push_back({"", "", m.name, &m.delta});
  for (const auto& l : d.layers) {
    out.push_back({"layer", l.key, "time_us", &l.time_us});
    out.push_back({"layer", l.key, "cycles", &l.cycles});
  }
  AppendModuleGateSubjects(d.modules, out);
  return out;
}

}  // namespace htpscope
