// The QHAS reader's row readers, shared by the whole-document parse and the
// chunks of a streamed one (qhas.cc).  Not for use outside the reader.
#pragma once

#include <simdjson.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/json_util.h"
#include "formats/qhas.h"

namespace htpscope {
struct ChunkMergeInfo;  // formats/json_parallel.h
}

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

// The rows of one section's "data" array, or of a chunk of it.
struct QhasRows {
  std::vector<QhasOpAggregate> aggregates;
  std::vector<QhasOpInstance> instances;
  std::vector<QhasPathSegment> path;
  QhasRowStore store;  // a chunk's own texts, dims and input IDs (see MergeRows)
};

// The columns that hold texts.
enum class TextColumn : int {
  kAggregateName,
  kAggregateQnnOpType,
  kHtpOp,
  kQnnOp,
  kQnnOpType,
  kDtype,
  kPathHtpOp,
  kPathQnnOp,
  kCount,
};

// Writes what rows hold beside their fixed-size fields into one store:
// texts interned (a column's text that repeats the row before's, as an op's
// slices do, is taken without a look-up), dims and input IDs appended.
class QhasRowWriter {
 public:
  explicit QhasRowWriter(QhasRowStore& store) : store_(store) {}
  StringId Intern(TextColumn column, std::string_view text);
  QhasRowStore& store() { return store_; }

 private:
  QhasRowStore& store_;
  StringId last_[static_cast<int>(TextColumn::kCount)] = {};
};

// Reads row `index` of `section`'s data array (`row`, which must be an
// object) into `rows`, its texts, dims and input IDs into `writer`'s store.
// Throws InputError naming "<section>.data[<index>]".
void ReadRow(JsonReader& reader, RowKind kind, std::string_view section, size_t index,
             simdjson::ondemand::value row, QhasRows* rows, QhasRowWriter& writer);

// Moves a chunk's rows `part` (its texts, dims and input IDs in part.store)
// to the end of `into`, their texts, dims and input IDs into `store`, row
// arrays reserved as AppendChunk reserves them.  Throws InputError on `path`
// when the dims or input IDs outgrow 32-bit offsets.
void MergeRows(const std::string& path, QhasRows& into, QhasRows&& part, QhasRowStore& store,
               const ChunkMergeInfo& info);

// Reads row `index` of htp_overall_summary into `out`.
void ReadOverallRow(JsonReader& reader, size_t index, simdjson::ondemand::value row, Qhas* out);

}  // namespace htpscope::qhas_internal
