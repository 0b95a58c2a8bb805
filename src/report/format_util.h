// Number formatting and escaping shared by the reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/number_text.h"

namespace htpscope {

// GroupDigits, FormatFigure, FormatMeasure live in base/number_text.h.
// Optional values print as "-" when absent; present ones as GroupDigits /
// FormatMeasure.
std::string OrDash(const std::optional<int64_t>& value);
std::string OrDash(const std::optional<double>& value, int decimals);
// 928212 -> "906.5 KiB".
std::string HumanBytes(int64_t bytes);
// Display columns of UTF-8 text: its code points (bytes other than
// continuation bytes).
size_t DisplayWidth(std::string_view text);
// Cuts `text` to `width` display columns, ending in "…" when cut.
std::string Ellipsize(std::string_view text, size_t width);
// Cuts `text` (a path) to `width` display columns from the left, starting
// with "…" when cut, so the tail that tells runs apart stays: at a '/' when
// one falls in the first half of the kept tail.
std::string EllipsizeLeft(const std::string& text, size_t width);
// Which markup text is escaped for.
enum class MarkupEscape {
  kXml,   // XML text and attribute values (SVG, JUnit): ' as &apos;, and the
          // characters XML 1.0 forbids (control characters, invalid UTF-8) as '?'
  kHtml,  // HTML text and attribute values: ' as &#39;, every other byte as it is
};
// Escapes &, <, >, " and ' in `text` for `markup`.
std::string XmlEscape(std::string_view text, MarkupEscape markup = MarkupEscape::kXml);

}  // namespace htpscope
