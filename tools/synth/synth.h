// htpscope-synth: synthetic QNN HTP profiling runs with known ground truth.
//
// GenerateRun builds a Model (model.h) from SynthOptions, writes the five
// artifacts of one profiled run into a directory — chrometrace.json,
// chrometrace_htp.json, chrometrace_qnn_htp_analysis_summary.json,
// chrometrace_runtrace.json, profile_text.txt (each ".gz" with gzip) — and
// ground_truth.json beside them.  The ground truth is computed from the
// model's own schedule, with the definitions htpscope's summary uses:
//  * graph_wall_cycles = max(slice end) − min(slice start), executed slices;
//  * work_cycles = Σ slice durations (thread-aggregate);
//  * units[].cycles_used = union of each thread's slice intervals;
//    domain_cycles = the largest cycles_used (lowest tid on ties);
//  * ops[] = QNN ops: dpc_cycles = Σ every slice's share of the dominant
//    path (what QHAS lists per slice), work_cycles = Σ slice durations,
//    instances = op IDs; ordered by DPC, then work (both descending), then
//    name; dpc_sum_cycles = Σ of them = graph wall − idle;
//  * executions[] = the profile text's per-execution µs and cycles;
//    steady_state = median / min / max over executions 2..N of
//    "QNN accelerator (execute) time" (median of an even count = mean of the
//    middle two);
//  * peak_vtcm_bytes = max "VTCM alloc" = QHAS peak_vtcm_alloc;
//  * expected_warnings = the summary warning codes the run should raise, and
//    expected_disagreeing_checks the cross-checks that must disagree (none:
//    every artifact is written from one schedule).
// Same options (seed included) → byte-identical files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json_layout.h"
#include "model.h"
#include "writers.h"

namespace htpscope::synth {

struct OutputOptions {
  std::string dir;    // created when missing
  bool gzip = false;  // write the artifacts as .gz (ground_truth.json stays plain)
  int top_ops = 20;   // QNN ops listed in ground_truth.json's "ops"
  // Spacing of the four JSON artifacts (json_layout.h); the value is the same
  // in every layout.
  JsonLayout layout = JsonLayout::kWriter;
  // Artifacts to write, by base name ("chrometrace.json", "profile_text.txt",
  // ...); empty: all five.  ground_truth.json is always written.
  std::vector<std::string> only;
};

struct UnitTruth {
  uint32_t tid = 0;
  std::string kind;  // "HMX" | "HVX"
  int64_t cycles_used = 0, busy_cycles = 0;
  int64_t start_cycle = 0, end_cycle = 0;
  uint64_t slices = 0;
};

struct OpTruth {
  std::string name, type;
  int64_t dpc_cycles = 0;        // Σ every slice's path share (QHAS)
  int64_t trace_dpc_cycles = 0;  // Σ optrace "Dominant Path Cycles" once per op ID; less than
                                 // dpc_cycles only with split_tile_dpc
  int64_t work_cycles = 0, instances = 0;
  bool multi_slice = false;  // some instance has several slices
};

struct ExecutionTruth {
  int index = 0;
  int64_t qnn_accelerator_us = 0, accelerator_us = 0, accelerator_excluding_wait_us = 0;
  int64_t accelerator_cycles = 0, rpc_us = 0, qnn_execute_us = 0;
  double graph_execute_us = 0;    // runtrace Graph Execute ticks ÷ 19.2
  bool aggregate_cycles = false;  // cycles ÷ (µs + 1) above the plausible clock
};

struct StatsTruth {
  double median = 0, min = 0, max = 0;
  int n = 0;
};

struct SharedConstantTruth {
  std::string tensor_id;
  std::vector<std::string> consumer_ids, consumer_qnn_ops;
  std::vector<int64_t> consumer_start_cycles, consumer_end_cycles;
};

struct GroundTruth {
  std::string graph_name;
  uint64_t seed = 0;
  int64_t graph_wall_cycles = 0, start_cycle = 0, end_cycle = 0;
  int64_t work_cycles = 0, domain_cycles = 0;
  uint32_t domain_tid = 0;
  int64_t dpc_sum_cycles = 0, idle_cycles = 0;
  std::vector<UnitTruth> units;
  std::vector<OpTruth> ops;  // every QNN op that ran, in the order above
  std::vector<ExecutionTruth> executions;
  std::optional<StatsTruth> steady_qnn_accelerator_us;
  int traced_execution = 1;
  double plausible_clock_ghz = 0;  // highest effective clock of any runtrace phase
  int64_t peak_vtcm_bytes = 0, peak_vtcm_cycle = 0;
  uint64_t qnn_ops = 0, profile_nodes = 0, htp_op_instances = 0, slices = 0, multi_slice_ops = 0,
           htp_graph_nodes = 0, non_executed_tensors = 0;
  TraceCounts trace;                                     // filled by GenerateRun
  std::vector<std::string> expected_warnings;            // sorted codes
  std::vector<std::string> expected_disagreeing_checks;  // cross-check names, sorted
  std::vector<SharedConstantTruth> shared_constants;
  Handoff handoff;                 // cycles of the Spill/Fill handoff, when generated
  std::vector<std::string> files;  // artifact file names written
};

// The ground truth of `model` (trace counts, graph nodes and files empty).
GroundTruth ComputeGroundTruth(const Model& model);

// ground_truth.json text (listing the first `top_ops` ops).
std::string GroundTruthJson(const GroundTruth& truth, const Model& model, int top_ops);

// Builds the model, writes every file into output.dir and returns the ground
// truth.  Throws std::invalid_argument on bad options, std::runtime_error on
// I/O errors.
GroundTruth GenerateRun(const SynthOptions& options, const OutputOptions& output);

}  // namespace htpscope::synth
