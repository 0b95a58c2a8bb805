#include "report/summary_profile.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/number_text.h"
#include "report/format_util.h"
#include "report/json_values.h"
#include "report/run_sections.h"
#include "report/text_sanitize.h"

namespace htpscope {
namespace {

using nlohmann::json;

// As the per-op warm-up names it: "(unnamed)" for a profile that names none.
std::string GraphName(const Run& run, uint32_t graph) {
  const std::string& name = run.graphs[graph].name;
  return name.empty() ? std::string("(unnamed)") : name;
}

// "224,589 µs (NetRun)" / "65,932 µs (Backend QNN (finalize) time)".
std::string FigureText(const PhaseFigure& f) {
  std::string from =
      f.name == "NetRun" ? std::string(f.source) : fmt::format("{} {}", f.source, f.name);
  return fmt::format("{:>12} µs  ({})", FormatFigure(f.us), TerminalSafe(from));
}

json FigureJson(const std::optional<PhaseFigure>& f) {
  if (!f) return nullptr;
  return {{"us", f->us}, {"source", f->source}, {"name", f->name}};
}

}  // namespace

std::string RenderFirstInferenceText(const Summary& s) {
  const FirstInference& fi = s.first_inference;
  if (fi.empty()) return "";
  const Run& run = *s.run;
  std::string out;
  AppendSection(out, "Phases: time to first inference (profile, µs as printed)");
  auto line = [&](const std::string& what, const PhaseFigure& f) {
    out += fmt::format("  {:<40} {}\n", Ellipsize(what, 40), FigureText(f));
  };
  const bool within = fi.init_spans_compose_and_finalize;
  if (fi.init) line(within ? "init (spans compose and finalize)" : "init", *fi.init);
  if (fi.init_alone_us)
    out += fmt::format("    {:<38} {:>12} µs  (init − compose − finalize)\n", "init alone",
                       FormatFigure(*fi.init_alone_us));
  if (fi.compose) line(within ? "compose graphs (within init)" : "compose graphs", *fi.compose);
  const bool several = run.graphs.size() > 1;
  for (const GraphFirstInference& g : fi.graphs) {
    std::string of = several ? " " + TerminalSafe(GraphName(run, g.graph)) : "";
    if (g.finalize) line((within ? "finalize (within init)" : "finalize") + of, *g.finalize);
    for (const PhaseFigure& stage : g.finalize_stages)
      out += fmt::format("    {:<38} {:>12} µs\n", Ellipsize(TerminalSafe(stage.name), 38),
                         FormatFigure(stage.us));
  }
  for (const GraphFirstInference& g : fi.graphs) {
    std::string of = several ? " " + TerminalSafe(GraphName(run, g.graph)) : "";
    if (g.cold_execute) line("cold execute (execution 1)" + of, *g.cold_execute);
    auto reported = [&](const char* what, const std::optional<double>& cold,
                        const std::optional<double>& steady) {
      if (!cold) return;
      out += fmt::format("    {:<38} {:>12} µs  (steady median {})\n", what, FormatFigure(*cold),
                         steady ? FormatFigure(*steady) + " µs" : std::string("-"));
    };
    reported("HVX + HMX power on and acquire", g.power_on_us, g.steady_power_on_us);
    reported("initial VTCM acquire", g.vtcm_acquire_us, g.steady_vtcm_acquire_us);
  }
  if (fi.total_us) {
    out += fmt::format(
        "  {:<40} {:>12} µs  {}{}\n", "to the first inference", FormatFigure(*fi.total_us),
        within ? "init + cold execute" : "Σ of the phases above",
        fi.missing.empty() ? ""
                           : fmt::format(" (none printed for: {})", fmt::join(fi.missing, ", ")));
  }
  if (fi.deinit) line("de-init (after the last inference)", *fi.deinit);
  if (fi.inferences_per_second)
    out += fmt::format("  {:<40} {:>12} inf/sec  (NetRun EXECUTE IPS)\n", "inferences per second",
                       FormatFigure(*fi.inferences_per_second));
  out +=
      "  finalize stages are sub-events of QNN (finalize) time; power-on and VTCM acquire are\n"
      "  reported with the cold execute, not parts of its time; Σ is of wall times printed per\n"
      "  phase, not a clock reading.\n";
  if (within)
    out +=
        "  the viewer's INIT spans compose graphs and every finalize (they are parts of it, not\n"
        "  added to it).\n";
  return out;
}

bool ShowsOpSteadyState(const Summary& s) {
  const Source fine = s.run->figures.fine_source;
  return !s.op_steady_state.empty() && fine != Source::kOptrace && fine != Source::kQhas;
}

std::string RenderOpSteadyStateText(const Summary& s, int top_n) {
  if (s.op_steady_state.empty()) return "";
  const Run& run = *s.run;
  std::string out;
  AppendSection(out,
                "Per-op steady state: profile per-node cycles, executions 2..N (no optrace or "
                "QHAS: no DPC)");
  std::optional<uint32_t> graph;
  int shown = 0;
  size_t in_graph = 0;
  // The ONNX nodes each op came from, when the profile names any.
  const bool sources =
      std::any_of(s.op_steady_state.begin(), s.op_steady_state.end(),
                  [](const OpSteadyState& op) { return op.source_ops && !op.source_ops->empty(); });
  auto close_graph = [&] {
    if (graph && in_graph > static_cast<size_t>(top_n))
      out += fmt::format("    ... {} more ops (summary --json lists every op)\n",
                         FormatCount(in_graph - static_cast<size_t>(top_n)));
  };
  for (const OpSteadyState& op : s.op_steady_state) {
    if (graph != op.graph) {
      close_graph();
      graph = op.graph;
      shown = 0;
      in_graph = 0;
      std::optional<double> total = SteadyAcceleratorCycles(run, op.graph);
      out +=
          fmt::format("  graph {}{}:\n", TerminalSafe(GraphName(run, op.graph)),
                      total ? fmt::format(" (steady median Accelerator (execute) time {} cycles)",
                                          FormatFigure(*total))
                            : std::string());
      out += fmt::format("    {:<34} {:>13} {:>12} {:>10} {:>10} {:>9} {:>7}{}\n", "op",
                         "steady median", "cold exec 1", "min", "max", "MAD", "share",
                         sources ? "  ONNX source ops" : "");
    }
    ++in_graph;
    if (shown++ >= top_n) continue;
    std::string source;
    if (sources)
      source = "  " + (op.source_ops && !op.source_ops->empty()
                           ? Ellipsize(TerminalSafe(*op.source_ops), 60)
                           : std::string("-"));
    out += fmt::format(
        "    {:<34} {:>13} {:>12} {:>10} {:>10} {:>9} {:>7}{}\n",
        Ellipsize(TerminalSafe(op.name), 34), OrDash(op.steady_median_cycles, -1),
        op.in_cold ? GroupDigits(op.cold_cycles) : std::string("-"),
        OrDash(op.steady_min_cycles, -1), OrDash(op.steady_max_cycles, -1),
        OrDash(op.steady_mad_cycles, -1),
        op.steady_share ? fmt::format("{:.1f} %", *op.steady_share * 100) : std::string("-"),
        source);
  }
  close_graph();
  out +=
      "  cycles as the profile prints them per node (thread-aggregate at detailed level);\n"
      "  median, min, max and MAD over executions 2..N; share = steady median ÷ the steady\n"
      "  median Accelerator (execute) time (cycles).\n";
  if (sources)
    out +=
        "  ONNX source ops: the ONNX nodes each QNN op was built from, ';'-separated, as ONNX\n"
        "  Runtime's \"ONNX Source Ops\" column gives them.\n";
  return out;
}

void ProfileOpRow(const Run& run, const ProfileOp& op, JsonRow& row) {
  row.String("graph", run.graphs[op.graph].name);
  row.String("name", op.name);
  row.Optional("op_id", op.op_id);
}

void OpSteadyStateRow(const Run& run, const OpSteadyState& op, JsonRow& row) {
  ProfileOpRow(run, op, row);
  row.Number("cold_cycles", op.cold_cycles);
  row.Bool("in_cold", op.in_cold);
  for (const SteadyStatistic& statistic : kSteadyStatistics)
    row.Optional(statistic.name, op.*statistic.value);
  row.Number("steady_executions", op.steady_executions);
  if (op.steady_share)
    row.Number("steady_share_pct", *op.steady_share * 100);
  else
    row.Null("steady_share_pct");
  // Only from a profile with ONNX Runtime's "ONNX Source Ops" column.
  if (op.source_ops) row.String("source_ops", *op.source_ops);
}

void AddProfilePhasesJson(const Summary& s, LazyObject& doc) {
  const Run& run = *s.run;
  json& j = doc.members;
  const FirstInference& fi = s.first_inference;
  if (fi.empty()) {
    j["first_inference"] = nullptr;
  } else {
    json graphs = json::array();
    for (const GraphFirstInference& g : fi.graphs) {
      json stages = json::array();
      for (const PhaseFigure& f : g.finalize_stages)
        stages.push_back({{"name", f.name}, {"source", f.source}, {"us", f.us}});
      graphs.push_back({{"graph", run.graphs[g.graph].name},
                        {"finalize", FigureJson(g.finalize)},
                        {"finalize_stages", std::move(stages)},
                        {"cold_execute", FigureJson(g.cold_execute)},
                        {"power_on_us", OptionalJson(g.power_on_us)},
                        {"vtcm_acquire_us", OptionalJson(g.vtcm_acquire_us)},
                        {"steady_power_on_us", OptionalJson(g.steady_power_on_us)},
                        {"steady_vtcm_acquire_us", OptionalJson(g.steady_vtcm_acquire_us)}});
    }
    j["first_inference"] = {{"init", FigureJson(fi.init)},
                            {"init_spans_compose_and_finalize", fi.init_spans_compose_and_finalize},
                            {"init_alone_us", OptionalJson(fi.init_alone_us)},
                            {"compose", FigureJson(fi.compose)},
                            {"graphs", std::move(graphs)},
                            {"total_us", OptionalJson(fi.total_us)},
                            {"missing", fi.missing},
                            {"deinit", FigureJson(fi.deinit)},
                            {"inferences_per_second", OptionalJson(fi.inferences_per_second)}};
  }
  doc.AddRowArray("profile_phases", run.profile_phases.size(), [&run](size_t i, JsonRow& row) {
    const ProfilePhaseRow& p = run.profile_phases[i];
    row.String("phase", ProfilePhaseName(p.phase));
    if (p.graph)
      row.String("graph", run.graphs[*p.graph].name);
    else
      row.Null("graph");
    if (p.execution)
      row.Number("execution", run.executions[*p.execution].index);
    else
      row.Null("execution");
    row.String("stage", p.stage);
    row.String("parent_stage", p.parent_stage);
    row.String("source", p.source);
    row.Optional("value", p.value);
    row.String("unit", p.unit);
    row.Optional("timestamp_us", p.timestamp_us);
  });
  doc.AddRowArray("op_steady_state", s.op_steady_state.size(), [&s](size_t i, JsonRow& row) {
    OpSteadyStateRow(*s.run, s.op_steady_state[i], row);
  });
}

}  // namespace htpscope
