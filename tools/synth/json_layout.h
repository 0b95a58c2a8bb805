// Re-spacing JSON text as it is written, so that one generator produces the
// same JSON value in the layouts readers meet in the field:
//  * kWriter    as the QNN writer prints it (unchanged);
//  * kLines     Python's json.dumps separators (", ", ": ") with each element
//               of the containers at one depth (the events, the rows) on a
//               line of its own, as a script that re-saves a trace writes it;
//  * kMinified  no white space at all: one line;
//  * kIndent2   json.dump(..., indent=2): every member on its own line,
//               indented by two spaces a level, "[]"/"{}" when empty.
// Strings and numbers are copied byte for byte, so every layout holds the
// same value.  The input is fed in pieces of any size (a string may span
// two pieces); the output is appended to a buffer.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace htpscope::synth {

enum class JsonLayout { kWriter, kLines, kMinified, kIndent2 };

// "writer", "lines", "minified", "indent2".
std::string_view JsonLayoutName(JsonLayout layout);
std::optional<JsonLayout> JsonLayoutOfName(std::string_view name);

class JsonRelayout {
 public:
  // `line_depth`: for kLines, the nesting depth (the root container is
  // depth 1) of the containers whose elements go one per line.
  JsonRelayout(JsonLayout layout, int line_depth) : layout_(layout), line_depth_(line_depth) {}

  // Appends `text`, re-spaced, to `out`.
  void Feed(std::string_view text, fmt::memory_buffer* out);

 private:
  void Newline(fmt::memory_buffer* out, int depth);
  // Called before a token other than white space: settles a container
  // opened just before it (empty or not).
  void BeforeToken(char token, fmt::memory_buffer* out);
  bool Broken(int depth) const;  // whether elements at this depth go one per line

  JsonLayout layout_;
  int line_depth_;
  int depth_ = 0;
  bool in_string_ = false, escaped_ = false;
  bool open_pending_ = false;  // a container just opened: empty or not is not known yet
};

}  // namespace htpscope::synth
