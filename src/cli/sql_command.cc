// htpscope sql: SQL over the run's tables (docs/tables.md), in an in-memory
// SQLite database holding the given runs, or over a store of runs (--db).
#include <fmt/format.h>

#include <iostream>
#include <sstream>

#include "base/errors.h"
#include "cli/commands.h"
#include "cli/query_format_args.h"
#include "cli/run_args.h"
#include "cli/terminal.h"
#include "report/run_sql.h"
#include "report/run_store.h"
#include "report/sqlite_db.h"

namespace htpscope::cli {

void RegisterSqlCommand(CLI::App& app, CommandRegistry& registry) {
  struct Options {
    RunArgs run;
    std::string db;
    std::string query;
    QueryFormatArgs output;
  };
  static Options options;
  auto* cmd = app.add_subcommand(
      "sql",
      "Query runs with SQL: their tables (runs, graphs, executions, ops, op_instances, slices, "
      "units, counters, phases, traffic, warnings, ...; docs/tables.md) in SQLite, every row "
      "with its run_id; cycles stay cycles");
  AddRunArgs(cmd, options.run);
  cmd->get_option("run")->required(false)->description(
      "Runs: every directory is one run (run_id 1, 2, ... in the order given); artifact "
      "files given together form one more run, after them");
  cmd->add_option("--db", options.db, "Query this store of runs (htpscope ingest) instead");
  cmd->add_option("-q,--query", options.query,
                  "SQL: one or more statements separated by ';'; every statement that returns "
                  "rows prints its result")
      ->required();
  AddQueryFormatArgs(cmd, options.output);
  cmd->footer(
      "Examples:\n"
      "  htpscope sql RUN -q 'select sum(dur_cycles) from slices'\n"
      "  htpscope sql RUN -q 'select name, dpc_cycles from ops order by dpc_cycles desc limit 5'\n"
      "  htpscope sql A B -q 'select run_id, tid, cycles_used from units order by tid, run_id'\n"
      "  htpscope sql --db runs.db -q 'select run_id, ingest_label, graph_wall_cycles from runs'\n"
      "Schema: docs/tables.md.  Bad SQL exits 2 with SQLite's message.");
  registry.Add(cmd, [] {
    const bool have_runs = !options.run.inputs.empty();
    if (have_runs == !options.db.empty())
      throw UsageError(have_runs ? "give either runs or --db FILE, not both"
                                 : "give one or more runs, or --db FILE");
    const QueryFormat format = options.output.Chosen();
    std::optional<SqliteDb> db;
    try {
      if (have_runs) {
        db.emplace("", SqliteDb::Mode::kMemory);
        CreateRunTables(*db);
        int64_t run_id = 0;
        for (const auto& inputs : GroupRunInputs(options.run.inputs)) {
          Run run = LoadRunFromArgs({inputs, options.run.allow_mismatch, options.run.graph});
          InsertRunRows(*db, run, ++run_id);
        }
      } else {
        db.emplace(options.db, SqliteDb::Mode::kReadOnly);
        CheckRunStore(*db);
      }
    } catch (const SqlFileError& e) {
      throw InputError(e.file(), e.problem());
    } catch (const SqlError& e) {
      throw InternalError(fmt::format("loading the run tables into SQLite: {}", e.what()));
    }
    try {
      // A table is text for a terminal: printed with its control characters escaped.
      std::ostringstream out;
      RunSqlQuery(*db, options.query, format, out);
      PrintText(out.str(), format != QueryFormat::kTable);
    } catch (const SqlError& e) {
      throw UsageError(fmt::format("SQL: {} (query: {})", e.what(), options.query));
    }
    return 0;
  });
}

}  // namespace htpscope::cli
