#include "model/figures.h"

#include <fmt/format.h>

#include <array>

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
   "graph wall (QNN accelerator (execute) time), executions 2..N", kProfileWall,
   G::kCoarse, S::kSteadyExecutions, Worse::kHigher, true, true},
  {F::kComputeBusyUs, "compute_busy_us", "us", "compute-busy",
   "compute-busy (Accelerator (execute) time), executions 2..N", kProfileBusy,
   G::kCoarse, S::kSteadyExecutions, Worse::kHigher, true, true},
  {F::kOverheadUs, "overhead_us", "us", "overhead (wall − busy)",
   "graph wall − compute-busy, executions 2..N", kProfileOverhead,
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
   "traced execution: span of the executed ops",
   "optrace: max(slice end) − min(slice start); else QHAS timeline_cycles",
   G::kTraced, S::kTracedExecution, Worse::kHigher, true, true},
  {F::kTracedWorkCycles, "traced_work_cycles", "cycles", "work (traced, thread-aggregate)",
   "traced execution: Σ slice durations",
   "optrace Σ slice durations; else QHAS Σ htp_resources cycles_used",
   G::kTraced, S::kTracedExecution, Worse::kHigher, false, true},
  {F::kDomainCycles, "domain_cycles", "cycles", "domain (busiest thread)",
   "traced execution: the busiest thread's cycles_used",
   "optrace: union of each thread's slices; else QHAS htp_resources",
   G::kTraced, S::kTracedExecution, Worse::kHigher, true, true},
  {F::kDpcSumCycles, "dpc_sum_cycles", "cycles", "Σ DPC",
   "traced execution: Σ dominant-path cycles",
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
// clang-format on

constexpr bool InFigureOrder() {
  for (size_t i = 0; i < kFigures.size(); ++i)
    if (static_cast<size_t>(kFigures[i].figure) != i) return false;
  for (size_t i = 0; i < kItemFigures.size(); ++i)
    if (static_cast<size_t>(kItemFigures[i].figure) != i) return false;
  return true;
}
static_assert(InFigureOrder(), "kFigures and kItemFigures list the figures in enum order");

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

const char* WorseText(Worse worse) { return worse == Worse::kHigher ? "higher" : "lower"; }

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
  return out;
}

}  // namespace htpscope
