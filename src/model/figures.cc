#include "model/figures.h"

#include <fmt/format.h>

#include <array>
#include <string>
#include <vector>

namespace htpscope {
namespace {

using F = Figure;
using G = FigureGroup;
using S = FigureSamples;

// The name of thread-aggregate work cycles, for the run and for one op.
constexpr char kWorkCyclesName[] = "work_cycles";

constexpr char kProfileWall[] = "profile-viewer text, CSV or log: QNN accelerator (execute) time";
constexpr char kProfileBusy[] = "profile-viewer text, CSV or log: Accelerator (execute) time";
constexpr char kProfileOverhead[] =
    "profile-viewer text, CSV or log: QNN accelerator (execute) time − Accelerator (execute) time";
constexpr char kProfileWork[] =
    "profile-viewer text, CSV or log: Accelerator (execute) time (cycles)";
constexpr char kQhasTraffic[] =
    "QHAS htp_overall_summary totals, summed over HTP cores; absent without QHAS";

// clang-format off
constexpr std::array<FigureInfo, kFigureCount> kFigures = {{
  {F::kWallUs, "wall_us", "us", "graph wall",
   "graph wall (QNN accelerator (execute) time: latency including per-op dispatch and "
   "scheduling), executions 2..N", kProfileWall,
   G::kCoarse, S::kSteadyExecutions, Worse::kHigher, true, true},
  {F::kComputeBusyUs, "compute_busy_us", "us", "compute-busy",
   "compute-busy (Accelerator (execute) time: ops in flight, gaps excluded), executions 2..N",
   kProfileBusy,
   G::kCoarse, S::kSteadyExecutions, Worse::kHigher, true, true},
  {F::kOverheadUs, "overhead_us", "us", "overhead (wall − busy)",
   "graph wall − compute-busy (time with no op in flight), executions 2..N", kProfileOverhead,
   G::kCoarse, S::kSteadyExecutions, Worse::kHigher, true, true},
  {F::kWorkCycles, kWorkCyclesName, "cycles", "work (thread-aggregate)",
   "Accelerator (execute) time (cycles), executions 2..N",
   "profile-viewer text, CSV or log: Accelerator (execute) time (cycles); diff, when a side "
   "lacks it: traced_work_cycles on both sides",
   G::kCoarse, S::kSteadyExecutions, Worse::kHigher, true, true},
  {F::kColdWallUs, "cold_wall_us", "us", "graph wall (cold)",
   "graph wall of the cold first execution", kProfileWall,
   G::kCoarse, S::kColdExecutions, Worse::kHigher, true, true},
  {F::kColdComputeBusyUs, "cold_compute_busy_us", "us", "compute-busy (cold)",
   "compute-busy of the cold first execution", kProfileBusy,
   G::kCoarse, S::kColdExecutions, Worse::kHigher, false, true},
  {F::kColdOverheadUs, "cold_overhead_us", "us", "overhead (cold)",
   "overhead of the cold first execution", kProfileOverhead,
   G::kCoarse, S::kColdExecutions, Worse::kHigher, false, true},
  {F::kColdWorkCycles, "cold_work_cycles", "cycles", "work (cold, thread-aggregate)",
   "work cycles of the cold first execution", kProfileWork,
   G::kCoarse, S::kColdExecutions, Worse::kHigher, false, true},
  {F::kGraphWallCycles, "graph_wall_cycles", "cycles", "graph wall (traced)",
   "traced execution: span of the executed ops (first start to last end)",
   "optrace: max(slice end) − min(slice start); else QHAS timeline_cycles",
   G::kTraced, S::kTracedExecution, Worse::kHigher, true, true},
  {F::kTracedWorkCycles, "traced_work_cycles", "cycles", "work (traced, thread-aggregate)",
   "traced execution: Σ slice durations over all threads (a volume of work, never a wall time)",
   "optrace Σ slice durations; else QHAS Σ htp_resources cycles_used",
   G::kTraced, S::kTracedExecution, Worse::kHigher, false, true},
  {F::kDomainCycles, "domain_cycles", "cycles", "domain (busiest thread)",
   "traced execution: the busiest thread's cycles_used (threads run in parallel: real time "
   "follows the busiest)",
   "optrace: union of each thread's slices; else QHAS htp_resources",
   G::kTraced, S::kTracedExecution, Worse::kHigher, true, true},
  {F::kDpcSumCycles, "dpc_sum_cycles", "cycles", "Σ DPC",
   "traced execution: Σ dominant-path cycles, the critical path's busy part (the rest of the "
   "wall is idle)",
   "Σ of every op instance's DPC (optrace, QHAS, reconstructed path); partial QHAS: "
   "timeline_cycles × (1 − percent_idle ÷ 100)",
   G::kTraced, S::kTracedExecution, Worse::kHigher, false, true},
  {F::kOpInstances, "op_instances", "instances", "op instances (tiles)",
   "traced execution: executed op instances",
   "optrace op IDs; else QHAS htp_op_instances when its lists are complete",
   G::kTraced, S::kTracedExecution, Worse::kHigher, false, true},
  {F::kPeakVtcmBytes, "peak_vtcm_bytes", "bytes", "peak VTCM",
   "traced execution: peak VTCM allocation",
   "max optrace VTCM alloc counter; else QHAS peak_vtcm_alloc",
   G::kMemory, S::kTracedExecution, Worse::kHigher, true, true},
  {F::kDramBytes, "dram_bytes", "bytes", "DRAM traffic",
   "traced execution: bytes read from and written to DRAM", kQhasTraffic,
   G::kMemory, S::kQhasTotals, Worse::kHigher, true, false},
  {F::kVtcmBytes, "vtcm_bytes", "bytes", "VTCM traffic",
   "traced execution: bytes read from and written to VTCM", kQhasTraffic,
   G::kMemory, S::kQhasTotals, Worse::kHigher, true, false},
  {F::kDramReadBytes, "dram_read_bytes", "bytes", "DRAM read",
   "traced execution: bytes read from DRAM", kQhasTraffic,
   G::kMemory, S::kQhasTotals, Worse::kHigher, false, false},
  {F::kDramWriteBytes, "dram_write_bytes", "bytes", "DRAM write",
   "traced execution: bytes written to DRAM", kQhasTraffic,
   G::kMemory, S::kQhasTotals, Worse::kHigher, false, false},
  {F::kVtcmReadBytes, "vtcm_read_bytes", "bytes", "VTCM read",
   "traced execution: bytes read from VTCM", kQhasTraffic,
   G::kMemory, S::kQhasTotals, Worse::kHigher, false, false},
  {F::kVtcmWriteBytes, "vtcm_write_bytes", "bytes", "VTCM write",
   "traced execution: bytes written to VTCM", kQhasTraffic,
   G::kMemory, S::kQhasTotals, Worse::kHigher, false, false},
}};

using I = ItemFigure;
using Item = FigureItem;

constexpr std::array<ItemFigureInfo, kItemFigureCount> kItemFigures = {{
  {I::kDpcCycles, "dpc_cycles", "cycles", Item::kOp,
   "Σ dominant-path cycles of its instances", S::kTracedExecution, Worse::kHigher},
  {I::kWorkCycles, kWorkCyclesName, "cycles", Item::kOp,
   "Σ slice durations: thread-aggregate work (also of an op instance, a graph node, a QHAS core)",
   S::kTracedExecution, Worse::kHigher},
  {I::kInstances, "instances", "instances", Item::kOp,
   "op instances (op IDs, i.e. tiles)", S::kTracedExecution, Worse::kHigher},
  {I::kCyclesUsed, "cycles_used", "cycles", Item::kUnit,
   "the thread's busy cycles: union of its slices", S::kTracedExecution, Worse::kHigher},
  {I::kUtilizationPct, "utilization_pct", "pct", Item::kUnit,
   "cycles_used ÷ graph wall cycles × 100", S::kTracedExecution, Worse::kLower},
  {I::kSteadyCycles, "steady_cycles", "cycles", Item::kProfileOp,
   "its per-node cycles in executions 2..N", S::kSteadyExecutions, Worse::kHigher},
  {I::kColdCycles, "cold_cycles", "cycles", Item::kProfileOp,
   "its per-node cycles in the first execution", S::kColdExecutions, Worse::kHigher},
  {I::kPhaseWallUs, "wall_us", "us", Item::kPhase,
   "the phase's wall time: runtrace ticks ÷ 19.2", S::kNotCompared, Worse::kHigher},
}};

using D = DeviceFigure;
using DS = DeviceSamples;

// diff's bases of the steady states of Genie and a runner's log.
constexpr char kGenieSteady[] =
    "median of queries 2..N of each dialog, pooled (a dialog's only query when it has one)";
constexpr char kRunnerSteady[] =
    "generations 2..N of each log, pooled (a log's only generation when it has one); the runner's "
    "wall clock, ms resolution";
constexpr DeviceFigureSource kNotGiven{};

constexpr std::array<DeviceFigureInfo, kDeviceFigureCount> kDeviceFigures = {{
  {D::kInferenceUs, "inference_us", "us",
   "AI Hub all_inference_times 2..N (end-to-end on the device, not the HTP graph wall)",
   {"inference (steady, end-to-end on device)",
    "steady-state median of all_inference_times 2..N (end-to-end on device, not the HTP graph "
    "wall)"}, kNotGiven, kNotGiven,
   DS::kSteady, Worse::kHigher, true},
  {D::kColdInferenceUs, "cold_inference_us", "us",
   "AI Hub all_inference_times[0], the cold first run",
   {"inference (cold first)", "first of all_inference_times, one per run"}, kNotGiven, kNotGiven,
   DS::kCold, Worse::kHigher, true},
  {D::kEstimatedInferenceUs, "estimated_inference_us", "us", "AI Hub's estimated_inference_time",
   {"estimated inference (AI Hub)", "AI Hub's estimated_inference_time, one per run"},
   kNotGiven, kNotGiven, DS::kOnePerRun, Worse::kHigher, true},
  {D::kFirstLoadUs, "first_load_us", "us", "AI Hub's first_load_time",
   {"first load", "first_load_time per run"}, kNotGiven, kNotGiven,
   DS::kOnePerRun, Worse::kHigher, false},
  {D::kWarmLoadUs, "warm_load_us", "us", "AI Hub's warm_load_time",
   {"warm load", "warm_load_time per run"}, kNotGiven, kNotGiven,
   DS::kOnePerRun, Worse::kHigher, false},
  {D::kCompileUs, "compile_us", "us", "AI Hub's compile_time (compiling on the device)",
   {"compile (on device)", "compile_time per run"}, kNotGiven, kNotGiven,
   DS::kOnePerRun, Worse::kHigher, false},
  {D::kInferencePeakMemoryBytes, "inference_peak_memory_bytes", "bytes",
   "AI Hub's estimated_inference_peak_memory",
   {"inference peak memory", "estimated_inference_peak_memory per run"}, kNotGiven, kNotGiven,
   DS::kOnePerRun, Worse::kHigher, false},
  {D::kNpuLayersPct, "npu_layers_pct", "pct", "AI Hub: NPU layers ÷ layers × 100",
   {"NPU layers (by count)", "NPU layers ÷ layers × 100, per run"}, kNotGiven, kNotGiven,
   DS::kOnePerRun, Worse::kLower, false},
  {D::kNpuTimePct, "npu_time_pct", "pct",
   "AI Hub: NPU layers' Σ execution_time ÷ every layer's × 100",
   {"NPU time (by Σ layer time)", "NPU layers' Σ execution_time ÷ every layer's × 100, per run"},
   kNotGiven, kNotGiven, DS::kOnePerRun, Worse::kLower, true},
  {D::kFallbackLayers, "fallback_layers", "layers", "AI Hub: layers not on the NPU",
   {"fallback layers (not NPU)", "layers on GPU, CPU or unspecified, per run"},
   kNotGiven, kNotGiven, DS::kOnePerRun, Worse::kHigher, true},
  {D::kFallbackTimeUs, "fallback_time_us", "us",
   "AI Hub: Σ execution_time of the layers not on the NPU",
   {"fallback layers' time", "Σ execution_time of the layers not on the NPU, per run"},
   kNotGiven, kNotGiven, DS::kOnePerRun, Worse::kHigher, false},
  {D::kLayers, "layers", "layers", "AI Hub: execution_detail rows",
   {"layers", "execution_detail rows, per run"}, kNotGiven, kNotGiven,
   DS::kOnePerRun, Worse::kNeither, false},
  {D::kTtftUs, "ttft_us", "us",
   "Genie time-to-first-token, queries 2..N (a dialog's only query); ExecuTorch runner TTFT, "
   "generations 2..N (a log's only one)",
   kNotGiven, {"time to first token", kGenieSteady}, {"time to first token", kRunnerSteady},
   DS::kSteady, Worse::kHigher, true},
  {D::kColdTtftUs, "cold_ttft_us", "us",
   "Genie time-to-first-token of each dialog's first query; ExecuTorch runner TTFT of the first "
   "generation",
   kNotGiven, {"time to first token (cold first query)", "each dialog's first query"},
   {"time to first token (cold first generation)", "each log's first generation"},
   DS::kCold, Worse::kHigher, true},
  {D::kTokenRate, "token_rate", "toks/s",
   "Genie token-generation-rate, queries 2..N (a dialog's only query)",
   kNotGiven, {"token generation rate", kGenieSteady}, kNotGiven,
   DS::kSteady, Worse::kLower, true},
  {D::kPromptRate, "prompt_rate", "toks/s",
   "Genie prompt-processing-rate, queries 2..N (a dialog's only query)",
   kNotGiven, {"prompt processing rate", kGenieSteady}, kNotGiven,
   DS::kSteady, Worse::kLower, true},
  {D::kQueryUs, "query_us", "us",
   "Genie GenieDialog_query duration, queries 2..N (a dialog's only query)",
   kNotGiven, {"query duration", kGenieSteady}, kNotGiven,
   DS::kSteady, Worse::kHigher, false},
  {D::kInitUs, "init_us", "us", "Genie GenieDialog_create init-time, one per dialog",
   kNotGiven, {"dialog init (GenieDialog_create init-time)", "one per dialog"}, kNotGiven,
   DS::kOnePerRun, Worse::kHigher, false},
  {D::kFreeUs, "free_us", "us", "Genie GenieDialog_free, one per dialog",
   kNotGiven, {"dialog free (GenieDialog_free)", "one per dialog"}, kNotGiven,
   DS::kOnePerRun, Worse::kHigher, false},
  {D::kPrefillUs, "prefill_us", "us",
   "ExecuTorch runner prompt_eval_end − inference_start (tokenizing included), generations 2..N "
   "(a log's only one)",
   kNotGiven, kNotGiven, {"prefill (prompt eval, tokenizing included)", kRunnerSteady},
   DS::kSteady, Worse::kHigher, false},
  {D::kPrefillTokenRate, "prefill_token_rate", "toks/s",
   "ExecuTorch runner prefill rate, generations 2..N (a log's only one)",
   kNotGiven, kNotGiven, {"prefill rate", kRunnerSteady},
   DS::kSteady, Worse::kLower, true},
  {D::kDecodeUs, "decode_us", "us",
   "ExecuTorch runner inference_end − prompt_eval_end, generations 2..N (a log's only one)",
   kNotGiven, kNotGiven, {"decode", kRunnerSteady},
   DS::kSteady, Worse::kHigher, false},
  {D::kDecodeTokenRate, "decode_token_rate", "toks/s",
   "ExecuTorch runner decode rate, generations 2..N (a log's only one)",
   kNotGiven, kNotGiven, {"decode rate", kRunnerSteady},
   DS::kSteady, Worse::kLower, true},
  {D::kGenerationUs, "generation_us", "us",
   "ExecuTorch runner inference_end − inference_start (one generation), generations 2..N (a "
   "log's only one)",
   kNotGiven, kNotGiven, {"total inference (one generation)", kRunnerSteady},
   DS::kSteady, Worse::kHigher, false},
  {D::kModelLoadUs, "model_load_us", "us",
   "ExecuTorch runner model_load_end − model_load_start, each log's first measured load",
   kNotGiven, kNotGiven, {"model load", "each log's first measured model load"},
   DS::kOnePerRun, Worse::kHigher, false},
  {D::kPromptTokens, "prompt_tokens", "tokens",
   "Genie num-prompt-tokens of each query; ExecuTorch runner prompt tokens of each generation",
   kNotGiven, {"prompt tokens", "per query"}, {"prompt tokens", "per generation"},
   DS::kEach, Worse::kNeither, false},
  {D::kGeneratedTokens, "generated_tokens", "tokens",
   "Genie num-generated-tokens of each query; ExecuTorch runner generated tokens of each "
   "generation",
   kNotGiven, {"generated tokens", "per query"}, {"generated tokens", "per generation"},
   DS::kEach, Worse::kNeither, false},
  {D::kGpuPeakUsageMb, "gpu_peak_usage_mb", "MiB",
   "ExecuTorch runner's peak GPU usage (CUDA builds), per generation",
   kNotGiven, kNotGiven, {"GPU peak usage", "per generation, where the runner measured it"},
   DS::kEach, Worse::kHigher, false},
}};
// clang-format on

constexpr bool InFigureOrder() {
  for (size_t i = 0; i < kFigures.size(); ++i)
    if (static_cast<size_t>(kFigures[i].figure) != i) return false;
  for (size_t i = 0; i < kItemFigures.size(); ++i)
    if (static_cast<size_t>(kItemFigures[i].figure) != i) return false;
  for (size_t i = 0; i < kDeviceFigures.size(); ++i)
    if (static_cast<size_t>(kDeviceFigures[i].figure) != i) return false;
  return true;
}
static_assert(InFigureOrder(),
              "kFigures, kItemFigures and kDeviceFigures list the figures in enum order");

const char* SamplesText(FigureSamples samples) {
  switch (samples) {
    case FigureSamples::kSteadyExecutions:
      return "executions 2..N of every run";
    case FigureSamples::kColdExecutions:
      return "each run's first execution";
    case FigureSamples::kTracedExecution:
      return "each run's traced execution";
    case FigureSamples::kQhasTotals:
      return "each run's QHAS totals";
    case FigureSamples::kNotCompared:
      return "—";
  }
  return "";
}

const char* ItemText(FigureItem item) {
  switch (item) {
    case FigureItem::kOp:
      return "QNN op (`op:`), HTP op type (`htp:`)";
    case FigureItem::kUnit:
      return "hardware thread (`unit:`)";
    case FigureItem::kProfileOp:
      return "profile op (`profile_op:`)";
    case FigureItem::kPhase:
      return "runtrace phase (no gate)";
  }
  return "";
}

const char* WorseText(Worse worse) {
  switch (worse) {
    case Worse::kHigher:
      return "higher";
    case Worse::kLower:
      return "lower";
    case Worse::kNeither:
      return "—";
  }
  return "";
}

// What one side's samples of a figure of `samples` are in `artifact`'s
// profiles, for docs/metrics.md.
const char* DeviceSamplesText(DeviceSamples samples, DeviceArtifact artifact) {
  constexpr const char* kText[][kDeviceArtifactCount] = {
      // AI Hub profile, Genie profile, ExecuTorch runner log
      {"inferences 2..N of each profile, pooled", "queries 2..N of each dialog, pooled",
       "generations 2..N of each log, pooled"},  // kSteady
      {"each profile's first inference", "each dialog's first query",
       "each log's first generation"},                         // kCold
      {"one per profile", "one per dialog", "one per log"},    // kOnePerRun
      {"every inference", "every query", "every generation"},  // kEach
  };
  return kText[static_cast<size_t>(samples)][static_cast<size_t>(artifact)];
}

// The samples of `f` in each artifact that gives it, "; " between them.
std::string DeviceSamplesText(const DeviceFigureInfo& f) {
  std::string out;
  for (DeviceArtifact a :
       {DeviceArtifact::kAihub, DeviceArtifact::kGenie, DeviceArtifact::kLlmRunner}) {
    if (!f.From(a).given()) continue;
    if (!out.empty()) out += "; ";
    out += DeviceSamplesText(f.samples, a);
  }
  return out;
}

// The artifacts that give `f`, for docs/metrics.md.
std::string DeviceArtifactsText(const DeviceFigureInfo& f) {
  std::string out;
  auto add = [&out](bool given, const char* artifact) {
    if (!given) return;
    if (!out.empty()) out += ", ";
    out += artifact;
  };
  add(f.aihub.given(), "AI Hub profile");
  add(f.genie.given(), "Genie profile");
  add(f.llm_runner.given(), "ExecuTorch runner log");
  return out;
}

}  // namespace

std::span<const FigureInfo> Figures() { return kFigures; }

const FigureInfo& InfoOf(Figure figure) { return kFigures[static_cast<size_t>(figure)]; }

const char* FigureName(Figure figure) { return InfoOf(figure).name; }

const FigureInfo* FindFigure(std::string_view name) {
  for (const FigureInfo& f : kFigures)
    if (name == f.name) return &f;
  return nullptr;
}

std::span<const ItemFigureInfo> ItemFigures() { return kItemFigures; }

const ItemFigureInfo& InfoOf(ItemFigure figure) {
  return kItemFigures[static_cast<size_t>(figure)];
}

const char* ItemFigureName(ItemFigure figure) { return InfoOf(figure).name; }

std::string ItemFigureNames(FigureItem item, std::string_view separator) {
  std::string out;
  for (const ItemFigureInfo& f : kItemFigures) {
    if (f.item != item) continue;
    if (!out.empty()) out += separator;
    out += f.name;
  }
  return out;
}

const DeviceFigureSource& DeviceFigureInfo::From(DeviceArtifact artifact) const {
  switch (artifact) {
    case DeviceArtifact::kAihub:
      return aihub;
    case DeviceArtifact::kGenie:
      return genie;
    case DeviceArtifact::kLlmRunner:
      return llm_runner;
  }
  return kNotGiven;
}

std::span<const DeviceFigureInfo> DeviceFigures() { return kDeviceFigures; }

const DeviceFigureInfo& InfoOf(DeviceFigure figure) {
  return kDeviceFigures[static_cast<size_t>(figure)];
}

const char* DeviceFigureName(DeviceFigure figure) { return InfoOf(figure).name; }

const DeviceFigureInfo* FindDeviceFigure(std::string_view name) {
  for (const DeviceFigureInfo& f : kDeviceFigures)
    if (name == f.name) return &f;
  return nullptr;
}

std::vector<const DeviceFigureInfo*> DeviceFiguresOf(DeviceArtifact artifact) {
  std::vector<const DeviceFigureInfo*> out;
  for (const DeviceFigureInfo& f : kDeviceFigures)
    if (f.From(artifact).given()) out.push_back(&f);
  return out;
}

std::string FiguresMarkdown() {
  std::string out =
      "| name | unit | what | samples | worse | trend | artifacts, first choice first |\n"
      "|---|---|---|---|---|---|---|\n";
  for (const FigureInfo& f : kFigures)
    out +=
        fmt::format("| `{}` | {} | {} | {} | {} | {} | {} |\n", f.name, f.unit, f.description,
                    SamplesText(f.samples), WorseText(f.worse), f.trend ? "trend" : "—", f.sources);
  out +=
      "\nFigures of one item:\n\n"
      "| name | unit | item | what | samples | worse |\n"
      "|---|---|---|---|---|---|\n";
  for (const ItemFigureInfo& f : kItemFigures)
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", f.name, f.unit, ItemText(f.item),
                       f.description, SamplesText(f.samples), WorseText(f.worse));
  out +=
      "\nFigures of the device profiles (AI Hub profiles, Genie profiles, ExecuTorch runner "
      "logs):\n\n"
      "| name | unit | what | samples | worse | trend | artifacts |\n"
      "|---|---|---|---|---|---|---|\n";
  for (const DeviceFigureInfo& f : kDeviceFigures)
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} |\n", f.name, f.unit, f.description,
                       DeviceSamplesText(f), WorseText(f.worse), f.trend ? "trend" : "—",
                       DeviceArtifactsText(f));
  return out;
}

}  // namespace htpscope
