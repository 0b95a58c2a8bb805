#include "formats/profile_csv_records.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/errors.h"
#include "base/text_util.h"

namespace htpscope::profile_internal {
namespace {

constexpr size_t kMaxQuotedChars = 60;

bool IsBlankChar(char c) { return c == ' ' || c == '\t'; }

// The start of `text` up to its line end, shortened for a message.
std::string Shortened(std::string_view text) {
  text = text.substr(0, text.find_first_of("\r\n"));
  if (text.size() <= kMaxQuotedChars) return std::string(text);
  return std::string(text.substr(0, kMaxQuotedChars)) + "...";
}

}  // namespace

bool CsvRecord::Blank() const {
  return fields.size() == 1 && !quoted[0] && Trim(fields[0]).empty();
}

bool CsvRecordReader::AtRecordEnd(size_t at) const {
  if (at >= text_.size() || text_[at] == '\n') return true;
  return text_[at] == '\r' && (at + 1 == text_.size() || text_[at + 1] == '\n');
}

bool CsvRecordReader::Next(CsvRecord* out) {
  if (pos_ >= text_.size()) return false;
  out->fields.clear();
  out->quoted.clear();
  out->field_begin.clear();
  out->first_line = line_;
  while (ReadField(out)) {
  }
  out->last_line = line_;
  // pos_ is at the record's end: its line break, or the end of the text.
  size_t end = pos_;
  if (end > 0 && end <= text_.size() && text_[end - 1] == '\r') --end;
  out->end = std::max(end, out->field_begin.back());
  if (pos_ < text_.size()) ++line_;  // the '\n'
  pos_ = pos_ < text_.size() ? pos_ + 1 : text_.size();
  return true;
}

bool CsvRecordReader::ReadField(CsvRecord* out) {
  const size_t start = pos_;
  out->field_begin.push_back(start);
  out->fields.emplace_back();
  std::string& value = out->fields.back();
  size_t p = start;
  while (p < text_.size() && IsBlankChar(text_[p])) ++p;
  if (p < text_.size() && text_[p] == '"') {
    // A quoted field: up to the next quote that is not doubled.
    uint64_t lines = 0;
    size_t q = p + 1;
    while (true) {
      size_t close = text_.find('"', q);
      if (close == std::string_view::npos)
        throw InputError(
            path_,
            fmt::format("a quoted field opened here is not closed before the end of "
                        "the file (it starts {}); a quote inside a field is written \"\"",
                        Shortened(text_.substr(p))),
            {}, line_);
      value.append(text_.substr(q, close - q));
      lines += static_cast<uint64_t>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(q),
                                                text_.begin() + static_cast<std::ptrdiff_t>(close),
                                                '\n'));
      if (close + 1 < text_.size() && text_[close + 1] == '"') {
        value.push_back('"');
        q = close + 2;
        continue;
      }
      size_t after = close + 1;
      while (after < text_.size() && IsBlankChar(text_[after])) ++after;
      bool ends = after >= text_.size() || text_[after] == ',' || AtRecordEnd(after);
      if (ends) {
        out->quoted.push_back(true);
        line_ += lines;
        pos_ = after;
        if (pos_ < text_.size() && text_[pos_] == ',') {
          ++pos_;
          return true;
        }
        if (pos_ < text_.size() && text_[pos_] == '\r') ++pos_;  // "\r\n"
        return false;
      }
      if (lines > 0)
        throw InputError(
            path_,
            fmt::format("a quoted field opened here spans {} line break(s) and its closing quote "
                        "is followed by {}: expected ',' or the end of the line after it (a "
                        "quote inside a field is written \"\")",
                        lines, Shortened(text_.substr(after))),
            {}, line_);
      break;  // not a quoted field after all: read it as written
    }
    value.clear();
  }
  size_t end = text_.find_first_of(",\n", start);
  if (end == std::string_view::npos) end = text_.size();
  size_t value_end = end;
  if (value_end > start && (end == text_.size() || text_[end] == '\n') &&
      text_[value_end - 1] == '\r')
    --value_end;
  value.assign(text_.substr(start, value_end - start));
  out->quoted.push_back(false);
  pos_ = end;
  if (pos_ < text_.size() && text_[pos_] == ',') {
    ++pos_;
    return true;
  }
  return false;
}

bool IsCsvHeader(const CsvRecord& record) {
  return !record.fields.empty() && EqualsIgnoreCase(Trim(record.fields[0]), kCsvColumns[0]);
}

int CsvEventDepth(std::string_view level) {
  level = Trim(level);
  if (EqualsIgnoreCase(level, "ROOT")) return 0;
  int depth = 0;
  while (level.size() >= 4 && EqualsIgnoreCase(level.substr(0, 4), "SUB-")) {
    ++depth;
    level.remove_prefix(4);
  }
  return depth > 0 && EqualsIgnoreCase(level, "EVENT") ? depth : -1;
}

}  // namespace htpscope::profile_internal
