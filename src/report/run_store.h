// A store of many runs in one SQLite file (`htpscope ingest`, `trend`,
// `sql --db`; docs/sql.md).  It holds the tables of report/run_tables.h,
// every row with its run_id, and adds what the store knows about each run:
//  * runs: ingest_label (--label), ingested_at (UTC, ISO 8601),
//    artifacts_sha256 (the run's identity: SHA-256 over its artifacts'
//    SHA-256 digests, sorted), graph_names, qairt_version, viewer_version,
//    backend_version, application_version (as the profile states them);
//  * artifacts: sha256 and size_bytes of each file;
//  * store_info: key/value facts about the store (schema_version).
// The same artifacts (by content) are stored once: ingesting them again adds
// nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/trend.h"
#include "model/figures.h"
#include "model/run.h"
#include "report/sqlite_db.h"

namespace htpscope {

inline constexpr int kRunStoreSchemaVersion = 1;

// Makes `db` a store: creates the tables in an empty database, checks the
// schema version of an existing store.  Throws InputError (naming the file)
// when the database holds other tables or a store of another version.
void InitRunStore(SqliteDb& db);

// Checks that `db` is a store of this version (for reading).  Throws
// InputError naming the file otherwise: an InputNeedsValueError (kRunStore)
// when it is no store at all.
void CheckRunStore(SqliteDb& db);

struct IngestOptions {
  std::string label;        // --label; "" for none
  std::string ingested_at;  // UTC, ISO 8601 ("2026-06-03T02:01:35Z")
};

struct IngestResult {
  int64_t run_id = 0;
  bool added = false;  // false: the same artifacts were stored before as run_id
  std::string label;   // the stored run's ingest_label
  std::string artifacts_sha256;
};

// Adds `run` to the store in one transaction (all of it or nothing), unless
// a run with the same artifacts (by SHA-256 of their bytes) is stored
// already.  Reads the artifact files to hash them.  Throws InputError when
// a file cannot be read, SqlError when the store cannot be written.
IngestResult IngestRun(SqliteDb& db, const Run& run, const IngestOptions& options);

// A figure `trend` can follow, and where the store holds it.
struct TrendMetric {
  std::string name;   // FigureInfo::name (model/figures.h), or an AI Hub or Genie figure's
  std::string unit;   // "us", "cycles", "bytes", "instances"
  std::string basis;  // what a run's samples are, for people
};
// Every metric `trend --metric` accepts: the registry's figures the store
// keeps (FigureInfo::trend), in diff's order, then the AI Hub and Genie ones.
const std::vector<TrendMetric>& TrendMetrics();
const TrendMetric* FindTrendMetric(const std::string& name);

// The store's runs in run_id order (with ingest_label == `label` when it is
// not empty), each with its samples of `metric`: the profile's executions of
// its first graph (steady state 2..N, or the cold first one) for the µs and
// work figures, the traced execution's one value for the others.
std::vector<TrendPoint> ReadTrendPoints(SqliteDb& db, const TrendMetric& metric,
                                        const std::string& label);

}  // namespace htpscope
