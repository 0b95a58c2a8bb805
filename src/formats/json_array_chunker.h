// Cutting one big top-level array of a JSON object into chunks of whole
// elements, so that huge traces are parsed in parallel without holding the
// file in memory.
//
// For  {"header": {...}, "traceEvents": [ e0, e1, ... ], ...}  the chunker
// yields the elements of "traceEvents" as standalone JSON arrays "[e0,e1]",
// "[e2,...]", each in its own padded buffer ready for simdjson, and keeps the
// object's other members as a small JSON object text.
//
// A plain file is read through a copy-on-write mapping instead (see
// MappedFile): chunks are then views of the mapping whose first and last
// bytes are patched into '[' and ']', so no byte of the bulk is copied, and
// each chunk's pages are dropped once it has been parsed.
//
// Element boundaries are found without parsing: a chunk ends where a line
// starts with '{' (optrace writes one event per line).  A raw newline cannot
// occur inside a JSON string, and a cut at a '{' that is not an element start
// leaves the chunk before it unbalanced, which its parser rejects; callers
// fall back to a whole-document parse whenever a chunk fails to parse or the
// chunker throws ChunkingNotPossible, so a wrong cut never yields a wrong
// number.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "formats/byte_source.h"

namespace htpscope {

// The layout defeats chunking (no such member, text after the root object,
// a cut that is not an element boundary...).  Not a verdict on the file:
// parse it whole to find out.
class ChunkingNotPossible : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct JsonChunk {
  std::unique_ptr<char[]> storage;     // null for a view of a mapped file
  const MappedFile* mapped = nullptr;  // set for a view of a mapped file
  size_t begin = 0;                    // the chunk's '[' in storage, or in the mapped file
  size_t length = 0;                   // up to and including its ']'
  size_t capacity = 0;                 // bytes allocated from begin (≥ length + SIMDJSON_PADDING)
  size_t storage_bytes = 0;            // the whole allocation, for JsonArrayChunker::Recycle
  uint64_t file_offset = 0;            // file (decompressed) offset of storage[begin]
  uint64_t index = 0;                  // 0, 1, 2, ... in file order
  // Streamed sources: bytes read (decompressed) when the chunk was cut, and
  // the file bytes (compressed, for gzip) consumed by then; 0 for a mapping.
  // Their ratio extrapolates a gzip file's decompressed size.
  uint64_t read_bytes = 0;
  uint64_t source_bytes = 0;

  simdjson::padded_string_view view() const {
    const char* base = mapped ? mapped->data() : storage.get();
    return simdjson::padded_string_view(base + begin, length, capacity);
  }
};

class JsonArrayChunker {
 public:
  // `member` is the key of the array to stream; `chunk_bytes` the target
  // chunk size (a chunk grows beyond it only until the next element start).
  JsonArrayChunker(ByteSource& source, std::string member, size_t chunk_bytes);
  // Chunks views of `file`, patching their first and last bytes in place.
  JsonArrayChunker(const MappedFile& file, std::string member, size_t chunk_bytes);

  // The next chunk, or nullopt once the array's end has been reached.
  // Throws ChunkingNotPossible, or InputError on I/O / gzip failure.
  std::optional<JsonChunk> Next();

  // The root object without the streamed member, e.g. {"header": {...}}.
  // Valid after Next() returned nullopt.
  const std::string& other_members() const { return other_members_; }

  uint64_t bytes_read() const { return bytes_read_; }

  // Hands a parsed chunk's buffer back for a later chunk, so that big inputs
  // reuse a few buffers instead of faulting in fresh pages for every chunk;
  // a view of a mapped file gives its pages back to the system instead.
  // Thread-safe; may be called while another thread is in Next().
  void Recycle(JsonChunk&& chunk);

 private:
  // A buffer of at least `bytes`, reused when one is free.
  std::pair<std::unique_ptr<char[]>, size_t> Allocate(size_t bytes);

  // Appends up to chunk_bytes_ of new data after the carried-over bytes.
  // Returns false at end of input.
  bool Fill();
  void FindArrayStart();
  std::optional<JsonChunk> FinalChunk();
  // Hands [start_, cut) over as a chunk and keeps the rest for the next one.
  JsonChunk CutChunk(size_t cut);
  // The next chunk's position fields: `length` bytes from start_ (its
  // storage is the caller's to set).
  JsonChunk ChunkAtStart(size_t length);

  // The next cut in a mapped file: the first element start at least
  // chunk_bytes_ after start_, or npos.
  size_t NextMappedCut() const;

  ByteSource* source_ = nullptr;        // streamed input, or
  const MappedFile* mapped_ = nullptr;  // mapped input
  std::string member_;
  size_t chunk_bytes_;
  std::unique_ptr<char[]> buffer_;  // streamed input only
  char* data_ = nullptr;            // buffer_, or the mapped file
  size_t capacity_ = 0;
  std::mutex free_mutex_;
  std::vector<std::pair<std::unique_ptr<char[]>, size_t>> free_buffers_;
  size_t size_ = 0;             // bytes of data in data_
  uint64_t buffer_offset_ = 0;  // file offset of data_[0]
  size_t start_ = 0;            // where the next chunk starts in data_
  bool started_ = false;
  bool finished_ = false;
  bool eof_ = false;
  uint64_t next_index_ = 0;
  uint64_t bytes_read_ = 0;
  std::string prologue_members_;
  std::string other_members_;
};

}  // namespace htpscope
