// htpscope export: the run's tables as a SQLite file or CSV files, and its
// traced execution as a Perfetto trace.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "base/errors.h"
#include "cli/commands.h"
#include "cli/kept_until_exit.h"
#include "cli/run_args.h"
#include "report/perfetto_export.h"
#include "report/run_csv.h"
#include "report/run_sql.h"
#include "report/run_tables.h"
#include "report/sqlite_db.h"

namespace htpscope::cli {
namespace {

// Refuses to write over one of the run's own artifacts.
void RefuseInput(const Run& run, const std::string& output) {
  for (const auto& a : run.artifacts) {
    std::error_code ec;
    if (std::filesystem::equivalent(a.path, output, ec))
      throw OutputError(output, "is one of the run's artifacts; refusing to overwrite it");
  }
}

// Output goes to a temporary file beside its destination, renamed over it
// once complete, so a failed export leaves no half-written file behind.
std::string TemporaryPath(const std::string& path) {
  return fmt::format("{}.tmp-{}", path, ::getpid());
}

void Publish(const std::string& temporary, const std::string& path) {
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    throw OutputError(path, ec.message());
  }
}

void ExportSqlite(const Run& run, const std::string& path) {
  const std::string temporary = TemporaryPath(path);
  std::error_code ec;
  std::filesystem::remove(temporary, ec);
  try {
    SqliteDb db(temporary, SqliteDb::Mode::kReadWriteCreate);
    // A fresh file published only when complete needs no journal.
    db.Exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF");
    CreateRunTables(db);
    InsertRunRows(db, run, 1);
  } catch (const SqlFileError& e) {
    std::filesystem::remove(temporary, ec);
    throw OutputError(path, e.problem());
  } catch (const SqlError& e) {
    std::filesystem::remove(temporary, ec);
    throw OutputError(path, e.what());
  }
  Publish(temporary, path);
  fmt::print(stderr, "htpscope: wrote {} (SQLite, the run's tables; schema: docs/tables.md)\n",
             path);
}

void ExportPerfetto(const Run& run, const PerfettoOptions& perfetto, const std::string& path) {
  const std::string temporary = TemporaryPath(path);
  PerfettoStats stats;
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw OutputError(path, std::strerror(errno));
    try {
      stats = WritePerfettoTrace(run, perfetto, out, path);
    } catch (...) {
      out.close();
      std::error_code ec;
      std::filesystem::remove(temporary, ec);
      throw;
    }
    out.close();
    if (!out) throw OutputError(path, std::strerror(errno));
  }
  Publish(temporary, path);
  fmt::print(stderr,
             "htpscope: wrote {} (Perfetto trace: {} slices on {} hardware-thread tracks, {} "
             "counter values, {} dependency flows, {} runtrace phases; {})\n",
             path, stats.slices, stats.thread_tracks, stats.counter_samples, stats.flows,
             stats.phases,
             perfetto.clock_ghz ? fmt::format("ns at {} GHz", *perfetto.clock_ghz)
                                : std::string("1 ns = 1 HTP cycle"));
}

}  // namespace

void RegisterExportCommand(CLI::App& app, CommandRegistry& registry) {
  struct Options {
    RunArgs run;
    std::string sqlite, csv, perfetto;
    std::optional<double> clock_ghz;
  };
  static Options options;
  auto* cmd = app.add_subcommand(
      "export",
      "Write the run's tables as a SQLite file (--sqlite) or one CSV file per table (--csv), "
      "and its traced execution as a Perfetto trace (--perfetto)");
  AddRunArgs(cmd, options.run);
  cmd->add_option("--sqlite", options.sqlite,
                  "Write the run's tables to this SQLite file (replaced when it exists)");
  cmd->add_option("--csv", options.csv,
                  "Write one TABLE.csv per table (RFC 4180) into this directory");
  cmd->add_option("--perfetto", options.perfetto,
                  "Write the traced execution as a Perfetto trace (binary protobuf) to this file");
  cmd->add_option("--clock-ghz", options.clock_ghz,
                  "Perfetto: convert cycles to time at this HTP clock (GHz); by default one "
                  "cycle is written as one nanosecond")
      ->check(CLI::PositiveNumber);
  cmd->footer(
      "Tables and columns: docs/tables.md; SQLite, CSV and the Perfetto layout: docs/export.md.  "
      "CSV and SQLite "
      "hold the same tables, every row with its run_id (1).");
  registry.Add(cmd, [] {
    if (options.sqlite.empty() && options.csv.empty() && options.perfetto.empty())
      throw UsageError("give at least one of --sqlite FILE, --csv DIR, --perfetto FILE");
    if (options.clock_ghz && options.perfetto.empty())
      throw UsageError("--clock-ghz applies to --perfetto only");
    Run& run = KeepUntilExit(LoadRunFromArgs(options.run));
    for (const std::string* output : {&options.sqlite, &options.perfetto})
      if (!output->empty()) RefuseInput(run, *output);
    if (!options.csv.empty())
      for (const RunTable& t : RunTables())
        RefuseInput(run, (std::filesystem::path(options.csv) / (t.name + ".csv")).string());
    if (!options.sqlite.empty()) ExportSqlite(run, options.sqlite);
    if (!options.csv.empty()) {
      CsvExportStats stats = ExportRunCsv(run, 1, options.csv);
      fmt::print(stderr, "htpscope: wrote {} CSV files ({} rows) to {}\n", stats.tables, stats.rows,
                 options.csv);
    }
    if (!options.perfetto.empty()) {
      PerfettoOptions perfetto;
      perfetto.clock_ghz = options.clock_ghz;
      ExportPerfetto(run, perfetto, options.perfetto);
    }
    return 0;
  });
}

}  // namespace htpscope::cli
