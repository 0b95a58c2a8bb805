// htpscope diff: compares two sides of profiled runs op by op (or two
// lowering-stage timing files) and gates CI on regressions.
#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <stdexcept>

#include "analysis/gate.h"
#include "analysis/run_diff.h"
#include "analysis/stage_timings.h"
#include "base/errors.h"
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/device_profile_commands.h"
#include "cli/kept_until_exit.h"
#include "cli/run_args.h"
#include "cli/terminal.h"
#include "model/figures.h"
#include "model/run.h"
#include "report/diff_report.h"
#include "report/html_report.h"

namespace htpscope::cli {
namespace {

constexpr char kFooterSides[] = R"(Sides:
  htpscope diff A B             A and B are each one run: a directory or one artifact file.
  htpscope diff --a DIR --a DIR --b DIR ...
                                repeated measurements: every directory given to --a (--b) is
                                one run of side A (B); the files given to one side, if any,
                                together form one more run of that side.
  htpscope diff --stages A.csv B.csv
                                lowering time per stage (CSV rows "stage,seconds").

Gates (--fail-on EXPR, repeatable; quote EXPR for the shell):
  EXPR      := METRIC ('>' | '<') ['+' | '-'] NUMBER ['%']
)";

constexpr char kFooterRest[] =
    R"(  '>' fails when the change B - A is above the threshold, '<' when it is below; with '%' the
  change is relative to A.  Examples: 'wall_us>+5%'  'work_cycles>+10%'
  'op:*:dpc_cycles>+10%'  'peak_vtcm_bytes>+0'  'unit:*:utilization_pct<-10'.
  Noise: when a side has 3 or more samples (steady-state executions; runs for per-run
  figures), a change within 3 x 1.4826 x MAD (both sides combined) is "within noise" and
  does not fail.

Exit status: 0 every gate passed, 1 a regression, 2 bad input or a gate the inputs cannot
evaluate.  Details: docs/diff.md)";

// Appends the alternatives `names` to `out`, " | " between them, wrapped
// before a name that would pass column 95: the first line begins with
// `lead`, the others with the grammar's "| ".
void AppendAlternatives(std::string& out, std::string lead, const std::vector<std::string>& names) {
  constexpr size_t kWidth = 95;
  std::string line = std::move(lead) + names.front();
  for (size_t i = 1; i < names.size(); ++i) {
    if (line.size() + 3 + names[i].size() > kWidth) {
      out += line + "\n";
      line = "             | " + names[i];
    } else {
      line += " | " + names[i];
    }
  }
  out += line + "\n";
}

// The names of the device figures `artifact` gives, in diff's order.
std::vector<std::string> DeviceGateNames(DeviceArtifact artifact) {
  std::vector<std::string> names;
  for (const DeviceFigureInfo* f : DeviceFiguresOf(artifact)) names.push_back(f->name);
  return names;
}

// The footer of `diff --help`: the gate grammar's METRIC alternatives are
// the registry's run-level figures and device-profile figures
// (model/figures.h) and per-item fields.
std::string DiffFooter() {
  std::vector<std::string> names;
  for (const FigureInfo& f : Figures()) names.push_back(f.name);
  names.push_back("total_seconds (--stages)");
  std::string out = kFooterSides;
  AppendAlternatives(out, "  METRIC    := ", names);
  auto item_line = [&out](const std::string& metric, const char* what) {
    out += fmt::format("             | {:<46} {}\n", metric, what);
  };
  auto item_fields = [&item_line](const char* family, FigureItem item, const char* what) {
    item_line(fmt::format("{}:GLOB:({})", family, ItemFigureNames(item, "|")), what);
  };
  item_fields("op", FigureItem::kOp, "per QNN op");
  item_fields("htp", FigureItem::kOp, "per HTP op type");
  item_fields("unit", FigureItem::kUnit, "per hardware thread id");
  item_line("stage:GLOB:seconds", "per lowering stage (--stages)");
  AppendAlternatives(out,
                     "             | AI Hub profiles: ", DeviceGateNames(DeviceArtifact::kAihub));
  item_line("layer:GLOB:(time_us|cycles)", "per AI Hub layer (name, name#2, ...)");
  AppendAlternatives(out,
                     "             | Genie profiles: ", DeviceGateNames(DeviceArtifact::kGenie));
  AppendAlternatives(
      out, "             | ExecuTorch runner logs: ", DeviceGateNames(DeviceArtifact::kLlmRunner));
  return out + kFooterRest;
}

// The runs of one side, keeping only profile graph `graph` ("" keeps all);
// `graph_names` gets the graphs of the side's first run.
std::vector<RunFacts> LoadSide(const std::vector<std::string>& inputs,
                               const SummaryOptions& summary_options, bool allow_mismatch,
                               const std::string& graph,
                               std::vector<std::string>* graph_names = nullptr) {
  std::vector<RunFacts> side;
  LoadOptions load;
  load.allow_mismatch = allow_mismatch;
  load.graph = graph;
  for (const auto& run_inputs : GroupRunInputs(inputs)) {
    try {
      Run run = LoadRun(run_inputs, load);
      if (graph_names && side.empty())
        for (const auto& g : run.graphs) graph_names->push_back(g.name);
      ReturnFreedMemory();
      side.push_back(CollectRunFacts(std::move(run), summary_options));  // not a copy
    } catch (const MismatchedArtifactsError& e) {
      throw InputError(e.file(), e.problem() + " (--allow-mismatch joins them anyway)");
    }
  }
  return side;
}

// Both sides: B loads on another thread while A loads here (their files are
// read in turn, LoadRun's serial import and join overlapping the other
// side's reading); A's error comes first, as loading A then B would give.
struct Sides {
  std::vector<RunFacts> a, b;
};
Sides LoadSides(const std::vector<std::string>& inputs_a, const std::vector<std::string>& inputs_b,
                const SummaryOptions& summary_options, bool allow_mismatch,
                const std::string& graph, std::vector<std::string>* graphs_a = nullptr,
                std::vector<std::string>* graphs_b = nullptr) {
  // Its destructor waits for B's load, whose error is dropped if A's is thrown.
  std::future<std::vector<RunFacts>> b = std::async(
      std::launch::async | std::launch::deferred,
      [&] { return LoadSide(inputs_b, summary_options, allow_mismatch, graph, graphs_b); });
  Sides sides;
  sides.a = LoadSide(inputs_a, summary_options, allow_mismatch, graph, graphs_a);
  sides.b = b.get();
  return sides;
}

// Profiles of several graphs, no --graph: text and markdown compare each
// graph both sides hold, one after the other; the exit status is the worst.
template <typename Evaluate>
int DiffEachGraph(const std::vector<std::string>& inputs_a,
                  const std::vector<std::string>& inputs_b,
                  const std::vector<std::string>& graphs_a,
                  const std::vector<std::string>& graphs_b, const SummaryOptions& summary_options,
                  DiffFormat format, bool html, bool allow_mismatch, int top_n, Evaluate evaluate) {
  if (html || (format != DiffFormat::kText && format != DiffFormat::kMarkdown))
    throw UsageError(fmt::format(
        "the profiles hold several graphs (A: {}; B: {}): choose one with --graph NAME for this "
        "format, or compare each in turn with --format text or markdown",
        fmt::join(graphs_a, ", "), fmt::join(graphs_b, ", ")));
  std::string text;
  int status = 0;
  std::vector<std::string> only_one_side;
  for (const auto& name : graphs_a) {
    if (std::find(graphs_b.begin(), graphs_b.end(), name) == graphs_b.end()) {
      only_one_side.push_back("A: " + name);
      continue;
    }
    Sides sides = LoadSides(inputs_a, inputs_b, summary_options, allow_mismatch, name);
    RunDiff diff = DiffRuns(sides.a, sides.b);
    auto results = evaluate(diff);
    status = std::max(status, GateExitStatus(results));
    text += format == DiffFormat::kMarkdown ? fmt::format("## Graph {}\n\n", name)
                                            : fmt::format("=== Graph {} ===\n", name);
    text += RenderRunDiff(diff, results, format, top_n);
    text += "\n";
  }
  for (const auto& name : graphs_b)
    if (std::find(graphs_a.begin(), graphs_a.end(), name) == graphs_a.end())
      only_one_side.push_back("B: " + name);
  if (text.empty())
    throw InputError(
        "<arguments>",
        fmt::format("the two sides share no graph name (A: {}; B: {}): nothing to compare",
                    fmt::join(graphs_a, ", "), fmt::join(graphs_b, ", ")));
  if (!only_one_side.empty())
    text +=
        fmt::format("Graphs on one side only, not compared: {}\n", fmt::join(only_one_side, "; "));
  PrintText(text, false);
  return status;
}

}  // namespace

void RegisterDiffCommand(CLI::App& app, CommandRegistry& registry) {
  struct Options {
    std::vector<std::string> positional, a, b, fail_on;
    std::string format = "text";
    bool json = false;
    bool stages = false;
    bool allow_mismatch = false;
    int top_n = 10;
    std::optional<double> clock_ghz;
    std::string graph;
  };
  static Options options;
  auto* cmd = app.add_subcommand(
      "diff",
      "Compare two profiled runs (or sides of repeated runs) op by op: steady-state wall, "
      "compute-busy, overhead, per-op DPC/work/tiles, units and memory, with a verdict in "
      "words; gate CI on regressions");
  cmd->add_option("runs", options.positional,
                  "A B: two runs (each a directory or one artifact file); with --stages, two "
                  "stage-timing CSV files");
  cmd->add_option("--a", options.a, "A run (directory) or artifact file of side A; repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--b", options.b, "A run (directory) or artifact file of side B; repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--fail-on", options.fail_on,
                  "Gate: fail (exit 1) when EXPR holds, e.g. 'wall_us>+5%'; repeatable; grammar "
                  "below")
      ->allow_extra_args(false);
  AddFormatOptions(cmd, options.format, options.json,
                   "Output: text, markdown (PR comment), json, junit, html (a standalone page)",
                   {"text", "markdown", "json", "junit", "html"});
  cmd->add_flag("--allow-mismatch", options.allow_mismatch,
                "Join artifacts of a run that do not look like one run instead of refusing them");
  cmd->add_flag("--stages", options.stages,
                "Compare two lowering-stage timing CSVs (stage,seconds) instead of runs");
  cmd->add_option("--top", options.top_n, "Rows in the op tables of text and markdown output")
      ->check(AtLeast(1));
  cmd->add_option("--clock-ghz", options.clock_ghz,
                  "Plausible HTP clock for the summaries' cycles÷µs sanity check")
      ->check(GreaterThan(0));
  cmd->add_option("--graph", options.graph,
                  "Only this graph of profiles that hold several (prefill, decode, ...); without "
                  "it, text and markdown compare each graph the two sides share in turn");
  cmd->footer(DiffFooter());
  registry.Add(cmd, [] {
    if (options.json) options.format = "json";
    // html is the JSON rendered as a page, for run diffs only.
    const bool html = options.format == "html";
    DiffFormat format = html ? DiffFormat::kJson : *ParseDiffFormat(options.format);
    std::vector<Gate> gates;
    for (const auto& expr : options.fail_on) {
      try {
        gates.push_back(ParseGate(expr));
      } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("--fail-on {}", e.what()));
      }
    }
    auto evaluate = [&gates](const auto& diff) { return EvaluateGates(gates, diff); };

    if (options.stages) {
      if (html)
        throw UsageError(
            "--format html compares runs; --stages gives text, markdown, json or junit");
      if (!options.a.empty() || !options.b.empty() || options.positional.size() != 2)
        throw InputError("<arguments>",
                         "--stages takes exactly two stage-timing CSV files: A.csv B.csv");
      StageDiff diff = DiffStages(ReadStageTimings(options.positional[0]),
                                  ReadStageTimings(options.positional[1]));
      auto results = evaluate(diff);
      PrintText(RenderStageDiff(diff, results, format),
                format != DiffFormat::kText && format != DiffFormat::kMarkdown);
      return GateExitStatus(results);
    }

    std::vector<std::string> inputs_a = options.a, inputs_b = options.b;
    if (!inputs_a.empty() || !inputs_b.empty()) {
      if (!options.positional.empty())
        throw InputError("<arguments>",
                         "give the sides either as two positional runs (A B) or with --a/--b, "
                         "not both");
      if (inputs_a.empty() || inputs_b.empty())
        throw InputError("<arguments>",
                         fmt::format("side {} has no run: give --a and --b at least once each",
                                     inputs_a.empty() ? "A" : "B"));
    } else {
      if (options.positional.size() != 2)
        throw InputError(
            "<arguments>",
            fmt::format("expected two runs A B (or --a/--b), got {} argument{}",
                        options.positional.size(), options.positional.size() == 1 ? "" : "s"));
      inputs_a = {options.positional[0]};
      inputs_b = {options.positional[1]};
    }
    if (AllInputsAreDeviceProfiles(inputs_a) && AllInputsAreDeviceProfiles(inputs_b)) {
      if (html)
        throw UsageError(
            "--format html compares HTP runs; AI Hub and Genie profiles and runner logs give "
            "text, markdown, json "
            "or junit");
      return RunDeviceProfileDiff(inputs_a, inputs_b, gates, format, options.top_n);
    }
    SummaryOptions summary_options;
    summary_options.clock_ghz = options.clock_ghz;
    std::vector<std::string> graphs_a, graphs_b;
    const Sides& sides =
        KeepUntilExit(LoadSides(inputs_a, inputs_b, summary_options, options.allow_mismatch,
                                options.graph, &graphs_a, &graphs_b));
    if (options.graph.empty() && (graphs_a.size() > 1 || graphs_b.size() > 1))
      return DiffEachGraph(inputs_a, inputs_b, graphs_a, graphs_b, summary_options, format, html,
                           options.allow_mismatch, options.top_n, evaluate);
    const RunDiff& diff = KeepUntilExit(DiffRuns(sides.a, sides.b));
    auto results = evaluate(diff);
    if (html) {
      fmt::print("{}", RenderDiffHtml(RunDiffToJson(diff, results),
                                      fmt::format("htpscope diff: {} vs {}", inputs_a.front(),
                                                  inputs_b.front())));
      return GateExitStatus(results);
    }
    std::string text = RenderRunDiff(diff, results, format, options.top_n);
    PrintText(text, format != DiffFormat::kText && format != DiffFormat::kMarkdown);
    return GateExitStatus(results);
  });
}

}  // namespace htpscope::cli
