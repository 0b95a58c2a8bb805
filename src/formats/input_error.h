// Errors raised by the artifact readers.
//
// Every reader failure names the file and, where it is known, where in it
// the problem is: a byte offset for JSON and binary formats, a 1-based line
// number for text formats.  The CLI prints what() and exits with status 2.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace htpscope {

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

}  // namespace htpscope
