// The four kinds of failure htpscope reports, each with its own exit status
// (docs/errors.md):
//  * InputError    — an input is missing, unreadable or malformed; names the
//                    file and, where known, the byte offset (JSON, binary) or
//                    1-based line (text).  Exit 2.
//  * UsageError    — the command line asks for something impossible; raised
//                    by the CLI only.  Exit 2.
//  * OutputError   — an output file cannot be written (or would overwrite an
//                    input).  Exit 3.
//  * InternalError — a bug in htpscope: an invariant did not hold.  Exit 70.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace htpscope {

// Exit statuses of the command-line tool.
inline constexpr int kExitOk = 0;
inline constexpr int kExitGateFailed = 1;
inline constexpr int kExitBadInput = 2;  // input and usage errors
inline constexpr int kExitOutputError = 3;
inline constexpr int kExitInternalError = 70;  // EX_SOFTWARE of sysexits.h

class InputError : public std::runtime_error {
 public:
  // `problem` says what is wrong and, where useful, what was expected.
  InputError(std::string file, std::string problem, std::optional<uint64_t> byte_offset = {},
             std::optional<uint64_t> line = {});

  const std::string& file() const { return file_; }
  const std::string& problem() const { return problem_; }
  std::optional<uint64_t> byte_offset() const { return byte_offset_; }
  std::optional<uint64_t> line() const { return line_; }

 private:
  std::string file_;
  std::string problem_;
  std::optional<uint64_t> byte_offset_;
  std::optional<uint64_t> line_;
};

// The artifacts given for one run come from different runs (their op IDs or
// cycle counters disagree); a caller may choose to join them anyway.
class MismatchedArtifactsError : public InputError {
 public:
  using InputError::InputError;
};

class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

class OutputError : public std::runtime_error {
 public:
  // `problem`: why `file` cannot be written, e.g. "No space left on device".
  OutputError(std::string file, const std::string& problem);
  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

class InternalError : public std::logic_error {
 public:
  explicit InternalError(const std::string& message) : std::logic_error(message) {}
};

}  // namespace htpscope
