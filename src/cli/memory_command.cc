#include <fmt/format.h>

#include "analysis/memory.h"
#include "base/errors.h"
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/kept_until_exit.h"
#include "cli/run_args.h"
#include "cli/terminal.h"
#include "model/run.h"
#include "report/memory_report.h"

namespace htpscope::cli {

void RegisterMemoryCommand(CLI::App& app, CommandRegistry& registry) {
  static RunViewArgs options;
  auto* cmd = app.add_subcommand(
      "memory",
      "Memory view of one traced execution: peak VTCM allocation and when, DRAM/VTCM bytes in "
      "total and per op, Spill/Fill");
  AddRunViewArgs(cmd, options, "docs/lint-heap-memory.md", "Rows in the per-op tables");
  registry.Add(cmd, [] {
    Run& run = KeepUntilExit(LoadRunFromArgs(options.run));
    if (!run.Gives(RunData::kTimedSlices) && !run.Gives(RunData::kQhasAnalysis) &&
        !run.Gives(RunData::kCompiledGraph))
      throw InputError(run.label,
                       "no optrace, QHAS summary or HTP graph in this run: nothing to tell about "
                       "memory (chrometrace.json, *_qnn_htp_analysis_summary.json, *_htp.json)");
    const MemoryView& memory = KeepUntilExit(AnalyzeMemory(run));
    if (options.json) {
      PrintJson(MemoryJson(memory));
    } else {
      PrintReport(RenderMemoryText(memory, options.top_n));
    }
    return 0;
  });
}

}  // namespace htpscope::cli
