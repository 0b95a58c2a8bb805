// Reading artifact bytes, plain or gzip-compressed, through the input layer
// of byte_source_open.h (file types, pipes read once, size caps).
//
// Compression is recognised by the gzip magic bytes (1f 8b), never by the
// file name.  Members and trailing bytes follow gzip -d / gzip -t (GNU gzip
// 1.12): concatenated members are inflated one after another; zero bytes
// after the last member are padding and ignored; other bytes after a
// complete member are "trailing garbage", ignored with a warning; bytes
// starting with the magic must form a whole valid member.  (gzip calls a
// single non-zero trailing byte "unexpected end of file"; here it is
// trailing garbage like two or more, unless it is 1f, the start of a member
// header.)
//
// A UTF-8 byte order mark in front of JSON (EF BB BF, then optional white
// space and '{' or '[') reads as three spaces, so that every JSON reader
// accepts it while byte offsets stay those of the file.
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace htpscope {

// A forward-only stream of a file's (decompressed) bytes.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Fills up to `capacity` bytes into `out`; returns how many were written,
  // 0 only at the end of the data.  Throws InputError (file and byte offset)
  // on I/O or gzip errors, and when the input exceeds its size cap.  The file
  // bytes consumed are added to base/read_progress.h unless
  // set_counts_progress(false).
  size_t Read(char* out, size_t capacity);
  // Whether reads count towards base/read_progress.h (not for the prefix
  // read that recognises a file's kind).
  void set_counts_progress(bool counts) { counts_progress_ = counts; }
  // True when the file is gzip-compressed.
  virtual bool compressed() const = 0;
  // Bytes of the file consumed so far (compressed bytes for gzip input).
  virtual uint64_t file_bytes_consumed() const = 0;
  const std::string& path() const { return path_; }
  // What was tolerated in the bytes read so far ("trailing garbage ignored").
  const std::vector<std::string>& warnings() const { return warnings_; }

 protected:
  explicit ByteSource(std::string path) : path_(std::move(path)) {}
  // Read() without the byte-order-mark handling.
  virtual size_t ReadBytes(char* out, size_t capacity) = 0;
  std::string path_;
  std::vector<std::string> warnings_;

 private:
  // The first bytes, when a byte order mark followed by white space only
  // needed more bytes to tell JSON from text; handed out before the rest.
  std::string lookahead_;
  size_t lookahead_taken_ = 0;
  std::exception_ptr lookahead_error_;  // raised once the lookahead is handed out
  bool first_read_ = true;
  bool counts_progress_ = true;
  uint64_t bytes_counted_ = 0;  // file_bytes_consumed() already added to the progress
  size_t ReadUncounted(char* out, size_t capacity);
};

// The cap on the bytes (after gzip inflation) a read of one input may take
// (byte_source_open.h, docs/robustness.md):
//  * kStreamed: InputLimits::max_input_bytes, for an input streamed (the
//    optrace);
//  * kHeldWhole: the cap of ReadWholeFile (max_in_memory_bytes, or
//    max_input_bytes when smaller), for the artifacts documented as read
//    whole (QHAS, HTP graph, runtrace), also when their reader streams them
//    in chunks.
enum class ReadCap { kStreamed, kHeldWhole };
// That cap in bytes, under the limits in force.
uint64_t ReadCapBytes(ReadCap cap);

// Opens `path` ("-" is standard input) for streaming, capped as `cap` says.
// Throws InputError when it cannot be opened or is not a file (see
// InputFd::Open), InputCapError when it is a plain file over the cap;
// Read() throws InputCapError once the bytes pass the cap.
std::unique_ptr<ByteSource> OpenByteSource(const std::string& path,
                                           ReadCap cap = ReadCap::kStreamed);

// The whole (decompressed) content of an artifact, padded for simdjson.
struct LoadedFile {
  std::string path;
  simdjson::padded_string bytes;
  bool compressed = false;
  std::vector<std::string> warnings;  // ByteSource::warnings()
};

// Reads all of `path` into memory, inflating gzip.  For small and medium
// artifacts (graphs, QHAS, text); the optrace reader streams instead.
// Capped at the smaller of InputLimits::max_in_memory_bytes and
// max_input_bytes (ReadCap::kHeldWhole): a plain file over the cap is
// refused before a byte is read, a gzip file when its inflated bytes pass
// the cap (InputCapError both).
LoadedFile ReadWholeFile(const std::string& path);

// A plain (uncompressed) file mapped into memory copy-on-write: readers may
// patch a few bytes in place (the changes never reach the file) and hand
// back pages they are done with, so that memory tracks the bytes being
// parsed rather than the file size.
class MappedFile {
 public:
  // Maps `path`, or returns nullptr when it is gzip-compressed, empty, over
  // InputLimits::max_input_bytes, not a file or cannot be mapped (callers
  // then stream it with OpenByteSource, which says why when it cannot).
  // A pipe or FIFO is mapped from its in-memory copy.
  static std::unique_ptr<MappedFile> Open(const std::string& path);
  ~MappedFile();
  const std::string& path() const { return path_; }  // as given to Open
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  char* data() const { return data_; }
  size_t size() const { return size_; }  // bytes of the file
  // Bytes readable from data(): the size rounded up to whole pages.
  size_t mapped_bytes() const { return mapped_bytes_; }
  // Says the caller is done with [begin, end): its whole pages are dropped
  // from memory (they read as the file again if touched, and lose any
  // in-place patch), together with those of other done ranges that join
  // it, once kReleaseBatchBytes are pending.  Thread-safe.
  void Release(size_t begin, size_t end) const;
  // Each drop is a system call and a TLB flush on every core the process
  // runs on: one per 0.5 MB chunk was ~2400 for a 1.2 GB run directory
  // (4 % of its load's CPU in madvise alone).
  static constexpr size_t kReleaseBatchBytes = 8 << 20;

 private:
  MappedFile(std::string path, char* data, size_t size, size_t mapped_bytes)
      : path_(std::move(path)), data_(data), size_(size), mapped_bytes_(mapped_bytes) {}
  std::string path_;
  char* data_;
  size_t size_;
  size_t mapped_bytes_;
  // Done ranges not yet dropped, and their bytes.
  mutable std::mutex release_mutex_;
  mutable std::vector<std::pair<size_t, size_t>> pending_;
  mutable size_t pending_bytes_ = 0;
};

// All of `path` for a reader of text, which needs no padding after it: a
// plain file is mapped (no copy, and no fresh memory to fault in: 14 MB of
// profile text took longer to copy in than to parse); anything else (gzip,
// a pipe, a file that cannot be mapped) is read by ReadWholeFile.  The same
// cap, errors and byte order mark handling as ReadWholeFile.
class WholeText {
 public:
  static WholeText Read(const std::string& path);
  std::string_view text() const;
  const LoadedFile& loaded() const { return loaded_; }  // path and warnings; bytes if not mapped

 private:
  std::unique_ptr<MappedFile> mapped_;
  LoadedFile loaded_;
};

// Returns up to `max_bytes` decompressed bytes from the start of `path`, for
// recognising what kind of artifact a file is.  Never throws on gzip errors
// past the first bytes; throws InputError if the file cannot be opened.
std::string ReadPrefix(const std::string& path, size_t max_bytes);

// Blanks a UTF-8 byte order mark at data[0..3) when JSON follows it (white
// space then '{' or '[' within the first kByteOrderMarkLookaheadBytes);
// returns whether it did.
inline constexpr size_t kByteOrderMarkLookaheadBytes = 64 << 10;
bool BlankByteOrderMarkBeforeJson(char* data, size_t size);
// `json` in a padded buffer, its byte order mark blanked as a file read
// (ReadWholeFile) blanks it: how the JSON readers' Parse* functions take a
// document given in memory.
simdjson::padded_string PaddedJsonText(std::string_view json);
// `bytes` in 8-byte aligned memory, for a reader that reads scalars in place
// (FlatBuffers): the bytes themselves when they are aligned, else a copy.
class AlignedBytes {
 public:
  explicit AlignedBytes(std::string_view bytes);
  const uint8_t* data() const { return data_; }

 private:
  std::unique_ptr<uint64_t[]> copy_;
  const uint8_t* data_ = nullptr;
};

// `text` without a leading UTF-8 byte order mark.
std::string_view SkipByteOrderMark(std::string_view text);

// Input-layer warnings (gzip trailing garbage ignored, ...) noted while
// reading files, for callers that only see a reader's result: each is
// noted once per file and message.  Takes (returns and forgets) the notes
// on `path`; with no argument, those on every file, as "<path>: <warning>".
std::vector<std::string> TakeInputWarnings(const std::string& path);
std::vector<std::string> TakeInputWarnings();

}  // namespace htpscope
