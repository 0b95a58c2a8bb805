// A named regular expression as the command line gives one, "NAME=REGEX"
// (the op groups of timeline and graph, the stages of aot), and the one
// regular-expression engine such expressions run on: RE2 (linear time,
// https://github.com/google/re2/wiki/Syntax), searched anywhere in the text.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>

namespace re2 {
class RE2;
}  // namespace re2

namespace htpscope {

// The parts of "NAME=REGEX", views into the spec.
struct NameRegex {
  std::string_view name;    // before the first '=' (may be empty)
  std::string_view regex;   // after it (may be empty)
  size_t regex_offset = 0;  // where `regex` starts in the spec
};

// `spec` split at its first '=', or nullopt when it has none.
std::optional<NameRegex> SplitNameRegex(std::string_view spec);

// `regex` compiled, its errors not logged: ok() tells whether it compiled,
// error() why not.
std::unique_ptr<re2::RE2> CompileRegex(std::string_view regex);

// Whether `regex` matches anywhere in `text`.
bool RegexSearch(const re2::RE2& regex, std::string_view text);

}  // namespace htpscope
