// The coarse and fine views of one profiled run, each figure labelled with
// what it measures (primer §2–§7):
//  * graph wall µs   = "QNN accelerator (execute) time" (latency, incl. dispatch);
//  * compute-busy µs = "Accelerator (execute) time" (ops in flight);
//  * work cycles     = thread-aggregate cycles (summed over threads) — a
//                      volume, never a wall time;
//  * graph wall cycles = span of the de-duplicated optrace;
//  * domain cycles   = the busiest hardware thread's cycles_used;
//  * DPC             = dominant-path (critical-path) cycles of an op.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/statistics.h"
#include "analysis/unit_occupancy.h"
#include "model/run.h"

namespace htpscope {

// Highest plausible HTP clock when the run has no runtrace to tell: the
// highest effective clock seen in the runtraces of current (v73–v79) parts
// is ~2.0 GHz.  Override with SummaryOptions::clock_ghz.
inline constexpr double kDefaultClockCeilingGhz = 2.0;

struct SummaryOptions {
  int top_n = 10;  // rows in the top-N op tables
  std::optional<double>
      clock_ghz;  // plausible clock; default: runtrace max, else kDefaultClockCeilingGhz
};

struct Finding {
  std::string code;  // stable identifier, e.g. "aggregate_cycles"
  std::string message;
};

// Coarse view of one execution, from profile-viewer output (µs as printed).
struct CoarseExecution {
  int index = 0;                                    // 1-based execution number
  std::optional<double> graph_wall_us;              // QNN accelerator (execute) time
  std::optional<double> compute_busy_us;            // Accelerator (execute) time
  std::optional<double> compute_excluding_wait_us;  // Accelerator (execute excluding wait) time
  std::optional<double> overhead_us;                // graph wall − compute-busy
  std::optional<double> overhead_pct;               // overhead ÷ graph wall × 100
  std::optional<double> rpc_us;                     // RPC (execute) time
  std::optional<double> qnn_execute_us;             // QNN (execute) time
  std::optional<int64_t> work_cycles;  // Accelerator (execute) time (cycles): thread-aggregate
  std::optional<double> implied_ghz;   // work_cycles ÷ compute-busy µs ÷ 1000
  bool aggregate_cycles = false;       // implied clock above the plausible clock
};

// Executions 2..N: the warm, steady state.
struct SteadyState {
  int first_index = 2;
  std::optional<SampleStats> graph_wall_us, compute_busy_us, overhead_us, work_cycles;
};

struct ClockSanity {
  double plausible_ghz = 0;
  std::string source;  // "option", "runtrace" or "default"
};

struct OpGroup {
  std::string name;
  std::string type;  // QNN op type for QNN ops, "" for HTP op types
  OpCategory category = OpCategory::kCompute;
  std::optional<int64_t> dpc_cycles;  // Σ DPC once per op ID; absent when the source has none
  int64_t work_cycles = 0;            // Σ slice durations (thread-aggregate)
  int64_t instances = 0;              // op IDs (tiles)
  bool dpc_lower_bound = false;       // a multi-slice op: the trace holds one slice's DPC only
  std::optional<double> dpc_share_of_wall_pct;
  std::optional<double> work_share_pct;  // of total work
};

struct CategoryTotal {
  OpCategory category = OpCategory::kCompute;
  int64_t instances = 0;
  int64_t work_cycles = 0;
  int64_t dpc_cycles = 0;
};

struct FineView {
  std::string source;  // "optrace", "qhas" or "profile" (profile: per-node work only)
  std::optional<int64_t> graph_wall_cycles, start_cycle, end_cycle;
  std::optional<int64_t> work_cycles;    // Σ over all ops (thread-aggregate)
  std::optional<int64_t> domain_cycles;  // busiest thread's cycles_used
  std::optional<uint32_t> domain_tid;
  std::optional<int64_t> dpc_sum_cycles;
  int64_t instances = 0;
  std::vector<OpGroup> qnn_ops;       // all, sorted by DPC (or work) descending
  std::vector<OpGroup> htp_op_types;  // all, sorted likewise
  std::vector<CategoryTotal> categories;
};

struct UnitRow {
  uint32_t tid = 0;
  UnitKind kind = UnitKind::kUnknown;
  int64_t cycles_used = 0;
  int64_t busy_cycles = 0;
  double utilization_pct = 0;  // cycles_used ÷ graph wall cycles × 100
  uint64_t slices = 0;
};

struct PhaseRow {
  int execution = 0;
  std::string phase;
  int64_t wall_ticks = 0;  // 19.2 MHz ticks
  double wall_us = 0;
  std::optional<int64_t> wall_cycles;
  std::optional<double> effective_ghz;
};

struct CrossCheck {
  std::string name;      // e.g. "graph wall cycles"
  std::string unit;      // "cycles", "bytes", "us", "ops"
  std::string a_source;  // e.g. "optrace (recomputed)"
  std::string b_source;  // e.g. "QHAS timeline_cycles"
  double a = 0, b = 0;
  bool agree = false;
  std::string note;
};

struct MissingArtifact {
  std::string artifact;
  std::string withholds;
};

struct Summary {
  std::string label;
  std::vector<LoadedArtifact> artifacts;
  std::vector<std::string> skipped;
  std::vector<CoarseExecution> executions;
  std::optional<SteadyState> steady_state;
  std::vector<ProfileMetric> profile_statistics;  // "Execute Stats (Average)" etc. when printed
  std::vector<std::string> profile_statistics_sections;  // section title per entry above
  ClockSanity clock;
  std::optional<FineView> fine;
  std::vector<UnitRow> units;
  std::optional<int>
      traced_execution;  // the execution the optrace covers, when the runtrace shows it
  std::vector<PhaseRow> phases;
  std::vector<CrossCheck> cross_checks;
  std::vector<Finding> warnings;
  std::vector<MissingArtifact> missing;
  std::optional<int64_t> peak_vtcm_bytes;  // max "VTCM alloc" counter, else QHAS
  std::optional<int64_t> peak_vtcm_cycle;  // absolute cycle of the first peak sample
};

Summary Summarize(const ProfiledRun& run, const SummaryOptions& options = {});

}  // namespace htpscope
