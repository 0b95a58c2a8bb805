#include "formats/json_parallel.h"

#include <algorithm>

namespace htpscope {

ChunkedFile OpenChunkedFile(const std::string& path, JsonStreamSelector select, size_t chunk_bytes,
                            bool map_plain_files, ReadCap cap) {
  ChunkedFile file;
  if (map_plain_files) file.mapped = MappedFile::Open(path);
  // Over the cap, the stream opened below refuses it.
  if (file.mapped && file.mapped->size() > ReadCapBytes(cap)) file.mapped.reset();
  if (file.mapped) {
    file.size.plain_bytes = file.mapped->size();
    file.chunker = std::make_unique<JsonChunker>(*file.mapped, std::move(select), chunk_bytes);
    return file;
  }
  file.source = OpenByteSource(path, cap);
  std::error_code ec;
  const uint64_t on_disk = std::filesystem::file_size(path, ec);
  if (!ec && std::filesystem::is_regular_file(path, ec))
    (file.source->compressed() ? file.size.compressed_bytes : file.size.plain_bytes) = on_disk;
  file.chunker = std::make_unique<JsonChunker>(*file.source, std::move(select), chunk_bytes);
  return file;
}

std::optional<uint32_t> StreamedContainers::Take(simdjson::ondemand::value v) {
  const char* at = v.raw_json_token().data();
  if (at < skeleton_.data() || at >= skeleton_.data() + skeleton_.size()) return std::nullopt;
  const auto offset = static_cast<size_t>(at - skeleton_.data());
  auto it = std::lower_bound(offsets_.begin(), offsets_.end(), offset);
  if (it == offsets_.end() || *it != offset) return std::nullopt;
  const auto container = static_cast<uint32_t>(it - offsets_.begin());
  if (taken_[container]) throw InternalError("a streamed container was read twice");
  taken_[container] = true;
  return container;
}

bool StreamedContainers::AllTaken() const {
  return std::all_of(taken_.begin(), taken_.end(), [](bool taken) { return taken; });
}

}  // namespace htpscope
