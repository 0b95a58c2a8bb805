#include "formats/json_error_offset.h"

#include <fmt/format.h>

namespace htpscope {
namespace {

// Length of the valid UTF-8 sequence at json[i], or 0 when it is not one.
size_t Utf8SequenceLength(std::string_view json, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(json[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // no overlong forms
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // no overlong forms
    if (lead == 0xF4) high = 0x8F;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (i + length > json.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return length;
}

}  // namespace

JsonScanError LocateJsonScanError(std::string_view json, simdjson::error_code error) {
  const std::string what = simdjson::error_message(error);
  if (error == simdjson::UNCLOSED_STRING)
    return {json.size(), fmt::format("not valid JSON ({}): the input ends inside a string", what)};
  if (error == simdjson::UTF8_ERROR) {
    for (size_t i = 0; i < json.size();) {
      size_t n = Utf8SequenceLength(json, i);
      if (n == 0)
        return {i, fmt::format("not valid JSON ({}): byte 0x{:02x} is not valid UTF-8 here", what,
                               static_cast<unsigned char>(json[i]))};
      i += n;
    }
  }
  if (error == simdjson::UNESCAPED_CHARS) {
    bool in_string = false;
    for (size_t i = 0; i < json.size(); ++i) {
      const char c = json[i];
      if (in_string && c == '\\') {
        ++i;  // the escaped character
      } else if (c == '"') {
        in_string = !in_string;
      } else if (in_string && static_cast<unsigned char>(c) < 0x20) {
        return {i, fmt::format("not valid JSON ({}): control character 0x{:02x} inside a string "
                               "(it must be escaped)",
                               what, static_cast<unsigned char>(c))};
      }
    }
  }
  return {0, fmt::format("not valid JSON ({})", what)};
}

JsonScanError LocateUnclosedRoot(std::string_view json) {
  size_t end = json.find_last_not_of(" \t\r\n");
  end = end == std::string_view::npos ? 0 : end + 1;
  return {end,
          "not valid JSON: the input ends before its top-level value is closed (file cut short?)"};
}

}  // namespace htpscope
