// CSV output for spreadsheets and scripts: RFC 4180 (cells holding a comma,
// a double quote, CR or LF are quoted, quotes doubled; records end in CRLF),
// with formula injection neutralised as OWASP recommends: a cell that starts
// with '=', '+', '-', '@', a tab or CR gets a single quote in front, so that
// a spreadsheet shows it as text instead of evaluating it
// ("=HYPERLINK(...)" is written "'=HYPERLINK(...)").  Plain numbers are left
// as they are ("-1.5", "+3e-7", "-inf", "nan"), so numeric columns stay numeric.
//
//   CsvWriter csv(std::cout);
//   csv.WriteRow({"name", "value"});
//   csv.WriteRow({tensor_name, fmt::format("{}", x)});
#pragma once

#include <cstdio>
#include <initializer_list>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace htpscope {

// True for a plain decimal number as written by printf/fmt: optional sign,
// digits with an optional fraction and exponent, or inf/infinity/nan in any
// case.  Such cells are never neutralised.
bool IsPlainCsvNumber(std::string_view text);

// `text` as one CSV cell: neutralised when it could start a formula, then
// quoted when RFC 4180 requires it.
std::string FormatCsvCell(std::string_view text);

// Writes records one at a time; nothing is buffered beyond the current row.
class CsvWriter {
 public:
  // Writes to `out`; `name` names the destination in OutputError messages.
  explicit CsvWriter(std::ostream& out, std::string name = "<output>");
  explicit CsvWriter(std::FILE* out, std::string name = "<output>");

  // One record (the header is simply the first).  Throws OutputError when
  // the destination refuses the bytes.
  void WriteRow(std::span<const std::string> cells);
  void WriteRow(std::span<const std::string_view> cells);
  void WriteRow(std::initializer_list<std::string_view> cells);

  size_t rows_written() const { return rows_; }

 private:
  template <typename Cells>
  void Write(const Cells& cells);
  void Emit(std::string_view bytes);

  std::ostream* stream_ = nullptr;
  std::FILE* file_ = nullptr;
  std::string name_;
  std::string line_;  // the row being assembled, reused
  size_t rows_ = 0;
};

}  // namespace htpscope
