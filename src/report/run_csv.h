// The run's tables (report/run_tables.h) as CSV files, one TABLE.csv per
// table, for spreadsheets and for loading into other engines (DuckDB, Spark,
// BigQuery, pandas): RFC 4180 with formula neutralisation
// (report/csv_writer.h), a header row of column names, a leading run_id
// column, NULL as an empty cell, reals in their shortest exact form.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "model/run.h"

namespace htpscope {

struct CsvExportStats {
  size_t tables = 0;  // files written
  size_t rows = 0;    // data rows written, headers not counted
};

// Writes every table of `run`, each row with `run_id`, as `dir`/TABLE.csv
// (tables without rows get their header alone).  Creates `dir` when it does
// not exist; existing files of the same names are replaced.  Throws
// OutputError when a directory or file cannot be written.
CsvExportStats ExportRunCsv(const Run& run, int64_t run_id, const std::string& dir);

}  // namespace htpscope
