#include <fmt/format.h>

#include "analysis/heap.h"
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/terminal.h"
#include "report/heap_report.h"
#include "report/text_sanitize.h"

namespace htpscope::cli {

void RegisterHeapCommand(CLI::App& app, CommandRegistry& registry) {
  struct Options {
    std::vector<std::string> inputs;
    bool json = false;
  };
  static Options options;
  auto* cmd = app.add_subcommand(
      "heap",
      "DSP heap before the first context is created, after the last is freed, and the delta, "
      "per file (ExecuTorch heap file, profile-viewer text/CSV, QNN_PROFILE JSON)");
  cmd->add_option("files", options.inputs, "One file per run; several runs are shown together")
      ->required();
  AddJsonFlag(cmd, options.json, "docs/lint-heap-memory.md");
  registry.Add(cmd, [] {
    std::vector<HeapUsage> runs;
    for (const auto& path : options.inputs) runs.push_back(ReadAndAnalyzeHeap(path));
    if (options.json) {
      PrintText(HeapToJson(runs).dump(2) + "\n", true);
    } else {
      PrintReport(RenderHeapText(runs));
    }
    // Every figure a file supports is printed above; a problem in any file
    // still makes the input bad.
    bool bad = false;
    for (const auto& r : runs)
      for (const auto& p : r.problems) {
        fmt::print(stderr, "htpscope: error: {}: {}\n", TerminalSafe(r.path), TerminalSafe(p));
        bad = true;
      }
    return bad ? 2 : 0;
  });
}

}  // namespace htpscope::cli
