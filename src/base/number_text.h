// Numbers as text for people: one style in every text report and message
// (thousands separators, fixed decimals, never scientific notation). JSON
// and CSV print plain numbers instead.
#pragma once

#include <cstdint>
#include <string>

namespace htpscope {

// 1234567 -> "1,234,567".
std::string GroupDigits(int64_t value);
// A count (rows, ops, elements): GroupDigits of an unsigned size.
std::string FormatCount(uint64_t count);
// A figure for people, never in scientific notation: whole numbers with
// thousands separators ("1,126,400"), others with two decimals ("1,132.25").
std::string FormatFigure(double value);
// `value` with thousands separators and exactly `decimals` decimals
// ("160,563.0"); decimals < 0 formats as FormatFigure.
std::string FormatMeasure(double value, int decimals);
// `value` rounded to `digits` significant digits in positional notation,
// thousands separators, trailing zeros dropped: the style of "%g" without
// its exponent (0.000012345 -> "0.00001235", 1234567 -> "1,235,000" for 4
// digits). For measured values of any magnitude (tensor values, metrics).
std::string FormatSignificant(double value, int digits);

}  // namespace htpscope
