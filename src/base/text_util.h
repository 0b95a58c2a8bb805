// Small text helpers shared by the line-oriented readers (profile-viewer
// text and CSV, heap logs) and the analyses that parse user expressions.
// ASCII only: every artifact keyword they compare is ASCII.
#pragma once

#include <string>
#include <string_view>

namespace htpscope {

// `text` without leading and trailing ASCII white space (" \t\n\r\f\v").
std::string_view Trim(std::string_view text);

// `text` with ASCII letters lower-cased.
std::string ToLower(std::string_view text);

// Whether `a` and `b` are equal ignoring ASCII case.
bool EqualsIgnoreCase(std::string_view a, std::string_view b);

}  // namespace htpscope
