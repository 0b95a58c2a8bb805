// The run as tables for machines: one schema (table and column names, types,
// units) that SQL, CSV export and Python all read, so a column means the same
// wherever it is seen.  docs/tables.md lists it; a test holds the two equal.
//
// Column names carry their unit as the JSON does (_cycles durations, _cycle
// instants of the HTP cycle counter, _us, _ticks, _bytes, _pct, _ghz).
// Cycles stay cycles: nothing here converts them to time.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/run.h"

namespace htpscope {

enum class ColumnType : uint8_t { kInt64, kDouble, kText, kBool };
// "INTEGER", "REAL", "TEXT", "BOOLEAN" (SQL's names; BOOLEAN cells are 0/1).
const char* ColumnTypeName(ColumnType type);

// Receives one cell at a time.
class CellSink {
 public:
  virtual ~CellSink() = default;
  virtual void Null() = 0;
  virtual void Int(int64_t value) = 0;
  virtual void Real(double value) = 0;
  virtual void Text(std::string_view value) = 0;
  void Bool(bool value) { Int(value ? 1 : 0); }
};

struct TableColumn {
  std::string name;  // "dur_cycles"
  ColumnType type = ColumnType::kInt64;
  std::string description;  // one line, for docs/tables.md and --help
  // Writes the cell of row `row` of this column to `sink`.
  std::function<void(const Run& run, size_t row, CellSink& sink)> cell;
};

// What writes one cell, and the column builders the table definitions use
// (run_tables*.cc, device_profile_tables.cc).
using TableCell = std::function<void(const Run& run, size_t row, CellSink& sink)>;
TableColumn IntColumn(std::string name, std::string description, TableCell cell);
TableColumn RealColumn(std::string name, std::string description, TableCell cell);
TableColumn TextColumn(std::string name, std::string description, TableCell cell);
TableColumn BoolColumn(std::string name, std::string description, TableCell cell);
// Writes `value`, or null when it is absent.
void PutOptional(CellSink& sink, const std::optional<int64_t>& value);
void PutOptional(CellSink& sink, const std::optional<uint32_t>& value);
void PutOptional(CellSink& sink, const std::optional<int32_t>& value);
void PutOptional(CellSink& sink, const std::optional<double>& value);

struct RunTable {
  std::string name;         // "slices"
  std::string description;  // one line: what a row is
  std::vector<TableColumn> columns;
  std::function<size_t(const Run& run)> rows;
};

// Every table of the schema, in a fixed order: runs, artifacts, graphs,
// executions, ops, htp_op_types, op_instances, slices, units, counters,
// phases, traffic, dominant_path, profile_nodes, cross_checks, warnings,
// profile_phases, op_steady_state, the AI Hub and Genie tables
// (report/device_profile_tables.h), modules (report/run_tables_modules.h).
// The `runs` table has one row per run: its label and whole-graph figures.
const std::vector<RunTable>& RunTables();

// The table named `name`, or nullptr.
const RunTable* FindRunTable(std::string_view name);

}  // namespace htpscope
