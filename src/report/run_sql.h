// The run's tables (report/run_tables.h) in SQLite, and SQL queries over them.
//
// Every table of RunTables() becomes a SQLite table of the same name and
// columns, with a leading `run_id INTEGER NOT NULL` column so that several
// runs share one database (docs/tables.md, docs/sql.md).  Rows are loaded
// with one prepared INSERT per table and bound columns.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "model/run.h"
#include "report/sqlite_db.h"

namespace htpscope {

// Creates every table of RunTables() (with its leading run_id column) when
// it does not exist yet.  Throws SqlError.
void CreateRunTables(SqliteDb& db);

enum class InsertTransactions {
  kPerTable,  // each table in a transaction of its own (fast bulk loading)
  kCaller,    // the caller holds one transaction around the whole run
};

// Inserts every row of every table of `run`, each with `run_id`.
// Throws SqlError.
void InsertRunRows(SqliteDb& db, const Run& run, int64_t run_id,
                   InsertTransactions transactions = InsertTransactions::kPerTable);

// How query results are printed.
enum class QueryFormat { kTable, kCsv, kJson };
// "table", "csv", "json" -> the format; throws ValueError (kQueryOutputFormat)
// otherwise.
QueryFormat ParseQueryFormat(std::string_view name);

// Runs `sql` (one or more statements separated by ';') against `db` and
// prints, in order, the result of every statement that returns columns:
//  * kTable: aligned columns under a header, numbers right-aligned, NULL as
//    "NULL"; results separated by a blank line;
//  * kCsv: RFC 4180 with a header row (report/csv_writer.h), NULL as an
//    empty cell; results separated by a blank line;
//  * kJson: one JSON array of row objects per result ({"column": value}),
//    NULL as null.
// Integers print as integers and reals in their shortest exact form.
// Returns the number of result sets printed.  Throws SqlError for SQL that
// SQLite refuses (its message, unchanged), OutputError when `out` fails.
int RunSqlQuery(SqliteDb& db, std::string_view sql, QueryFormat format, std::ostream& out,
                const std::string& out_name = "<stdout>");

// `value` as the shortest decimal text that reads back as the same double
// ("1409", "0.25", "1e+300"); "nan"/"inf"/"-inf" for the non-finite.
std::string FormatReal(double value);

}  // namespace htpscope
