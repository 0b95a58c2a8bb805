// The figure registry: every figure htpscope names, declared once
// (figures.cc) with its name, unit, what it is, which artifacts can give it,
// which way is worse, and the samples the noise rule counts.
//
// A figure's name is the same everywhere: JSON key, SQL/CSV column, gate
// NAME (`diff --fail-on`), `trend --metric`.  Code that writes or reads a
// figure takes the name from here (FigureName, ItemFigureName,
// DeviceFigureName), never spells it; docs/metrics.md lists the registry
// (FiguresMarkdown, a test holds the two equal).
//
// `sources` says in words which artifacts can give a figure, first choice
// first, for people; the choice itself is made once, when the run is loaded
// (model/join*.cc).
//
// The device profiles (Qualcomm AI Hub profiles, Genie LLM profiles,
// ExecuTorch LLM runner logs) have figures of their own (DeviceFigure):
// `diff` compares two sides of such profiles by them
// (analysis/device_profile_diff.h), gates name them, `trend` follows some.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace htpscope {

// Run-level figures, in diff's report order (RunDiff::metrics).
enum class Figure : uint8_t {
  // The profile's executions (µs as the viewer prints them; work cycles).
  kWallUs,
  kComputeBusyUs,
  kOverheadUs,
  kWorkCycles,
  kColdWallUs,
  kColdComputeBusyUs,
  kColdOverheadUs,
  kColdWorkCycles,
  // The one execution an optrace or QHAS file covers.
  kGraphWallCycles,
  kTracedWorkCycles,
  kDomainCycles,
  kDpcSumCycles,
  kOpInstances,
  // Memory of that execution.
  kPeakVtcmBytes,
  kDramBytes,
  kVtcmBytes,
  kDramReadBytes,
  kDramWriteBytes,
  kVtcmReadBytes,
  kVtcmWriteBytes,
};
inline constexpr size_t kFigureCount = 20;

// The section of diff's text a figure is shown in.
enum class FigureGroup : uint8_t { kCoarse, kTraced, kMemory };

// What one side's samples of a figure are.  The noise rule (analysis/gate.h)
// needs kMinSamplesForNoise of them on a side: steady-state executions for
// kSteadyExecutions, runs for the others (one sample per run).
enum class FigureSamples : uint8_t {
  kSteadyExecutions,  // executions 2..N of every run, pooled
  kColdExecutions,    // each run's first execution
  kTracedExecution,   // each run's traced execution (optrace or QHAS)
  kQhasTotals,        // each run's QHAS totals of its traced execution
  kNotCompared,       // diff does not compare it
};

// Which change is a regression: the direction a gate should catch.
// kNeither: a count that sets the context (tokens processed, layers), not a
// quality.
enum class Worse : uint8_t { kHigher, kLower, kNeither };

struct FigureInfo {
  Figure figure;
  const char* name;         // wall_us: JSON key, SQL/CSV column, gate NAME, trend metric
  const char* unit;         // "us", "cycles", "bytes" or "instances"
  const char* label;        // for people, as diff's rows name it: graph wall
  const char* description;  // one line: what a run's samples are (trend's basis)
  const char* sources;      // which artifacts can give it, first choice first
  FigureGroup group;
  FigureSamples samples;
  Worse worse;
  bool headline;  // in diff's short table (markdown)
  bool trend;     // the run store keeps it: `trend --metric` follows it
};

// Every run-level figure, in Figure order.
std::span<const FigureInfo> Figures();
const FigureInfo& InfoOf(Figure figure);
const char* FigureName(Figure figure);
// The figure named `name`, or nullptr.
const FigureInfo* FindFigure(std::string_view name);

// The items figures of one item belong to, and the gate family (FAMILY of
// `FAMILY:GLOB:FIELD`) that tests them.
enum class FigureItem : uint8_t {
  kOp,         // a QNN op (gate family "op") or HTP op type ("htp"); also op instances, graph nodes
  kUnit,       // a hardware thread ("unit")
  kProfileOp,  // an op of the profile's per-node lines ("profile_op")
  kPhase,      // a runtrace phase (no gate)
};

// Figures of one item rather than of the run.  An item figure measuring the
// same quantity as a run-level figure has its name (work_cycles).
enum class ItemFigure : uint8_t {
  kDpcCycles,
  kWorkCycles,
  kInstances,
  kCyclesUsed,
  kUtilizationPct,
  kSteadyCycles,
  kColdCycles,
  kPhaseWallUs,
};
inline constexpr size_t kItemFigureCount = 8;

struct ItemFigureInfo {
  ItemFigure figure;
  const char* name;  // dpc_cycles: JSON key, SQL/CSV column, gate FIELD
  const char* unit;  // "cycles", "instances", "pct" or "us"
  FigureItem item;
  const char* description;  // one line
  FigureSamples samples;
  Worse worse;
};

// Every item figure, in ItemFigure order.
std::span<const ItemFigureInfo> ItemFigures();
const ItemFigureInfo& InfoOf(ItemFigure figure);
const char* ItemFigureName(ItemFigure figure);
// The names of `item`'s figures in ItemFigure order, joined by `separator`
// (dpc_cycles|work_cycles|instances).
std::string ItemFigureNames(FigureItem item, std::string_view separator);

// The artifacts that give device-profile figures.
enum class DeviceArtifact : uint8_t {
  kAihub,      // a Qualcomm AI Hub profile (Run::aihub)
  kGenie,      // a Genie LLM profile (Run::genie)
  kLlmRunner,  // an ExecuTorch LLM runner's log (Run::llm_runner)
};
inline constexpr size_t kDeviceArtifactCount = 3;

// The device profiles' run-level figures, in the order the registry lists
// them; the figures one artifact gives, in that order, are its rows in
// `diff` (DeviceFiguresOf).
enum class DeviceFigure : uint8_t {
  // AI Hub profiles.
  kInferenceUs,
  kColdInferenceUs,
  kEstimatedInferenceUs,
  kFirstLoadUs,
  kWarmLoadUs,
  kCompileUs,
  kInferencePeakMemoryBytes,
  kNpuLayersPct,
  kNpuTimePct,
  kFallbackLayers,
  kFallbackTimeUs,
  kLayers,
  // Genie profiles (ttft_us and cold_ttft_us also runner logs).
  kTtftUs,
  kColdTtftUs,
  kTokenRate,
  kPromptRate,
  kQueryUs,
  kInitUs,
  kFreeUs,
  // ExecuTorch runner logs (prompt_tokens, generated_tokens also Genie).
  kPrefillUs,
  kPrefillTokenRate,
  kDecodeUs,
  kDecodeTokenRate,
  kGenerationUs,
  kModelLoadUs,
  kPromptTokens,
  kGeneratedTokens,
  kGpuPeakUsageMb,
};
inline constexpr size_t kDeviceFigureCount = 28;

// What one side's samples of a device figure are (the noise rule counts
// them; analysis/gate.h).
enum class DeviceSamples : uint8_t {
  kSteady,     // the steady state, pooled over the side's runs: AI Hub inferences 2..N of each
               // profile, Genie queries 2..N of each dialog, runner generations 2..N of each log
               // (a dialog's or log's only query or generation stands in)
  kCold,       // the first (cold) inference, query or generation of each profile, dialog or log
  kOnePerRun,  // one value per AI Hub profile, Genie dialog or runner log
  kEach,       // every Genie query or runner generation
};

// How one artifact gives a device figure: its row in `diff`.
struct DeviceFigureSource {
  const char* label = nullptr;  // for people, as diff's row names it; nullptr: not given
  const char* basis = nullptr;  // what one side's samples are, as diff says it
  bool given() const { return label != nullptr; }
};

struct DeviceFigureInfo {
  DeviceFigure figure;
  const char* name;         // ttft_us: JSON key, gate NAME, trend metric, SQL column where one is
  const char* unit;         // "us", "pct", "bytes", "layers", "toks/s", "tokens" or "MiB"
  const char* description;  // one line: what a run's samples are (trend's basis)
  DeviceFigureSource aihub, genie, llm_runner;  // the artifacts that give it
  DeviceSamples samples;
  Worse worse;
  bool trend;  // the run store keeps it: `trend --metric` follows it

  // The source of the figure in `artifact`'s profiles (given() false: none).
  const DeviceFigureSource& From(DeviceArtifact artifact) const;
};

// Every device-profile figure, in DeviceFigure order.
std::span<const DeviceFigureInfo> DeviceFigures();
const DeviceFigureInfo& InfoOf(DeviceFigure figure);
const char* DeviceFigureName(DeviceFigure figure);
// The device figure named `name`, or nullptr.
const DeviceFigureInfo* FindDeviceFigure(std::string_view name);
// The figures `artifact` gives, in DeviceFigure order: diff's rows.
std::vector<const DeviceFigureInfo*> DeviceFiguresOf(DeviceArtifact artifact);

// The registry as docs/metrics.md lists it between its figures markers: a
// table of the run-level figures, one of the item figures, then one of the
// device-profile figures.
std::string FiguresMarkdown();

}  // namespace htpscope
