#include "formats/qhas.h"

#include <fmt/format.h>
#include <malloc.h>

#include <algorithm>
#include <charconv>
#include <deque>

#include "formats/byte_source.h"
#include "formats/json_parallel.h"
#include "formats/json_util.h"
#include "formats/qhas_rows.h"

namespace htpscope {
namespace {

using qhas_internal::QhasRows;
using qhas_internal::QhasRowWriter;
using qhas_internal::RowKind;

// Rows parsed from the chunks of a streamed file, by streamed container,
// their texts, dims and input IDs in one store.
struct StreamedRows {
  StreamedContainers* containers = nullptr;
  std::deque<QhasRows>* rows = nullptr;
  QhasRowStore* store = nullptr;
};

// Moves `from` to the end of `to`.
template <typename T>
void Append(std::vector<T>&& from, std::vector<T>* to) {
  if (to->empty()) {
    to->swap(from);
    return;
  }
  // Geometric growth: merging chunk by chunk must not copy the rows again
  // for every chunk.
  if (to->capacity() < to->size() + from.size())
    to->reserve(std::max(to->size() + from.size(), 2 * to->capacity()));
  for (T& item : from) to->push_back(std::move(item));
}

// Reads `section`'s {"data": [rows...]}: the rows are parsed here, or, when
// the array was streamed, taken from its chunks.
void ReadSection(JsonReader& reader, JsonReader::value section_value, const std::string& name,
                 RowKind kind, QhasRows* rows, QhasRowWriter& writer, StreamedRows streamed) {
  auto obj = reader.Object(section_value, name);
  reader.Fields(obj, name, [&](std::string_view key, JsonReader::value v) {
    if (key != "data") return;
    if (streamed.containers) {
      if (auto container = streamed.containers->Take(v)) {
        QhasRows& parsed = (*streamed.rows)[*container];
        Append(std::move(parsed.aggregates), &rows->aggregates);
        Append(std::move(parsed.instances), &rows->instances);
        Append(std::move(parsed.path), &rows->path);
        return;
      }
    }
    auto array = reader.Array(v, name + ".data");
    reader.Elements(array, name, [&](JsonReader::value row, size_t index) {
      qhas_internal::ReadRow(reader, kind, name, index, row, rows, writer);
    });
  });
}

// Parses the document in `buffer`: a whole QHAS file, or the skeleton of a
// streamed one (then `streamed` supplies the streamed sections' rows).
Qhas ParseDocument(const std::string& path, simdjson::padded_string_view buffer,
                   StreamedRows streamed = {}) {
  Qhas out;
  out.path = path;
  if (streamed.store) out.store = std::move(*streamed.store);
  QhasRowWriter writer(out.store);
  JsonReader reader(path, buffer);
  auto root = reader.Root();
  bool saw_header = false, saw_data = false;
  reader.Fields(root, "top level", [&](std::string_view key, JsonReader::value v) {
    if (key == "header") {
      out.version = reader.CheckHeader(v, "QHAS");
      saw_header = true;
    } else if (key == "model_id") {
      out.model_id = std::string(reader.String(v, "model_id"));
    } else if (key == "data") {
      saw_data = true;
      auto data = reader.Object(v, "data");
      reader.Fields(data, "data", [&](std::string_view section, JsonReader::value sv) {
        std::string name(section);
        out.sections.push_back(name);
        if (section == "htp_overall_summary") {
          auto obj = reader.Object(sv, name);
          reader.Fields(obj, name, [&](std::string_view member, JsonReader::value mv) {
            if (member != "data") return;
            auto rows = reader.Array(mv, name + ".data");
            reader.Elements(rows, name, [&](JsonReader::value row, size_t index) {
              qhas_internal::ReadOverallRow(reader, index, row, &out);
            });
          });
          return;
        }
        const std::optional<RowKind> kind = qhas_internal::KindOfSection(section);
        if (!kind) {
          out.warnings.push_back(fmt::format("unknown QHAS section \"{}\" ignored", section));
          return;
        }
        int core = 0;
        if (*kind == RowKind::kPath) {
          std::string_view digits = section.substr(18);
          auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), core);
          if (ec != std::errc() || ptr != digits.data() + digits.size())
            reader.Invalid(fmt::format("data.{}: core number is not an integer", section));
        }
        QhasRows rows;
        ReadSection(reader, sv, name, *kind, &rows, writer, streamed);
        if (section == "qnn_op_types")
          Append(std::move(rows.aggregates), &out.qnn_op_types);
        else if (section == "qnn_op_instances_nodes")
          Append(std::move(rows.aggregates), &out.qnn_op_instances);
        else if (section == "htp_op_types")
          Append(std::move(rows.aggregates), &out.htp_op_types);
        else if (*kind == RowKind::kInstance)
          Append(std::move(rows.instances), &out.htp_op_instances);
        else
          Append(std::move(rows.path), &out.dominant_path[core]);
      });
    }
  });
  reader.ExpectEnd();
  if (!saw_header) throw InputError(path, "no \"header\" object: not a QHAS summary", 0);
  if (!saw_data) throw InputError(path, "no \"data\" object", 0);
  for (const char* required : {"htp_overall_summary", "qnn_op_types", "qnn_op_instances_nodes",
                               "htp_op_types", "htp_op_instances"}) {
    bool found = false;
    for (const auto& s : out.sections) found = found || s == required;
    if (!found) out.warnings.push_back(fmt::format("QHAS section \"{}\" is missing", required));
  }
  if (out.dominant_path.empty())
    out.warnings.push_back("QHAS section \"dominant_path_htp_0\" is missing");
  return out;
}

// Reads `path` with its big sections' rows streamed in chunks on every core.
// Returns nullopt when it cannot (layout or any error): parse it whole.
std::optional<Qhas> ReadStreamed(const std::string& path, const StreamedReadOptions& options) {
  // data.<section>.data arrays of the sections with many rows.
  auto select = [](const std::vector<std::string>& keys, bool is_array) {
    if (!is_array || keys.size() != 3 || keys[0] != "data" || keys[2] != "data") return 0;
    const auto kind = qhas_internal::KindOfSection(keys[1]);
    return kind ? static_cast<int>(*kind) : 0;
  };
  // Row numbers in a chunk's messages are the chunk's own: an error sends
  // the file to the whole parse, whose message is reported.
  // Each chunk's rows keep their texts, dims and input IDs in a store of
  // their own, merged into the file's one chunk at a time.
  auto read_chunk = [](JsonReader& reader, const JsonChunk& chunk, QhasRows& rows) {
    const auto kind = static_cast<RowKind>(chunk.tag);
    QhasRowWriter writer(rows.store);
    auto array = reader.RootArray();
    reader.Elements(array, "rows", [&](JsonReader::value row, size_t index) {
      qhas_internal::ReadRow(reader, kind, "chunk", index, row, &rows, writer);
    });
  };
  QhasRowStore store;
  auto merge = [&](QhasRows& into, QhasRows&& part, const ChunkMergeInfo& info) {
    qhas_internal::MergeRows(path, into, std::move(part), store, info);
  };
  return ReadStreamedJson<Qhas, QhasRows>(
      path, select, options, read_chunk, merge,
      [&](const simdjson::padded_string& skeleton, StreamedContainers& containers,
          std::deque<QhasRows>& rows) {
        return ParseDocument(path, skeleton, {&containers, &rows, &store});
      });
}

}  // namespace

Qhas ReadQhas(const std::string& path, const StreamedReadOptions& options) {
  if (std::optional<Qhas> streamed = ReadStreamed(path, options)) {
    malloc_trim(0);  // the workers' freed buffers (see ReadOptrace)
    return std::move(*streamed);
  }
  LoadedFile file = ReadWholeFile(path);
  return ParseDocument(path, file.bytes);
}

Qhas ParseQhas(const std::string& path, std::string_view json) {
  return ParseDocument(path, PaddedJsonText(json));
}

}  // namespace htpscope
