#include <fmt/format.h>

#include <future>
#include <stdexcept>

#include "analysis/dependency_graph.h"
#include "analysis/timeline.h"
#include "base/errors.h"
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/kept_until_exit.h"
#include "cli/output_file.h"
#include "cli/run_args.h"
#include "cli/terminal.h"
#include "model/input_text.h"
#include "model/run.h"
#include "report/timeline_report.h"

namespace htpscope::cli {

// Options shared by `timeline` and `graph`: how ops are grouped.
void AddGroupingOptions(CLI::App* cmd, std::vector<std::string>& groups, std::string& group_by) {
  cmd->add_option("--group", groups,
                  "A user op group NAME=REGEX (repeatable, first match wins): ops whose QNN op "
                  "name, or else HTP op type, the regex matches");
  cmd->add_option("--group-by", group_by,
                  "Default grouping of ops: qnn (QNN op) or htp (HTP op type)")
      ->check(CLI::IsMember({"qnn", "htp"}));
}

void AddTopOptions(CLI::App* cmd, size_t& top, bool& all, const std::string& what) {
  cmd->add_option("--top", top, "Rows per list in text output (" + what + "); default 20")
      ->check(AtLeast(1));
  cmd->add_flag("--all", all, "List every row in text output");
}

Grouping MakeGrouping(const std::vector<std::string>& groups, const std::string& group_by) {
  Grouping grouping;
  grouping.by = group_by == "htp" ? GroupBy::kHtpOpType : GroupBy::kQnnOp;
  for (const auto& spec : groups) {
    try {
      grouping.user.push_back(ParseUserGroup(spec));
    } catch (const std::invalid_argument& e) {
      throw UsageError(fmt::format("--group {}", e.what()));
    }
  }
  return grouping;
}

void RegisterTimelineCommand(CLI::App& app, CommandRegistry& registry) {
  struct Options {
    RunArgs run;
    std::vector<std::string> groups;
    std::string group_by = "qnn";
    std::optional<int64_t> from_cycle, to_cycle;
    std::optional<std::string> from_op, to_op;
    int width = 100;
    size_t top = 20;
    bool all = false;
    std::string svg;
    bool json = false;
  };
  static Options o;
  auto* cmd = app.add_subcommand(
      "timeline",
      "Per-thread timeline of the traced execution (HMX tid 256 and each HVX thread): op groups, "
      "boundary and system-service ops, idle gaps; busy, span and concurrency per op group");
  AddRunArgs(cmd, o.run);
  AddGroupingOptions(cmd, o.groups, o.group_by);
  cmd->add_option("--from-cycle", o.from_cycle,
                  "Window start, in cycles from the first executed slice's start");
  cmd->add_option("--to-cycle", o.to_cycle,
                  "Window end, in cycles from the first executed slice's start");
  cmd->add_option("--from", o.from_op,
                  "Window start: the first start of this op (QNN op name, HTP op type or group)");
  cmd->add_option("--to", o.to_op,
                  "Window end: the last end of this op (QNN op name, HTP op type or group)");
  cmd->add_option("--width", o.width, "Columns of the text timeline")->check(Between(10, 1000));
  cmd->add_option("--svg", o.svg, "Also write the timeline as a standalone SVG file");
  AddJsonFlag(cmd, o.json, "docs/timeline-and-graph.md");
  AddTopOptions(cmd, o.top, o.all, "op groups and warnings");
  registry.Add(cmd, [] {
    Run& run = KeepUntilExit(LoadRunFromArgs(o.run));
    if (run.slices.empty())
      throw InputError(run.label,
                       "timeline needs executed op slices: an optrace (chrometrace.json, "
                       "artifact_type OP_TRACE) or a QHAS summary that lists its op instances");
    Grouping grouping = MakeGrouping(o.groups, o.group_by);
    TimelineWindow window{o.from_cycle, o.to_cycle, o.from_op, o.to_op};
    // Both only read the run: the dependency graph is built on another core
    // while the timeline is (a timeline error still comes first).
    std::future<DependencyGraph> graph_later = std::async(
        std::launch::async | std::launch::deferred, [&run] { return BuildDependencyGraph(run); });
    Timeline& timeline = KeepUntilExit(BuildTimeline(run, grouping, window));
    const SerializationCheck serialization(timeline);  // while the graph may still be built
    const DependencyGraph& graph = KeepUntilExit(graph_later.get());
    serialization.AddWarnings(timeline, graph, grouping);
    if (!o.svg.empty()) WriteOutputFile(o.svg, RenderTimelineSvg(timeline, run), InputsOfRun(run));
    if (o.json)
      PrintJson(TimelineJson(timeline, run));
    else
      PrintReport(RenderTimelineText(timeline, o.width, o.all ? 0 : o.top));
    return 0;
  });
}

}  // namespace htpscope::cli
