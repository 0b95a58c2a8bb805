// The QHAS reader's row readers, shared by the whole-document parse and the
// chunks of a streamed one (qhas.cc).  Not for use outside the reader.
#pragma once

#include <simdjson.h>

#include <optional>
#include <string_view>
#include <vector>

#include "formats/json_util.h"
#include "formats/qhas.h"

namespace htpscope::qhas_internal {

// The kinds of rows a section's "data" array holds (the chunker's tags).
enum class RowKind : int {
  kAggregate = 1,  // qnn_op_types, qnn_op_instances_nodes, htp_op_types
  kInstance = 2,   // htp_op_instances
  kPath = 3,       // dominant_path_htp_<N>
};

// The kind of `section`'s rows; nullopt for htp_overall_summary and unknown
// sections.
std::optional<RowKind> KindOfSection(std::string_view section);

// The rows of one section's "data" array.
struct QhasRows {
  std::vector<QhasOpAggregate> aggregates;
  std::vector<QhasOpInstance> instances;
  std::vector<QhasPathSegment> path;
};

// Reads row `index` of `section`'s data array (`row`, which must be an
// object) into `rows`.  Throws InputError naming "<section>.data[<index>]".
void ReadRow(JsonReader& reader, RowKind kind, std::string_view section, size_t index,
             simdjson::ondemand::value row, QhasRows* rows);

// Reads row `index` of htp_overall_summary into `out`.
void ReadOverallRow(JsonReader& reader, size_t index, simdjson::ondemand::value row, Qhas* out);

}  // namespace htpscope::qhas_internal
