#include "base/errors.h"

#include <fmt/format.h>

#include <iterator>
#include <utility>

namespace htpscope {
namespace {

std::string Compose(const std::string& file, const std::string& problem,
                    std::optional<uint64_t> byte_offset, std::optional<uint64_t> line) {
  if (line) return fmt::format("{}:{}: {}", file, *line, problem);
  if (byte_offset) return fmt::format("{}: at byte {}: {}", file, *byte_offset, problem);
  return fmt::format("{}: {}", file, problem);
}

}  // namespace

InputError::InputError(std::string file, std::string problem, std::optional<uint64_t> byte_offset,
                       std::optional<uint64_t> line)
    : std::runtime_error(Compose(file, problem, byte_offset, line)),
      file_(std::move(file)),
      problem_(std::move(problem)),
      byte_offset_(byte_offset),
      line_(line) {}

const char* ValueRoleName(ValueRole role) {
  switch (role) {
    case ValueRole::kGraphName:
      return "graph name";
    case ValueRole::kDroppedDependency:
      return "dependency to drop";
    case ValueRole::kStageRule:
      return "stage rule";
    case ValueRole::kGcFramePattern:
      return "GC frame pattern";
    case ValueRole::kTrendBaselineRuns:
      return "baseline runs";
    case ValueRole::kQueryOutputFormat:
      return "query output format";
    case ValueRole::kClockGhz:
      return "clock GHz";
    case ValueRole::kTensorLayouts:
      return "tensor layouts";
    case ValueRole::kEtdumpDebugBuffer:
      return "ETDump debug buffer";
    case ValueRole::kRunStore:
      return "store of runs";
  }
  return "value";
}

std::string DescribeValueProblem(std::string_view label, std::string_view value,
                                 std::string_view problem, std::optional<uint64_t> offset) {
  std::string out(label);
  if (!value.empty()) fmt::format_to(std::back_inserter(out), " {}", value);
  if (offset) fmt::format_to(std::back_inserter(out), ": at byte {}", *offset);
  fmt::format_to(std::back_inserter(out), ": {}", problem);
  return out;
}

ValueError::ValueError(ValueRole role, std::string value, std::string problem,
                       std::optional<uint64_t> offset)
    : std::invalid_argument(DescribeValueProblem(ValueRoleName(role), value, problem, offset)),
      role_(role),
      value_(std::move(value)),
      problem_(std::move(problem)),
      offset_(offset) {}

OutputError::OutputError(std::string file, const std::string& problem)
    : std::runtime_error(fmt::format("cannot write {}: {}", file, problem)),
      file_(std::move(file)) {}

}  // namespace htpscope
