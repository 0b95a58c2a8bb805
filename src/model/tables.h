// The joined model's tables: one row type per table, each row saying where
// it came from.  The schema (table and column names, units) is the one SQL
// and Python see: docs/tables.md.
//
// Units are in the names: *_cycles are HTP cycle durations, *_cycle absolute
// values of the HTP cycle counter, *_us µs as the profile viewer prints them,
// *_ticks 19.2 MHz runtrace ticks, *_bytes bytes, *_pct percent.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "base/artifact_kinds.h"
#include "base/boxed.h"
#include "base/op_vocabulary.h"
#include "base/profile_rows.h"
#include "base/string_pool.h"
#include "base/trace_rows.h"
#include "model/warning_codes.h"

namespace htpscope {

// Where a row or a figure comes from.
enum class Source : uint8_t {
  kNone,
  kOptrace,        // chrometrace.json (OP_TRACE)
  kQhas,           // QHAS analysis summary
  kProfile,        // qnn-profile-viewer text or CSV
  kRuntrace,       // chrometrace_runtrace.json (RUN_TRACE)
  kHtpGraph,       // chrometrace_htp.json (HTP_GRAPH)
  kReconstructed,  // computed by htpscope from the optrace's slices (e.g. the dominant path)
};
// "none", "optrace", "qhas", "profile", "runtrace", "htp_graph", "reconstructed".
const char* SourceName(Source source);

// What an op is for, from its HTP op type, QNN op type and flags (rules in
// docs/metrics.md):
//  * kSystemService: belongs to no model op — DMA checkpoints (dma_set,
//    dma_wait), Sync, DramToTcm/TcmToDram and *_to_vtcm copies, BlockZap,
//    SystemService ops;
//  * kBoundary: inserted by the compiler at layout/memory boundaries —
//    @Spill/@Fill, Concat, ForceFormat*, flat_from_vtcm, Input/Output slices;
//  * kCompute: everything else (the model's own work).
enum class OpCategory : uint8_t { kCompute, kSystemService, kBoundary };
const char* OpCategoryName(OpCategory category);  // "compute", "system_service", "boundary"
OpCategory ClassifyOp(std::string_view htp_op_type, std::string_view qnn_op_type, uint8_t flags);

// ClassifyOp for ops whose types are strings of one pool: a run has a few
// distinct (HTP type, QNN type, flags) triples over hundreds of thousands of
// ops, so each triple is classified once.  `strings` must outlive this.
class OpClassifier {
 public:
  explicit OpClassifier(const StringPool& strings) : strings_(strings) {}
  OpCategory operator()(StringId htp_op_type, StringId qnn_op_type, uint8_t flags);

 private:
  const StringPool& strings_;
  absl::flat_hash_map<std::tuple<StringId, StringId, uint8_t>, OpCategory> known_;
};

// How an op's dominant-path cycles were obtained.
enum class DpcBasis : uint8_t {
  kNone,           // no source gives them
  kOptrace,        // the optrace's "Dominant Path Cycles" (single-slice ops: exact)
  kQhas,           // QHAS per-slice num_dominant_path_cycles, summed over the op's slices
  kReconstructed,  // htpscope's own dominant path over the optrace's slices
  kLowerBound,     // a multi-slice op with only the optrace's repeated per-slice figure
};
// "none", "optrace", "qhas", "reconstructed", "lower_bound".
const char* DpcBasisName(DpcBasis basis);

struct ArtifactRow {
  std::string path;
  ArtifactKind type = ArtifactKind::kOptrace;
  std::string version;  // header version ("1.1.0") or the viewer's version; "" when unknown
  // A profile's runner (qnn-net-run) and backend versions as it prints them
  // ("v2.45.0.260326154327"); "" for other artifacts and when unstated.
  std::string application_version, backend_version;
};

// A graph of the run: from the profile's graph rows, the runtrace's
// graph_name, or one unnamed graph when the artifacts name none.
struct GraphRow {
  std::string name;  // "" when no artifact names it
  Source source = Source::kNone;
  uint32_t executions = 0;  // rows of `executions` that belong to it
};

// A group of profile lines: one execution ("Execute Stat N" / a CSV
// execution), one statistics section ("Execute Stats (Average)", "Init
// Stats", ...) or SNPE "Layer Times".
struct ProfileBlockRow {
  std::string title;       // "Execute Stat 1", "Execute Stats (Average)", "Layer Times"
  std::string graph_name;  // as the profile names it ("Graph 0 (model)", "model.prefill"), or ""
  std::optional<uint32_t> execution;  // index into executions for an execution block
  int32_t first_line = 0;             // 1-based line of its header (0 for CSV)
  std::string nodes_parent;           // the metric its per-node lines are sub-events of, or ""
  uint32_t first_node = 0;            // its rows of profile_nodes
  uint32_t node_count = 0;
  uint32_t first_metric = 0;  // its rows of profile_metrics
  uint32_t metric_count = 0;
  // The phase it belongs to (init, compose, finalize, execute, execute_ips,
  // deinit; base/profile_rows.h), and the graph it is of: an index into
  // graphs for an execution and for a statistics block naming a graph that
  // has executions; nullopt otherwise (init, compose and de-init are the
  // application's, not a graph's).
  ProfilePhase phase = ProfilePhase::kOther;
  std::optional<uint32_t> graph;
  std::optional<uint64_t> timestamp_us;  // CSV: the Msg Timestamp of its first row
  std::string Name() const { return graph_name.empty() ? title : title + " / " + graph_name; }
};

// One execution of a graph, as the profile viewer printed it.
struct ExecutionRow {
  uint32_t graph = 0;  // index into graphs
  int32_t index = 0;   // 1-based within its graph, in file order
  bool cold = false;   // the graph's first execution (power-on, VTCM acquire, warm-up)
  std::optional<double> qnn_accelerator_us;             // graph wall (latency incl. dispatch)
  std::optional<double> accelerator_us;                 // compute-busy (ops in flight)
  std::optional<double> accelerator_excluding_wait_us;  // Accelerator (execute excluding wait)
  std::optional<double> rpc_us;                         // RPC (execute) time
  std::optional<double> qnn_execute_us;                 // QNN (execute) time
  std::optional<double> netrun_us;                      // NetRun
  std::optional<int64_t> accelerator_cycles;            // Accelerator (execute) time (cycles): work
  std::optional<int64_t> critical_path_cycles;  // Accelerator (critical path execute) (cycles)
  std::optional<int64_t> hvx_threads;           // Number of HVX threads used
  std::optional<uint64_t> timestamp_us;         // the profiling clock at its start (CSV)
  uint32_t block = 0;                           // index into profile_blocks
};

// A metric line of a profile block ("QNN accelerator (execute) time: 1409 us").
struct ProfileMetricRow {
  uint32_t block = 0;  // index into profile_blocks
  std::string source;  // "Backend", "NetRun", ""
  std::string name;
  std::optional<double> value;  // absent for e.g. "Unknown event type :   object"
  std::string unit;             // as printed, lower-cased: "us", "cycles", "count", "bytes"
  // The metric of the same block this one is a sub-event of (an index into
  // profile_metrics), e.g. "QNN (finalize) time" for the stage "Graph
  // Optimizations"; nullopt for a root line.
  std::optional<uint32_t> parent;
};

// One figure of one phase of the application's life (the profile's INIT,
// COMPOSE GRAPHS, FINALIZE and its stages, EXECUTE, EXECUTE IPS, DE-INIT
// rows or sections), in the order of the profile's clock when it has one,
// else file order: every metric of every profile block of a known phase.
struct ProfilePhaseRow {
  ProfilePhase phase = ProfilePhase::kOther;
  std::optional<uint32_t> graph;      // index into graphs; nullopt for the application's
  std::string graph_name;             // as the profile labels it, "" when it names none
  std::optional<uint32_t> execution;  // index into executions, for an execution's rows
  std::string stage;                  // "NetRun", "QNN (finalize) time", "Graph Optimizations"
  std::string parent_stage;           // the figure it is part of; "" for a root line
  std::string source;                 // "NetRun", "Backend" or ""
  std::optional<double> value;
  std::string unit;                      // as printed, lower-cased: "us", "cycles", "inf/sec"
  std::optional<uint64_t> timestamp_us;  // its block's (CSV)
  uint32_t block = 0;                    // index into profile_blocks
  uint32_t metric = 0;                   // index into profile_metrics
};

// A per-node line of a profile execution ("bbb_indep0:OpId_19 (cycles)"),
// with its linting entries when the profile is at linting level.
struct ProfileNodeRow {
  uint32_t block = 0;  // index into profile_blocks
  std::string label;   // as printed
  std::string qnn_op_name;
  std::optional<uint32_t> op_id;  // the n of OpId_n = low 32 bits of an HTP op ID
  int64_t cycles = 0;             // main-thread (linting) or thread-aggregate (detailed) cycles
  // Linting entries; none below linting level (Boxed: a profile of many
  // executions holds millions of node rows, most without them).
  Boxed<ProfileNodeLint> lint;
  bool has_lint() const { return static_cast<bool>(lint); }
  // ONNX Runtime's "ONNX Source Ops" cell: the ONNX node names the op was
  // built from, ';'-separated, as written; "" for an empty cell; none when
  // the profile has no such column (ProfileNode::source_ops).
  Boxed<std::string> source_ops;
};

// One executed slice of an op on one hardware thread (the optrace's pid-0
// copy; per-op process copies are de-duplicated away).  The table is ordered
// by instance (op_instances' order), and within an instance by start, tid.
struct SliceRow {
  uint64_t op_id = 0;
  int64_t start_cycle = 0;  // absolute
  int64_t dur_cycles = 0;
  uint32_t tid = 0;
  uint32_t instance = 0;  // index into op_instances
  int64_t end_cycle() const { return start_cycle + dur_cycles; }
};

// One executed HTP op instance (one op ID).  A multi-threaded HVX op has
// several slices; op-level figures are counted once per instance.
struct OpInstanceRow {
  uint64_t op_id = 0;
  StringId htp_op_type = StringPool::kEmpty;
  StringId qnn_op_name = StringPool::kEmpty;
  StringId qnn_op_type = StringPool::kEmpty;
  StringId data_type = StringPool::kEmpty;
  StringId description = StringPool::kEmpty;  // the optrace's "Description" arg
  uint32_t qnn_op = 0;                        // index into qnn_ops
  uint32_t first_slice = 0;        // its slices: slices[first_slice, first_slice + slice_count)
  uint32_t slice_count = 0;        // 0 for an instance known from QHAS only
  int64_t op_start_cycle = 0;      // args "Start Cycle" (QHAS start_cycle)
  int64_t op_duration_cycles = 0;  // args "Duration (cycles)" (QHAS cycles)
  int64_t dpc_cycles = 0;          // its dominant-path cycles, on `dpc_basis`
  int64_t trace_dpc_cycles = 0;    // the optrace's "Dominant Path Cycles" as written (one
                                   // slice's share, repeated on every slice of the op)
  int64_t work_cycles = 0;         // Σ slice durations: thread-aggregate work
  int64_t first_start_cycle = 0;   // earliest slice start
  int64_t last_end_cycle = 0;      // latest slice end
  double cycles_per_packet = 0;
  uint32_t dims_begin = 0, dims_count = 0;      // into Run::dims
  uint32_t inputs_begin = 0, inputs_count = 0;  // into Run::input_ids
  uint8_t flags = 0;                            // OpFlag bits, OR over slices
  OpCategory category = OpCategory::kCompute;
  DpcBasis dpc_basis = DpcBasis::kNone;
  Source source = Source::kOptrace;  // optrace, or QHAS when there is no optrace
  bool on_hmx_thread = false;        // any slice on tid 256
  bool on_hvx_thread = false;        // any slice on an HVX tid
  // QHAS's fmt_change / ref_op of any of its rows (false without QHAS).
  bool format_change = false, reference_op = false;
  // The HTP core that ran it (QHAS htp) for instances from QHAS; -1 from the
  // optrace, which does not say.
  int64_t htp_core = -1;
};

// A QNN op (or, in htp_op_types, an HTP op type): its instances' totals.
struct OpGroupRow {
  StringId name = StringPool::kEmpty;
  StringId type = StringPool::kEmpty;          // QNN op type; kEmpty for HTP op types
  OpCategory category = OpCategory::kCompute;  // compute when any instance is
  std::optional<int64_t> dpc_cycles;           // Σ instance DPC; absent without a source
  DpcBasis dpc_basis = DpcBasis::kNone;        // the weakest basis among its instances
  int64_t work_cycles = 0;                     // Σ slice durations (thread-aggregate)
  int64_t instances = 0;                       // op IDs (tiles)
  Source source = Source::kNone;
  bool dpc_lower_bound() const { return dpc_basis == DpcBasis::kLowerBound; }
};

// One hardware thread.
struct UnitRow {
  uint32_t tid = 0;
  UnitKind kind = UnitKind::kUnknown;
  int64_t cycles_used = 0;  // union of its slice intervals (QHAS cycles_used)
  int64_t busy_cycles = 0;  // Σ slice durations; larger only when slices overlap
  uint64_t slices = 0;
  int64_t first_start_cycle = 0, last_end_cycle = 0;
  Source source = Source::kNone;
  std::string qhas_type;  // QHAS resource type as written ("HMX", "HVX", "UNK"); "" without QHAS
};

// A counter sample and a flow end, as the optrace reader makes them
// (base/trace_rows.h): moved into the run, not copied.
using CounterSampleRow = CounterSample;
using FlowRow = FlowPoint;

// One counter track of the optrace ("VTCM alloc", "DRAM read", ...).
struct CounterTrack {
  std::string name;
  std::vector<CounterSampleRow> samples;  // in file order
};

// The name the optrace gives a hardware thread of the overview process
// ("HMX", "HVX Thread 0", ...).
struct ThreadNameRow {
  uint32_t tid = 0;
  std::string name;
};

// A tensor the optrace lists on tid 1 ("Non Executed Tensors"): $Const, $Shape...
struct NonExecutedTensorRow {
  uint64_t id = 0;
  StringId name = StringPool::kEmpty;
};

// One runtrace phase of one execution.
struct PhaseRow {
  int32_t execution = 0;  // 1-based, in time order
  std::string phase;      // "QNN DSP Execute", "VTCM Acquire", "Graph Execute", ...
  std::string graph_name;
  int64_t start_ticks = 0, end_ticks = 0;  // 19.2 MHz global timer
  std::optional<int64_t> start_cycle, end_cycle;
  double reported_time_us = 0;  // the viewer's own summary_time_us
  double reported_ghz = 0;      // summary_htp_frequency_ghz
  int64_t wall_ticks() const { return end_ticks - start_ticks; }
  double wall_us() const;  // ticks ÷ 19.2
  std::optional<int64_t> wall_cycles() const;
  std::optional<double> effective_ghz() const;  // wall cycles ÷ wall µs ÷ 1000
};

// Memory traffic of one op (QHAS htp_op_instances, else an HTP graph node's
// mem_* params).
struct TrafficRow {
  uint64_t op_id = 0;
  StringId htp_op_type = StringPool::kEmpty;
  StringId qnn_op_name = StringPool::kEmpty;
  StringId qnn_op_type = StringPool::kEmpty;
  OpCategory category = OpCategory::kCompute;
  int64_t dram_read_bytes = 0, dram_write_bytes = 0, vtcm_read_bytes = 0, vtcm_write_bytes = 0;
  std::optional<int64_t> cycles;  // QHAS cycles / the node's cycles_duration
  Source source = Source::kNone;
};

// One segment of the dominant (critical) path: the highest-priority op
// running over [start_cycle, end_cycle), or idle.
struct DominantSegmentRow {
  int64_t start_cycle = 0, end_cycle = 0;
  uint64_t op_id = 0;    // 0 when idle
  int32_t slice = -1;    // index into slices (reconstructed path); -1 idle or from QHAS
  bool partial = false;  // only part of the op's slice is on the path
  bool idle = false;
  int64_t cycles() const { return end_cycle - start_cycle; }
};

// A node of the compiled HTP graph.
struct GraphNodeRow {
  uint64_t id = 0;  // = its output tensor's id = the optrace's op ID
  std::string htp_op_type;
  std::string qnn_op_name;  // the node's `grouping`
  std::string qnn_op_type;  // its qnn_op_type param, or ""
  std::vector<uint64_t> input_ids, output_ids;
  uint8_t flags = 0;                                    // op_flags param
  std::optional<int64_t> start_cycle, duration_cycles;  // cycles_start / cycles_duration params
  std::optional<int64_t> dram_read_bytes, dram_write_bytes, vtcm_read_bytes, vtcm_write_bytes;
};

struct GraphTensorRow {
  uint64_t id = 0;
  int64_t index = 0;
  int type = 0;       // Qnn_TensorType_t: 3 NATIVE, 4 STATIC
  int data_type = 0;  // Qnn_DataType_t code
  std::vector<int64_t> dims;
  bool is_static() const { return type == 4; }
};

// QHAS's whole-graph row of one HTP core (htp_overall_summary).
struct QhasCoreRow {
  int64_t core = 0;
  int64_t timeline_cycles = 0;
  double percent_idle = 0, percent_utilization = 0;
  double time_us = 0, graph_execute_us = 0;
  int64_t total_dram_read_bytes = 0, total_dram_write_bytes = 0;
  int64_t total_vtcm_read_bytes = 0, total_vtcm_write_bytes = 0;
  int64_t peak_vtcm_alloc_bytes = 0;
  int64_t qnn_nodes = 0, htp_nodes = 0;
  int64_t resources_cycles_used = 0;  // Σ htp_resources cycles_used: the whole graph's work
  // What its op lists cover: rows of qnn_op_instances_nodes and of
  // htp_op_instances (distinct op IDs), and whether they cover every node.
  int64_t listed_qnn_nodes = 0, listed_htp_nodes = 0;
  bool lists_complete = true;
  // Its dominant_path_htp_<core>: Σ dp_cycles of the op rows and of the
  // "Accumulated Idle" rows; absent when the file has no path for the core.
  std::optional<int64_t> path_op_cycles, path_idle_cycles;
  // Its htp_resources: the HMX (main) thread's cycles_used, the busiest HVX
  // thread's, and how many HVX threads it lists.
  int64_t hmx_cycles_used = 0, busiest_hvx_cycles_used = 0;
  int64_t hvx_threads = 0;
};

// QHAS's rows beyond the core summaries, as the join reads them
// (QhasTables in model/run.h).  Names are StringIds of QhasTables::qhas_strings.

// One htp_op_instances row: one slice of an op (an op ID on one thread).
struct QhasOpInstanceRow {
  uint64_t op_id = 0;
  int64_t htp_core = 0;  // htp
  int64_t start_cycle = 0, cycles = 0, dominant_path_cycles = 0;
  int64_t dram_read_bytes = 0, dram_write_bytes = 0, vtcm_read_bytes = 0, vtcm_write_bytes = 0;
  double cycles_per_packet = 0;
  uint32_t tid = 0;
  StringId htp_op_type = StringPool::kEmpty;  // htp_op
  StringId qnn_op_name = StringPool::kEmpty;  // qnn_op
  StringId qnn_op_type = StringPool::kEmpty;
  StringId data_type = StringPool::kEmpty;           // dtype
  uint32_t dims_begin = 0, dims_count = 0;           // into QhasTables::qhas_dims
  uint32_t inputs_begin = 0, inputs_count = 0;       // into QhasTables::qhas_input_ids
  uint8_t flags = 0;                                 // OpFlag bits (hmx, hvx, dma*, sync)
  bool format_change = false, reference_op = false;  // fmt_change, ref_op
};

// One op ID's htp_op_instances rows (one per slice) summed.
struct QhasOpTotalsRow {
  uint64_t op_id = 0;
  uint32_t first_row = 0;  // its first row in QhasTables::qhas_op_instances
  int64_t cycles = 0, dominant_path_cycles = 0;
  int64_t dram_read_bytes = 0, dram_write_bytes = 0, vtcm_read_bytes = 0, vtcm_write_bytes = 0;
};

// One row of qnn_op_instances_nodes (a QNN op) or of htp_op_types.
struct QhasOpAggregateRow {
  StringId name = StringPool::kEmpty;         // qnn_op, or the HTP op type
  StringId qnn_op_type = StringPool::kEmpty;  // qnn_op_instances_nodes only
  int64_t cycles = 0;                         // thread-aggregate work
  int64_t dominant_path_cycles = 0;
  int64_t count = 0;  // instances, or num_htp_ops
};

// One htp_resources row (a hardware thread) of a core.
struct QhasResourceRow {
  uint32_t core_row = 0;  // its core: index into QhasTables::qhas_cores
  uint32_t tid = 0;
  StringId type = StringPool::kEmpty;  // "HMX" | "HVX" (| "UNK" in defective files)
  int64_t start_cycle = 0, end_cycle = 0, cycles_used = 0;
};

struct CrossCheckRow {
  std::string topic;  // "time" (summary) or "memory"
  std::string name;   // "graph wall cycles"
  std::string unit;   // "cycles", "bytes", "us", "ops"
  std::string a_source, b_source;
  double a = 0, b = 0;
  bool agree = false;
  std::string note;
};

struct WarningRow {
  WarningCode code;  // registered in model/warning_codes.h; printed as WarningName(code)
  std::string message;
};

struct MissingRow {
  std::string artifact;
  std::string withholds;
};

}  // namespace htpscope
