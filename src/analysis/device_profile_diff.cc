#include "analysis/device_profile_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>

#include "analysis/device_profile_summary.h"
#include "analysis/module_run.h"
#include "model/figures.h"

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

// One side's samples of every device figure, by DeviceFigure, and how many
// of its runs (AI Hub profiles, Genie dialogs, runner logs) have no steady
// state of their own.
struct DeviceSideSamples {
  std::array<Samples, kDeviceFigureCount> by_figure;
  int without_steady_state = 0;

  Samples& operator[](DeviceFigure f) { return by_figure[static_cast<size_t>(f)]; }
  const Samples& operator[](DeviceFigure f) const { return by_figure[static_cast<size_t>(f)]; }
};

using CollectSamples = DeviceSideSamples (*)(const std::vector<const Run*>& runs);

// The diff every device profile has: each side's samples by `collect`, a
// row per figure `artifact` gives (model/figures.h, in the registry's
// order), and `no_steady_note` when a run of either side has no steady
// state of its own.  Throws std::invalid_argument for an empty side.
DeviceProfileDiff DiffDeviceSides(const std::vector<const Run*>& a,
                                  const std::vector<const Run*>& b, const char* kind,
                                  DeviceArtifact artifact, CollectSamples collect,
                                  const std::string& no_steady_note) {
  if (a.empty() || b.empty()) throw std::invalid_argument("each side needs at least one run");
  DeviceProfileDiff d;
  d.kind = kind;
  d.a_labels = Labels(a);
  d.b_labels = Labels(b);
  const DeviceSideSamples sa = collect(a), sb = collect(b);
  for (const DeviceFigureInfo* f : DeviceFiguresOf(artifact)) {
    const DeviceFigureSource& source = f->From(artifact);
    d.metrics.push_back({f->name, source.label,
                         CompareSamples(sa[f->figure], sb[f->figure], f->unit, source.basis)});
  }
  if (sa.without_steady_state > 0 || sb.without_steady_state > 0) d.notes.push_back(no_steady_note);
  return d;
}

// The names of the steady-state figures `artifact` gives: "a, b and c".
std::string SteadyFigureNames(DeviceArtifact artifact) {
  std::vector<std::string> names;
  for (const DeviceFigureInfo* f : DeviceFiguresOf(artifact))
    if (f->samples == DeviceSamples::kSteady) names.push_back(f->name);
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : (i + 1 == names.size() ? " and " : ", ")) + names[i];
  return out;
}

DeviceSideSamples CollectAihub(const std::vector<const Run*>& runs) {
  using D = DeviceFigure;
  DeviceSideSamples s;
  for (const Run* r : runs) {
    if (!r->aihub) throw std::invalid_argument(r->label + ": not an AI Hub profile");
    const AihubSummary sum = SummarizeAihub(*r->aihub);
    const AihubStageFigures& inf = *sum.inference;
    for (size_t i = 1; i < inf.samples_us.size(); ++i)
      s[D::kInferenceUs].push_back(static_cast<double>(inf.samples_us[i]));
    if (inf.samples_us.empty()) ++s.without_steady_state;
    AddOptional(s[D::kColdInferenceUs], inf.cold_us);
    AddOptional(s[D::kEstimatedInferenceUs], inf.row->time_us);
    AddOptional(s[D::kInferencePeakMemoryBytes], inf.row->peak_memory_bytes);
    for (const auto& f : sum.stages) {
      if (f.row->stage == "first_load") AddOptional(s[D::kFirstLoadUs], f.row->time_us);
      if (f.row->stage == "warm_load") AddOptional(s[D::kWarmLoadUs], f.row->time_us);
      if (f.row->stage == "compile") AddOptional(s[D::kCompileUs], f.row->time_us);
    }
    AddOptional(s[D::kNpuLayersPct], sum.npu_layers_pct);
    AddOptional(s[D::kNpuTimePct], sum.npu_time_pct);
    s[D::kFallbackLayers].push_back(static_cast<double>(sum.fallback_layers));
    AddOptional(s[D::kFallbackTimeUs], sum.fallback_time_us);
    s[D::kLayers].push_back(static_cast<double>(sum.layers));
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
  DeviceProfileDiff d = DiffDeviceSides(
      a, b, "aihub", DeviceArtifact::kAihub, CollectAihub,
      fmt::format("a profile without all_inference_times (before profile version 1.2) has no "
                  "steady state or cold run: compare {}",
                  DeviceFigureName(DeviceFigure::kEstimatedInferenceUs)));

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

DeviceSideSamples CollectGenie(const std::vector<const Run*>& runs) {
  using D = DeviceFigure;
  DeviceSideSamples s;
  for (const Run* r : runs) {
    if (!r->genie) throw std::invalid_argument(r->label + ": not a Genie profile");
    const GenieSummary sum = SummarizeGenie(*r->genie);
    for (const auto& c : sum.components) {
      AddOptional(s[D::kInitUs], c.init_us);
      AddOptional(s[D::kFreeUs], c.free_us);
      if (c.queries.empty()) continue;
      AddOptional(s[D::kColdTtftUs], c.queries.front().ttft_us);
      const size_t from = c.queries.size() >= 2 ? 1 : 0;
      if (from == 0) ++s.without_steady_state;
      for (size_t i = from; i < c.queries.size(); ++i) {
        const GenieQuery& q = c.queries[i];
        AddOptional(s[D::kTtftUs], q.ttft_us);
        AddOptional(s[D::kTokenRate], q.generation_rate_tps);
        AddOptional(s[D::kPromptRate], q.prompt_rate_tps);
        s[D::kQueryUs].push_back(static_cast<double>(q.event->duration_us));
      }
      for (const auto& q : c.queries) {
        AddOptional(s[D::kPromptTokens], q.prompt_tokens);
        AddOptional(s[D::kGeneratedTokens], q.generated_tokens);
      }
    }
  }
  return s;
}

// True when either side's token counts changed.
bool TokenCountsDiffer(const DeviceProfileDiff& d) {
  for (DeviceFigure f : {DeviceFigure::kPromptTokens, DeviceFigure::kGeneratedTokens}) {
    const NamedDelta* m = d.Find(DeviceFigureName(f));
    if (m && m->delta.change && *m->delta.change != 0) return true;
  }
  return false;
}

}  // namespace

DeviceProfileDiff DiffGenieRuns(const std::vector<const Run*>& a,
                                const std::vector<const Run*>& b) {
  DeviceProfileDiff d = DiffDeviceSides(
      a, b, "genie", DeviceArtifact::kGenie, CollectGenie,
      "a dialog of one query has no steady state: its only (cold) query stands in for " +
          SteadyFigureNames(DeviceArtifact::kGenie));
  if (TokenCountsDiffer(d))
    d.notes.push_back(
        "the sides processed different token counts: TTFT and rates depend on them, compare like "
        "with like");
  return d;
}

namespace {

DeviceSideSamples CollectLlmRunner(const std::vector<const Run*>& runs) {
  using D = DeviceFigure;
  DeviceSideSamples s;
  for (const Run* r : runs) {
    if (!r->llm_runner) throw std::invalid_argument(r->label + ": not an ExecuTorch runner log");
    const LlmRunnerSummary sum = SummarizeLlmRunner(*r->llm_runner);
    const auto& gens = r->llm_runner->generations;
    if (gens.empty()) continue;
    AddOptional(s[D::kColdTtftUs], gens.front().ttft_us);
    AddOptional(s[D::kModelLoadUs], sum.model_load_us);
    const size_t from = gens.size() >= 2 ? 1 : 0;
    if (from == 0) ++s.without_steady_state;
    for (size_t i = from; i < gens.size(); ++i) {
      const LlmGenerationRow& g = gens[i];
      AddOptional(s[D::kTtftUs], g.ttft_us);
      AddOptional(s[D::kPrefillUs], g.prefill_us);
      AddOptional(s[D::kPrefillTokenRate], g.prefill_rate_tps);
      AddOptional(s[D::kDecodeUs], g.decode_us);
      AddOptional(s[D::kDecodeTokenRate], g.decode_rate_tps);
      AddOptional(s[D::kGenerationUs], g.inference_us);
    }
    for (const auto& g : gens) {
      AddOptional(s[D::kPromptTokens], g.prompt_tokens);
      AddOptional(s[D::kGeneratedTokens], g.generated_tokens);
      AddOptional(s[D::kGpuPeakUsageMb], g.gpu_peak_usage_mb);
    }
  }
  return s;
}

}  // namespace

DeviceProfileDiff DiffLlmRunnerRuns(const std::vector<const Run*>& a,
                                    const std::vector<const Run*>& b) {
  DeviceProfileDiff d = DiffDeviceSides(
      a, b, "llm_runner", DeviceArtifact::kLlmRunner, CollectLlmRunner,
      "a log of one generation has no steady state: its only (cold) generation stands in for " +
          SteadyFigureNames(DeviceArtifact::kLlmRunner));
  if (TokenCountsDiffer(d))
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
