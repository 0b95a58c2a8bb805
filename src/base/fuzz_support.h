// Support for the libFuzzer targets (src/<layer>/<reader>_fuzz.cc).
//
// A reader may accept an input or reject it with InputError; anything else
// (another exception, a crash, a sanitizer report, a hang) is a bug.  An
// InputError must also name the file and say where the problem is.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "base/errors.h"

namespace htpscope::fuzz {

// The name every in-memory input is parsed under.
inline constexpr const char* kFuzzPath = "fuzz-input";

inline std::string_view AsText(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

[[noreturn]] inline void Violation(const char* what, const InputError& e) {
  std::fprintf(stderr, "fuzz contract violated: %s\n  error: %s\n", what, e.what());
  std::abort();
}

// An error must name `path` and carry a byte offset within the input (one
// past the end for "ends too early"), or a 1-based line number; an input
// with nothing but white space has no place to point at.
inline void CheckError(const InputError& e, const std::string& path, std::string_view input) {
  if (e.file() != path) Violation("the error does not name the input file", e);
  if (e.problem().empty()) Violation("the error does not say what is wrong", e);
  if (input.find_first_not_of(" \t\r\n") == std::string_view::npos) return;
  const size_t input_size = input.size();
  if (e.byte_offset()) {
    if (*e.byte_offset() > input_size) Violation("the error's byte offset is past the input", e);
  } else if (e.line()) {
    if (*e.line() == 0) Violation("the error's line number is not 1-based", e);
  } else {
    Violation("the error says neither byte offset nor line", e);
  }
}

// The same for line-oriented readers (profile text and CSV, heap file): a
// line must be 1-based and within the input, but a verdict on the whole file
// ("no profile sections found") may come without one.
inline void CheckTextError(const InputError& e, const std::string& path, std::string_view input) {
  if (e.file() != path) Violation("the error does not name the input file", e);
  if (e.problem().empty()) Violation("the error does not say what is wrong", e);
  if (e.byte_offset() && *e.byte_offset() > input.size())
    Violation("the error's byte offset is past the input", e);
  if (e.line()) {
    uint64_t lines = 1;
    for (char c : input) lines += c == '\n';
    if (*e.line() == 0 || *e.line() > lines) Violation("the error's line is not in the input", e);
  }
}

// A file holding `data`, in memory (memfd), reachable by path through
// /proc/self/fd: for the readers that only take paths (gzip layer, tensor
// files).  The descriptor is reused across inputs.
class MemoryFile {
 public:
  MemoryFile() : fd_(::memfd_create("htpscope-fuzz", 0)) {
    if (fd_ < 0) std::abort();
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~MemoryFile() { ::close(fd_); }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;

  const std::string& Write(const uint8_t* data, size_t size) {
    if (::ftruncate(fd_, 0) != 0) std::abort();
    size_t done = 0;
    while (done < size) {
      ssize_t n = ::pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
      if (n <= 0) std::abort();
      done += static_cast<size_t>(n);
    }
    return path_;
  }
  const std::string& path() const { return path_; }

 private:
  int fd_;
  std::string path_;
};

}  // namespace htpscope::fuzz
