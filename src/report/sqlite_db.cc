#include "report/sqlite_db.h"

#include <sqlite3.h>

#include <limits>

namespace htpscope {
namespace {

std::string Message(sqlite3* db, int rc) {
  if (db && sqlite3_errcode(db) == rc) return sqlite3_errmsg(db);
  return sqlite3_errstr(rc);
}

}  // namespace

SqliteDb::SqliteDb(const std::string& path, Mode mode)
    : path_(mode == Mode::kMemory ? ":memory:" : path) {
  int flags = SQLITE_OPEN_NOMUTEX;
  switch (mode) {
    case Mode::kMemory:
      flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY;
      break;
    case Mode::kReadOnly:
      flags |= SQLITE_OPEN_READONLY;
      break;
    case Mode::kReadWriteCreate:
      flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
      break;
  }
  int rc = sqlite3_open_v2(path_.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string problem = Message(db_, rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw SqlFileError(path_, problem);
  }
  sqlite3_extended_result_codes(db_, 1);
  // A file that is not a database is only noticed at the first read.
  if (mode != Mode::kMemory) {
    try {
      Exec("SELECT count(*) FROM sqlite_master");
    } catch (const SqlError& e) {
      sqlite3_close(db_);
      db_ = nullptr;
      throw SqlFileError(path_, e.what());
    }
  }
}

SqliteDb::~SqliteDb() { sqlite3_close(db_); }

void SqliteDb::Exec(const std::string& sql) {
  char* error = nullptr;
  int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
  if (rc != SQLITE_OK) {
    std::string message = error ? error : sqlite3_errstr(rc);
    sqlite3_free(error);
    throw SqlError(message);
  }
}

int64_t SqliteDb::LastInsertRowId() const { return sqlite3_last_insert_rowid(db_); }

SqliteTransaction::SqliteTransaction(SqliteDb& db, Kind kind) : db_(db) {
  db_.Exec(kind == kImmediate ? "BEGIN IMMEDIATE" : "BEGIN");
}

SqliteTransaction::~SqliteTransaction() {
  if (!open_) return;
  try {
    db_.Exec("ROLLBACK");
  } catch (const SqlError&) {  // nothing more can be done while unwinding
  }
}

void SqliteTransaction::Commit() {
  db_.Exec("COMMIT");
  open_ = false;
}

SqliteStatement::SqliteStatement(SqliteDb& db, std::string_view sql, size_t* tail) : db_(db) {
  const char* end = nullptr;
  if (sql.size() > static_cast<size_t>(std::numeric_limits<int>::max()))
    throw SqlError("statement too long");
  int rc = sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &stmt_, &end);
  if (rc != SQLITE_OK) throw SqlError(Message(db.handle(), rc));
  if (tail) *tail = end ? static_cast<size_t>(end - sql.data()) : sql.size();
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

void SqliteStatement::BindNull(int index) { sqlite3_bind_null(stmt_, index); }
void SqliteStatement::BindInt(int index, int64_t value) { sqlite3_bind_int64(stmt_, index, value); }
void SqliteStatement::BindReal(int index, double value) {
  sqlite3_bind_double(stmt_, index, value);
}
void SqliteStatement::BindText(int index, std::string_view value) {
  int rc =
      sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK) throw SqlError(Message(db_.handle(), rc));
}

bool SqliteStatement::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  throw SqlError(Message(db_.handle(), rc));
}

void SqliteStatement::Reset() { sqlite3_reset(stmt_); }

int SqliteStatement::ColumnCount() const { return sqlite3_column_count(stmt_); }
std::string SqliteStatement::ColumnName(int column) const {
  const char* name = sqlite3_column_name(stmt_, column);
  return name ? name : "";
}
SqlValueType SqliteStatement::ColumnType(int column) const {
  switch (sqlite3_column_type(stmt_, column)) {
    case SQLITE_INTEGER:
      return SqlValueType::kInt;
    case SQLITE_FLOAT:
      return SqlValueType::kReal;
    case SQLITE_NULL:
      return SqlValueType::kNull;
    default:  // text, and blobs shown as their bytes
      return SqlValueType::kText;
  }
}
int64_t SqliteStatement::ColumnInt(int column) const { return sqlite3_column_int64(stmt_, column); }
double SqliteStatement::ColumnReal(int column) const {
  return sqlite3_column_double(stmt_, column);
}
std::string_view SqliteStatement::ColumnText(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  int size = sqlite3_column_bytes(stmt_, column);
  if (!text) return {};
  return {reinterpret_cast<const char*>(text), static_cast<size_t>(size)};
}

std::string QuoteSqlIdentifier(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

}  // namespace htpscope
