// Small text helpers shared by the line-oriented readers (profile-viewer
// text and CSV, heap logs) and the analyses that parse user expressions.
// ASCII only: every artifact keyword they compare is ASCII.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace htpscope {

// Whether `c` is ASCII white space (" \t\n\r\f\v"): std::isspace in the
// "C" locale, inline because readers test every byte of a line with it.
inline bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// `text` without leading and trailing ASCII white space.  Inline: the
// line readers trim every line and field.
inline std::string_view Trim(std::string_view text) {
  while (!text.empty() && IsAsciiSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsAsciiSpace(text.back())) text.remove_suffix(1);
  return text;
}

// The pieces of `text` between the `separator`s, white space kept: "a,,b"
// gives {"a", "", "b"}, "a," gives {"a", ""}, "" gives {""}.
std::vector<std::string_view> SplitAt(std::string_view text, char separator);

// `text` with ASCII letters lower-cased.
std::string ToLower(std::string_view text);

// Whether `a` and `b` are equal ignoring ASCII case.
bool EqualsIgnoreCase(std::string_view a, std::string_view b);

}  // namespace htpscope
