// Opening an input safely: the one place where htpscope turns a path into a
// file descriptor it reads (docs/robustness.md, "Inputs that are not plain
// files").
//
//  * Regular files are opened as they are (then mapped or streamed).
//  * Pipes, FIFOs, process substitution (`<(cmd)`, /dev/fd/N) and standard
//    input (`-`) can be read only once, but a file is read at least twice
//    (its first bytes to recognise it, then by its reader).  So such an
//    input is read once, whole, into an in-memory file on first use, and
//    every later open of it in this process reads those bytes.
//  * Nothing blocks forever in open(2): files are opened non-blocking and
//    their type checked before a byte is read.  A named pipe that no process
//    opens for writing is refused after a bounded wait.
//  * Directories, character and block devices (/dev/zero, /dev/tty) and
//    sockets given as files are refused by name.
//  * Every read has a size cap (InputLimits), overridable from the
//    environment.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/errors.h"

namespace htpscope {

// How much of one input htpscope reads, and how long it waits for a writer.
struct InputLimits {
  // Bytes of one input as read (after gzip inflation) when streamed, e.g. an
  // optrace.  HTPSCOPE_MAX_INPUT_BYTES.
  uint64_t max_input_bytes = uint64_t{64} << 30;
  // Bytes of one input held whole in memory: an artifact read whole (QHAS,
  // HTP graph, runtrace, profile text/CSV, heap file, manifest, expected DAG,
  // attachment) after inflation, and the raw bytes of every pipe, FIFO or
  // standard input.  HTPSCOPE_MAX_IN_MEMORY_BYTES.
  uint64_t max_in_memory_bytes = uint64_t{2} << 30;
  // How long to wait for a process to open a named pipe for writing.
  // HTPSCOPE_FIFO_WAIT_MS.
  int64_t fifo_writer_wait_ms = 10000;
};

// Environment variables overriding InputLimits' defaults.
inline constexpr const char* kMaxInputBytesVariable = "HTPSCOPE_MAX_INPUT_BYTES";
inline constexpr const char* kMaxInMemoryBytesVariable = "HTPSCOPE_MAX_IN_MEMORY_BYTES";
inline constexpr const char* kFifoWaitMsVariable = "HTPSCOPE_FIFO_WAIT_MS";

// The limits in force: the defaults, overridden by the environment variables
// above (read on first use).  Throws InputError naming the variable when its
// value is not a size (bytes, or a number followed by K, M, G or T: binary
// multiples) or not a number of milliseconds.
const InputLimits& CurrentInputLimits();

// Replaces the limits in force while it lives (tests, fuzz targets).
class ScopedInputLimits {
 public:
  explicit ScopedInputLimits(const InputLimits& limits);
  ~ScopedInputLimits();
  ScopedInputLimits(const ScopedInputLimits&) = delete;
  ScopedInputLimits& operator=(const ScopedInputLimits&) = delete;

 private:
  InputLimits saved_;
};

// "1048576" -> 1048576, "512K" -> 524288, "2G" -> 2147483648 (K, M, G, T
// are binary multiples, case-insensitive, an optional trailing "B" or "iB"
// allowed); nullopt for anything else or a size past 2^64 - 1.
std::optional<uint64_t> ParseByteSize(std::string_view text);

// "2.0 GiB", "512 MiB", "100 bytes": a cap or size for messages.
std::string DescribeBytes(uint64_t bytes);

// Why a file exceeding `cap_bytes` is refused: names the cap and the
// variable that raises it.
std::string CapExceededProblem(std::string_view what, uint64_t cap_bytes, const char* variable);

// An input refused because it exceeds one of the caps above.  The verdict is
// final: a reader that streams and falls back to a whole read on other
// errors (json_parallel.h) passes this one on at once, since the whole read
// would only meet the cap again.
class InputCapError : public InputError {
 public:
  using InputError::InputError;
};

// An input opened for reading, owning its descriptor.
class InputFd {
 public:
  // Opens `path` for reading; "-" is standard input.  Throws InputError
  // naming `path` when it does not exist (saying so for a dangling or
  // looping symbolic link), cannot be opened, is a directory, a device or a
  // socket, is a terminal, or is a pipe whose bytes exceed
  // max_in_memory_bytes or whose writer never comes.  Pipes and FIFOs are
  // read whole on their first open (see the file comment); the descriptor
  // returned then reads the in-memory copy.
  static InputFd Open(const std::string& path);

  InputFd(InputFd&& other) noexcept;
  InputFd& operator=(InputFd&& other) noexcept;
  ~InputFd();

  int get() const { return fd_; }
  const std::string& path() const { return path_; }
  // Bytes of the file (regular files, and one-shot inputs once held in memory).
  uint64_t size_bytes() const { return size_bytes_; }
  // True when the bytes come from a pipe, FIFO or standard input held in memory.
  bool held_in_memory() const { return held_in_memory_; }

  // Reads up to `capacity` bytes at `offset` (pread), retrying on EINTR.
  // Throws InputError naming the file and offset on a read error.
  size_t ReadAt(uint64_t offset, char* out, size_t capacity) const;

 private:
  InputFd(int fd, std::string path, uint64_t size_bytes, bool held_in_memory)
      : fd_(fd), path_(std::move(path)), size_bytes_(size_bytes), held_in_memory_(held_in_memory) {}
  int fd_ = -1;
  std::string path_;
  uint64_t size_bytes_ = 0;
  bool held_in_memory_ = false;
};

// Forgets every pipe and FIFO held in memory, freeing their copies: a later
// open reads such an input anew (fuzz targets and tests that make many).
void ForgetHeldInputs();

// What a path names, for the files of a run directory: those that are not
// regular files are reported, never opened.
enum class InputFileType {
  kRegular,      // a regular file, or a symbolic link to one
  kDirectory,    // or a symbolic link to one
  kSpecial,      // a named pipe, character or block device, socket
  kUnreachable,  // missing, a dangling symbolic link or a link loop, or stat(2) fails
};
struct InputFileStatus {
  InputFileType type = InputFileType::kUnreachable;
  // For kSpecial and kUnreachable, what it is: "a named pipe (FIFO)", "a
  // dangling symbolic link (to \"x.json\", which does not exist)", "a symbolic
  // link loop (...)", "no such file or directory".
  std::string what;
};
// Classifies `path` without opening it (stat and lstat only).
InputFileStatus StatInputFile(const std::string& path);

}  // namespace htpscope
