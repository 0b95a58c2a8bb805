#include "report/run_sql.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "base/errors.h"
#include "report/csv_writer.h"
#include "report/format_util.h"
#include "report/run_tables.h"

namespace htpscope {
namespace {

// Binds a row's cells to the INSERT's parameters, left to right.
class BindCells : public CellSink {
 public:
  explicit BindCells(SqliteStatement& statement) : statement_(statement) {}
  void Start(int64_t run_id) {
    statement_.BindInt(1, run_id);
    index_ = 2;
  }
  void Null() override { statement_.BindNull(index_++); }
  void Int(int64_t value) override { statement_.BindInt(index_++, value); }
  void Real(double value) override { statement_.BindReal(index_++, value); }
  void Text(std::string_view value) override { statement_.BindText(index_++, value); }

 private:
  SqliteStatement& statement_;
  int index_ = 1;
};

std::string InsertSql(const RunTable& table) {
  std::string sql = fmt::format("INSERT INTO {} (run_id", QuoteSqlIdentifier(table.name));
  std::string values = "?";
  for (const auto& c : table.columns) {
    sql += ", " + QuoteSqlIdentifier(c.name);
    values += ", ?";
  }
  return sql + ") VALUES (" + values + ")";
}

// One cell of a result row: its text, and whether it is a number (for
// alignment) or NULL.
struct ResultCell {
  std::string text;
  SqlValueType type = SqlValueType::kNull;
};

ResultCell ReadCell(const SqliteStatement& st, int column) {
  ResultCell cell;
  cell.type = st.ColumnType(column);
  switch (cell.type) {
    case SqlValueType::kNull:
      break;
    case SqlValueType::kInt:
      cell.text = fmt::format("{}", st.ColumnInt(column));
      break;
    case SqlValueType::kReal:
      cell.text = FormatReal(st.ColumnReal(column));
      break;
    case SqlValueType::kText:
      cell.text = std::string(st.ColumnText(column));
      break;
  }
  return cell;
}

nlohmann::json JsonCell(const SqliteStatement& st, int column) {
  switch (st.ColumnType(column)) {
    case SqlValueType::kNull:
      return nullptr;
    case SqlValueType::kInt:
      return st.ColumnInt(column);
    case SqlValueType::kReal: {
      double v = st.ColumnReal(column);
      return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(FormatReal(v));
    }
    case SqlValueType::kText:
      return std::string(st.ColumnText(column));
  }
  return nullptr;
}

void Emit(std::ostream& out, std::string_view text, const std::string& out_name) {
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) throw OutputError(out_name, "cannot write the query's result");
}

// Prints the rows of a statement that returns columns.
void PrintResult(SqliteStatement& st, QueryFormat format, std::ostream& out,
                 const std::string& out_name) {
  const int columns = st.ColumnCount();
  std::vector<std::string> names;
  for (int c = 0; c < columns; ++c) names.push_back(st.ColumnName(c));
  switch (format) {
    case QueryFormat::kCsv: {
      CsvWriter csv(out, out_name);
      csv.WriteRow(names);
      std::vector<std::string> row(static_cast<size_t>(columns));
      while (st.Step()) {
        for (int c = 0; c < columns; ++c) row[static_cast<size_t>(c)] = ReadCell(st, c).text;
        csv.WriteRow(row);
      }
      return;
    }
    case QueryFormat::kJson: {
      Emit(out, "[", out_name);
      bool first = true;
      nlohmann::json row = nlohmann::json::object();
      while (st.Step()) {
        for (int c = 0; c < columns; ++c) row[names[static_cast<size_t>(c)]] = JsonCell(st, c);
        Emit(out, (first ? "\n" : ",\n") + row.dump(), out_name);
        first = false;
      }
      Emit(out, first ? "]\n" : "\n]\n", out_name);
      return;
    }
    case QueryFormat::kTable: {
      std::vector<std::vector<ResultCell>> rows;
      std::vector<size_t> width(names.size());
      std::vector<bool> numeric(names.size(), false);
      for (size_t c = 0; c < names.size(); ++c) width[c] = DisplayWidth(names[c]);
      while (st.Step()) {
        rows.emplace_back();
        for (int c = 0; c < columns; ++c) {
          ResultCell cell = ReadCell(st, c);
          if (cell.type == SqlValueType::kNull) cell.text = "NULL";
          const size_t k = static_cast<size_t>(c);
          if (cell.type == SqlValueType::kInt || cell.type == SqlValueType::kReal)
            numeric[k] = true;
          width[k] = std::max(width[k], DisplayWidth(cell.text));
          rows.back().push_back(std::move(cell));
        }
      }
      auto line = [&](const std::vector<std::string>& cells) {
        std::string text;
        for (size_t c = 0; c < cells.size(); ++c) {
          const size_t pad = width[c] - std::min(width[c], DisplayWidth(cells[c]));
          if (c > 0) text += "  ";
          if (numeric[c]) text.append(pad, ' ');
          text += cells[c];
          if (!numeric[c] && c + 1 < cells.size()) text.append(pad, ' ');
        }
        while (!text.empty() && text.back() == ' ') text.pop_back();
        Emit(out, text + "\n", out_name);
      };
      line(names);
      std::vector<std::string> rule;
      for (size_t w : width) rule.push_back(std::string(w, '-'));
      line(rule);
      std::vector<std::string> texts(names.size());
      for (const auto& row : rows) {
        for (size_t c = 0; c < row.size(); ++c) texts[c] = row[c].text;
        line(texts);
      }
      Emit(out, fmt::format("({} row{})\n", rows.size(), rows.size() == 1 ? "" : "s"), out_name);
      return;
    }
  }
}

}  // namespace

void CreateRunTables(SqliteDb& db) {
  std::string sql;
  for (const RunTable& t : RunTables()) {
    sql += fmt::format("CREATE TABLE IF NOT EXISTS {} (run_id INTEGER NOT NULL",
                       QuoteSqlIdentifier(t.name));
    for (const auto& c : t.columns)
      sql += fmt::format(", {} {}", QuoteSqlIdentifier(c.name), ColumnTypeName(c.type));
    sql += ");\n";
  }
  db.Exec(sql);
}

void InsertRunRows(SqliteDb& db, const Run& run, int64_t run_id, InsertTransactions transactions) {
  for (const RunTable& t : RunTables()) {
    const size_t rows = t.rows(run);
    if (rows == 0) continue;
    std::optional<SqliteTransaction> transaction;
    if (transactions == InsertTransactions::kPerTable) transaction.emplace(db);
    SqliteStatement insert(db, InsertSql(t));
    BindCells sink(insert);
    for (size_t row = 0; row < rows; ++row) {
      sink.Start(run_id);
      for (const auto& c : t.columns) c.cell(run, row, sink);
      insert.Step();
      insert.Reset();
    }
    if (transaction) transaction->Commit();
  }
}

QueryFormat ParseQueryFormat(std::string_view name) {
  if (name == "table") return QueryFormat::kTable;
  if (name == "csv") return QueryFormat::kCsv;
  if (name == "json") return QueryFormat::kJson;
  throw ValueError(ValueRole::kQueryOutputFormat, std::string(name), "expected table, csv or json");
}

int RunSqlQuery(SqliteDb& db, std::string_view sql, QueryFormat format, std::ostream& out,
                const std::string& out_name) {
  int printed = 0;
  while (!sql.empty()) {
    size_t tail = 0;
    SqliteStatement st(db, sql, &tail);
    sql.remove_prefix(std::min(tail, sql.size()));
    if (st.empty()) continue;
    if (st.ColumnCount() == 0) {
      while (st.Step()) {
      }
      continue;
    }
    // Results are separated by an empty line (an empty CSV record in CSV).
    if (printed > 0 && format != QueryFormat::kJson)
      Emit(out, format == QueryFormat::kCsv ? "\r\n" : "\n", out_name);
    PrintResult(st, format, out, out_name);
    ++printed;
  }
  out.flush();
  if (!out) throw OutputError(out_name, "cannot write the query's result");
  return printed;
}

std::string FormatReal(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return fmt::format("{}", value);
}

}  // namespace htpscope
