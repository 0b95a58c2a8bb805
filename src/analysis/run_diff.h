// Comparing two sides of profiled runs (A = baseline, B = candidate) op by op.
//
// Each side is one or more runs of the same configuration (repeated
// measurements).  Every figure is taken from the runs' coarse views
// (SummarizeCoarse) and model tables, never recomputed:
//  * coarse (µs, profile-viewer): steady-state graph wall, compute-busy and
//    overhead = the median over executions 2..N of every run on the side
//    (pooled); the cold first execution of each run is kept apart;
//  * work (cycles, thread-aggregate): the steady-state "Accelerator (execute)
//    time (cycles)" when both sides have it, else the traced Σ slice
//    durations — the same basis on both sides, always;
//  * traced (cycles, the one execution an optrace/QHAS covers): graph wall,
//    domain, DPC sum, per QNN op and per HTP op type DPC / work / instances,
//    per unit cycles_used and utilization — the median over the side's runs;
//  * memory: peak VTCM (bytes), DRAM/VTCM traffic (bytes, QHAS totals).
// Figures are never mixed across units or bases: when one side lacks a
// figure its delta has no change.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/gate.h"
#include "analysis/module_diff.h"
#include "analysis/summary.h"
#include "model/figures.h"
#include "model/run.h"

namespace htpscope {

// DRAM and VTCM traffic of the traced execution, summed over HTP cores
// (QHAS htp_overall_summary totals).
struct MemoryTraffic {
  int64_t dram_read_bytes = 0, dram_write_bytes = 0;
  int64_t vtcm_read_bytes = 0, vtcm_write_bytes = 0;
};

// What the diff needs from one run: its coarse view plus facts the model's
// tables do not hold as such.
struct RunFacts {
  std::shared_ptr<const Run> run;   // shared by copies: dims_instance points into it
  std::vector<GraphCoarse> coarse;  // SummarizeCoarse(*run)
  // By the StringId of a QNN op name: the instance whose output dims stand
  // for the op, its largest compute instance by element count (any instance
  // when the op has no compute instance with dims), from the optrace, else
  // QHAS htp_op_instances; nullptr for ops without dims and other names.
  std::vector<const OpInstanceRow*> dims_instance;
  std::optional<MemoryTraffic> traffic;  // absent without a QHAS file

  // The output dims of QNN op `name` (dims_instance); empty when it has none.
  std::vector<int64_t> QnnOpDims(std::string_view name) const;
};

// Takes `run` (kept in the facts) and collects the facts above.
RunFacts CollectRunFacts(Run run, const SummaryOptions& options = {});

enum class OpMatch { kMatched, kAdded, kRemoved };
const char* OpMatchName(OpMatch match);  // "matched", "added", "removed"

// One QNN op (or HTP op type) on both sides.
struct OpDelta {
  std::string name;    // B's name for matched and added ops, A's for removed ones
  std::string a_name;  // A's name; differs from `name` when matched by type + dims
  std::string type;    // QNN op type ("" for HTP op types)
  std::vector<int64_t> dims;
  OpMatch status = OpMatch::kMatched;
  std::string matched_by;  // "name" or "type+dims"; "" when unmatched
  MetricDelta dpc_cycles, work_cycles, instances;
  bool dpc_lower_bound = false;  // multi-slice op on either side (docs/metrics.md)

  // B − A of the DPC medians, an absent side counting as 0 (an added op adds
  // its whole DPC); nullopt when neither side has DPC.
  std::optional<double> dpc_change_cycles() const;
};

// One op of the profile's per-node cycles on both sides (each run's first
// graph with executions; ops matched by the name the profile gives them):
// its steady state pooled over executions 2..N of every run on the side —
// the noise rule applied to those executions, so one run of 10 executions
// gives the bound — and its cold first execution, one sample per run.
struct ProfileOpDelta {
  std::string name;
  OpMatch status = OpMatch::kMatched;
  std::optional<uint32_t> a_op_id, b_op_id;  // the n of OpId_n on each side (first run)
  MetricDelta steady_cycles;                 // samples: its cycles in every steady execution
  MetricDelta cold_cycles;                   // samples: its cycles in each run's first execution

  // B − A of the steady medians, an absent side counting as 0; nullopt when
  // neither side has a steady state.
  std::optional<double> steady_change_cycles() const;
};

struct UnitDelta {
  uint32_t tid = 0;
  UnitKind kind = UnitKind::kUnknown;
  MetricDelta cycles_used, utilization_pct;
};

// An op's share of the traced graph-wall change.
struct WallAttribution {
  std::string name;
  OpMatch status = OpMatch::kMatched;
  double dpc_change_cycles = 0;
  std::optional<double> share_of_wall_change_pct;  // ΔDPC ÷ Δ graph wall cycles × 100
};

enum class WallCause { kUnknown, kOverhead, kComputeBusy };

struct DiffSide {
  std::vector<std::string> labels;        // one per run
  int steady_executions = 0;              // pooled executions 2..N
  int cold_executions = 0;                // first executions
  std::vector<std::string> fine_sources;  // per run: "optrace", "qhas", "profile" or "none"
  std::vector<std::string> missing;       // "<run>: <artifact> (withholds …)"
};

struct NamedDelta {
  std::string name;   // the gate/JSON name: FigureInfo::name for a run's figure
  std::string label;  // for people: FigureInfo::label for a run's figure
  MetricDelta delta;
};

struct RunDiff {
  DiffSide a, b;
  // Every run-level figure of the registry (model/figures.h), in its order.
  std::vector<NamedDelta> metrics;
  // The headline wall's name: Figure::kWallUs when both sides have
  // steady-state µs, else Figure::kGraphWallCycles when both have a traced
  // execution, else "".
  std::string wall_metric;
  std::optional<uint32_t> a_domain_tid, b_domain_tid;  // busiest thread of the first run
  std::vector<OpDelta> qnn_ops;       // sorted by |ΔDPC| (absent = 0), then |Δwork|, then name
  std::vector<OpDelta> htp_op_types;  // likewise; matched by name only
  std::vector<UnitDelta> units;       // by tid
  std::vector<WallAttribution> attribution;  // ops with a DPC change, largest |ΔDPC| first
  // The profile's per-op steady state on both sides, by |Δ steady median|
  // (an added/removed op counts whole), then name; empty unless a side has
  // per-node lines.
  std::vector<ProfileOpDelta> profile_ops;
  // Which part of the steady-state wall change dominates: overhead (graph
  // wall − compute-busy) or compute-busy µs; kUnknown without both on both
  // sides or without a wall change.
  WallCause wall_cause = WallCause::kUnknown;
  std::vector<std::string> notes;  // fallbacks, mixed sources, what is missing
  // Per module of the model (analysis/module_diff.h, docs/modules.md).
  ModuleDiff modules;

  const NamedDelta* Find(std::string_view name) const;
  const NamedDelta* Find(Figure figure) const;
};

// Compares side A with side B.  Each side needs at least one run.
// QNN ops are matched by name; the ops left over are matched by QNN op type
// + dims (RunFacts::dims_instance; ops without dims on both sides by type
// alone) when exactly one op on each side has that key, else they are listed
// as added (B only) or removed (A only).  HTP op types match by name only.
RunDiff DiffRuns(const std::vector<RunFacts>& a, const std::vector<RunFacts>& b);

// The profile ops of both sides compared (RunDiff::profile_ops).
std::vector<ProfileOpDelta> DiffProfileOps(const std::vector<RunFacts>& a,
                                           const std::vector<RunFacts>& b);

// Each side's runs' module trees (ComputeRunModules), compared by module.
ModuleDiff DiffRunModules(const std::vector<RunFacts>& a, const std::vector<RunFacts>& b);

// The figures gates may test: run-level metrics (family ""), every QNN op
// ("op": dpc_cycles, work_cycles, instances), HTP op type ("htp": same
// fields), unit ("unit", name = tid: cycles_used, utilization_pct), profile
// op ("profile_op": steady_cycles, cold_cycles) and module ("module", name =
// module path: cycles or us, the module tree's unit).
// Pointers refer into `diff`.
std::vector<GateSubject> GateSubjects(const RunDiff& diff);

}  // namespace htpscope
