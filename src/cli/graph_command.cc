#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>

#include "base/errors.h"
#include "base/suggest.h"
#include "base/text_util.h"
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/kept_until_exit.h"
#include "cli/output_file.h"
#include "cli/run_args.h"
#include "cli/terminal.h"
#include "model/input_text.h"
#include "model/run.h"
#include "report/graph_report.h"

namespace htpscope::cli {

void AddGroupingOptions(CLI::App* cmd, std::vector<std::string>& groups, std::string& group_by);
Grouping MakeGrouping(const std::vector<std::string>& groups, const std::string& group_by);
void AddTopOptions(CLI::App* cmd, size_t& top, bool& all, const std::string& what);

namespace {

// One --drop-edge, "A->B" or "A -> B", into its two op group names.
std::pair<std::string, std::string> ParseDroppedEdge(std::string_view spec) {
  const size_t arrow = spec.find("->");
  std::string a(Trim(spec.substr(0, arrow == std::string_view::npos ? 0 : arrow)));
  std::string b(arrow == std::string_view::npos ? "" : Trim(spec.substr(arrow + 2)));
  if (a.empty() || b.empty() || b.find("->") != std::string::npos)
    throw UsageError(fmt::format("--drop-edge \"{}\": expected A->B", spec));
  return {a, b};
}

// "expect.txt line 3: no op group named "MatMul_9" (did you mean "MatMul_0"?)".
std::string UnknownGroupMessage(const std::string& path, const std::vector<ExpectedEdge>& edges,
                                const std::string& name, const std::vector<std::string>& groups) {
  int line = 0;
  for (const auto& e : edges)
    if (e.from == name || e.to == name) {
      line = e.line;
      break;
    }
  return fmt::format("--expect {} line {}: no op group named \"{}\"{}", path, line, name,
                     DidYouMean(name, groups));
}

}  // namespace

void RegisterGraphCommand(CLI::App& app, CommandRegistry& registry) {
  struct Options {
    RunArgs run;
    std::vector<std::string> groups;
    std::string group_by = "qnn";
    std::string expect;
    std::string dot;
    std::vector<std::string> drop_edges;
    bool json = false;
    size_t top = 20;
    bool all = false;
  };
  static Options o;
  auto* cmd = app.add_subcommand(
      "graph",
      "The compiled graph: producers and predecessors per op, tensors shared across op groups "
      "(constant de-duplication), expected-vs-compiled DAG, critical path with what-ifs, and "
      "the dominant path checked against QHAS");
  AddRunArgs(cmd, o.run);
  AddGroupingOptions(cmd, o.groups, o.group_by);
  cmd->add_option("--expect", o.expect,
                  "An expected DAG: one edge \"A -> B\" per line over op group names; prints the "
                  "edges missing from and extra in the compiled graph, and exits 1 when any is")
      ->check(CLI::ExistingFile);
  cmd->add_option("--dot", o.dot, "Also write the graph as Graphviz DOT");
  cmd->add_option("--drop-edge", o.drop_edges,
                  "What-if: recompute the critical path without the dependencies from op group A "
                  "to op group B (A->B, repeatable); prints the estimated wall saving");
  AddJsonFlag(cmd, o.json, "docs/timeline-and-graph.md");
  AddTopOptions(cmd, o.top, o.all, "ops, dependencies and dominant-path groups");
  registry.Add(cmd, [] {
    GraphViewOptions options;
    options.grouping = MakeGrouping(o.groups, o.group_by);
    for (const auto& spec : o.drop_edges) options.drop_edges.push_back(ParseDroppedEdge(spec));
    if (!o.expect.empty()) {
      options.expected = LoadExpectedDag(o.expect);
    }
    Run& run = KeepUntilExit(LoadRunFromArgs(o.run));
    const GraphView& view = KeepUntilExit(BuildGraphView(run, options));
    // A name the graph has no group for is a mistake in the expectation or
    // the grouping, as in --drop-edge: the comparison would mean nothing.
    if (view.expect && !view.expect->unknown_names.empty())
      throw UsageError(UnknownGroupMessage(o.expect, *options.expected,
                                           view.expect->unknown_names.front(), view.groups.names));
    if (!o.dot.empty()) {
      std::vector<std::string> inputs = InputsOfRun(run);
      inputs.push_back(o.expect);
      WriteOutputFile(o.dot, RenderGraphDot(view), inputs);
    }
    if (o.json)
      PrintJson(GraphJson(view, run));
    else
      PrintReport(RenderGraphText(view, run, o.all ? 0 : o.top));
    // Like diff --fail-on: a CI gate.  1 when the compiled graph's
    // dependencies differ from the expected DAG.
    return view.expect && (!view.expect->missing.empty() || !view.expect->extra.empty()) ? 1 : 0;
  });
}

}  // namespace htpscope::cli
