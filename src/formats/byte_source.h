// Reading artifact bytes from disk, plain or gzip-compressed.
//
// Compression is recognised by the gzip magic bytes (1f 8b), never by the
// file name.  Concatenated gzip members are inflated one after another, as
// gzip(1) does.
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace htpscope {

// A forward-only stream of a file's (decompressed) bytes.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Fills up to `capacity` bytes into `out`; returns how many were written,
  // 0 only at the end of the data.  Throws InputError on I/O or gzip errors.
  virtual size_t Read(char* out, size_t capacity) = 0;
  // True when the file is gzip-compressed.
  virtual bool compressed() const = 0;
  // Bytes of the file consumed so far (compressed bytes for gzip input).
  virtual uint64_t file_bytes_consumed() const = 0;
  const std::string& path() const { return path_; }

 protected:
  explicit ByteSource(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// Opens `path` for streaming.  Throws InputError when the file cannot be opened.
std::unique_ptr<ByteSource> OpenByteSource(const std::string& path);

// The whole (decompressed) content of an artifact, padded for simdjson.
struct LoadedFile {
  std::string path;
  simdjson::padded_string bytes;
  bool compressed = false;
};

// Reads all of `path` into memory, inflating gzip.  For small and medium
// artifacts (graphs, QHAS, text); the optrace reader streams instead.
LoadedFile ReadWholeFile(const std::string& path);

// Returns up to `max_bytes` decompressed bytes from the start of `path`, for
// recognising what kind of artifact a file is.  Never throws on gzip errors
// past the first bytes; throws InputError if the file cannot be opened.
std::string ReadPrefix(const std::string& path, size_t max_bytes);

}  // namespace htpscope
