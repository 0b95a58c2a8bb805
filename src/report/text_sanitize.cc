#include "report/text_sanitize.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace htpscope {
namespace {

// Decodes the UTF-8 sequence at text[i]: its code point and length, or
// length 0 when the bytes there are not valid UTF-8 (overlong forms,
// surrogates and code points past U+10FFFF included).
struct Decoded {
  uint32_t code_point = 0;
  size_t length = 0;
};

Decoded DecodeUtf8(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  size_t length = 0;
  uint32_t cp = 0, min = 0;
  if (lead < 0x80) return {lead, 1};
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, cp = lead & 0x1Fu, min = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, cp = lead & 0x0Fu, min = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, cp = lead & 0x07u, min = 0x10000;
  } else {
    return {};
  }
  if (i + length > text.size()) return {};
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return {};
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {};
  return {cp, length};
}

// Code points (past ASCII) a terminal or a text layout acts on.
bool IsActiveCodePoint(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0x061C ||
         cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

bool IsActiveAscii(unsigned char c) { return c < 0x20 || c == 0x7F; }

}  // namespace

bool IsTerminalSafe(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (IsActiveAscii(c)) return false;
      ++i;
      continue;
    }
    Decoded d = DecodeUtf8(text, i);
    if (d.length == 0 || IsActiveCodePoint(d.code_point)) return false;
    i += d.length;
  }
  return true;
}

std::string TerminalSafeLines(std::string_view text) {
  if (IsTerminalSafe(text)) return std::string(text);  // no line break either
  std::string out;
  out.reserve(text.size() + 16);
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t end = std::min(text.find('\n', begin), text.size());
    out += TerminalSafe(text.substr(begin, end - begin));
    if (end == text.size()) break;
    out += '\n';
    begin = end + 1;
  }
  return out;
}

std::string TerminalSafe(std::string_view text) {
  if (IsTerminalSafe(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c == '\t') {
        out += "\\t";
      } else if (IsActiveAscii(c)) {
        out += fmt::format("\\x{:02x}", c);
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    Decoded d = DecodeUtf8(text, i);
    if (d.length == 0) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    } else if (IsActiveCodePoint(d.code_point)) {
      out += fmt::format("\\u{{{:04X}}}", d.code_point);
      i += d.length;
    } else {
      out.append(text.substr(i, d.length));
      i += d.length;
    }
  }
  return out;
}

}  // namespace htpscope
