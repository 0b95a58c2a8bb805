#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "base/errors.h"
#include "cli/commands.h"
#include "cli/run_args.h"
#include "model/run.h"
#include "report/graph_report.h"

namespace htpscope::cli {

void AddGroupingOptions(CLI::App* cmd, std::vector<std::string>& groups, std::string& group_by);
Grouping MakeGrouping(const std::vector<std::string>& groups, const std::string& group_by);
void WriteFile(const std::string& path, const std::string& text);

void RegisterGraphCommand(CLI::App& app, CommandRegistry& registry) {
  struct Options {
    RunArgs run;
    std::vector<std::string> groups;
    std::string group_by = "qnn";
    std::string expect;
    std::string dot;
    std::vector<std::string> drop_edges;
    bool json = false;
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
                  "edges missing from and extra in the compiled graph")
      ->check(CLI::ExistingFile);
  cmd->add_option("--dot", o.dot, "Also write the graph as Graphviz DOT");
  cmd->add_option("--drop-edge", o.drop_edges,
                  "What-if: recompute the critical path without the dependencies from op group A "
                  "to op group B (A->B, repeatable); prints the estimated wall saving");
  cmd->add_flag("--json", o.json, "Print JSON (schema: docs/timeline-and-graph.md)");
  registry.Add(cmd, [] {
    GraphViewOptions options;
    options.grouping = MakeGrouping(o.groups, o.group_by);
    for (const auto& spec : o.drop_edges) {
      try {
        options.drop_edges.push_back(ParseEdgeSpec(spec));
      } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("--drop-edge {}", e.what()));
      }
    }
    if (!o.expect.empty()) {
      std::ifstream in(o.expect, std::ios::binary);
      if (!in) throw InputError(o.expect, "cannot open the file");
      std::stringstream text;
      text << in.rdbuf();
      options.expected = ParseExpectedDag(o.expect, text.str());
    }
    Run run = LoadRunFromArgs(o.run);
    GraphView view;
    try {
      view = BuildGraphView(run, options);
    } catch (const std::invalid_argument& e) {
      throw UsageError(fmt::format("--drop-edge {}", e.what()));
    }
    if (!o.dot.empty()) WriteFile(o.dot, RenderGraphDot(view));
    if (o.json)
      fmt::print("{}\n", GraphToJson(view, run).dump(2));
    else
      fmt::print("{}", RenderGraphText(view, run));
    return 0;
  });
}

}  // namespace htpscope::cli
