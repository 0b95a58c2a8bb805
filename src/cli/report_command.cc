// htpscope report RUN -o report.html: one self-contained HTML page of a
// profiled run (overview, timeline, tables, units and memory), plus the JSON
// of other analyses attached as their own sections.
#include <fmt/format.h>

#include <future>
#include <memory>
#include <set>
#include <sstream>

#include "analysis/summary.h"
#include "base/errors.h"
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/kept_until_exit.h"
#include "cli/output_file.h"
#include "cli/run_args.h"
#include "model/input_text.h"
#include "model/run.h"
#include "report/device_profile_report.h"
#include "report/graph_report.h"
#include "report/html_report.h"

namespace htpscope::cli {
namespace {

// Sections whose data may come from another command's --json output.
const std::set<std::string>& AttachableSections() {
  static const std::set<std::string> kNames = {"graph",  "lint",     "heap",
                                               "memory", "numerics", "diff"};
  return kNames;
}

nlohmann::json ReadAttachment(const std::string& spec, std::string* name) {
  size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
    throw InputError(spec, "--attach wants NAME=FILE.json");
  *name = spec.substr(0, eq);
  std::string path = spec.substr(eq + 1);
  if (!AttachableSections().count(*name))
    throw InputError(path, fmt::format("--attach: unknown section \"{}\" (one of: {})", *name,
                                       fmt::join(AttachableSections(), ", ")));
  std::string text = ReadInputText(path);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path, fmt::format("not JSON: {}", e.what()), e.byte);
  }
}

}  // namespace

void RegisterReportCommand(CLI::App& app, CommandRegistry& registry) {
  struct Options {
    RunArgs run;
    std::string output;
    std::string title;
    int timeline_px = kTimelineBaseWidthPx;
    size_t max_rows = kDefaultMaxTableRows;
    size_t max_items = kDefaultMaxSectionItems;
    bool graph = true;
    std::optional<double> clock_ghz;
    std::vector<std::string> attachments;
  };
  static Options options;
  auto* cmd = app.add_subcommand(
      "report",
      "One self-contained HTML page of a profiled run: overview figures, per-thread timeline, "
      "sortable op tables, units and memory (works offline; docs/report.md)");
  AddRunArgs(cmd, options.run);
  cmd->add_option("-o,--output", options.output, "The HTML file to write")->required();
  cmd->add_option("--title", options.title, "Page title (default: the run's label)");
  cmd->add_option("--timeline-px", options.timeline_px,
                  "Timeline base resolution: slices narrower than graph wall ÷ this are merged")
      ->check(Between(100, 1000000));
  cmd->add_option("--max-rows", options.max_rows,
                  "Rows kept per op table (the biggest by dominant-path cycles)")
      ->check(AtLeast(1));
  cmd->add_option("--max-items", options.max_items,
                  "Items kept per list in the graph and attached sections")
      ->check(AtLeast(1));
  cmd->add_flag("!--no-graph", options.graph,
                "Leave out the compiled-graph section (dependency graph, critical path)");
  cmd->add_option("--clock-ghz", options.clock_ghz,
                  "Plausible HTP clock for the cycles÷µs sanity check (as for summary)")
      ->check(GreaterThan(0));
  cmd->add_option("--attach", options.attachments,
                  "NAME=FILE.json: add another command's --json output as section NAME "
                  "(graph, lint, heap, memory, numerics, diff)");
  registry.Add(cmd, [] {
    std::vector<std::pair<std::string, nlohmann::json>> attached;
    std::vector<std::string> attached_paths;
    for (const auto& spec : options.attachments) {
      std::string name;
      nlohmann::json data = ReadAttachment(spec, &name);
      attached.emplace_back(name, std::move(data));
      attached_paths.push_back(spec.substr(name.size() + 1));
    }
    // The run and its summary stay until exit: the model's long lists are
    // written from them as the page is rendered, no copy of them built.  The
    // memory loading freed is kept: the graph view, summary and page reuse it.
    Run& run = KeepUntilExit(LoadRunFromArgs(options.run, FreedMemory::kKeep));
    if (run.OnlyDeviceProfiles()) {
      // Device profiles alone (AI Hub, Genie, a runner's log): their figures
      // and tables, no HTP sections.  Given with QNN artifacts, the same
      // views are sections of the page below (BuildLazyReportModel).
      const std::string page = RenderDeviceProfilesHtml(run);
      WriteOutputFile(options.output, page, InputsOfRun(run));
      fmt::print(stderr, "htpscope: wrote {} ({:.1f} KiB)\n", options.output,
                 static_cast<double>(page.size()) / 1024.0);
      return 0;
    }
    SummaryOptions summary_options;
    summary_options.clock_ghz = options.clock_ghz;
    HtmlReportOptions report_options;
    report_options.title = options.title;
    report_options.timeline_width_px = options.timeline_px;
    report_options.max_table_rows = options.max_rows;
    // The timeline section reads only the run: it is built on another core
    // from the start, filling the gaps the other parts leave.
    std::future<nlohmann::json> timeline = StartTimelineSection(run, report_options);
    // The graph view is built first (on both cores), then its JSON is built
    // and the view dropped on another core while the summary is built here:
    // each part only reads the run, and the view is gone before the page
    // model is built.
    std::future<nlohmann::json> graph;
    if (options.graph && (run.Gives(RunData::kCompiledGraph) || run.Gives(RunData::kTimedSlices))) {
      auto view = std::make_unique<GraphView>(BuildGraphView(run, GraphViewOptions{}));
      graph = std::async(std::launch::async | std::launch::deferred,
                         [view = std::move(view), &run, max_items = options.max_items]() mutable {
                           nlohmann::json json = Materialize(GraphJson(*view, run), max_items);
                           view.reset();
                           return json;
                         });
    }
    const Summary& summary = KeepUntilExit(Summarize(run, summary_options));
    nlohmann::json graph_json = graph.valid() ? graph.get() : nlohmann::json();
    // Left to the system at exit, as the run: the graph and tables in it are
    // JSON trees (0.065 s to free on an 80k-op run).
    LazyObject& model =
        KeepUntilExit(BuildLazyReportModel(summary, report_options, std::move(timeline)));
    if (!graph_json.is_null()) model.members["graph"] = std::move(graph_json);
    std::vector<std::string> inputs = InputsOfRun(run);
    for (auto& [name, data] : attached)
      model.members[name] = CapArrays(std::move(data), options.max_items);
    const std::string& page = KeepUntilExit(RenderHtmlReport(model));
    inputs.insert(inputs.end(), attached_paths.begin(), attached_paths.end());
    WriteOutputFile(options.output, page, inputs);
    fmt::print(stderr, "htpscope: wrote {} ({:.1f} KiB)\n", options.output,
               static_cast<double>(page.size()) / 1024.0);
    return 0;
  });
}

}  // namespace htpscope::cli
