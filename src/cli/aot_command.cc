// htpscope aot: ahead-of-time lowering time by stage from sampling profiles
// of the lowering run (py-spy, austin, speedscope), and the per-stage
// comparison of two runs with CI gates.
#include <fmt/format.h>

#include "analysis/aot_flame.h"
#include "analysis/aot_stages.h"
#include "analysis/gate.h"
#include "base/errors.h"
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/output_file.h"
#include "cli/terminal.h"
#include "model/lowering_profile.h"
#include "model/side_input_registry.h"
#include "report/aot_report.h"

namespace htpscope::cli {
namespace {

constexpr char kFooter[] = R"footer(Profiles (recognised by content; plain or .gz):
  speedscope JSON     py-spy record --format speedscope; sampled or evented, any unit
  collapsed stacks    "frame;frame;frame COUNT": py-spy --format raw, flamegraph.pl's folded
                      stacks; COUNT samples ÷ --rate HZ = seconds
  austin output       austin [-s|-f] [-g] -o FILE python ...: metrics in µs

Stages: a sample belongs to the stage of the outermost frame of its stack that matches a
stage's regular expression (RE2, searched in "function (file)"); on a tie the stage given
first wins; samples no stage matches are "other".  --stages executorch-qnn (the default
when no --stage is given) is ExecuTorch's Qualcomm flow:
  quantize  prepare_pt2e / convert_pt2e / calibration, torch.ao & torchao observers,
            backends/qualcomm/quantizer
  compile   to_edge_transform_and_lower(_to_qnn) / to_backend, backends/qualcomm/partition
            and builders (node visitors), qnn_preprocess.py, PyQnnManager / QnnManager
--stage NAME=REGEX adds a stage, or replaces the expression of a built-in stage of that
name; given without --stages it defines the whole map.  GC time (frames matching
--gc-frame) is shown inside each stage.

Gates (two profiles; --fail-on EXPR, repeatable; quote EXPR for the shell):
  total_seconds>+5%            B's total more than 5 % above A's
  stage:compile:seconds>+10%   stage compile more than 10 % slower (GLOB over stage names)
  '>' fails when B − A is above the threshold, '<' when below; '%' is relative to A.

Exit status: 0 ok, 1 a gate failed, 2 bad input or usage, 3 the SVG cannot be written.
Details: docs/aot.md)footer";

struct Options {
  std::vector<std::string> profiles;
  std::vector<std::string> stage_specs;
  std::string stages_map;
  std::string gc_regex = kDefaultGcRegex;
  double rate_hz = 100;
  std::vector<std::string> fail_on;
  std::string format = "text";
  bool json = false;
  std::string svg;
  size_t top = 5;
};

StageMap BuildMap(const Options& o) {
  std::vector<StageRule> overrides;
  for (const auto& spec : o.stage_specs) overrides.push_back(ParseStageRule(spec));
  StageMap map{"custom", {}, o.gc_regex};
  std::string base = o.stages_map.empty() && overrides.empty() ? "executorch-qnn" : o.stages_map;
  if (!base.empty() && base != "none") {
    auto builtin = BuiltinStageMap(base);
    if (!builtin)
      throw UsageError(fmt::format("--stages {}: unknown map; expected {} or none", base,
                                   fmt::join(BuiltinStageMapNames(), ", ")));
    map = *builtin;
    map.gc_regex = o.gc_regex;
    if (!overrides.empty()) map.name += " with --stage overrides";
  }
  map = OverrideStages(std::move(map), overrides);
  if (map.stages.empty())
    throw UsageError("no stages: give --stage NAME=REGEX, or --stages executorch-qnn");
  if (!map.gc_regex.empty()) CheckStageRegex(map.gc_regex, "--gc-frame " + map.gc_regex, 0);
  return map;
}

void WriteSvg(const Options& o, const std::string& svg) {
  WriteOutputFile(o.svg, svg, o.profiles);
  fmt::print(stderr, "htpscope: wrote {}\n", o.svg);
}

int Run(const Options& o) {
  AotFormat format = o.json ? AotFormat::kJson : *ParseAotFormat(o.format);
  StageMap map = BuildMap(o);
  std::vector<Gate> gates;
  for (const auto& expr : o.fail_on) gates.push_back(ParseGate(expr));
  if (!gates.empty() && o.profiles.size() != 2)
    throw UsageError("--fail-on compares two profiles: give PROFILE_A PROFILE_B");
  SideInputOptions load;
  load.lowering.sample_rate_hz = o.rate_hz;
  LoweringProfile a = LoadSideInput<SideInput::kSamplingProfile>(o.profiles[0], load);
  StageAttribution sa = AttributeStages(a, map, o.top);
  if (o.profiles.size() == 1) {
    if (!o.svg.empty())
      WriteSvg(o, RenderAotFlameSvg(BuildFlameTree(a, nullptr, map),
                                    fmt::format("Lowering time by stage: {}", a.path)));
    PrintText(RenderAotAttribution(sa, map, format), format == AotFormat::kJson);
    return kExitOk;
  }
  LoweringProfile b = LoadSideInput<SideInput::kSamplingProfile>(o.profiles[1], load);
  StageAttribution sb = AttributeStages(b, map, o.top);
  AotDiff diff = DiffAot(sa, sb, std::max<size_t>(o.top, 10));
  const std::vector<GateResult> results = EvaluateGates(gates, diff.stages);
  if (!o.svg.empty())
    WriteSvg(o, RenderAotFlameSvg(
                    BuildFlameTree(a, &b, map),
                    fmt::format("Differential flame graph: A = {}, B = {}", a.path, b.path)));
  PrintText(RenderAotDiff(diff, sa, sb, map, results, format), format == AotFormat::kJson);
  return GateExitStatus(results);
}

}  // namespace

void RegisterAotCommand(CLI::App& app, CommandRegistry& registry) {
  static Options o;
  auto* cmd = app.add_subcommand(
      "aot",
      "Ahead-of-time lowering time by stage (quantize, compile, ...) from sampling profiles of "
      "the lowering run (py-spy, austin, speedscope); with two profiles, the per-stage "
      "comparison, the frames that changed most and CI gates");
  cmd->add_option("profiles", o.profiles, "PROFILE [PROFILE_B]: one profile, or A and B")
      ->required()
      ->expected(1, 2);
  cmd->add_option("--stages", o.stages_map,
                  "Built-in stage map: executorch-qnn (default without --stage) or none");
  cmd->add_option("--stage", o.stage_specs,
                  "NAME=REGEX: a stage, or a new expression for a built-in stage; repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--gc-frame", o.gc_regex,
                  "Regular expression of garbage-collector frames (\"\" for none); default: "
                  "austin's :GC:, CPython's collector functions (docs/aot.md)");
  cmd->add_option("--rate", o.rate_hz,
                  "Samples per second of collapsed stacks (and speedscope unit none); py-spy's "
                  "default is 100")
      ->check(GreaterThan(0));
  cmd->add_option("--fail-on", o.fail_on,
                  "Gate: fail (exit 1) when EXPR holds, e.g. 'total_seconds>+5%'; repeatable")
      ->allow_extra_args(false);
  AddFormatOptions(cmd, o.format, o.json, "Output: text, markdown (PR comment), json",
                   {"text", "markdown", "json"});
  cmd->add_option("--svg", o.svg,
                  "Also write a flame graph (two profiles: differential, red slower / blue "
                  "faster) as a standalone SVG file");
  cmd->add_option("--top", o.top, "Frames listed per stage (and, at least 10, changed frames)")
      ->check(AtLeast(1));
  cmd->footer(kFooter);
  registry.Add(cmd, [] {
    try {
      return Run(o);
    } catch (const UsageError& e) {
      fmt::print(stderr, "htpscope aot: {}\n", e.what());
      return kExitBadInput;
    } catch (const OutputError& e) {
      fmt::print(stderr, "htpscope: error: {}\n", e.what());
      return kExitOutputError;
    }
  });
}

}  // namespace htpscope::cli
