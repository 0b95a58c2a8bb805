#include "report/format_util.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <vector>

namespace htpscope {

std::string OrDash(const std::optional<int64_t>& value) {
  return value ? GroupDigits(*value) : "-";
}

std::string OrDash(const std::optional<double>& value, int decimals) {
  return value ? FormatMeasure(*value, decimals) : "-";
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

std::string Ellipsize(std::string_view text, size_t width) {
  // Count UTF-8 code points as columns (good enough for op names).
  size_t columns = 0, i = 0, cut = std::string::npos;
  while (i < text.size()) {
    if (columns == width - 1 && cut == std::string::npos) cut = i;
    unsigned char c = static_cast<unsigned char>(text[i]);
    i += c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    ++columns;
  }
  if (columns <= width || width == 0) return std::string(text);
  return std::string(text.substr(0, cut)) + "…";
}

std::string XmlEscape(std::string_view text, MarkupEscape markup) {
  const bool xml = markup == MarkupEscape::kXml;
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80 || !xml) {
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
          out += xml ? "&apos;" : "&#39;";
          break;
        default:
          out += xml && ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
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
