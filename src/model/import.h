// Turning each artifact's reader output into the run's tables.  Private to
// the model: only src/model/*.cc include this (it is the one place above
// the readers that sees their structs).
#pragma once

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

// Moves the optrace's strings, slices, counters, flows and tensors into
// `tables` (slices joined into op instances by op ID) and reconstructs its
// dominant path (dominant_path, slice_dominant_cycles).  Reader warnings go
// to `warnings`.
void ImportOptrace(Optrace&& trace, TraceTables& tables, std::vector<WarningRow>& warnings);

// Fills `tables`, which must be empty (a bundle of their own), from `qhas`
// (and reader warnings): its core summaries and dominant path, and its op
// instances, op totals (with their lookups), aggregate rows and resources
// converted to the model's rows, the reader's texts, dims and input IDs
// taken over; the reader's arrays are freed.  Throws InputError naming the file when
// a sum of its cycles or bytes goes past int64, or an op instance ends past
// the largest cycle count.
void ImportQhas(Qhas&& qhas, QhasTables& tables, std::vector<WarningRow>& warnings);

// The op instances and slices of a run that has no optrace, from QHAS's
// htp_op_instances rows (qhas.qhas_op_instances): fills op_instances,
// slices, dims and input_ids, interning names into trace.strings.
void ImportQhasInstances(const QhasTables& qhas, TraceTables& trace);

// The StringId in `pool` (the run's strings) of each name of
// `qhas_strings` (QhasTables::qhas_strings), interned at its first use: the
// pool grows as if each text were interned where it is used.  Both pools
// must outlive this.
class QhasTextsIn {
 public:
  QhasTextsIn(const StringPool& qhas_strings, StringPool& pool);
  StringId operator()(StringId qhas_id);

 private:
  static constexpr StringId kNotYet = UINT32_MAX;
  const StringPool& qhas_strings_;
  StringPool& pool_;
  std::vector<StringId> ids_;  // by QHAS id; kNotYet until used
};

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
