// The four kinds of failure htpscope reports, each with its own exit status
// (docs/errors.md):
//  * InputError    — an input is missing, unreadable or malformed; names the
//                    file and, where known, the byte offset (JSON, binary) or
//                    1-based line (text).  Exit 2.
//  * UsageError    — the command line asks for something impossible; raised
//                    by the CLI only.  Exit 2.  Below the CLI, a value it
//                    passed on that cannot be used is a ValueError, which
//                    says what the value is (its ValueRole), not which
//                    option gave it: the CLI names the option.
//  * OutputError   — an output file cannot be written (or would overwrite an
//                    input).  Exit 3.
//  * InternalError — a bug in htpscope: an invariant did not hold.  Exit 70.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

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

// What a value given to a lower layer stands for, in that layer's terms.
// The caller knows where the value came from (a command-line option, a
// keyword argument) and maps the role to it: cli/value_roles.cc.
enum class ValueRole : uint8_t {
  kGraphName,          // the one graph to keep of a profile that holds several
  kDroppedDependency,  // a dependency between two op groups to drop, "A -> B"
  kStageRule,          // an AOT lowering stage rule, "NAME=REGEX"
  kGcFramePattern,     // the regular expression of garbage-collection frames
  kTrendBaselineRuns,  // how many earlier runs a trend's baseline spans
  kQueryOutputFormat,  // the output format of a SQL query's rows
  kClockGhz,           // the HTP clock frequency, GHz
  kTensorLayouts,      // the reference and device tensors' layouts (NCHW, NHWC, ...)
  kEtdumpDebugBuffer,  // the debug buffer file beside an ExecuTorch ETDump
  kRunStore,           // a store of runs (the database runs are ingested into)
};
// The role in words ("graph name", ...), for messages of callers that have
// no name of their own for it.
const char* ValueRoleName(ValueRole role);

// A value the caller gave that cannot be used, said in the raising layer's
// terms: `value` as given ("" when the problem is not in its text, e.g. a
// count out of range), `problem` what is wrong and, where useful, what was
// expected, and where known the byte offset in `value` of the problem.
// what() is DescribeValueProblem(ValueRoleName(role), ...); a std::invalid_argument,
// so that callers that do not know the type still see a bad value.
class ValueError : public std::invalid_argument {
 public:
  ValueError(ValueRole role, std::string value, std::string problem,
             std::optional<uint64_t> offset = {});

  ValueRole role() const { return role_; }
  const std::string& value() const { return value_; }
  const std::string& problem() const { return problem_; }
  std::optional<uint64_t> offset() const { return offset_; }

 private:
  ValueRole role_;
  std::string value_;
  std::string problem_;
  std::optional<uint64_t> offset_;
};

// "<label> <value>: <problem>", without " <value>" when it is empty, and
// with "at byte N: " before the problem when `offset` is set: the message of
// a ValueError once `label` names where the value came from (an option).
std::string DescribeValueProblem(std::string_view label, std::string_view value,
                                 std::string_view problem, std::optional<uint64_t> offset = {});

// An input that cannot be used as given, which a value the caller can give
// would settle (a tensor layout, an ETDump's debug buffer, a store of runs
// made first): `needed` says which, so that the caller can say how to give
// it (an option, a keyword argument, a command).  `problem` says what is
// wrong; what() is the InputError's, without that advice.
class InputNeedsValueError : public InputError {
 public:
  InputNeedsValueError(std::string file, std::string problem, ValueRole needed)
      : InputError(std::move(file), std::move(problem)), needed_(needed) {}
  ValueRole needed() const { return needed_; }

 private:
  ValueRole needed_;
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
