#include <fmt/format.h>

#include "analysis/lint.h"
#include "base/errors.h"
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/terminal.h"
#include "model/run.h"
#include "report/lint_report.h"

namespace htpscope::cli {

void RegisterLintCommand(CLI::App& app, CommandRegistry& registry) {
  struct Options {
    std::string input;
    bool json = false;
    int top_n = 5;
    int rows = 25;
    size_t block = 0;
    std::string graph;
    std::vector<std::string> run;
  };
  static Options options;
  auto* cmd = app.add_subcommand(
      "lint",
      "Main-thread bottlenecks of a linting-level profile: per-op share of the critical path, "
      "overlap, exposed cycles, with hints");
  cmd->add_option("file", options.input,
                  "qnn-profile-viewer linting output (text or CSV) or snpe-diagview text")
      ->required();
  AddJsonFlag(cmd, options.json, "docs/lint-heap-memory.md");
  cmd->add_option("--top", options.top_n, "Bottlenecks listed per graph")->check(AtLeast(1));
  cmd->add_option("--rows", options.rows, "Op-table rows per graph (most exposed first)")
      ->check(AtLeast(0));
  cmd->add_option("--block", options.block,
                  "Which linting block (an execution or statistics section) the top-level JSON "
                  "fields describe (0-based, file order)");
  cmd->add_option("--graph", options.graph,
                  "Only this graph of a profile that holds several (prefill, decode, ...)");
  cmd->add_option("--run", options.run,
                  "A run of the same model (directory or files with a QHAS summary or optrace): "
                  "QNN op types for the hints instead of guessing them from op names");
  registry.Add(cmd, [] {
    LoadOptions load;
    load.graph = options.graph;
    Run profile = LoadRun({options.input}, load);
    if (!profile.HasProfile())
      throw InputError(options.input,
                       fmt::format("is {}: expected qnn-profile-viewer linting output (text or "
                                   "CSV) or snpe-diagview text",
                                   ArtifactKindName(profile.artifacts.front().type)));
    std::map<std::string, std::string> op_types;
    LintOptions lint_options;
    lint_options.top_n = options.top_n;
    if (!options.run.empty()) {
      op_types = OpTypesFromRun(LoadRun(options.run));
      if (op_types.empty())
        throw InputError(options.run.front(),
                         "--run: no QHAS summary or optrace with QNN op types in this run");
      lint_options.op_types = &op_types;
    }
    LintAnalysis lint = AnalyzeLint(profile, lint_options);
    if (options.block >= lint.graphs.size())
      throw UsageError(fmt::format("--block {}: the file has {} linting block(s) (0..{})",
                                   options.block, lint.graphs.size(), lint.graphs.size() - 1));
    if (options.json) {
      PrintText(LintToJson(lint, options.block).dump(2) + "\n", true);
    } else {
      LintReportOptions report_options;
      report_options.rows = options.rows;
      PrintReport(RenderLintText(lint, report_options));
    }
    return 0;
  });
}

}  // namespace htpscope::cli
