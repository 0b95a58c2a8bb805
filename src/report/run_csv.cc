#include "report/run_csv.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "base/errors.h"
#include "report/csv_writer.h"
#include "report/run_sql.h"
#include "report/run_tables.h"

namespace htpscope {
namespace {

// Collects a row's cells as CSV text.
class CellText : public CellSink {
 public:
  std::vector<std::string> cells;
  void Null() override { cells.emplace_back(); }
  void Int(int64_t value) override { cells.push_back(fmt::format("{}", value)); }
  void Real(double value) override { cells.push_back(FormatReal(value)); }
  void Text(std::string_view value) override { cells.emplace_back(value); }
};

}  // namespace

CsvExportStats ExportRunCsv(const Run& run, int64_t run_id, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw OutputError(dir, ec ? ec.message() : "not a directory");
  CsvExportStats stats;
  for (const RunTable& t : RunTables()) {
    const std::string path = (std::filesystem::path(dir) / (t.name + ".csv")).string();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw OutputError(path, std::strerror(errno));
    CsvWriter csv(out, path);
    CellText row;
    row.cells.push_back("run_id");
    for (const auto& c : t.columns) row.cells.push_back(c.name);
    csv.WriteRow(row.cells);
    const std::string id = fmt::format("{}", run_id);
    const size_t rows = t.rows(run);
    for (size_t i = 0; i < rows; ++i) {
      row.cells.clear();
      row.cells.push_back(id);
      for (const auto& c : t.columns) c.cell(run, i, row);
      csv.WriteRow(row.cells);
    }
    out.close();
    if (!out) throw OutputError(path, "cannot write CSV output");
    ++stats.tables;
    stats.rows += rows;
  }
  return stats;
}

}  // namespace htpscope
