#include "report/summary_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/figures.h"
#include "report/format_util.h"
#include "report/json_values.h"
#include "report/module_report.h"
#include "report/run_sections.h"
#include "report/summary_hardware.h"
#include "report/summary_profile.h"
#include "report/text_sanitize.h"

namespace htpscope {
namespace {

using nlohmann::json;

// "Execute Stats (Average|Min|Max|Overall)" sections: the viewer's own statistics.
bool IsExecuteStatistics(const ProfileBlockRow& block) {
  return !block.execution && block.title.rfind("Execute Stats", 0) == 0;
}

// A group's shares: its DPC of the graph wall, its work of the total work.
struct GroupShares {
  std::optional<double> dpc_of_wall_pct, work_pct;
};
GroupShares SharesOf(const OpGroupRow& g, const RunFigures& f) {
  return {SharePct(g.dpc_cycles, f.graph_wall_cycles), SharePct(g.work_cycles, f.work_cycles)};
}

void GroupRow(const OpGroupRow& g, const Run& run, JsonRow& row) {
  GroupShares shares = SharesOf(g, run.figures);
  row.String("name", run.Str(g.name));
  row.String("category", OpCategoryName(g.category));
  row.Optional("dpc_cycles", g.dpc_cycles);
  row.String("dpc_basis", DpcBasisName(g.dpc_basis));
  row.Bool("dpc_lower_bound", g.dpc_lower_bound());
  row.Number(ItemFigureName(ItemFigure::kWorkCycles), g.work_cycles);
  row.Number("instances", g.instances);
  row.Optional("dpc_share_of_wall_pct", shares.dpc_of_wall_pct);
  row.Optional("work_share_pct", shares.work_pct);
  if (g.type != StringPool::kEmpty) row.String("type", run.Str(g.type));
}

// "exec" column: the graph's name when the run has several.
std::string GraphTitle(const Run& run, uint32_t graph) {
  const std::string& name = run.graphs[graph].name;
  return name.empty() ? fmt::format("graph {}", graph) : name;
}

void RenderGraphCoarse(const Summary& s, const GraphCoarse& g, std::string& out) {
  const Run& run = *s.run;
  if (run.graphs.size() > 1) out += fmt::format("  Graph {}:\n", GraphTitle(run, g.graph));
  out += fmt::format("  {:>4}  {:>13}  {:>15}  {:>18}  {:>13}  {:>8}  {:>14}  {:>8}\n", "exec",
                     "graph wall µs", "compute-busy µs", "overhead µs (share)", "excl. wait µs",
                     "RPC µs", "work cycles", "cyc/µs");
  for (const auto& e : g.executions) {
    std::string overhead = e.overhead_us
                               ? fmt::format("{} ({:.1f} %)", FormatMeasure(*e.overhead_us, 0),
                                             e.overhead_pct.value_or(0))
                               : std::string("-");
    out +=
        fmt::format("  {:>4}  {:>13}  {:>15}  {:>18}  {:>13}  {:>8}  {:>14}  {:>8}{}\n",
                    fmt::format("{}{}", e.index, e.cold ? "*" : ""), OrDash(e.graph_wall_us, 0),
                    OrDash(e.compute_busy_us, 0), overhead, OrDash(e.compute_excluding_wait_us, 0),
                    OrDash(e.rpc_us, 0), OrDash(e.work_cycles),
                    e.implied_ghz ? FormatMeasure(*e.implied_ghz * 1000, 0) : "-",
                    e.aggregate_cycles ? "  > clock: aggregate" : "");
  }
}

void RenderSteadyState(const Summary& s, const GraphCoarse& g, std::string& out) {
  const Run& run = *s.run;
  if (!g.steady_state) return;
  const auto& st = *g.steady_state;
  auto line = [&](const char* what, const std::optional<SampleStats>& stats, const char* unit,
                  int decimals) {
    if (!stats) return;
    out += fmt::format("  {:<16} median {} {}  (min {}, max {}, n {})\n", what,
                       FormatMeasure(stats->median, decimals), unit,
                       FormatMeasure(stats->min, decimals), FormatMeasure(stats->max, decimals),
                       stats->n);
  };
  out += fmt::format("  Steady state{}, executions {}..{}:\n",
                     run.graphs.size() > 1 ? " of " + GraphTitle(run, g.graph) : "", st.first_index,
                     st.last_index);
  line("graph wall", st.graph_wall_us, "µs", 1);
  line("compute-busy", st.compute_busy_us, "µs", 1);
  line("overhead", st.overhead_us, "µs", 1);
  line("work", st.work_cycles, "cycles", 1);
}

// An ETDump's executions: the QNN delegate writes per-node cycles only, so
// there is no µs figure per execution; ExecuTorch's own Method::execute
// event, in the runtime's ticks, where the dump has it.
void RenderEtdumpCoarse(const Summary& s, std::string& out) {
  const Run& run = *s.run;
  AppendSection(out, "Coarse view: executions (ExecuTorch ETDump)");
  out += fmt::format(
      "  {} executions with QNN delegate per-node events; no µs per execution (the delegate "
      "writes\n  per-node cycles only)\n",
      FormatCount(run.executions.size()));
  for (const ExecutionRow& e : run.executions) {
    const ProfileMetricRow* m = run.FindMetric(run.profile_blocks[e.block], "Method::execute");
    if (!m || !m->value) continue;
    out += fmt::format("    execution {:>4}{}  Method::execute {:>14} ticks\n", e.index,
                       e.cold ? "*" : " ", FormatFigure(*m->value));
  }
  out +=
      "  ticks are the runtime's clock (ns on ExecuTorch's POSIX platform; the ETDump does not "
      "say which)\n";
}

void RenderCoarse(const Summary& s, std::string& out) {
  const Run& run = *s.run;
  // An ETDump whose delegate logged no per-execution figure (before 2025).
  const bool etdump = run.profile_format == "etdump";
  if (etdump &&
      std::none_of(run.executions.begin(), run.executions.end(), [](const ExecutionRow& e) {
        return e.qnn_accelerator_us || e.accelerator_us || e.accelerator_cycles;
      })) {
    RenderEtdumpCoarse(s, out);
    return;
  }
  AppendSection(out, etdump ? "Coarse view: time per execution (ETDump's QNN figures, µs as logged)"
                            : "Coarse view: time per execution (profile-viewer, µs as printed)");
  if (s.graphs.empty()) {
    out += "  (no per-execution blocks in the profile output)\n";
  } else {
    for (const auto& g : s.graphs) RenderGraphCoarse(s, g, out);
    out +=
        "  * cold first execution (power-on, VTCM acquire, caches) — kept apart from the steady "
        "state\n";
    out +=
        "  graph wall = QNN accelerator (execute) time: latency incl. dispatch/scheduling "
        "overhead\n";
    out +=
        "  compute-busy = Accelerator (execute) time: ops in flight;  overhead = graph wall − "
        "compute-busy\n";
    out +=
        "  work cycles = Accelerator (execute) time (cycles): summed over threads — volume, not "
        "wall time\n";
  }
  for (const auto& g : s.graphs) RenderSteadyState(s, g, out);
  bool stats_header = false;
  for (const auto& m : run.profile_metrics) {
    const ProfileBlockRow& block = run.profile_blocks[m.block];
    if (!IsExecuteStatistics(block)) continue;
    if (!stats_header) out += "  Statistics printed by the viewer:\n";
    stats_header = true;
    out += fmt::format("    [{}] {}{}: {} {}\n", TerminalSafe(block.Name()),
                       m.source.empty() ? "" : TerminalSafe(m.source) + " ", TerminalSafe(m.name),
                       m.value ? FormatFigure(*m.value) : "-", TerminalSafe(m.unit));
  }
  out += fmt::format("  Plausible HTP clock: {:.3f} GHz ({})\n", s.clock.plausible_ghz,
                     s.clock.source == "runtrace" ? "highest effective clock of any runtrace phase"
                     : s.clock.source == "qhas"
                         ? "QHAS timeline_cycles ÷ graph_execute_us of the traced execution"
                     : s.clock.source == "option" ? "--clock-ghz"
                                                  : "default ceiling: no runtrace or QHAS");
}

void RenderGroups(const std::vector<OpGroupRow>& groups, const Run& run, const char* title,
                  int top_n, bool has_dpc, std::string& out) {
  out += fmt::format("  {} (top {} of {}, by {}):\n", title,
                     FormatCount(std::min<size_t>(top_n, groups.size())),
                     FormatCount(groups.size()), has_dpc ? "dominant-path cycles" : "work cycles");
  out += fmt::format("    {:<34} {:>12} {:>7} {:>13} {:>7} {:>6}  {}\n", "name", "DPC cycles",
                     "% wall", "work cycles", "% work", "inst.", "kind");
  int shown = 0;
  for (const auto& g : groups) {
    if (shown++ >= top_n) break;
    GroupShares shares = SharesOf(g, run.figures);
    out += fmt::format(
        "    {:<34} {:>12} {:>7} {:>13} {:>7} {:>6}  {}\n",
        Ellipsize(TerminalSafe(run.Str(g.name)), 34),
        g.dpc_cycles ? GroupDigits(*g.dpc_cycles) + (g.dpc_lower_bound() ? "+" : "") : "-",
        OrDash(shares.dpc_of_wall_pct, 1), GroupDigits(g.work_cycles), OrDash(shares.work_pct, 1),
        GroupDigits(g.instances), OpCategoryName(g.category));
  }
}

void RenderFine(const Summary& s, int top_n, std::string& out) {
  const Run& run = *s.run;
  const RunFigures& f = run.figures;
  std::string origin = f.fine_source == Source::kOptrace ? "optrace, de-duplicated"
                       : f.fine_source == Source::kQhas  ? "QHAS summary (no optrace given)"
                       : run.profile_format == "etdump"
                           ? "ETDump QNN per-node cycles of execution 1 (no optrace, no QHAS)"
                           : "profile per-node cycles of execution 1 (no optrace, no QHAS)";
  AppendSection(out, fmt::format("Fine view: one traced execution, in HTP cycles ({})", origin));
  if (f.graph_wall_cycles)
    out += fmt::format("  graph wall     {:>14} cycles  span of executed ops{}\n",
                       GroupDigits(*f.graph_wall_cycles),
                       f.start_cycle ? fmt::format(" ({} .. {})", GroupDigits(*f.start_cycle),
                                                   GroupDigits(*f.end_cycle))
                                     : "");
  if (f.work_cycles)
    out += fmt::format("  work           {:>14} cycles  Σ over threads: volume, not time{}\n",
                       GroupDigits(*f.work_cycles),
                       f.work_source == Source::kQhas ? " (QHAS Σ htp_resources cycles_used)" : "");
  if (f.domain_cycles)
    out += fmt::format(
        "  domain         {:>14} cycles  busiest thread (tid {}): real time follows it\n",
        GroupDigits(*f.domain_cycles), *f.domain_tid);
  if (f.dpc_sum_cycles) {
    std::string rest =
        f.idle_cycles
            ? fmt::format("; the other {} cycles of the wall are idle on the critical path",
                          GroupDigits(*f.idle_cycles))
            : "";
    out +=
        fmt::format("  dominant path  {:>14} cycles  Σ DPC{}{}\n", GroupDigits(*f.dpc_sum_cycles),
                    f.dpc_basis == DpcBasis::kLowerBound ? " (a lower bound)" : "", rest);
  }
  if (f.op_instances) out += fmt::format("  op instances   {:>14}\n", GroupDigits(*f.op_instances));
  bool has_dpc = f.fine_source != Source::kProfile;
  RenderGroups(run.qnn_ops, run, "QNN ops", top_n, has_dpc, out);
  if (!run.htp_op_types.empty())
    RenderGroups(run.htp_op_types, run, "HTP op types", top_n, has_dpc, out);
  if (!s.categories.empty()) {
    out += "  By kind (system-service and boundary ops belong to no model op):\n";
    for (const auto& c : s.categories)
      out += fmt::format("    {:<15} {:>6} instances  {:>13} work cycles  {:>12} DPC cycles\n",
                         OpCategoryName(c.category), GroupDigits(c.instances),
                         GroupDigits(c.work_cycles), GroupDigits(c.dpc_cycles));
  }
  if (std::any_of(run.qnn_ops.begin(), run.qnn_ops.end(),
                  [](const OpGroupRow& g) { return g.dpc_lower_bound(); }))
    out += "  + DPC of a multi-slice op is a lower bound (see multi_slice_dpc)\n";
}

void RenderUnits(const Summary& s, std::string& out) {
  const Run& run = *s.run;
  AppendSection(out, "Units: hardware-thread occupancy in the traced execution");
  out += fmt::format("  {:>5}  {:<5} {:>13} {:>7} {:>13} {:>7}\n", "tid", "kind", "cycles_used",
                     "util %", "busy cycles", "slices");
  for (const auto& u : run.units)
    out += fmt::format("  {:>5}  {:<5} {:>13} {:>7} {:>13} {:>7}\n", u.tid, UnitKindName(u.kind),
                       GroupDigits(u.cycles_used),
                       OrDash(SharePct(u.cycles_used, run.figures.graph_wall_cycles), 1),
                       GroupDigits(u.busy_cycles), GroupDigits(static_cast<int64_t>(u.slices)));
  out += "  cycles_used = union of the thread's busy intervals; util = cycles_used ÷ graph wall.\n";
  out +=
      "  tid 256 is the HMX thread and also the main sequencer: it carries all DMA and sync ops.\n";
  const RunFigures& f = run.figures;
  if (f.peak_vtcm_bytes)
    out += fmt::format("  peak VTCM allocation: {} bytes ({}){}\n", GroupDigits(*f.peak_vtcm_bytes),
                       HumanBytes(*f.peak_vtcm_bytes),
                       f.peak_vtcm_cycle ? " at cycle " + GroupDigits(*f.peak_vtcm_cycle) : "");
}

void RenderPhases(const Summary& s, std::string& out) {
  const Run& run = *s.run;
  AppendSection(out, "Runtrace: wall phases per execution (each phase has its own clock)");
  out += fmt::format("  {:>4}  {:<20} {:>13} {:>11} {:>8}\n", "exec", "phase", "wall cycles",
                     "wall µs", "GHz");
  for (const auto& p : run.phases)
    out += fmt::format("  {:>4}  {:<20} {:>13} {:>11} {:>8}\n", p.execution,
                       Ellipsize(TerminalSafe(p.phase), 20), OrDash(p.wall_cycles()),
                       FormatMeasure(p.wall_us(), 2), OrDash(p.effective_ghz(), 3));
  if (run.figures.traced_execution)
    out += fmt::format("  The optrace lies inside execution {}'s Graph Execute window.\n",
                       *run.figures.traced_execution);
}

// Per graph, the top_n ops whose first execution costs most beyond the
// settled state.
void RenderOpWarmup(const Summary& s, int top_n, std::string& out) {
  AppendSection(out, "Per-op warm-up: profile per-node cycles by execution");
  const Run& run = *s.run;
  std::optional<uint32_t> graph;
  int shown = 0;
  for (const auto& w : s.op_warmup) {
    if (graph != w.graph) {
      graph = w.graph;
      shown = 0;
      out += fmt::format("  graph {}:\n", run.graphs[w.graph].name.empty()
                                              ? std::string("(unnamed)")
                                              : TerminalSafe(run.graphs[w.graph].name));
      out += fmt::format("    {:<34} {:>13} {:>13} {:>15} {:>13}\n", "op", "exec 1 (cold)",
                         "exec 2", "median 3..N", "cold÷median");
    }
    if (shown++ >= top_n) continue;
    out +=
        fmt::format("    {:<34} {:>13} {:>13} {:>15} {:>13}\n", Ellipsize(TerminalSafe(w.name), 34),
                    GroupDigits(w.cold_cycles), w.warm_cycles ? GroupDigits(*w.warm_cycles) : "-",
                    w.steady_median_cycles ? FormatFigure(*w.steady_median_cycles) : "-",
                    w.cold_over_steady ? fmt::format("{:.1f}×", *w.cold_over_steady) : "-");
  }
  out +=
      "  median 3..N = median over executions 3..N, execution 2 shown apart (the per-op steady\n"
      "  state's median is over 2..N); cycles as the profile prints them per node\n";
}

void OpWarmupRow(const Run& run, const OpWarmup& w, JsonRow& row) {
  ProfileOpRow(run, w, row);
  row.Number("executions", w.executions);
  row.Number("cold_cycles", w.cold_cycles);
  row.Optional("warm_cycles", w.warm_cycles);
  row.Optional("steady_median_cycles", w.steady_median_cycles);
  row.Optional("cold_over_steady", w.cold_over_steady);
}

json ExecutionJson(const CoarseExecution& e, const Run& run) {
  return {{"graph", run.graphs[e.graph].name},
          {"index", e.index},
          {"cold", e.cold},
          {"qnn_accelerator_us", OptionalJson(e.graph_wall_us)},
          {"accelerator_us", OptionalJson(e.compute_busy_us)},
          {"accelerator_excluding_wait_us", OptionalJson(e.compute_excluding_wait_us)},
          {FigureName(Figure::kOverheadUs), OptionalJson(e.overhead_us)},
          {"overhead_pct", OptionalJson(e.overhead_pct)},
          {"rpc_us", OptionalJson(e.rpc_us)},
          {"qnn_execute_us", OptionalJson(e.qnn_execute_us)},
          {"accelerator_cycles", OptionalJson(e.work_cycles)},
          {"implied_ghz", OptionalJson(e.implied_ghz)},
          {"aggregate_cycles", e.aggregate_cycles}};
}

json SteadyJson(const std::optional<SteadyState>& steady) {
  if (!steady) return nullptr;
  return {{"first_index", steady->first_index},
          {"qnn_accelerator_us", StatsJson(steady->graph_wall_us)},
          {"accelerator_us", StatsJson(steady->compute_busy_us)},
          {FigureName(Figure::kOverheadUs), StatsJson(steady->overhead_us)},
          {"accelerator_cycles", StatsJson(steady->work_cycles)}};
}

}  // namespace

std::string RenderSummaryText(const Summary& s, int top_n) {
  const Run& run = *s.run;
  std::string out = fmt::format("htpscope summary: {}\n", TerminalSafe(run.label));
  out += ReadArtifactLines(run.artifacts);
  for (const auto& k : run.skipped) out += fmt::format("  skipped {}\n", TerminalSafe(k));
  RenderCoarse(s, out);
  if (run.figures.fine_source != Source::kNone) RenderFine(s, top_n, out);
  if (ShowsOpSteadyState(s)) out += RenderOpSteadyStateText(s, top_n);
  if (!run.units.empty()) RenderUnits(s, out);
  out += RenderHardwareSections(s, top_n);
  if (!run.phases.empty()) RenderPhases(s, out);
  out += RenderFirstInferenceText(s);
  if (!s.op_warmup.empty()) RenderOpWarmup(s, top_n, out);
  out += CrossChecksSection(run.cross_checks);
  if (!s.warnings.empty()) {
    AppendSection(out, "Warnings");
    for (const auto& w : s.warnings)
      out += fmt::format("  [{}] {}\n", WarningName(w.code), TerminalSafe(w.message));
  }
  out += MissingArtifactsSection(run.missing);
  return out;
}

LazyObject SummaryJson(const Summary& s) {
  const Run& run = *s.run;
  const RunFigures& f = run.figures;
  LazyObject doc;
  json& j = doc.members;
  j["schema"] = "htpscope.summary/1";
  j["label"] = run.label;
  j["artifacts"] = ArtifactsJson(run.artifacts);
  j["skipped"] = run.skipped;
  j["graphs"] = json::array();
  for (uint32_t g = 0; g < run.graphs.size(); ++g) {
    json graph{{"name", run.graphs[g].name},
               {"source", SourceName(run.graphs[g].source)},
               {"executions", json::array()},
               {"steady_state", nullptr}};
    for (const auto& c : s.graphs) {
      if (c.graph != g) continue;
      for (const auto& e : c.executions) graph["executions"].push_back(ExecutionJson(e, run));
      graph["steady_state"] = SteadyJson(c.steady_state);
    }
    j["graphs"].push_back(std::move(graph));
  }
  // The first graph's coarse view at the top level, as schema 1 has it.
  j["executions"] = json::array();
  j["steady_state"] = nullptr;
  if (!s.graphs.empty()) {
    for (const auto& e : s.graphs.front().executions)
      j["executions"].push_back(ExecutionJson(e, run));
    j["steady_state"] = SteadyJson(s.graphs.front().steady_state);
  }
  j["profile_statistics"] = json::array();
  for (const auto& m : run.profile_metrics)
    if (IsExecuteStatistics(run.profile_blocks[m.block]))
      j["profile_statistics"].push_back({{"section", run.profile_blocks[m.block].Name()},
                                         {"source", m.source},
                                         {"name", m.name},
                                         {"value", OptionalJson(m.value)},
                                         {"unit", m.unit}});
  j["clock"] = {{"plausible_ghz", s.clock.plausible_ghz}, {"source", s.clock.source}};
  doc.AddRowArray("op_warmup", s.op_warmup.size(),
                  [&s](size_t i, JsonRow& row) { OpWarmupRow(*s.run, s.op_warmup[i], row); });

  const bool fine = f.fine_source != Source::kNone;
  j["fine_source"] = fine ? json(SourceName(f.fine_source)) : json(nullptr);
  j[FigureName(Figure::kGraphWallCycles)] = OptionalJson(f.graph_wall_cycles);
  j["start_cycle"] = OptionalJson(f.start_cycle);
  j["end_cycle"] = OptionalJson(f.end_cycle);
  j[FigureName(Figure::kWorkCycles)] = OptionalJson(f.work_cycles);  // the traced execution's
  j["work_source"] = f.work_cycles ? json(SourceName(f.work_source)) : json(nullptr);
  j[FigureName(Figure::kDomainCycles)] = OptionalJson(f.domain_cycles);
  j["domain_tid"] = OptionalJson(f.domain_tid);
  j[FigureName(Figure::kDpcSumCycles)] = OptionalJson(f.dpc_sum_cycles);
  j["dpc_basis"] = f.dpc_sum_cycles ? json(DpcBasisName(f.dpc_basis)) : json(nullptr);
  j["idle_cycles"] = OptionalJson(f.idle_cycles);
  j[FigureName(Figure::kOpInstances)] = OptionalJson(f.op_instances);
  doc.AddRowArray("ops", run.qnn_ops.size(),
                  [&run](size_t i, JsonRow& row) { GroupRow(run.qnn_ops[i], run, row); });
  doc.AddRowArray("htp_op_types", run.htp_op_types.size(),
                  [&run](size_t i, JsonRow& row) { GroupRow(run.htp_op_types[i], run, row); });
  j["categories"] = json::array();
  for (const auto& c : s.categories)
    j["categories"].push_back({{"category", OpCategoryName(c.category)},
                               {"instances", c.instances},
                               {ItemFigureName(ItemFigure::kWorkCycles), c.work_cycles},
                               {"dpc_cycles", c.dpc_cycles}});
  j["units"] = json::array();
  for (const auto& u : run.units)
    j["units"].push_back(
        {{"tid", u.tid},
         {"kind", UnitKindName(u.kind)},
         {"cycles_used", u.cycles_used},
         {"busy_cycles", u.busy_cycles},
         {"utilization_pct", OptionalJson(SharePct(u.cycles_used, f.graph_wall_cycles))},
         {"slices", u.slices}});
  j[FigureName(Figure::kPeakVtcmBytes)] = OptionalJson(f.peak_vtcm_bytes);
  j["peak_vtcm_cycle"] = OptionalJson(f.peak_vtcm_cycle);
  j["traced_execution"] = OptionalJson(f.traced_execution);
  j["runtrace_phases"] = json::array();
  for (const auto& p : run.phases)
    j["runtrace_phases"].push_back({{"execution", p.execution},
                                    {"phase", p.phase},
                                    {"wall_ticks", p.wall_ticks()},
                                    {ItemFigureName(ItemFigure::kPhaseWallUs), p.wall_us()},
                                    {"wall_cycles", OptionalJson(p.wall_cycles())},
                                    {"effective_ghz", OptionalJson(p.effective_ghz())}});
  AddHardwareJson(s, doc);
  AddProfilePhasesJson(s, doc);
  j["modules"] = ModulesToJson(s.modules);
  j["cross_checks"] = CrossChecksJson(run.cross_checks);
  j["warnings"] = WarningsJson(s.warnings);
  j["missing"] = MissingArtifactsJson(run.missing);
  return doc;
}

json SummaryToJson(const Summary& s) { return Materialize(SummaryJson(s)); }

}  // namespace htpscope
