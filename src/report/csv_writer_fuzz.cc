// libFuzzer target: the CSV writer.  The input is split into cells at NUL
// bytes and rows at 0x01; the output must parse back (RFC 4180) to the same
// cells, each prefixed with ' exactly when it could start a formula and is
// not a plain number.
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "report/csv_writer.h"

namespace {

// A strict RFC 4180 parser of the writer's output (CRLF records).
std::vector<std::vector<std::string>> Parse(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string cell;
  size_t i = 0;
  bool at_cell_start = true;
  while (i < text.size()) {
    if (at_cell_start && text[i] == '"') {
      ++i;
      for (;;) {
        if (i >= text.size()) std::abort();  // unterminated quote
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            cell += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        cell += text[i++];
      }
      at_cell_start = false;
      continue;
    }
    if (text[i] == ',') {
      row.push_back(std::move(cell));
      cell.clear();
      at_cell_start = true;
      ++i;
    } else if (text.compare(i, 2, "\r\n") == 0) {
      row.push_back(std::move(cell));
      cell.clear();
      rows.push_back(std::move(row));
      row.clear();
      at_cell_start = true;
      i += 2;
    } else {
      if (text[i] == '"' || text[i] == '\r' || text[i] == '\n') std::abort();  // must be quoted
      cell += text[i++];
      at_cell_start = false;
    }
  }
  if (!row.empty() || !cell.empty()) std::abort();  // the last record must end in CRLF
  return rows;
}

bool Formula(const std::string& cell) {
  return !cell.empty() && (cell[0] == '=' || cell[0] == '+' || cell[0] == '-' || cell[0] == '@' ||
                           cell[0] == '\t' || cell[0] == '\r');
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
  for (size_t i = 0; i < size; ++i) {
    char c = static_cast<char>(data[i]);
    if (c == '\0') {
      rows.back().emplace_back();
    } else if (c == '\x01') {
      rows.emplace_back(1);
    } else {
      rows.back().back() += c;
    }
  }
  std::ostringstream out;
  htpscope::CsvWriter csv(out);
  for (const auto& row : rows) csv.WriteRow(row);
  std::vector<std::vector<std::string>> back = Parse(out.str());
  if (back.size() != rows.size()) std::abort();
  for (size_t r = 0; r < rows.size(); ++r) {
    // A row of one empty cell is written as an empty line, which reads back as one empty cell.
    if (back[r].size() != rows[r].size()) std::abort();
    for (size_t c = 0; c < rows[r].size(); ++c) {
      const std::string& original = rows[r][c];
      bool neutralised = Formula(original) && !htpscope::IsPlainCsvNumber(original);
      if (back[r][c] != (neutralised ? "'" + original : original)) std::abort();
      if (Formula(back[r][c]) && !htpscope::IsPlainCsvNumber(back[r][c])) std::abort();
    }
  }
  return 0;
}
