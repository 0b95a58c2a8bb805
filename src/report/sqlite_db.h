// A thin owner of a SQLite connection (Debian's libsqlite3) and its prepared
// statements: opening, executing, binding and stepping, with SQLite's own
// message carried by every failure.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace htpscope {

// A statement SQLite refused or failed to run (bad SQL, a constraint, a
// read-only database): what() is SQLite's message, e.g.
// `near "selec": syntax error`.
class SqlError : public std::runtime_error {
 public:
  explicit SqlError(const std::string& message) : std::runtime_error(message) {}
};

// A database file that cannot be opened or written: what() names the file
// and SQLite's reason.
class SqlFileError : public std::runtime_error {
 public:
  SqlFileError(std::string file, const std::string& problem)
      : std::runtime_error(file + ": " + problem), file_(std::move(file)), problem_(problem) {}
  const std::string& file() const { return file_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string file_, problem_;
};

class SqliteStatement;

class SqliteDb {
 public:
  enum class Mode { kMemory, kReadOnly, kReadWriteCreate };
  // Opens `path` (ignored for kMemory).  Throws SqlFileError.
  SqliteDb(const std::string& path, Mode mode);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  // Runs `sql` (any number of statements, no results).  Throws SqlError.
  void Exec(const std::string& sql);
  // The rowid of the last row inserted.
  int64_t LastInsertRowId() const;
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_; }

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

// A transaction: BEGIN on construction, COMMIT on Commit(), ROLLBACK when
// destroyed without it.  kImmediate takes the write lock at once, so that
// what the transaction reads cannot change before it writes.
class SqliteTransaction {
 public:
  enum Kind { kDeferred, kImmediate };
  explicit SqliteTransaction(SqliteDb& db, Kind kind = kDeferred);
  ~SqliteTransaction();
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;
  void Commit();

 private:
  SqliteDb& db_;
  bool open_ = true;
};

enum class SqlValueType { kNull, kInt, kReal, kText };

class SqliteStatement {
 public:
  // Prepares the first statement of `sql`; `*tail` (when given) receives the
  // offset just past it.  Throws SqlError.
  SqliteStatement(SqliteDb& db, std::string_view sql, size_t* tail = nullptr);
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  // True when `sql` held only whitespace or comments (nothing to run).
  bool empty() const { return stmt_ == nullptr; }

  // Binders; `index` is 1-based as in SQLite.  Text is copied.
  void BindNull(int index);
  void BindInt(int index, int64_t value);
  void BindReal(int index, double value);
  void BindText(int index, std::string_view value);

  // Runs one step: true when a row is ready, false when done.  Throws SqlError.
  bool Step();
  // Resets for the next set of bindings (bindings are kept until rebound).
  void Reset();

  int ColumnCount() const;
  std::string ColumnName(int column) const;
  SqlValueType ColumnType(int column) const;
  int64_t ColumnInt(int column) const;
  double ColumnReal(int column) const;
  std::string_view ColumnText(int column) const;

 private:
  SqliteDb& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// `name` as a quoted SQL identifier ("name", with '"' doubled).
std::string QuoteSqlIdentifier(std::string_view name);

}  // namespace htpscope
