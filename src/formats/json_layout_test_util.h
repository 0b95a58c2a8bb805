// Test support: the same JSON value in the byte layouts readers meet, and
// files holding it, plain or gzip-compressed.
#pragma once

#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "base/corpus_test_util.h"

namespace htpscope::testing_support {

enum class JsonLayout { kWriter, kLines, kMinified, kIndent2 };
inline constexpr JsonLayout kAllJsonLayouts[] = {JsonLayout::kWriter, JsonLayout::kLines,
                                                 JsonLayout::kMinified, JsonLayout::kIndent2};

inline const char* JsonLayoutName(JsonLayout layout) {
  switch (layout) {
    case JsonLayout::kWriter:
      return "writer";
    case JsonLayout::kLines:
      return "lines";
    case JsonLayout::kMinified:
      return "minified";
    case JsonLayout::kIndent2:
      return "indent2";
  }
  return "?";
}

// `value` compact, but the elements of containers at `line_depth` (the root
// is depth 1) each on a line of its own.
inline void DumpLines(const nlohmann::ordered_json& value, int depth, int line_depth,
                      std::string* out) {
  if (!value.is_structured() || value.empty() || depth > line_depth) {
    *out += value.dump();
    return;
  }
  const bool broken = depth == line_depth;
  *out += value.is_array() ? "[" : "{";
  bool first = true;
  for (auto it = value.begin(); it != value.end(); ++it) {
    *out += first ? (broken ? "\n" : "") : (broken ? ",\n" : ", ");
    first = false;
    if (value.is_object()) *out += nlohmann::ordered_json(it.key()).dump() + ": ";
    DumpLines(*it, depth + 1, line_depth, out);
  }
  *out += broken ? "\n" : "";
  *out += value.is_array() ? "]" : "}";
}

// `text` (as written) re-spaced into `layout`: the same JSON value.
// `line_depth` is for kLines (optrace events: 2; HTP graph nodes: 3; QHAS
// rows: 4).
inline std::string Relayout(const std::string& text, JsonLayout layout, int line_depth) {
  if (layout == JsonLayout::kWriter) return text;
  const auto value = nlohmann::ordered_json::parse(text);
  if (layout == JsonLayout::kMinified) return value.dump();
  if (layout == JsonLayout::kIndent2) return value.dump(2);
  std::string out;
  DumpLines(value, 1, line_depth, &out);
  return out;
}

// `text` with every `"<word>"` of `words` (a key or a string value) spelled
// with its first letter as a \u escape: the same JSON value.
inline std::string EscapeFirstLetters(std::string text, const std::vector<std::string>& words) {
  for (const std::string& word : words) {
    const std::string plain = "\"" + word + "\"";
    char escape[8];
    std::snprintf(escape, sizeof escape, "\\u%04x", word[0]);
    const std::string escaped = "\"" + std::string(escape) + word.substr(1) + "\"";
    for (size_t at = text.find(plain); at != std::string::npos; at = text.find(plain, at))
      text.replace(at, plain.size(), escaped);
  }
  return text;
}

// `data` gzip-compressed (one member), in memory.
inline std::string Gzip(const std::string& data) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);  // 16: gzip's wrapper
  std::string out(deflateBound(&z, data.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// Writes `text` to a fresh file `name` (gzip-compressed when `gzip`).
inline std::string WriteTestFile(const std::string& name, const std::string& text, bool gzip) {
  const std::string path = TempDir(name) + (gzip ? "/f.json.gz" : "/f.json");
  if (gzip) {
    gzFile gz = gzopen(path.c_str(), "wb1");
    gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
    gzclose(gz);
  } else {
    std::ofstream(path, std::ios::binary) << text;
  }
  return path;
}

inline std::string ReadTestFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace htpscope::testing_support
