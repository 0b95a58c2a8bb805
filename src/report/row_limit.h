// Text reports that fit a screen: long lists show their first rows and count
// the rest.  JSON output always lists everything.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

#include "report/format_util.h"

namespace htpscope {

// Rows of a list to show text-wise; 0 means all of them.
struct RowLimit {
  size_t max_rows = 0;
  size_t Shown(size_t total) const { return max_rows == 0 ? total : std::min(total, max_rows); }
};

// "  ... 1,234 more ops (--top N or --all lists them)\n" when rows were left
// out, else nothing.
inline void AppendMoreLine(std::string& out, size_t total, size_t shown, std::string_view what,
                           std::string_view tail = "") {
  if (shown >= total) return;
  out += fmt::format("  ... {} more {}{} (--top N or --all lists them)\n",
                     GroupDigits(static_cast<int64_t>(total - shown)), what, tail);
}

}  // namespace htpscope
