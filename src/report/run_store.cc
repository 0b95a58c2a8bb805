#include "report/run_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "base/errors.h"
#include "report/device_profile_tables.h"
#include "report/file_hash.h"
#include "report/run_sql.h"
#include "report/run_tables.h"

namespace htpscope {
namespace {

// Columns the store adds to the run tables: table, column, SQL type.
struct StoreColumn {
  const char* table;
  const char* column;
  const char* type;
};
constexpr StoreColumn kStoreColumns[] = {
    {"runs", "ingest_label", "TEXT"},     {"runs", "ingested_at", "TEXT"},
    {"runs", "artifacts_sha256", "TEXT"}, {"runs", "graph_names", "TEXT"},
    {"runs", "qairt_version", "TEXT"},    {"runs", "viewer_version", "TEXT"},
    {"runs", "backend_version", "TEXT"},  {"runs", "application_version", "TEXT"},
    {"artifacts", "sha256", "TEXT"},      {"artifacts", "size_bytes", "INTEGER"},
};

bool HasTable(SqliteDb& db, const std::string& name) {
  SqliteStatement st(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
  st.BindText(1, name);
  return st.Step();
}

std::set<std::string> ColumnsOf(SqliteDb& db, const std::string& table) {
  SqliteStatement st(db, fmt::format("PRAGMA table_info({})", QuoteSqlIdentifier(table)));
  std::set<std::string> names;
  while (st.Step()) names.emplace(st.ColumnText(1));
  return names;
}

// Adds the tables and columns a newer schema has and the store lacks: the
// run tables only ever grow, so an older store stays usable.
void AddMissingColumns(SqliteDb& db) {
  CreateRunTables(db);
  for (const RunTable& t : RunTables()) {
    std::set<std::string> have = ColumnsOf(db, t.name);
    for (const auto& c : t.columns)
      if (!have.count(c.name))
        db.Exec(fmt::format("ALTER TABLE {} ADD COLUMN {} {}", QuoteSqlIdentifier(t.name),
                            QuoteSqlIdentifier(c.name), ColumnTypeName(c.type)));
  }
  for (const StoreColumn& c : kStoreColumns)
    if (!ColumnsOf(db, c.table).count(c.column))
      db.Exec(fmt::format("ALTER TABLE {} ADD COLUMN {} {}", c.table, c.column, c.type));
  for (const RunTable& t : RunTables())
    db.Exec(fmt::format("CREATE {}INDEX IF NOT EXISTS {} ON {} (run_id)",
                        t.name == "runs" ? "UNIQUE " : "", QuoteSqlIdentifier(t.name + "_by_run"),
                        QuoteSqlIdentifier(t.name)));
  db.Exec(
      "CREATE UNIQUE INDEX IF NOT EXISTS runs_by_artifacts ON runs (artifacts_sha256);"
      "CREATE INDEX IF NOT EXISTS artifacts_by_path ON artifacts (run_id, path)");
}

int StoredSchemaVersion(SqliteDb& db) {
  SqliteStatement st(db, "SELECT value FROM store_info WHERE key = 'schema_version'");
  if (!st.Step()) return 0;
  return static_cast<int>(st.ColumnInt(0));
}

// The first version a profile artifact states, or "".
std::string ProfileVersion(const Run& run, std::string ArtifactRow::*field) {
  const ArtifactRow* profile = run.ProfileArtifact();
  return profile ? profile->*field : "";
}

void BindOrNull(SqliteStatement& st, int index, const std::string& text) {
  text.empty() ? st.BindNull(index) : st.BindText(index, text);
}

// The query of one run's samples of run-level figure `name`: the executions
// of its first graph (as diff pools them) for the profile's figures, else the
// traced execution's value in the runs table when an op-level source exists
// (peak VTCM: whenever the run has one).
std::string RunFigureSql(const std::string& name) {
  const FigureInfo* f = FindFigure(name);
  const char* value = nullptr;  // the column or expression of `executions`
  if (f) {
    switch (f->figure) {
      case Figure::kWallUs:
      case Figure::kColdWallUs:
        value = "qnn_accelerator_us";
        break;
      case Figure::kComputeBusyUs:
      case Figure::kColdComputeBusyUs:
        value = "accelerator_us";
        break;
      case Figure::kOverheadUs:
      case Figure::kColdOverheadUs:
        value = "qnn_accelerator_us - accelerator_us";
        break;
      case Figure::kWorkCycles:
      case Figure::kColdWorkCycles:
        value = "accelerator_cycles";
        break;
      default:
        break;
    }
  }
  if (value)
    return fmt::format(
        "SELECT {} FROM executions WHERE run_id = ? AND graph_id = 0 AND cold = {} "
        "AND {} IS NOT NULL ORDER BY execution",
        value, f->samples == FigureSamples::kColdExecutions ? 1 : 0, value);
  // The runs table's work column is the traced execution's work.
  const std::string column =
      f && f->figure == Figure::kTracedWorkCycles ? FigureName(Figure::kWorkCycles) : name;
  if (f && f->figure == Figure::kPeakVtcmBytes)
    return fmt::format("SELECT {0} FROM runs WHERE run_id = ? AND {0} IS NOT NULL", column);
  return fmt::format(
      "SELECT {0} FROM runs WHERE run_id = ? AND fine_source != 'none' AND {0} IS NOT NULL",
      column);
}

}  // namespace

void CheckRunStore(SqliteDb& db) {
  if (!HasTable(db, "store_info"))
    throw InputNeedsValueError(db.path(), "not an htpscope store of runs (no store_info table)",
                               ValueRole::kRunStore);
  int version = StoredSchemaVersion(db);
  if (version != kRunStoreSchemaVersion)
    throw InputError(db.path(), fmt::format("a store of schema version {}; this htpscope reads "
                                            "version {}",
                                            version, kRunStoreSchemaVersion));
}

void InitRunStore(SqliteDb& db) {
  SqliteTransaction transaction(db, SqliteTransaction::kImmediate);
  if (!HasTable(db, "store_info")) {
    SqliteStatement tables(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'");
    tables.Step();
    if (tables.ColumnInt(0) > 0)
      throw InputError(db.path(),
                       "a SQLite database that is not an htpscope store of runs (it "
                       "has tables but no store_info); give a new file or a store");
    db.Exec("CREATE TABLE store_info (key TEXT PRIMARY KEY, value TEXT)");
    SqliteStatement info(db, "INSERT INTO store_info (key, value) VALUES ('schema_version', ?)");
    info.BindInt(1, kRunStoreSchemaVersion);
    info.Step();
  }
  CheckRunStore(db);
  AddMissingColumns(db);
  transaction.Commit();
}

IngestResult IngestRun(SqliteDb& db, const Run& run, const IngestOptions& options) {
  std::vector<FileHash> hashes;
  std::vector<std::string> digests;
  for (const auto& a : run.artifacts) {
    hashes.push_back(Sha256File(a.path));
    digests.push_back(hashes.back().sha256);
  }
  std::sort(digests.begin(), digests.end());
  std::string joined;
  for (const auto& d : digests) joined += d + "\n";
  IngestResult result;
  result.artifacts_sha256 = Sha256Hex(joined);

  SqliteTransaction transaction(db, SqliteTransaction::kImmediate);
  {
    SqliteStatement known(db,
                          "SELECT run_id, coalesce(ingest_label, '') FROM runs "
                          "WHERE artifacts_sha256 = ?");
    known.BindText(1, result.artifacts_sha256);
    if (known.Step()) {
      result.run_id = known.ColumnInt(0);
      result.label = std::string(known.ColumnText(1));
      return result;  // nothing written: the transaction rolls back
    }
  }
  {
    SqliteStatement next(db, "SELECT coalesce(max(run_id), 0) + 1 FROM runs");
    next.Step();
    result.run_id = next.ColumnInt(0);
  }
  InsertRunRows(db, run, result.run_id, InsertTransactions::kCaller);

  std::string graph_names;
  for (const auto& g : run.graphs) {
    if (g.name.empty()) continue;
    if (!graph_names.empty()) graph_names += ", ";
    graph_names += g.name;
  }
  const std::string viewer = ProfileVersion(run, &ArtifactRow::version);
  const std::string backend = ProfileVersion(run, &ArtifactRow::backend_version);
  const std::string application = ProfileVersion(run, &ArtifactRow::application_version);
  // The QAIRT SDK's version is its HTP backend's; the runner (qnn-net-run)
  // and the viewer ship with the same SDK.
  const std::string qairt = !backend.empty()       ? backend
                            : !application.empty() ? application
                                                   : viewer;
  SqliteStatement update(db,
                         "UPDATE runs SET ingest_label = ?, ingested_at = ?, artifacts_sha256 = ?, "
                         "graph_names = ?, qairt_version = ?, viewer_version = ?, "
                         "backend_version = ?, application_version = ? WHERE run_id = ?");
  BindOrNull(update, 1, options.label);
  update.BindText(2, options.ingested_at);
  update.BindText(3, result.artifacts_sha256);
  BindOrNull(update, 4, graph_names);
  BindOrNull(update, 5, qairt);
  BindOrNull(update, 6, viewer);
  BindOrNull(update, 7, backend);
  BindOrNull(update, 8, application);
  update.BindInt(9, result.run_id);
  update.Step();
  SqliteStatement artifact(
      db, "UPDATE artifacts SET sha256 = ?, size_bytes = ? WHERE run_id = ? AND path = ?");
  for (size_t i = 0; i < run.artifacts.size(); ++i) {
    artifact.BindText(1, hashes[i].sha256);
    artifact.BindInt(2, hashes[i].size_bytes);
    artifact.BindInt(3, result.run_id);
    artifact.BindText(4, run.artifacts[i].path);
    artifact.Step();
    artifact.Reset();
  }
  transaction.Commit();
  result.added = true;
  result.label = options.label;
  return result;
}

const std::vector<TrendMetric>& TrendMetrics() {
  static const std::vector<TrendMetric> all = [] {
    std::vector<TrendMetric> m;
    for (const FigureInfo& f : Figures())
      if (f.trend) m.push_back({f.name, f.unit, f.description});
    const auto& device = DeviceProfileTrendMetrics();
    m.insert(m.end(), device.begin(), device.end());
    return m;
  }();
  return all;
}

const TrendMetric* FindTrendMetric(const std::string& name) {
  for (const auto& m : TrendMetrics())
    if (m.name == name) return &m;
  return nullptr;
}

std::vector<TrendPoint> ReadTrendPoints(SqliteDb& db, const TrendMetric& metric,
                                        const std::string& label) {
  std::vector<TrendPoint> points;
  {
    SqliteStatement runs(db,
                         "SELECT run_id, label, coalesce(ingest_label, ''), "
                         "coalesce(ingested_at, '') FROM runs WHERE ? = '' OR ingest_label = ? "
                         "ORDER BY run_id");
    runs.BindText(1, label);
    runs.BindText(2, label);
    while (runs.Step()) {
      TrendPoint p;
      p.run_id = runs.ColumnInt(0);
      p.run = std::string(runs.ColumnText(1));
      p.label = std::string(runs.ColumnText(2));
      p.ingested_at = std::string(runs.ColumnText(3));
      points.push_back(std::move(p));
    }
  }
  std::string sql = DeviceProfileTrendSql(metric.name);  // an AI Hub or Genie figure's own query
  if (sql.empty()) sql = RunFigureSql(metric.name);
  SqliteStatement samples(db, sql);
  for (auto& p : points) {
    samples.BindInt(1, p.run_id);
    while (samples.Step()) p.samples.push_back(samples.ColumnReal(0));
    samples.Reset();
  }
  return points;
}

}  // namespace htpscope
