// The figure registry: every figure htpscope names, declared once
// (figures.cc) with its name, unit, what it is, which artifacts can give it,
// which way is worse, and the samples the noise rule counts.
//
// A figure's name is the same everywhere: JSON key, SQL/CSV column, gate
// NAME (`diff --fail-on`), `trend --metric`.  Code that writes or reads a
// figure takes the name from here (FigureName, ItemFigureName), never spells
// it; docs/metrics.md lists the registry (FiguresMarkdown, a test holds the
// two equal).
//
// `sources` says in words which artifacts can give a figure, first choice
// first, for people; the choice itself is made once, when the run is loaded
// (model/join*.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

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
enum class Worse : uint8_t { kHigher, kLower };

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

// The registry as docs/metrics.md lists it between its figures markers: a
// table of the run-level figures, then one of the item figures.
std::string FiguresMarkdown();

}  // namespace htpscope
