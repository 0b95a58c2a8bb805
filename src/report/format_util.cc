#include "report/format_util.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <vector>

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
  int64_t magnitude = std::stoll(negative ? whole.substr(1) : whole);
  return (negative && magnitude != 0 ? "-" : "") + GroupDigits(magnitude) + out.substr(point);
}

std::string OrDash(const std::optional<int64_t>& value) {
  return value ? GroupDigits(*value) : "-";
}

std::string OrDash(const std::optional<double>& value, int decimals) {
  return value ? fmt::format("{:.{}f}", *value, decimals) : "-";
}

std::string HumanBytes(int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (std::abs(v) >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", v, units[u]);
}

size_t DisplayWidth(std::string_view text) {
  size_t columns = 0;
  for (char c : text) columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return columns;
}

std::string EllipsizeLeft(const std::string& text, size_t width) {
  // Code point starts, counted from the end.
  std::vector<size_t> starts;
  for (size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  if (starts.size() <= width || width == 0) return text;
  std::string tail = text.substr(starts[starts.size() - (width - 1)]);
  size_t slash = tail.find('/');
  if (slash != std::string::npos && slash > 0 && slash <= tail.size() / 2)
    tail = tail.substr(slash);
  return "…" + tail;
}

std::string Ellipsize(const std::string& text, size_t width) {
  // Count UTF-8 code points as columns (good enough for op names).
  size_t columns = 0, i = 0, cut = std::string::npos;
  while (i < text.size()) {
    if (columns == width - 1 && cut == std::string::npos) cut = i;
    unsigned char c = static_cast<unsigned char>(text[i]);
    i += c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    ++columns;
  }
  if (columns <= width || width == 0) return text;
  return text.substr(0, cut) + "…";
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      switch (c) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        case '\'':
          out += "&apos;";
          break;
        default:
          out += (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f
                     ? '?'
                     : static_cast<char>(c);
      }
      ++i;
      continue;
    }
    size_t len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    bool ok = len > 0 && i + len <= text.size();
    for (size_t k = 1; ok && k < len; ++k)
      ok = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
    if (ok) {
      out.append(text.substr(i, len));
      i += len;
    } else {
      out += '?';
      ++i;
    }
  }
  return out;
}

}  // namespace htpscope
