// Turning each artifact's reader output into the run's tables.  Private to
// the model: only src/model/*.cc include this (it is the one place above
// the readers that sees their structs).
#pragma once

#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

#include <cstdint>
#include <vector>

#include "base/checked_math.h"
#include "base/errors.h"
#include "formats/htp_graph.h"
#include "formats/optrace.h"
#include "formats/profile_text.h"
#include "formats/qhas.h"
#include "formats/runtrace.h"
#include "model/run.h"

namespace htpscope::model_import {

// One op ID's htp_op_instances rows (one per slice) summed.
struct QhasOpTotals {
  uint64_t op_id = 0;
  uint32_t first_row = 0;  // its first row in QhasFacts::instances
  int64_t cycles = 0, dominant_path_cycles = 0;
  int64_t dram_read_bytes = 0, dram_write_bytes = 0, vtcm_read_bytes = 0, vtcm_write_bytes = 0;
};

// What QHAS says that the join needs besides the tables it fills.
struct QhasFacts {
  bool present = false;
  std::string path;
  std::vector<QhasOpTotals> op_totals;               // per op ID, in order of its first row
  absl::flat_hash_map<uint64_t, uint32_t> op_index;  // op ID -> op_totals
  std::vector<uint64_t> op_ids;                      // distinct, sorted
  // qnn_op_instances_nodes and htp_op_types rows, for the fine view when
  // there is no optrace (and the QHAS cross-checks when there is).
  std::vector<QhasOpAggregate> qnn_op_rows, htp_op_type_rows;
  std::vector<QhasResource> resources;                    // of core 0
  std::vector<std::vector<QhasResource>> core_resources;  // per row of run.qhas_cores
  std::vector<QhasOpInstance> instances;
};

// Moves the optrace's strings, slices, counters, flows and tensors into
// `tables` (slices joined into op instances by op ID) and reconstructs its
// dominant path (dominant_path, slice_dominant_cycles).  Reader warnings go
// to `warnings`.
void ImportOptrace(Optrace&& trace, TraceTables& tables, std::vector<WarningRow>& warnings);

// Fills tables.qhas_cores and tables.qhas_dominant_path (and reader
// warnings); returns the rest.
QhasFacts ImportQhas(Qhas&& qhas, QhasTables& tables, std::vector<WarningRow>& warnings);

// The OpFlag bits of a QHAS htp_op_instances row.
uint8_t QhasOpFlags(const QhasOpInstance& op);

// The op instances and slices of a run that has no optrace, from QHAS's
// htp_op_instances rows (qhas.instances): fills op_instances, slices, dims
// and input_ids, interning names into trace.strings.
void ImportQhasInstances(const QhasFacts& qhas, TraceTables& trace);

// Fills graphs, executions, profile_blocks, profile_metrics, profile_nodes
// and profile_format; reader warnings go to `warnings`.
void ImportProfile(ProfileReport&& profile, ProfileTables& tables,
                   std::vector<WarningRow>& warnings);

// How to read an HTP graph for ImportHtpGraph: keeping only the
// scalar_params it takes.
ReadHtpGraphOptions HtpGraphReadOptions();
// Fills graph_nodes and graph_tensors.
void ImportHtpGraph(HtpGraph&& graph, CompiledGraphTables& tables);
void ImportRuntrace(Runtrace&& runtrace, RuntraceTables& tables, std::vector<WarningRow>& warnings);

// Appends `message` to `warnings` (run.warnings) under `code`.
void Warn(std::vector<WarningRow>& warnings, WarningCode code, std::string message);
void Warn(Run& run, WarningCode code, std::string message);

// Throws InputError naming `file` when `sum`, of `what`, went past int64.
inline void RequireFits(const CheckedSum& sum, const std::string& file, const char* what) {
  if (sum.overflowed())
    throw InputError(file, fmt::format("{} sum past 2^63: they are not the figures of one "
                                       "execution",
                                       what));
}

// Σ value(row) over `rows`; throws InputError naming `file` unless it fits
// in int64: every later sum of a subset of these (non-negative) values then
// fits too, so no figure is ever a wrapped number.
template <typename Rows, typename Value>
int64_t RequireSumFits(const Rows& rows, Value value, const std::string& file, const char* what) {
  CheckedSum sum;
  for (const auto& row : rows) sum += value(row);
  RequireFits(sum, file, what);
  return sum.value();
}

}  // namespace htpscope::model_import
