// htpscope trend: one figure over the runs of a store, each change marked
// against the noise bound `diff` uses.
#include <fmt/format.h>

#include <iostream>
#include <sstream>

#include "analysis/trend.h"
#include "base/errors.h"
#include "cli/commands.h"
#include "cli/query_format_args.h"
#include "cli/terminal.h"
#include "report/run_store.h"
#include "report/sqlite_db.h"
#include "report/trend_report.h"

namespace htpscope::cli {

void RegisterTrendCommand(CLI::App& app, CommandRegistry& registry) {
  struct Options {
    std::string db, metric, label;
    int baseline = 1;
    QueryFormatArgs output;
  };
  static Options options;
  auto* cmd = app.add_subcommand(
      "trend",
      "One figure over the runs of a store (htpscope ingest), oldest first, each run marked "
      "up/down when it moved beyond the noise bound `diff` uses");
  cmd->add_option("--db", options.db, "The store (SQLite file)")->required();
  std::string metrics;
  for (const auto& m : TrendMetrics()) metrics += (metrics.empty() ? "" : ", ") + m.name;
  cmd->add_option("--metric", options.metric, "The figure: " + metrics)->required();
  cmd->add_option("--label", options.label, "Only the runs ingested with this label");
  cmd->add_option("--baseline", options.baseline,
                  "Compare each run with this many runs before it, pooled (default 1: the "
                  "previous run, as `diff PREVIOUS RUN` would)")
      ->check(CLI::PositiveNumber);
  AddQueryFormatArgs(cmd, options.output);
  cmd->footer(
      "Samples per run: the steady-state executions 2..N of its first graph for wall_us, "
      "compute_busy_us, overhead_us, work_cycles (the first execution for cold_*); one value "
      "per run for the traced figures, whose noise needs --baseline 3 or more.  Details: "
      "docs/sql.md");
  registry.Add(cmd, [] {
    const TrendMetric* metric = FindTrendMetric(options.metric);
    if (!metric) {
      std::string names;
      for (const auto& m : TrendMetrics()) names += (names.empty() ? "" : ", ") + m.name;
      throw UsageError(
          fmt::format("--metric {}: not a figure trend follows; one of {}", options.metric, names));
    }
    TrendView view;
    view.metric = *metric;
    view.label = options.label;
    view.baseline_runs = options.baseline;
    try {
      SqliteDb db(options.db, SqliteDb::Mode::kReadOnly);
      CheckRunStore(db);
      view.rows =
          ComputeTrend(ReadTrendPoints(db, *metric, options.label), options.baseline, metric->unit);
    } catch (const SqlFileError& e) {
      throw InputError(e.file(), e.problem());
    } catch (const SqlError& e) {
      throw InputError(options.db, fmt::format("reading the store: {}", e.what()));
    }
    if (view.rows.empty())
      throw InputError(options.db, options.label.empty()
                                       ? "the store holds no runs"
                                       : fmt::format("no run has the label {}", options.label));
    const QueryFormat format = options.output.Chosen();
    std::ostringstream out;
    WriteTrend(view, format, out);
    PrintText(out.str(), format != QueryFormat::kTable);
    return 0;
  });
}

}  // namespace htpscope::cli
