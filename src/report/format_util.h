// Number formatting and escaping shared by the reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace htpscope {

// 1234567 -> "1,234,567".
std::string GroupDigits(int64_t value);
// A figure for people, never in scientific notation: whole numbers with
// thousands separators ("1,126,400"), others with two decimals ("1,132.25").
std::string FormatFigure(double value);
// `value` with thousands separators and exactly `decimals` decimals
// ("160,563.0"); decimals < 0 formats as FormatFigure.
std::string FormatMeasure(double value, int decimals);
// Optional values print as "-" when absent.
std::string OrDash(const std::optional<int64_t>& value);
std::string OrDash(const std::optional<double>& value, int decimals);
// 928212 -> "906.5 KiB".
std::string HumanBytes(int64_t bytes);
// Display columns of UTF-8 text: its code points (bytes other than
// continuation bytes).
size_t DisplayWidth(std::string_view text);
// Cuts `text` to `width` display columns, ending in "…" when cut.
std::string Ellipsize(const std::string& text, size_t width);
// Cuts `text` (a path) to `width` display columns from the left, starting
// with "…" when cut, so the tail that tells runs apart stays: at a '/' when
// one falls in the first half of the kept tail.
std::string EllipsizeLeft(const std::string& text, size_t width);
// Escapes &, <, >, " and ' for XML text and attribute values (SVG, JUnit),
// and replaces characters XML 1.0 forbids (control characters, invalid
// UTF-8) with '?'.
std::string XmlEscape(std::string_view text);

}  // namespace htpscope
