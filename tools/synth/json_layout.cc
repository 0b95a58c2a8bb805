#include "json_layout.h"

namespace htpscope::synth {

std::string_view JsonLayoutName(JsonLayout layout) {
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
  return "writer";
}

std::optional<JsonLayout> JsonLayoutOfName(std::string_view name) {
  for (JsonLayout layout :
       {JsonLayout::kWriter, JsonLayout::kLines, JsonLayout::kMinified, JsonLayout::kIndent2})
    if (JsonLayoutName(layout) == name) return layout;
  return std::nullopt;
}

bool JsonRelayout::Broken(int depth) const {
  return layout_ == JsonLayout::kIndent2 || (layout_ == JsonLayout::kLines && depth == line_depth_);
}

void JsonRelayout::Newline(fmt::memory_buffer* out, int depth) {
  out->push_back('\n');
  if (layout_ == JsonLayout::kIndent2)
    for (int i = 0; i < 2 * depth; ++i) out->push_back(' ');
}

void JsonRelayout::BeforeToken(char, fmt::memory_buffer* out) {
  if (!open_pending_) return;
  open_pending_ = false;
  if (Broken(depth_)) Newline(out, depth_);
}

void JsonRelayout::Feed(std::string_view text, fmt::memory_buffer* out) {
  for (const char c : text) {
    if (in_string_) {
      out->push_back(c);
      if (escaped_)
        escaped_ = false;
      else if (c == '\\')
        escaped_ = true;
      else if (c == '"')
        in_string_ = false;
      continue;
    }
    switch (c) {
      case ' ':
      case '\n':
      case '\r':
      case '\t':
        break;  // the layout's own white space replaces it
      case '{':
      case '[':
        BeforeToken(c, out);
        out->push_back(c);
        ++depth_;
        open_pending_ = true;
        break;
      case '}':
      case ']':
        --depth_;
        if (open_pending_) {
          open_pending_ = false;  // empty: "[]", "{}"
        } else if (Broken(depth_ + 1)) {
          Newline(out, depth_);
        }
        out->push_back(c);
        break;
      case ',':
        out->push_back(',');
        if (Broken(depth_))
          Newline(out, depth_);
        else if (layout_ == JsonLayout::kLines)
          out->push_back(' ');
        break;
      case ':':
        out->push_back(':');
        if (layout_ != JsonLayout::kMinified) out->push_back(' ');
        break;
      case '"':
        BeforeToken(c, out);
        out->push_back(c);
        in_string_ = true;
        break;
      default:
        BeforeToken(c, out);
        out->push_back(c);
        break;
    }
  }
}

}  // namespace htpscope::synth
