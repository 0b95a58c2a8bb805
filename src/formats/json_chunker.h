// Cutting the big containers of a JSON document into chunks of whole
// elements, so that huge artifacts are parsed in parallel without holding the
// file, or a DOM of it, in memory.
//
// The caller names the containers to stream (e.g. an optrace's
// "traceEvents" array, a QHAS section's "data" rows, an HTP graph's "nodes"
// object).  Their elements come out as standalone JSON texts: "[e0,e1]",
// "[e2,...]" for an array, "{"k0": v0,...}" for an object, each padded for
// simdjson.  What is left of the document — every other member, with each
// streamed container emptied to "[]" or "{}" — is kept as a small text, the
// skeleton, in which the reader finds each streamed container at a known
// offset.
//
// Element boundaries are found structurally, never from line breaks: the
// commas and brackets outside strings at the container's own depth
// (JsonContainerScanner, 64 bytes at a time), so a minified one-line file, a
// pretty-printed one and a writer's one-element-a-line layout cut alike, and
// every byte is scanned once (linear work) whatever the layout.  A reader
// whose parser checks its chunks may ask for the cuts of a mapped file to be
// guessed instead (set_guess_cuts): its parser then scans the bytes between
// two cuts, once, as it reads them.
//
// Memory is bounded whatever the input inflates to: white space outside
// strings is left out of the skeleton (JSON needs none between tokens), and
// the skeleton's text in the file (white space included, as if it were read
// whole) and the text held in memory at once for one element still being
// read (with what follows it up to the next cut) are capped at
// InputLimits::max_in_memory_bytes: past it Next() throws InputCapError
// naming the file (docs/robustness.md).
//
// A plain file is read through a copy-on-write mapping (MappedFile): chunks
// are views of the mapping whose first and last bytes (the comma or bracket
// before the first element, the comma after the last) are patched into the
// container's brackets, so no byte of the bulk is copied, and each chunk's
// pages are dropped once parsed.  Where two elements share the one comma
// between them (no white space to patch), the element after the cut is copied
// into a small chunk of its own.  Gzip input is inflated into buffers that
// become the chunks; memory is bounded by the chunks in flight and the
// largest element.
//
// A cut is only a claim about the text; the parser of each chunk checks it:
// every chunk holds at least one element, so when every chunk parses as a
// JSON array (object), the container did too, with exactly these elements in
// this order.  Callers parse the whole document instead whenever a chunk
// fails to parse or the chunker throws ChunkingNotPossible, so a cut can never
// change a result or an error.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "formats/byte_source.h"
#include "formats/json_structure.h"

namespace htpscope {

// The layout defeats chunking (no root container, text after it, an empty
// element...).  Not a verdict on the file: parse it whole to find out.
class ChunkingNotPossible : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Which containers to stream: called for each array or object that opens
// outside a streamed one, with the keys (unescaped) that lead to it from
// the root ("" for an array element).  Returns 0 to leave it in the
// skeleton, or the reader's own tag for its elements, handed back with each
// chunk.
using JsonStreamSelector = std::function<int(const std::vector<std::string>& path, bool is_array)>;

struct JsonChunk {
  std::unique_ptr<char[]> storage;     // null for a view of a mapped file
  const MappedFile* mapped = nullptr;  // set for a view of a mapped file
  size_t begin = 0;                    // the chunk's '[' / '{' in storage, or in the mapped file
  size_t length = 0;                   // up to and including its ']' / '}'
  size_t capacity = 0;                 // bytes readable from begin (≥ length + SIMDJSON_PADDING)
  size_t storage_bytes = 0;            // the whole allocation, for JsonChunker::Recycle
  uint64_t file_offset = 0;            // file (decompressed) offset of the chunk's first byte
  uint64_t index = 0;                  // 0, 1, 2, ... in file order, over all containers
  uint32_t container = 0;              // which streamed container: 0, 1, ... in file order
  int tag = 0;                         // the selector's tag for that container
  bool is_array = true;                // array elements, or object members
  // Cut where the text looked like an element boundary, without the bytes
  // before the cut being scanned (JsonChunker::set_guess_cuts): the chunk's
  // parser must check that its text is whole elements.
  bool end_guessed = false;
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

class JsonChunker {
 public:
  // `chunk_bytes` is the target chunk size: a chunk ends at the first
  // element boundary at least that far from its start.
  JsonChunker(ByteSource& source, JsonStreamSelector select, size_t chunk_bytes);
  // Chunks views of `file`, patching bytes in place (privately: the file
  // itself is untouched).
  JsonChunker(const MappedFile& file, JsonStreamSelector select, size_t chunk_bytes);

  // The next chunk in file order, or nullopt at the document's end.
  // Throws ChunkingNotPossible, or InputError on I/O or gzip failure.
  std::optional<JsonChunk> Next();

  // The document with every streamed container emptied; valid once Next()
  // returned nullopt.
  const std::string& skeleton() const { return skeleton_; }
  // Where each streamed container's opening bracket sits in skeleton(), by
  // container number (JsonChunk::container).
  const std::vector<size_t>& streamed_offsets() const { return streamed_offsets_; }

  uint64_t bytes_read() const { return bytes_read_; }

  // What chunking cost so far, in bytes, for checking that it stays linear
  // in the input whatever its layout: bytes the structural scanner
  // classified inside streamed containers, and bytes copied from one buffer
  // to another (kept or carried text, copied chunks).
  struct Work {
    uint64_t bytes_scanned = 0;
    uint64_t bytes_moved = 0;
  };
  Work work() const { return {bytes_scanned_ + scanner_.bytes_scanned(), bytes_moved_}; }

  // Lets the chunks of a mapped file's arrays of objects be cut by a guess
  // instead of a scan of every byte: past the target size, at the first
  // comma that follows a '}' and precedes the bytes the element after the
  // last scanned cut began with (the first cut is scanned, and so is any
  // chunk where no guess is found), white space aside.  The file's last
  // bytes are always scanned, so a container that runs to near the file's
  // end (an optrace's traceEvents) has its end found exactly; a guess may
  // cross the end of one that does not.  The scan of the bytes between two
  // guessed cuts is left to the parser of the chunk they bound, which must
  // check its text (JsonChunk::end_guessed): a guess inside a string, a
  // nested container or past the container's end leaves that chunk's text
  // no array of whole elements, so its parse fails, and the caller must
  // then read the file again without guesses, since the chunks after a
  // wrong guess start at no element.  Chunks before and after the guess are
  // the same text either way.
  void set_guess_cuts(bool guess) { guess_cuts_ = guess; }
  // Chunks whose end was guessed so far.
  uint64_t guessed_cuts() const { return guessed_cuts_; }

  // Hands a parsed chunk's buffer back for a later chunk, so that big inputs
  // reuse a few buffers instead of faulting in fresh pages for every chunk;
  // a view of a mapped file gives its pages back to the system instead.
  // Thread-safe; may be called while another thread is in Next().
  void Recycle(JsonChunk&& chunk);

 private:
  struct Frame {
    bool is_object = false;
    bool expect_key = false;  // an object's next string is a key
    std::string key;          // the current member's key, unescaped
  };

  // A buffer of at least `bytes`, reused when one is free.
  std::pair<std::unique_ptr<char[]>, size_t> Allocate(size_t bytes);
  // Streamed input: reads more data after what is kept (see KeepFrom),
  // moving it to a larger buffer when needed.  Returns false at the end.
  bool Fill();
  // The first byte still needed in the buffer.
  size_t KeepFrom() const;

  // Appends data_[from, to) to the skeleton, within the in-memory cap.
  void AppendSkeleton(size_t from, size_t to);
  // Counts `bytes` more of the document outside streamed containers, white
  // space left out of the skeleton included: no more than the in-memory cap
  // of it, as if it were read whole.
  void CountSkeletonText(size_t bytes);
  // Throws InputCapError: `what` (a phrase ending in "held in memory,") at
  // data_[at] exceeds the in-memory cap.
  [[noreturn]] void HeldBytesOverCap(const char* what, size_t at) const;

  // Scans the document outside streamed containers up to the next one that
  // opens (then true) or to the end (false).
  bool ScanSkeleton();
  void FinishSkeleton();
  // The next chunk of the streamed container, or nullopt when it had no
  // element left (it then closed).
  std::optional<JsonChunk> NextStreamed();
  // Hands text [start_, end] (end: its last byte) over as a chunk, with its
  // first and last bytes made the container's brackets.
  JsonChunk TakeChunk(size_t end);
  // A chunk holding a copy of the elements text[from, to) in brackets.
  JsonChunk CopyChunk(size_t from, size_t to);
  JsonChunk NewChunk(uint64_t file_offset);
  // Streamed input: moves the bytes from `from` on to a fresh buffer, the
  // current one being handed to a chunk.
  void CarryTail(size_t from);
  // Back to the skeleton, which resumes at `resume_at` (just after the
  // container's closing bracket).
  void CloseContainer(size_t resume_at);
  // Whether text(from, to) holds something other than white space.
  bool HoldsElement(size_t from, size_t to) const;
  // A guessed cut for the chunk from start_ (set_guess_cuts): the offset of
  // its comma, or SIZE_MAX when no guess is to be made or none was found.
  size_t GuessCut() const;
  // Learns the first bytes of the element after the comma at `comma`, a
  // cut found by the scanner, as what guessed cuts must precede (none when
  // that element is no object).
  void LearnElementStart(size_t comma);

  ByteSource* source_ = nullptr;        // streamed input, or
  const MappedFile* mapped_ = nullptr;  // mapped input
  JsonStreamSelector select_;
  size_t chunk_bytes_;
  std::string input_path_;          // for errors
  uint64_t held_cap_bytes_ = 0;     // InputLimits::max_in_memory_bytes
  std::unique_ptr<char[]> buffer_;  // streamed input only
  char* data_ = nullptr;            // buffer_, or the mapped file
  size_t capacity_ = 0;
  size_t size_ = 0;             // bytes of data in data_
  uint64_t buffer_offset_ = 0;  // file offset of data_[0]
  bool eof_ = false;
  std::mutex free_mutex_;
  std::vector<std::pair<std::unique_ptr<char[]>, size_t>> free_buffers_;

  // Outside streamed containers.
  size_t pos_ = 0;            // next byte to scan
  size_t skeleton_from_ = 0;  // first scanned byte not yet copied to skeleton_
  std::vector<Frame> frames_;
  std::vector<std::string> path_;  // scratch for the selector
  bool in_string_ = false, escaped_ = false, key_string_ = false;
  size_t key_start_ = 0;  // just after a key's opening quote
  bool root_seen_ = false;
  std::string skeleton_;
  uint64_t skeleton_text_bytes_ = 0;  // the skeleton's bytes in the file, white space included
  std::vector<size_t> streamed_offsets_;

  // Inside a streamed container.
  bool streaming_ = false;
  JsonContainerScanner scanner_;
  size_t start_ = 0;    // the next chunk's first byte (its bracket-to-be)
  size_t scan_at_ = 0;  // where the scanner resumes
  bool first_chunk_ = true;
  uint32_t container_ = 0;
  int tag_ = 0;
  bool is_array_ = true;
  std::deque<JsonChunk> pending_;  // chunks cut but not yet returned
  bool guess_cuts_ = false;
  std::string element_start_;  // what a guessed cut's next element begins with; empty: no guess
  uint64_t guessed_cuts_ = 0;

  bool finished_ = false;
  uint64_t next_index_ = 0;
  uint64_t bytes_read_ = 0;
  uint64_t bytes_scanned_ = 0;  // by the scanners of earlier containers
  uint64_t bytes_moved_ = 0;
};

}  // namespace htpscope
