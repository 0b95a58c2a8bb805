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

// A plain (uncompressed) file mapped into memory copy-on-write: readers may
// patch a few bytes in place (the changes never reach the file) and hand
// back pages they are done with, so that memory tracks the bytes being
// parsed rather than the file size.
class MappedFile {
 public:
  // Maps `path`, or returns nullptr when it is gzip-compressed, empty or
  // cannot be mapped (callers then stream it with OpenByteSource).
  static std::unique_ptr<MappedFile> Open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  char* data() const { return data_; }
  size_t size() const { return size_; }  // bytes of the file
  // Bytes readable from data(): the size rounded up to whole pages.
  size_t mapped_bytes() const { return mapped_bytes_; }
  // Drops the whole pages inside [begin, end) from memory: they read as the
  // file again if touched, and lose any in-place patch.
  void Release(size_t begin, size_t end) const;

 private:
  MappedFile(char* data, size_t size, size_t mapped_bytes)
      : data_(data), size_(size), mapped_bytes_(mapped_bytes) {}
  char* data_;
  size_t size_;
  size_t mapped_bytes_;
};

// Returns up to `max_bytes` decompressed bytes from the start of `path`, for
// recognising what kind of artifact a file is.  Never throws on gzip errors
// past the first bytes; throws InputError if the file cannot be opened.
std::string ReadPrefix(const std::string& path, size_t max_bytes);

}  // namespace htpscope
