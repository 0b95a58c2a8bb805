// htpscope ingest: adds runs to a store of runs (a SQLite file), once each.
#include <fmt/format.h>

#include <chrono>
#include <ctime>

#include "base/errors.h"
#include "cli/commands.h"
#include "cli/run_args.h"
#include "report/run_store.h"
#include "report/sqlite_db.h"

namespace htpscope::cli {
namespace {

std::string UtcNow() {
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace

void RegisterIngestCommand(CLI::App& app, CommandRegistry& registry) {
  struct Options {
    RunArgs run;
    std::string db;
    std::string label;
  };
  static Options options;
  auto* cmd = app.add_subcommand(
      "ingest",
      "Add runs to a store of runs (a SQLite file, created when absent): their tables, graph "
      "names, QAIRT versions and artifact SHA-256 hashes; a run already stored (same artifacts) "
      "is not added again");
  AddRunArgs(cmd, options.run);
  cmd->get_option("run")->description(
      "Runs: every directory is one run; artifact files given together form one more run");
  cmd->add_option("--db", options.db, "The store (SQLite file)")->required();
  cmd->add_option("--label", options.label,
                  "A label for these runs (device, branch, configuration...); `trend --label` "
                  "follows one label");
  cmd->footer(
      "Query the store with `htpscope sql --db FILE`, follow a figure with `htpscope "
      "trend --db FILE --metric wall_us`.  Details: docs/sql.md");
  registry.Add(cmd, [] {
    const std::string now = UtcNow();
    try {
      SqliteDb db(options.db, SqliteDb::Mode::kReadWriteCreate);
      InitRunStore(db);
      for (const auto& inputs : GroupRunInputs(options.run.inputs)) {
        Run run = LoadRunFromArgs({inputs, options.run.allow_mismatch, options.run.graph});
        IngestResult r = IngestRun(db, run, {options.label, now});
        if (r.added)
          fmt::print("run {}: added {}{}\n", r.run_id, run.label,
                     options.label.empty() ? "" : fmt::format(" (label {})", options.label));
        else
          fmt::print("run {}: already stored{} (the same artifacts): {} not added again\n",
                     r.run_id, r.label.empty() ? "" : fmt::format(" with label {}", r.label),
                     run.label);
      }
    } catch (const SqlFileError& e) {
      throw OutputError(e.file(), e.problem());
    } catch (const SqlError& e) {
      throw OutputError(options.db, e.what());
    }
    return 0;
  });
}

}  // namespace htpscope::cli
