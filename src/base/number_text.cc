#include "base/number_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace htpscope {

std::string GroupDigits(int64_t value) {
  uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  std::string digits = std::to_string(magnitude);
  std::string out;
  int count = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (count && count % 3 == 0) out.push_back(',');
    out.push_back(*it);
    ++count;
  }
  if (value < 0) out.push_back('-');
  return std::string(out.rbegin(), out.rend());
}

std::string FormatCount(uint64_t count) {
  if (count > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    return fmt::format("{}", count);
  return GroupDigits(static_cast<int64_t>(count));
}

std::string FormatFigure(double value) {
  // Whole numbers as counts (exact below 2^53); others with two decimals.
  if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) < 9007199254740992.0)
    return GroupDigits(static_cast<int64_t>(value));
  if (!std::isfinite(value)) return std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
  if (std::fabs(value) >= 9007199254740992.0) return fmt::format("{:.0f}", value);
  return FormatMeasure(value, 2);
}

std::string FormatMeasure(double value, int decimals) {
  if (decimals < 0 || !std::isfinite(value) || std::fabs(value) >= 9007199254740992.0)
    return FormatFigure(value);
  std::string out = fmt::format("{:.{}f}", value, decimals);
  size_t point = std::min(out.find('.'), out.size());
  std::string whole = out.substr(0, point);
  bool negative = !whole.empty() && whole[0] == '-';
  // "-0.5" keeps its sign; "-0.0" (a negative value rounded to zero) drops it.
  bool nonzero = out.find_first_of("123456789") != std::string::npos;
  int64_t magnitude = std::stoll(negative ? whole.substr(1) : whole);
  return (negative && nonzero ? "-" : "") + GroupDigits(magnitude) + out.substr(point);
}

std::string FormatSignificant(double value, int digits) {
  if (!std::isfinite(value) || value == 0 || digits < 1) return FormatFigure(value);
  // Round to `digits` significant digits first, so 9.9996 -> "10" and not "10.00".
  int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  double scale = std::pow(10.0, digits - 1 - exponent);
  double rounded = std::isfinite(scale) && std::isfinite(value * scale)
                       ? std::round(value * scale) / scale
                       : value;
  if (rounded != 0) exponent = static_cast<int>(std::floor(std::log10(std::fabs(rounded))));
  // Decimals beyond the value's precision are dropped (doubles end near 1e-324).
  int decimals = std::clamp(digits - 1 - exponent, 0, 330);
  std::string out = FormatMeasure(rounded, decimals);
  if (out.find('.') != std::string::npos) {
    out.erase(out.find_last_not_of('0') + 1);
    if (out.back() == '.') out.pop_back();
  }
  return out;
}

}  // namespace htpscope
