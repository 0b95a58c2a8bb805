#include "report/summary_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "report/format_util.h"
#include "report/json_values.h"
#include "report/run_sections.h"
#include "report/text_sanitize.h"

namespace htpscope {
namespace {

using nlohmann::json;

json GroupJson(const OpGroup& g) {
  json j{{"name", g.name},
         {"category", OpCategoryName(g.category)},
         {"dpc_cycles", OptionalJson(g.dpc_cycles)},
         {"dpc_lower_bound", g.dpc_lower_bound},
         {"work_cycles", g.work_cycles},
         {"instances", g.instances},
         {"dpc_share_of_wall_pct", OptionalJson(g.dpc_share_of_wall_pct)},
         {"work_share_pct", OptionalJson(g.work_share_pct)}};
  if (!g.type.empty()) j["type"] = g.type;
  return j;
}

void RenderCoarse(const Summary& s, std::string& out) {
  AppendSection(out, "Coarse view: time per execution (profile-viewer, µs as printed)");
  if (s.executions.empty()) {
    out += "  (no per-execution blocks in the profile output)\n";
  } else {
    out += fmt::format("  {:>4}  {:>13}  {:>15}  {:>18}  {:>13}  {:>8}  {:>14}  {:>8}\n", "exec",
                       "graph wall µs", "compute-busy µs", "overhead µs (share)", "excl. wait µs",
                       "RPC µs", "work cycles", "cyc/µs");
    for (const auto& e : s.executions) {
      std::string overhead = e.overhead_us ? fmt::format("{:.0f} ({:.1f} %)", *e.overhead_us,
                                                         e.overhead_pct.value_or(0))
                                           : std::string("-");
      out += fmt::format(
          "  {:>4}  {:>13}  {:>15}  {:>18}  {:>13}  {:>8}  {:>14}  {:>8}{}\n",
          fmt::format("{}{}", e.index, e.index == s.executions.front().index ? "*" : ""),
          OrDash(e.graph_wall_us, 0), OrDash(e.compute_busy_us, 0), overhead,
          OrDash(e.compute_excluding_wait_us, 0), OrDash(e.rpc_us, 0), OrDash(e.work_cycles),
          e.implied_ghz ? fmt::format("{:.0f}", *e.implied_ghz * 1000) : "-",
          e.aggregate_cycles ? "  > clock: aggregate" : "");
    }
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
  if (s.steady_state) {
    const auto& st = *s.steady_state;
    auto line = [&](const char* what, const std::optional<SampleStats>& stats, const char* unit) {
      if (!stats) return;
      out += fmt::format("  {:<16} median {:.1f} {}  (min {:.1f}, max {:.1f}, n {})\n", what,
                         stats->median, unit, stats->min, stats->max, stats->n);
    };
    out += fmt::format("  Steady state, executions {}..{}:\n", st.first_index,
                       s.executions.back().index);
    line("graph wall", st.graph_wall_us, "µs");
    line("compute-busy", st.compute_busy_us, "µs");
    line("overhead", st.overhead_us, "µs");
    line("work", st.work_cycles, "cycles");
  }
  if (!s.profile_statistics.empty()) {
    out += "  Statistics printed by the viewer:\n";
    for (size_t i = 0; i < s.profile_statistics.size(); ++i) {
      const auto& m = s.profile_statistics[i];
      out += fmt::format("    [{}] {}{}: {} {}\n", TerminalSafe(s.profile_statistics_sections[i]),
                         m.source.empty() ? "" : TerminalSafe(m.source) + " ", TerminalSafe(m.name),
                         m.has_value ? fmt::format("{:g}", m.value) : "-", TerminalSafe(m.unit));
    }
  }
  out += fmt::format("  Plausible HTP clock: {:.3f} GHz ({})\n", s.clock.plausible_ghz,
                     s.clock.source == "runtrace" ? "highest effective clock of any runtrace phase"
                     : s.clock.source == "option" ? "--clock-ghz"
                                                  : "default ceiling: no runtrace");
}

void RenderGroups(const std::vector<OpGroup>& groups, const char* title, int top_n, bool has_dpc,
                  std::string& out) {
  out += fmt::format("  {} (top {} of {}, by {}):\n", title, std::min<size_t>(top_n, groups.size()),
                     groups.size(), has_dpc ? "dominant-path cycles" : "work cycles");
  out += fmt::format("    {:<34} {:>12} {:>7} {:>13} {:>7} {:>6}  {}\n", "name", "DPC cycles",
                     "% wall", "work cycles", "% work", "inst.", "kind");
  int shown = 0;
  for (const auto& g : groups) {
    if (shown++ >= top_n) break;
    out += fmt::format(
        "    {:<34} {:>12} {:>7} {:>13} {:>7} {:>6}  {}\n", Ellipsize(TerminalSafe(g.name), 34),
        g.dpc_cycles ? GroupDigits(*g.dpc_cycles) + (g.dpc_lower_bound ? "+" : "") : "-",
        OrDash(g.dpc_share_of_wall_pct, 1), GroupDigits(g.work_cycles), OrDash(g.work_share_pct, 1),
        g.instances, OpCategoryName(g.category));
  }
}

void RenderFine(const Summary& s, int top_n, std::string& out) {
  const FineView& f = *s.fine;
  std::string origin = f.source == "optrace" ? "optrace, de-duplicated"
                       : f.source == "qhas"
                           ? "QHAS summary (no optrace given)"
                           : "profile per-node cycles of execution 1 (no optrace, no QHAS)";
  AppendSection(out, fmt::format("Fine view: one traced execution, in HTP cycles ({})", origin));
  if (f.graph_wall_cycles)
    out +=
        fmt::format("  graph wall     {:>14} cycles  span of executed ops{}\n",
                    GroupDigits(*f.graph_wall_cycles),
                    f.start_cycle ? fmt::format(" ({} .. {})", *f.start_cycle, *f.end_cycle) : "");
  if (f.work_cycles)
    out += fmt::format("  work           {:>14} cycles  Σ over threads: volume, not time\n",
                       GroupDigits(*f.work_cycles));
  if (f.domain_cycles)
    out += fmt::format(
        "  domain         {:>14} cycles  busiest thread (tid {}): real time follows it\n",
        GroupDigits(*f.domain_cycles), *f.domain_tid);
  if (f.dpc_sum_cycles)
    out += fmt::format(
        "  dominant path  {:>14} cycles  Σ DPC; the rest of the wall is idle on the critical "
        "path\n",
        GroupDigits(*f.dpc_sum_cycles));
  if (f.instances) out += fmt::format("  op instances   {:>14}\n", GroupDigits(f.instances));
  bool has_dpc = f.source != "profile";
  RenderGroups(f.qnn_ops, "QNN ops", top_n, has_dpc, out);
  if (!f.htp_op_types.empty()) RenderGroups(f.htp_op_types, "HTP op types", top_n, has_dpc, out);
  if (!f.categories.empty()) {
    out += "  By kind (system-service and boundary ops belong to no model op):\n";
    for (const auto& c : f.categories)
      out += fmt::format("    {:<15} {:>6} instances  {:>13} work cycles  {:>12} DPC cycles\n",
                         OpCategoryName(c.category), c.instances, GroupDigits(c.work_cycles),
                         GroupDigits(c.dpc_cycles));
  }
  if (std::any_of(f.qnn_ops.begin(), f.qnn_ops.end(),
                  [](const OpGroup& g) { return g.dpc_lower_bound; }))
    out += "  + DPC of a multi-slice op is a lower bound (see multi_slice_dpc)\n";
}

void RenderUnits(const Summary& s, std::string& out) {
  AppendSection(out, "Units: hardware-thread occupancy in the traced execution");
  out += fmt::format("  {:>5}  {:<5} {:>13} {:>7} {:>13} {:>7}\n", "tid", "kind", "cycles_used",
                     "util %", "busy cycles", "slices");
  for (const auto& u : s.units)
    out += fmt::format("  {:>5}  {:<5} {:>13} {:>7.1f} {:>13} {:>7}\n", u.tid, UnitKindName(u.kind),
                       GroupDigits(u.cycles_used), u.utilization_pct, GroupDigits(u.busy_cycles),
                       u.slices);
  out += "  cycles_used = union of the thread's busy intervals; util = cycles_used ÷ graph wall.\n";
  out +=
      "  tid 256 is the HMX thread and also the main sequencer: it carries all DMA and sync ops.\n";
  if (s.peak_vtcm_bytes)
    out += fmt::format("  peak VTCM allocation: {} bytes ({}){}\n", GroupDigits(*s.peak_vtcm_bytes),
                       HumanBytes(*s.peak_vtcm_bytes),
                       s.peak_vtcm_cycle ? fmt::format(" at cycle {}", *s.peak_vtcm_cycle) : "");
}

void RenderPhases(const Summary& s, std::string& out) {
  AppendSection(out, "Runtrace: wall phases per execution (each phase has its own clock)");
  out += fmt::format("  {:>4}  {:<20} {:>13} {:>11} {:>8}\n", "exec", "phase", "wall cycles",
                     "wall µs", "GHz");
  for (const auto& p : s.phases)
    out += fmt::format("  {:>4}  {:<20} {:>13} {:>11.2f} {:>8}\n", p.execution,
                       Ellipsize(TerminalSafe(p.phase), 20), OrDash(p.wall_cycles), p.wall_us,
                       OrDash(p.effective_ghz, 3));
  if (s.traced_execution)
    out += fmt::format("  The optrace lies inside execution {}'s Graph Execute window.\n",
                       *s.traced_execution);
}

}  // namespace

std::string RenderSummaryText(const Summary& s, int top_n) {
  std::string out = fmt::format("htpscope summary: {}\n", TerminalSafe(s.label));
  out += ReadArtifactLines(s.artifacts);
  for (const auto& k : s.skipped) out += fmt::format("  skipped {}\n", TerminalSafe(k));
  RenderCoarse(s, out);
  if (s.fine) RenderFine(s, top_n, out);
  if (!s.units.empty()) RenderUnits(s, out);
  if (!s.phases.empty()) RenderPhases(s, out);
  if (!s.cross_checks.empty()) {
    AppendSection(out, "Cross-checks between artifacts");
    for (const auto& c : s.cross_checks) {
      const char* relation = !c.agree ? "vs" : c.a == c.b ? "=" : "≈";
      out += fmt::format("  [{}] {}: {} {:g} {} {} {:g}", c.agree ? "agree" : "DIFFER",
                         TerminalSafe(c.name), TerminalSafe(c.a_source), c.a, relation,
                         TerminalSafe(c.b_source), c.b);
      if (!c.agree && c.unit != "ops")
        out += fmt::format(" (difference {:g} {})", c.a - c.b, c.unit);
      out += "\n";
      if (!c.note.empty() && !c.agree) out += fmt::format("      {}\n", TerminalSafe(c.note));
    }
  }
  if (!s.warnings.empty()) {
    AppendSection(out, "Warnings");
    for (const auto& w : s.warnings)
      out += fmt::format("  [{}] {}\n", w.code, TerminalSafe(w.message));
  }
  out += MissingArtifactsSection(s.missing);
  return out;
}

json SummaryToJson(const Summary& s) {
  json j;
  j["schema"] = "htpscope.summary/1";
  j["label"] = s.label;
  j["artifacts"] = ArtifactsJson(s.artifacts);
  j["skipped"] = s.skipped;

  j["executions"] = json::array();
  for (const auto& e : s.executions)
    j["executions"].push_back(
        {{"index", e.index},
         {"cold", &e == &s.executions.front()},
         {"qnn_accelerator_us", OptionalJson(e.graph_wall_us)},
         {"accelerator_us", OptionalJson(e.compute_busy_us)},
         {"accelerator_excluding_wait_us", OptionalJson(e.compute_excluding_wait_us)},
         {"overhead_us", OptionalJson(e.overhead_us)},
         {"overhead_pct", OptionalJson(e.overhead_pct)},
         {"rpc_us", OptionalJson(e.rpc_us)},
         {"qnn_execute_us", OptionalJson(e.qnn_execute_us)},
         {"accelerator_cycles", OptionalJson(e.work_cycles)},
         {"implied_ghz", OptionalJson(e.implied_ghz)},
         {"aggregate_cycles", e.aggregate_cycles}});
  if (s.steady_state) {
    const auto& st = *s.steady_state;
    j["steady_state"] = {{"first_index", st.first_index},
                         {"qnn_accelerator_us", StatsJson(st.graph_wall_us)},
                         {"accelerator_us", StatsJson(st.compute_busy_us)},
                         {"overhead_us", StatsJson(st.overhead_us)},
                         {"accelerator_cycles", StatsJson(st.work_cycles)}};
  } else {
    j["steady_state"] = nullptr;
  }
  j["profile_statistics"] = json::array();
  for (size_t i = 0; i < s.profile_statistics.size(); ++i) {
    const auto& m = s.profile_statistics[i];
    j["profile_statistics"].push_back({{"section", s.profile_statistics_sections[i]},
                                       {"source", m.source},
                                       {"name", m.name},
                                       {"value", m.has_value ? json(m.value) : json(nullptr)},
                                       {"unit", m.unit}});
  }
  j["clock"] = {{"plausible_ghz", s.clock.plausible_ghz}, {"source", s.clock.source}};

  const FineView* f = s.fine ? &*s.fine : nullptr;
  j["fine_source"] = f ? json(f->source) : json(nullptr);
  j["graph_wall_cycles"] = f ? OptionalJson(f->graph_wall_cycles) : json(nullptr);
  j["start_cycle"] = f ? OptionalJson(f->start_cycle) : json(nullptr);
  j["end_cycle"] = f ? OptionalJson(f->end_cycle) : json(nullptr);
  j["work_cycles"] = f ? OptionalJson(f->work_cycles) : json(nullptr);
  j["domain_cycles"] = f ? OptionalJson(f->domain_cycles) : json(nullptr);
  j["domain_tid"] = f ? OptionalJson(f->domain_tid) : json(nullptr);
  j["dpc_sum_cycles"] = f ? OptionalJson(f->dpc_sum_cycles) : json(nullptr);
  j["ops"] = json::array();
  j["htp_op_types"] = json::array();
  j["categories"] = json::array();
  if (f) {
    for (const auto& g : f->qnn_ops) j["ops"].push_back(GroupJson(g));
    for (const auto& g : f->htp_op_types) j["htp_op_types"].push_back(GroupJson(g));
    for (const auto& c : f->categories)
      j["categories"].push_back({{"category", OpCategoryName(c.category)},
                                 {"instances", c.instances},
                                 {"work_cycles", c.work_cycles},
                                 {"dpc_cycles", c.dpc_cycles}});
  }
  j["units"] = json::array();
  for (const auto& u : s.units)
    j["units"].push_back({{"tid", u.tid},
                          {"kind", UnitKindName(u.kind)},
                          {"cycles_used", u.cycles_used},
                          {"busy_cycles", u.busy_cycles},
                          {"utilization_pct", u.utilization_pct},
                          {"slices", u.slices}});
  j["peak_vtcm_bytes"] = OptionalJson(s.peak_vtcm_bytes);
  j["peak_vtcm_cycle"] = OptionalJson(s.peak_vtcm_cycle);
  j["traced_execution"] = s.traced_execution ? json(*s.traced_execution) : json(nullptr);
  j["runtrace_phases"] = json::array();
  for (const auto& p : s.phases)
    j["runtrace_phases"].push_back({{"execution", p.execution},
                                    {"phase", p.phase},
                                    {"wall_ticks", p.wall_ticks},
                                    {"wall_us", p.wall_us},
                                    {"wall_cycles", OptionalJson(p.wall_cycles)},
                                    {"effective_ghz", OptionalJson(p.effective_ghz)}});
  j["cross_checks"] = CrossChecksJson(s.cross_checks);
  j["warnings"] = json::array();
  for (const auto& w : s.warnings)
    j["warnings"].push_back({{"code", w.code}, {"message", w.message}});
  j["missing"] = MissingArtifactsJson(s.missing);
  return j;
}

}  // namespace htpscope
