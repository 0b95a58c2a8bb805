// One profiled run: every artifact found for it, read once and joined into
// normalised tables (model/tables.h).  Analyses, reports and the CLI read
// only this; which artifact feeds which figure is decided here, once, by the
// rules of docs/metrics.md ("Sources").
//
// A run is a directory produced by qnn-profile-viewer (and friends) or an
// explicit list of files.  Each artifact is optional; what is absent is
// listed in `missing` with the figures it withholds.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/string_pool.h"
#include "model/device_profiles.h"
#include "model/tables.h"

namespace htpscope {

// The traced execution's whole-graph figures (one execution: the optrace,
// or QHAS derived from it).  Each is absent when no artifact supports it.
struct RunFigures {
  // Where the op-level tables (op_instances, qnn_ops, units) come from:
  // optrace, else QHAS, else the profile's per-node lines; kNone without any.
  Source fine_source = Source::kNone;
  std::optional<int64_t> graph_wall_cycles;       // optrace span, else QHAS timeline_cycles
  std::optional<int64_t> start_cycle, end_cycle;  // absolute ends of that span
  Source graph_wall_source = Source::kNone;
  std::optional<int64_t> work_cycles;  // Σ slice durations, else QHAS Σ cycles_used
  Source work_source = Source::kNone;
  std::optional<int64_t> domain_cycles;  // the busiest thread's cycles_used
  std::optional<uint32_t> domain_tid;
  // Σ of every op instance's dominant-path cycles; where QHAS lists only
  // some ops, QHAS's timeline_cycles × (1 − percent_idle).
  std::optional<int64_t> dpc_sum_cycles;
  DpcBasis dpc_basis = DpcBasis::kNone;
  std::optional<int64_t> idle_cycles;  // graph wall − Σ DPC, when the path is known whole
  // Executed HTP op instances (op IDs); absent when QHAS lists only some.
  std::optional<int64_t> op_instances;
  std::optional<int64_t> peak_vtcm_bytes;  // max "VTCM alloc" counter, else QHAS peak_vtcm_alloc
  std::optional<int64_t> peak_vtcm_cycle;  // absolute cycle of the first peak sample
  Source peak_vtcm_source = Source::kNone;
  // The runtrace execution whose Graph Execute window holds the optrace.
  std::optional<int32_t> traced_execution;
  std::optional<double> runtrace_max_ghz;  // highest effective clock of any runtrace phase
  // The clock QHAS implies for the traced execution: timeline_cycles ÷
  // graph_execute_us ÷ 1000 (the µs are truncated to integers by QHAS).
  std::optional<double> qhas_clock_ghz;
};

// The tables of a run, one bundle per artifact that fills them: each
// artifact's import (model/artifact_registry.h) fills its bundle on its
// reader's thread, and the bundle is moved into the run once.  A run is the
// union of these bundles and the tables the join derives from them.

// The traced execution, op by op: the optrace's (or, without one, the op
// instances and slices QHAS lists, imported by the join).
struct TraceTables {
  StringPool strings;  // every interned name (StringId columns)
  std::string_view Str(StringId id) const { return strings.View(id); }

  std::vector<SliceRow> slices;             // by instance, then start, then tid
  std::vector<OpInstanceRow> op_instances;  // by first start cycle, then op ID
  std::vector<int32_t> dims;                // OpInstanceRow::dims_* index this
  std::vector<uint64_t> input_ids;          // OpInstanceRow::inputs_* index this
  std::vector<CounterTrack> counters;       // by name
  std::vector<FlowRow> flows;               // file order
  std::vector<NonExecutedTensorRow> non_executed;
  std::vector<ThreadNameRow> thread_names;  // of the overview process, by tid
  // The dominant path reconstructed from the optrace's slices
  // (ReconstructDominantPath in model/dominant_path.h; time order, idle
  // segments included), and each slice's cycles on it; empty without slices.
  std::vector<DominantSegmentRow> dominant_path;
  std::vector<int64_t> slice_dominant_cycles;  // per slice
};

// Profile-viewer output (text, CSV or the binary log): graphs, their
// executions (coarse µs figures), statistics lines and per-node lines.
struct ProfileTables {
  std::vector<GraphRow> graphs;
  std::vector<ExecutionRow> executions;           // by graph, then index
  std::vector<ProfileBlockRow> profile_blocks;    // file order
  std::vector<ProfileMetricRow> profile_metrics;  // by block
  std::vector<ProfileNodeRow> profile_nodes;      // by block
  std::string
      profile_format;  // "text", "snpe_diagview", "csv", "qnn_log" or "etdump"; "" without one
  // One graph of several kept (LoadOptions::graph): the application's rows
  // (INIT, ...) still cover the graphs left out.
  bool profile_graph_selected = false;
};

// The compiled graph (HTP_GRAPH).
struct CompiledGraphTables {
  std::vector<GraphNodeRow> graph_nodes;      // by id
  std::vector<GraphTensorRow> graph_tensors;  // by id
};

// The runtrace's phases.
struct RuntraceTables {
  std::vector<PhaseRow> phases;  // by execution, then time
};

// What QHAS gives: its core summaries and dominant path as written, and
// the per-op rows the join reads (the fine view when there is no optrace,
// DPC of multi-slice ops, traffic, staging marks, cross-checks).  Its names
// are interned in a pool of its own (QHAS is imported on its reader's
// thread, beside the optrace whose pool becomes `strings`): the join interns
// those it uses into `strings`.
struct QhasTables {
  std::vector<QhasCoreRow> qhas_cores;                 // htp_overall_summary, one row per core
  std::vector<DominantSegmentRow> qhas_dominant_path;  // dominant_path_htp_0 as written
  StringPool qhas_strings;  // every name of the rows below (their StringId columns)
  std::vector<QhasOpInstanceRow> qhas_op_instances;  // htp_op_instances, file order
  std::vector<int32_t> qhas_dims;                    // QhasOpInstanceRow::dims_* index this
  std::vector<uint64_t> qhas_input_ids;              // QhasOpInstanceRow::inputs_* index this
  std::vector<QhasOpTotalsRow> qhas_op_totals;       // per op ID, in order of its first row
  // Lookups of qhas_op_totals the join needs, built on the reader's thread:
  // op ID -> index into qhas_op_totals (DPC of multi-slice ops, per-node
  // traffic checks), and the distinct op IDs sorted (the optrace's IDs are
  // counted against them by merging).
  absl::flat_hash_map<uint64_t, uint32_t> qhas_op_index;
  std::vector<uint64_t> qhas_op_ids;
  // qnn_op_instances_nodes and htp_op_types rows, for the fine view when
  // there is no optrace (and the QHAS cross-checks when there is).
  std::vector<QhasOpAggregateRow> qhas_qnn_op_rows, qhas_htp_op_type_rows;
  std::vector<QhasResourceRow> qhas_resources;  // htp_resources, by core row, then file order

  std::string_view QhasStr(StringId id) const { return qhas_strings.View(id); }
  // The htp_resources rows of qhas_cores[core_row] (empty past the last).
  std::span<const QhasResourceRow> QhasResourcesOf(size_t core_row) const;
};

// What a run's artifacts can tell, by the data rather than the file that
// carried it: analyses, reports and the CLI ask Run::Gives, never which
// artifact kind is present (model/artifact_registry.cc says which kind gives what).
enum class RunData : uint8_t {
  kTimedSlices,        // per-slice cycles on hardware threads, counters, flows (the optrace)
  kQhasAnalysis,       // QHAS's per-op analysis, dominant path and core summary
  kCompiledGraph,      // the compiled graph's nodes and tensors (the HTP graph)
  kProfileExecutions,  // executions and their statistics (a profile: text, CSV or binary log)
  kRuntracePhases,     // per-phase wall cycles and clocks (the runtrace)
  kAihubProfile,       // AI Hub's executions, stages and layers (measured by AI Hub)
  kGenieProfile,       // Genie's dialogs and queries (measured by genie-t2t-run)
  kLlmRunnerStats,     // an ExecuTorch LLM runner's generations (measured by the runner)
};

struct Run : TraceTables, ProfileTables, CompiledGraphTables, RuntraceTables, QhasTables {
  std::string label;  // the directory, or the first file, as given
  std::vector<ArtifactRow> artifacts;
  std::vector<std::string> skipped;  // "path: why" for files that are not artifacts of a run
  std::vector<MissingRow> missing;   // artifacts not given, and what that withholds

  // Every phase figure of the profile (init, compose, finalize and its
  // stages, execute, execute_ips, deinit): by timestamp when the profile
  // has them, else file order (BuildProfilePhases).
  std::vector<ProfilePhaseRow> profile_phases;

  // Derived by the join from the traced execution (or QHAS).
  std::vector<OpGroupRow> qnn_ops;       // by DPC, then work (descending), then name
  std::vector<OpGroupRow> htp_op_types;  // likewise
  std::vector<UnitRow> units;            // by tid
  std::vector<TrafficRow> traffic;       // per op: QHAS, else the HTP graph's mem_* params
  Source traffic_source = Source::kNone;

  // Profiles from beyond the QNN SDK (model/device_profiles.h): measured by
  // other tools than the HTP artifacts, kept apart from their figures.
  std::optional<AihubProfileTables> aihub;         // a Qualcomm AI Hub profile
  std::optional<GenieProfileTables> genie;         // a Genie (genie-t2t-run --profile) profile
  std::optional<LlmRunnerStatsTables> llm_runner;  // an ExecuTorch LLM runner's log
  // True when every artifact of the run is one of those (nothing to join).
  bool OnlyDeviceProfiles() const;

  std::vector<CrossCheckRow> cross_checks;  // figures two artifacts share, both values
  std::vector<WarningRow> warnings;
  RunFigures figures;

  // True when an artifact of the run gives `data`.
  bool Gives(RunData data) const;
  // True when the run holds an artifact of `kind` (the model's own question;
  // layers above ask Gives).
  bool Has(ArtifactKind kind) const;
  bool HasProfile() const { return Gives(RunData::kProfileExecutions); }
  // The profile's artifact row (text, CSV or binary log), or nullptr.
  const ArtifactRow* ProfileArtifact() const;
  // The path of the profile; "" without one.
  const std::string& ProfilePath() const;
  // The path of the artifact of `kind`, or "" when the run has none.
  const std::string& PathOf(ArtifactKind kind) const;
  // The op instance `op_id`, or nullptr.
  const OpInstanceRow* FindInstance(uint64_t op_id) const;
  // The dims of an instance, as a span into `dims`.
  std::vector<int64_t> DimsOf(const OpInstanceRow& op) const;
  // The first metric of `block` named `name` (case-insensitive), or nullptr.
  const ProfileMetricRow* FindMetric(const ProfileBlockRow& block, std::string_view name) const;
};

struct LoadOptions {
  // Join artifacts that look like different runs (warning
  // `mismatched_artifacts`) instead of refusing them with an InputError.
  bool allow_mismatch = false;
  // Keep only this graph of a multi-graph profile (by name); "" keeps all.
  // A name the profile lacks throws std::invalid_argument.
  std::string graph;
};

// Loads a run from `inputs`: one directory (scanned, not recursively) or any
// number of files ("-" is standard input; see ExpandRunInputs).  Artifacts
// are recognised by content.  Throws InputError when a file is malformed,
// when two files of the same kind are given (which one is meant is
// ambiguous), when no file is an artifact (an empty directory included), or
// when the artifacts do not belong to one run (unless options.allow_mismatch).
// Thread-safe: runs loaded at the same time read their files in turn, and
// each one's import and join overlap the other's reading.
Run LoadRun(const std::vector<std::string>& inputs, const LoadOptions& options = {});

}  // namespace htpscope
