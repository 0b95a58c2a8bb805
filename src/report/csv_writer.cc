#include "report/csv_writer.h"

#include <cerrno>
#include <cstring>

#include "base/errors.h"

namespace htpscope {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    if (x != b[i]) return false;
  }
  return true;
}

bool StartsFormula(std::string_view text) {
  if (text.empty()) return false;
  switch (text[0]) {
    case '=':
    case '+':
    case '-':
    case '@':
    case '\t':
    case '\r':
      return true;
    default:
      return false;
  }
}

void AppendCell(std::string& line, std::string_view text) {
  bool neutralise = StartsFormula(text) && !IsPlainCsvNumber(text);
  bool quote = text.find_first_of(",\"\r\n") != std::string_view::npos;
  if (quote) line += '"';
  if (neutralise) line += '\'';
  for (char c : text) {
    if (c == '"') line += '"';
    line += c;
  }
  if (quote) line += '"';
}

}  // namespace

bool IsPlainCsvNumber(std::string_view text) {
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  std::string_view rest = text.substr(i);
  if (EqualsIgnoringCase(rest, "inf") || EqualsIgnoringCase(rest, "infinity") ||
      EqualsIgnoringCase(rest, "nan"))
    return true;
  size_t digits = 0;
  while (i < text.size() && IsDigit(text[i])) ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && IsDigit(text[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < text.size() && IsDigit(text[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  return i == text.size();
}

std::string FormatCsvCell(std::string_view text) {
  std::string cell;
  AppendCell(cell, text);
  return cell;
}

CsvWriter::CsvWriter(std::ostream& out, std::string name) : stream_(&out), name_(std::move(name)) {}
CsvWriter::CsvWriter(std::FILE* out, std::string name) : file_(out), name_(std::move(name)) {}

template <typename Cells>
void CsvWriter::Write(const Cells& cells) {
  line_.clear();
  bool first = true;
  for (const auto& cell : cells) {
    if (!first) line_ += ',';
    first = false;
    AppendCell(line_, cell);
  }
  line_ += "\r\n";
  Emit(line_);
  ++rows_;
}

void CsvWriter::WriteRow(std::span<const std::string> cells) { Write(cells); }
void CsvWriter::WriteRow(std::span<const std::string_view> cells) { Write(cells); }
void CsvWriter::WriteRow(std::initializer_list<std::string_view> cells) { Write(cells); }

void CsvWriter::Emit(std::string_view bytes) {
  if (stream_) {
    stream_->write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!*stream_) throw OutputError(name_, "cannot write CSV output");
    return;
  }
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    throw OutputError(name_, std::strerror(errno));
}

}  // namespace htpscope
