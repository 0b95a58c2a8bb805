#include "base/errors.h"

#include <fmt/format.h>

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

OutputError::OutputError(std::string file, const std::string& problem)
    : std::runtime_error(fmt::format("cannot write {}: {}", file, problem)),
      file_(std::move(file)) {}

}  // namespace htpscope
