#include <fmt/format.h>

#include <algorithm>

#include "analysis/summary.h"
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/etdump_summary_command.h"
#include "cli/kept_until_exit.h"
#include "cli/run_args.h"
#include "cli/terminal.h"
#include "model/run.h"
#include "report/device_profile_report.h"
#include "report/module_report.h"
#include "report/summary_report.h"

namespace htpscope::cli {

void RegisterSummaryCommand(CLI::App& app, CommandRegistry& registry) {
  struct Options : RunViewArgs {
    std::optional<double> clock_ghz;
    std::string modules;  // "--modules[=DEPTH]": the depth, "" for the default
  };
  static Options options;
  auto* cmd = app.add_subcommand(
      "summary",
      "Coarse (µs per execution) and fine (cycles per op and unit) views of one profiled "
      "run, with clock sanity, cross-checks and what is missing");
  AddRunViewArgs(cmd, options, "docs/summary-json.md", "Rows in the top-N op tables");
  cmd->add_option("--clock-ghz", options.clock_ghz,
                  "Plausible HTP clock for the cycles÷µs sanity check (default: the runtrace's "
                  "highest phase clock, "
                  "else 2.0)")
      ->check(GreaterThan(0));
  CLI::Option* modules =
      cmd->add_option("--modules", options.modules,
                      "Also print time by the model's own modules (ONNX scopes, PyTorch module "
                      "paths) down to DEPTH levels (default 3), and the repeated blocks far "
                      "from their siblings (docs/modules.md)")
          ->expected(0, 1)
          ->type_name("DEPTH")
          ->check(
              [](const std::string& v) -> std::string {
                bool digits =
                    !v.empty() && v.size() <= 3 &&
                    std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
                if (v.empty() || digits) return "";
                return "DEPTH must be a whole number, e.g. --modules=4";
              },
              "DEPTH");
  registry.Add(cmd, [modules] {
    // A lone ETDump read to choose the path is not read a third time below.
    std::optional<EtdumpRun> etdump_events;
    if (AllInputsAreEtdumps(options.run.inputs))
      if (std::optional<int> status =
              SummarizeLoneEtdump(options.run.inputs, options.json, options.top_n, etdump_events))
        return *status;
    Run& run = KeepUntilExit(LoadRunFromArgs(options.run));
    SummaryOptions summary_options;
    summary_options.top_n = options.top_n;
    summary_options.clock_ghz = options.clock_ghz;
    const Summary& summary = KeepUntilExit(Summarize(run, summary_options));
    if (options.json) {
      LazyObject doc = SummaryJson(summary);
      AddDeviceProfilesJson(run, doc.members);  // nothing for a run without device profiles
      AddEtdumpEventsJson(run, doc.members, etdump_events);  // none unless the profile is one
      PrintJson(doc);
    } else {
      const int depth = options.modules.empty() ? kDefaultModuleDepth : std::stoi(options.modules);
      if (run.OnlyDeviceProfiles()) {
        // Device profiles alone (AI Hub, Genie, a runner's log): their own
        // figures, no HTP sections; the module tree of an AI Hub profile's
        // layers after them.
        std::string text = RenderDeviceProfilesText(run, options.top_n, true);
        if (modules->count() > 0) text += RenderModulesText(summary.modules, depth, options.top_n);
        PrintReport(text);
      } else {
        std::string text = RenderSummaryText(summary, options.top_n);
        if (modules->count() > 0) text += RenderModulesText(summary.modules, depth, options.top_n);
        PrintReport(text + RenderDeviceProfilesText(run, options.top_n, false) +
                    EtdumpEventsText(run, options.top_n, etdump_events));
      }
    }
    return 0;
  });
}

}  // namespace htpscope::cli
