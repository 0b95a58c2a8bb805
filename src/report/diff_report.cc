#include "report/diff_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/format_util.h"
#include "report/gate_report.h"
#include "report/json_values.h"
#include "report/module_diff_report.h"
#include "report/run_sections.h"
#include "report/text_sanitize.h"

namespace htpscope {
namespace {

using nlohmann::json;

// ---- Numbers ----------------------------------------------------------------

int64_t Round(double v) { return static_cast<int64_t>(std::llround(v)); }

// A value in its unit, for prose and tables: µs with one decimal, counts
// with digit groups, seconds whole or with two decimals (never 1e+07).
std::string Value(double v, const std::string& unit) {
  if (unit == "us") return FormatMeasure(v, 1);
  if (unit == "pct") return FormatMeasure(v, 1);
  if (unit == "s") return FormatFigure(v);
  return GroupDigits(Round(v));
}

std::string SignedValue(double v, const std::string& unit) {
  std::string body = Value(std::fabs(v), unit);
  if (v > 0) return "+" + body;
  if (v < 0) return "-" + body;
  return body;
}

std::string UnitSuffix(const std::string& unit) {
  if (unit == "us") return " µs";
  if (unit == "cycles") return " cycles";
  if (unit == "bytes") return " bytes";
  if (unit == "pct") return " %";
  if (unit == "s") return " s";
  return "";  // instances: the label says what is counted
}

std::string WithUnit(double v, const std::string& unit) {
  return Value(v, unit) + UnitSuffix(unit);
}

std::string Pct(const std::optional<double>& pct) {
  return pct ? (*pct >= 0 ? "+" : "") + FormatMeasure(*pct, 1) + " %" : std::string("-");
}

// "215.5 → 188.0 µs"
std::string Arrow(const MetricDelta& d) {
  return fmt::format("{} → {}{}", Value(d.a->median, d.unit), Value(d.b->median, d.unit),
                     UnitSuffix(d.unit));
}

std::string NoiseCell(const MetricDelta& d) {
  if (!d.both()) return "";
  if (!d.noise_bound) return fmt::format("not assessed (n {}/{})", d.a->n, d.b->n);
  return fmt::format("{} ±{}", d.within_noise ? "within noise" : "beyond noise",
                     Value(*d.noise_bound, d.unit));
}

std::string Side(const MetricDelta& d, bool a) {
  const auto& s = a ? d.a : d.b;
  return s ? Value(s->median, d.unit) : std::string("-");
}

std::string Change(const MetricDelta& d) {
  return d.change ? SignedValue(*d.change, d.unit) : std::string("-");
}

// ---- Verdict --------------------------------------------------------------

std::string TidName(uint32_t tid) {
  return fmt::format("{} tid {}", UnitKindName(UnitKindOfTid(tid)), tid);
}

std::string WallSentence(const RunDiff& diff) {
  const NamedDelta* w = diff.Find(diff.wall_metric);
  if (!w || !w->delta.both())
    return "No wall figure exists on both sides (neither steady-state µs from a profile with 2 or "
           "more executions nor a traced graph wall from an optrace or QHAS file): only the "
           "figures below compare A and B.";
  const MetricDelta& d = w->delta;
  const bool steady = diff.wall_metric == FigureName(Figure::kWallUs);
  std::string what = steady ? "steady-state graph wall"
                            : "traced graph wall (cycles of the one execution each trace covers; "
                              "no steady-state µs on both sides)";
  double a = d.a->median, b = d.b->median;
  std::string s;
  if (d.within_noise && a != b) {
    s = fmt::format("B's {} is unchanged within noise ({}, {}, noise ±{})", what, Arrow(d),
                    Pct(d.change_pct), Value(*d.noise_bound, d.unit));
  } else if (b < a) {
    s = b > 0 ? fmt::format("B is {:.2f}× faster in {} ({}, {})", a / b, what, Arrow(d),
                            Pct(d.change_pct))
              : fmt::format("B is faster in {} ({})", what, Arrow(d));
  } else if (b > a) {
    s = a > 0 ? fmt::format("B is {:.2f}× slower in {} ({}, {})", b / a, what, Arrow(d),
                            Pct(d.change_pct))
              : fmt::format("B is slower in {} ({})", what, Arrow(d));
  } else {
    s = fmt::format("B's {} equals A's ({})", what, WithUnit(a, d.unit));
  }
  const NamedDelta* work = diff.Find(Figure::kWorkCycles);
  if (work && work->delta.both()) {
    const MetricDelta& k = work->delta;
    double wa = k.a->median, wb = k.b->median;
    std::string basis = k.basis.rfind("steady", 0) == 0 ? "thread-aggregate, steady state"
                                                        : "thread-aggregate, traced execution";
    if (k.within_noise || wa == wb)
      s += fmt::format(" while doing the same compute work{} ({}, {})",
                       k.within_noise && wa != wb ? " within noise" : "", Arrow(k), basis);
    else if (wb > wa)
      s += fmt::format(" while doing {} more compute work ({}, {})",
                       wa > 0 ? fmt::format("{:.2f}×", wb / wa) : std::string("some"), Arrow(k),
                       basis);
    else
      s += fmt::format(" while doing {} less compute work ({}, {})",
                       wb > 0 ? fmt::format("{:.2f}×", wa / wb) : std::string("all"), Arrow(k),
                       basis);
  }
  if (steady && !d.within_noise && diff.wall_cause != WallCause::kUnknown) {
    const MetricDelta& busy = diff.Find(Figure::kComputeBusyUs)->delta;
    const MetricDelta& over = diff.Find(Figure::kOverheadUs)->delta;
    bool gain = b < a;
    bool overhead = diff.wall_cause == WallCause::kOverhead;
    // "mostly" when the other part moved the same way.
    double other = overhead ? *busy.change : *over.change;
    bool mostly = gain ? other < 0 : other > 0;
    std::string cause = overhead ? (gain ? "dispatch overhead removed" : "added dispatch overhead")
                                 : (gain ? "less compute-busy time" : "more compute-busy time");
    s += fmt::format(": the {} is {}{} (overhead {}; compute-busy {})", gain ? "gain" : "loss",
                     mostly ? "mostly " : "", cause, Arrow(over), Arrow(busy));
  }
  return s + ".";
}

std::string ColdSentence(const RunDiff& diff) {
  const NamedDelta* cold = diff.Find(Figure::kColdWallUs);
  if (!cold || !cold->delta.both()) return "";
  return fmt::format(" Cold first execution, kept apart: graph wall {} ({}).", Arrow(cold->delta),
                     Pct(cold->delta.change_pct));
}

std::string TracedSentence(const RunDiff& diff) {
  const MetricDelta& wall = diff.Find(Figure::kGraphWallCycles)->delta;
  std::string s;
  std::vector<std::string> ops;
  for (size_t i = 0; i < diff.attribution.size() && i < 3; ++i) {
    const WallAttribution& w = diff.attribution[i];
    std::string share;
    if (w.share_of_wall_change_pct && *w.share_of_wall_change_pct >= 0)
      share = fmt::format(", {:.0f} % of the wall change", *w.share_of_wall_change_pct);
    else if (w.share_of_wall_change_pct)
      share = fmt::format(", offsetting {:.0f} % of it", -*w.share_of_wall_change_pct);
    ops.push_back(fmt::format("{} {} DPC cycles ({}{})", w.name,
                              SignedValue(w.dpc_change_cycles, "cycles"), OpMatchName(w.status),
                              share));
  }
  if (wall.both()) {
    s += fmt::format(" In the traced execution the graph wall went {} ({})", Arrow(wall),
                     Pct(wall.change_pct));
    s += ops.empty() ? "." : fmt::format("; the DPC changed most in {}.", fmt::join(ops, ", "));
  } else if (!ops.empty()) {
    s += fmt::format(" The DPC changed most in {}.", fmt::join(ops, ", "));
  }
  const MetricDelta& domain = diff.Find(Figure::kDomainCycles)->delta;
  if (domain.both() && diff.a_domain_tid && diff.b_domain_tid) {
    if (*diff.a_domain_tid != *diff.b_domain_tid)
      s += fmt::format(" The busiest thread moved from {} to {} (domain {}).",
                       TidName(*diff.a_domain_tid), TidName(*diff.b_domain_tid), Arrow(domain));
    else
      s += fmt::format(" The busiest thread stays {} (domain {}).", TidName(*diff.a_domain_tid),
                       Arrow(domain));
  }
  return s;
}

std::string OpsSentence(const RunDiff& diff) {
  if (diff.qnn_ops.empty()) return "";
  int by_name = 0, by_type = 0, added = 0, removed = 0;
  for (const auto& op : diff.qnn_ops) {
    if (op.status == OpMatch::kAdded) ++added;
    if (op.status == OpMatch::kRemoved) ++removed;
    if (op.matched_by == "name") ++by_name;
    if (op.matched_by == "type+dims") ++by_type;
  }
  std::string s = fmt::format(" QNN ops: {} matched by name", FormatCount(by_name));
  if (by_type) s += fmt::format(", {} by QNN op type + dims (renamed)", FormatCount(by_type));
  s += fmt::format(", {} added, {} removed", FormatCount(added), FormatCount(removed));
  if (added && removed) s += " (no unambiguous QNN op type + dims match for them)";
  return s + ".";
}

std::string NoiseSentence(const RunDiff& diff) {
  const NamedDelta* w = diff.Find(diff.wall_metric);
  if (!w || !w->delta.both()) return "";
  const MetricDelta& d = w->delta;
  const bool executions = FindFigure(diff.wall_metric)->samples == FigureSamples::kSteadyExecutions;
  if (!d.noise_bound)
    return fmt::format(
        " Noise not assessed: fewer than {} {} on each side (A {}, B {}), so every change counts.",
        kMinSamplesForNoise, executions ? "steady-state executions" : "runs", d.a->n, d.b->n);
  return fmt::format(" Noise bound for the wall: ±{} (3 × 1.4826 × MAD, A n {}, B n {}).",
                     WithUnit(*d.noise_bound, d.unit), d.a->n, d.b->n);
}

// ---- Text -------------------------------------------------------------------

std::string SideLine(const char* name, const DiffSide& side) {
  return fmt::format("{}: {} ({} run{}; {} steady-state execution{}; per-op view from {})\n", name,
                     fmt::join(side.labels, ", "), side.labels.size(),
                     side.labels.size() == 1 ? "" : "s", side.steady_executions,
                     side.steady_executions == 1 ? "" : "s", fmt::join(side.fine_sources, ", "));
}

// The rows of the run-level figures of `group`, in registry order.
void MetricRows(std::string& out, const RunDiff& diff, FigureGroup group) {
  out += fmt::format("  {:<40} {:>14} {:>14} {:>13} {:>9}  {}\n", "figure", "A", "B", "change", "%",
                     "noise");
  for (const FigureInfo& f : Figures()) {
    if (f.group != group) continue;
    const NamedDelta* m = diff.Find(f.figure);
    if (!m || (!m->delta.a && !m->delta.b)) continue;
    const MetricDelta& d = m->delta;
    out += fmt::format("  {:<40} {:>14} {:>14} {:>13} {:>9}  {}\n",
                       fmt::format("{}{}", m->label, UnitSuffix(d.unit)), Side(d, true),
                       Side(d, false), Change(d), Pct(d.change_pct), NoiseCell(d));
  }
}

std::string OpLabel(const OpDelta& op) {
  if (op.status == OpMatch::kMatched && op.a_name != op.name)
    return fmt::format("{} (A: {})", op.name, op.a_name);
  return op.name;
}

std::string DpcChange(const OpDelta& op) {
  auto c = op.dpc_change_cycles();
  return c ? SignedValue(*c, "cycles") : std::string("-");
}

void OpRows(std::string& out, const std::vector<OpDelta>& ops, int top_n, bool qnn) {
  if (ops.empty()) {
    out += "  (no per-op view on either side)\n";
    return;
  }
  out += fmt::format("  {:<8} {:<36} {:>10} {:>10} {:>10} {:>8} {:>10} {:>10} {:>9}\n", "status",
                     qnn ? "QNN op" : "HTP op type", "A DPC", "B DPC", "ΔDPC", "DPC %", "A work",
                     "B work", "tiles A/B");
  int shown = 0;
  for (const auto& op : ops) {
    if (shown++ >= top_n) break;
    out +=
        fmt::format("  {:<8} {:<36} {:>10} {:>10} {:>10} {:>8} {:>10} {:>10} {:>9}\n",
                    OpMatchName(op.status), Ellipsize(OpLabel(op), 36), Side(op.dpc_cycles, true),
                    Side(op.dpc_cycles, false), DpcChange(op), Pct(op.dpc_cycles.change_pct),
                    Side(op.work_cycles, true), Side(op.work_cycles, false),
                    fmt::format("{}/{}", Side(op.instances, true), Side(op.instances, false)));
  }
  if (static_cast<int>(ops.size()) > top_n)
    out += fmt::format("  … {} more (--top, or --format json for all)\n",
                       FormatCount(ops.size() - top_n));
}

void ProfileOpRows(std::string& out, const std::vector<ProfileOpDelta>& ops, int top_n) {
  out += fmt::format("  {:<8} {:<32} {:>11} {:>11} {:>11} {:>8}  {:<20} {:>10} {:>10}\n", "status",
                     "op", "A steady", "B steady", "change", "%", "noise", "A cold", "B cold");
  int shown = 0;
  for (const auto& op : ops) {
    if (shown++ >= top_n) break;
    auto change = op.steady_change_cycles();
    out += fmt::format("  {:<8} {:<32} {:>11} {:>11} {:>11} {:>8}  {:<20} {:>10} {:>10}\n",
                       OpMatchName(op.status), Ellipsize(TerminalSafe(op.name), 32),
                       Side(op.steady_cycles, true), Side(op.steady_cycles, false),
                       change ? SignedValue(*change, "cycles") : std::string("-"),
                       Pct(op.steady_cycles.change_pct), NoiseCell(op.steady_cycles),
                       Side(op.cold_cycles, true), Side(op.cold_cycles, false));
  }
  if (static_cast<int>(ops.size()) > top_n)
    out += fmt::format("  … {} more (--top, or --format json for all)\n",
                       FormatCount(ops.size() - top_n));
  out +=
      "  steady = median of the op's per-node cycles over executions 2..N of every run on the "
      "side;\n  noise = 3 × 1.4826 × MAD of those executions (docs/diff.md); cold = execution 1\n";
}

void GateRows(std::string& out, const std::vector<GateResult>& gates) {
  if (gates.empty()) return;
  AppendSection(out, "Gates (--fail-on)");
  for (const auto& g : gates)
    out += fmt::format("  {:<5}  {}  — {}\n", GateMark(g), g.expr, g.detail);
  int status = GateExitStatus(gates);
  out += fmt::format("  exit status {}: {}\n", status,
                     status == 0   ? "every gate passed"
                     : status == 1 ? "a gate found a regression"
                                   : "a gate could not be evaluated from these inputs");
}

std::string RenderText(const RunDiff& diff, const std::vector<GateResult>& gates, int top_n) {
  std::string out = "htpscope diff: A = baseline, B = candidate\n";
  out += SideLine("A", diff.a);
  out += SideLine("B", diff.b);
  AppendSection(out, "Verdict");
  out += "  " + DiffVerdict(diff) + "\n";
  AppendSection(out, "Coarse view (µs as printed by the profile viewer)");
  MetricRows(out, diff, FigureGroup::kCoarse);
  out +=
      "  steady state = median over executions 2..N of every run on the side; cold = execution 1\n"
      "  work = thread-aggregate cycles (summed over threads): a volume, never a wall time\n";
  AppendSection(out, "Traced execution (cycles of the one execution each optrace/QHAS covers)");
  MetricRows(out, diff, FigureGroup::kTraced);
  AppendSection(out, "Memory (traced execution)");
  MetricRows(out, diff, FigureGroup::kMemory);
  AppendSection(out, "Units (traced execution)");
  if (diff.units.empty()) {
    out += "  (no per-thread view on either side)\n";
  } else {
    out += fmt::format("  {:>5} {:<5} {:>12} {:>12} {:>12} {:>9} {:>8} {:>8}\n", "tid", "kind",
                       "A used", "B used", "change", "%", "A util", "B util");
    for (const auto& u : diff.units)
      out +=
          fmt::format("  {:>5} {:<5} {:>12} {:>12} {:>12} {:>9} {:>8} {:>8}\n", u.tid,
                      UnitKindName(u.kind), Side(u.cycles_used, true), Side(u.cycles_used, false),
                      Change(u.cycles_used), Pct(u.cycles_used.change_pct),
                      u.utilization_pct.a ? Side(u.utilization_pct, true) + " %" : "-",
                      u.utilization_pct.b ? Side(u.utilization_pct, false) + " %" : "-");
    out += "  used = cycles_used (union of the thread's slices); util = used ÷ graph wall cycles\n";
  }
  AppendSection(out, "QNN ops by |ΔDPC| (traced execution; an added/removed op counts whole)");
  OpRows(out, diff.qnn_ops, top_n, true);
  AppendSection(out, "HTP op types by |ΔDPC|");
  OpRows(out, diff.htp_op_types, top_n, false);
  if (!diff.profile_ops.empty()) {
    AppendSection(out,
                  "Profile ops by |Δ steady median| (per-node cycles; an added/removed op counts "
                  "whole)");
    ProfileOpRows(out, diff.profile_ops, top_n);
  }
  AppendModuleDiffText(diff.modules, top_n, out);
  GateRows(out, gates);
  if (!diff.notes.empty() || !diff.a.missing.empty() || !diff.b.missing.empty()) {
    AppendSection(out, "Notes");
    for (const auto& n : diff.notes) out += "  * " + n + "\n";
    for (const auto& m : diff.a.missing) out += "  * A missing " + m + "\n";
    for (const auto& m : diff.b.missing) out += "  * B missing " + m + "\n";
  }
  return out;
}

// ---- Markdown ---------------------------------------------------------------

std::string MdEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|' || c == '*' || c == '_' || c == '`' || c == '<' || c == '>') out += '\\';
    out += c;
  }
  return out;
}

std::string RenderMarkdown(const RunDiff& diff, const std::vector<GateResult>& gates, int top_n) {
  std::string out = "### htpscope diff\n\n";
  out += fmt::format("**A** `{}` · **B** `{}`\n\n", fmt::join(diff.a.labels, "`, `"),
                     fmt::join(diff.b.labels, "`, `"));
  if (!gates.empty()) {
    int status = GateExitStatus(gates);
    out += fmt::format("**Gates: {}**\n\n", status == 0   ? "passed"
                                            : status == 1 ? "regression"
                                                          : "cannot evaluate");
  }
  out += MdEscape(DiffVerdict(diff)) + "\n\n";
  out += "| figure | A | B | change | noise |\n|---|--:|--:|--:|---|\n";
  // The headline figures only: the text and JSON formats have the rest.
  for (const FigureInfo& f : Figures()) {
    if (!f.headline) continue;
    const NamedDelta* m = diff.Find(f.figure);
    if (!m || (!m->delta.a && !m->delta.b)) continue;
    const MetricDelta& d = m->delta;
    out +=
        fmt::format("| {}{} | {} | {} | {} ({}) | {} |\n", MdEscape(m->label), UnitSuffix(d.unit),
                    Side(d, true), Side(d, false), Change(d), Pct(d.change_pct), NoiseCell(d));
  }
  if (!gates.empty()) {
    out += "\n| gate | result | detail |\n|---|---|---|\n";
    for (const auto& g : gates)
      out += fmt::format("| `{}` | {} | {} |\n", g.expr, GateMark(g), MdEscape(g.detail));
  }
  if (!diff.qnn_ops.empty()) {
    out += fmt::format(
        "\n<details><summary>QNN ops by |ΔDPC| (top {})</summary>\n\n"
        "| status | QNN op | A DPC | B DPC | ΔDPC | tiles A/B |\n|---|---|--:|--:|--:|--:|\n",
        std::min<size_t>(diff.qnn_ops.size(), static_cast<size_t>(top_n)));
    int shown = 0;
    for (const auto& op : diff.qnn_ops) {
      if (shown++ >= top_n) break;
      out +=
          fmt::format("| {} | {} | {} | {} | {} | {}/{} |\n", OpMatchName(op.status),
                      MdEscape(OpLabel(op)), Side(op.dpc_cycles, true), Side(op.dpc_cycles, false),
                      DpcChange(op), Side(op.instances, true), Side(op.instances, false));
    }
    out += "\n</details>\n";
  }
  if (!diff.profile_ops.empty()) {
    out += fmt::format(
        "\n<details><summary>Profile ops by |Δ steady median| (top {})</summary>\n\n"
        "| status | op | A steady | B steady | change | noise |\n|---|---|--:|--:|--:|---|\n",
        std::min<size_t>(diff.profile_ops.size(), static_cast<size_t>(top_n)));
    int shown = 0;
    for (const auto& op : diff.profile_ops) {
      if (shown++ >= top_n) break;
      auto change = op.steady_change_cycles();
      out += fmt::format(
          "| {} | {} | {} | {} | {} | {} |\n", OpMatchName(op.status), MdEscape(op.name),
          Side(op.steady_cycles, true), Side(op.steady_cycles, false),
          change ? SignedValue(*change, "cycles") : std::string("-"), NoiseCell(op.steady_cycles));
    }
    out += "\n</details>\n";
  }
  AppendModuleDiffMarkdown(diff.modules, top_n, out);
  if (!diff.notes.empty()) {
    out += "\n";
    for (const auto& n : diff.notes) out += "- " + MdEscape(n) + "\n";
  }
  return out;
}

// ---- JSON -------------------------------------------------------------------

json OpJson(const OpDelta& op) {
  json j{{"name", op.name},
         {"status", OpMatchName(op.status)},
         {"matched_by", op.matched_by.empty() ? json(nullptr) : json(op.matched_by)},
         {"a_dpc_cycles", OptionalJson(op.dpc_cycles.a_value())},
         {"b_dpc_cycles", OptionalJson(op.dpc_cycles.b_value())},
         {"dpc_change_cycles", OptionalJson(op.dpc_change_cycles())},
         {"change_pct", OptionalJson(op.dpc_cycles.change_pct)},
         {"dpc_within_noise", op.dpc_cycles.within_noise},
         {"dpc_lower_bound", op.dpc_lower_bound},
         {"a_work_cycles", OptionalJson(op.work_cycles.a_value())},
         {"b_work_cycles", OptionalJson(op.work_cycles.b_value())},
         {"work_change_pct", OptionalJson(op.work_cycles.change_pct)},
         {"a_instances", OptionalJson(op.instances.a_value())},
         {"b_instances", OptionalJson(op.instances.b_value())}};
  if (op.status != OpMatch::kAdded) j["a_name"] = op.a_name;
  if (!op.type.empty()) j["type"] = op.type;
  if (!op.dims.empty()) j["dims"] = op.dims;
  return j;
}

json SideJson(const DiffSide& s) {
  return json{{"runs", s.labels},
              {"steady_executions", s.steady_executions},
              {"cold_executions", s.cold_executions},
              {"fine_sources", s.fine_sources},
              {"missing", s.missing}};
}

const char* WallCauseName(WallCause cause) {
  switch (cause) {
    case WallCause::kOverhead:
      return "overhead";
    case WallCause::kComputeBusy:
      return "compute_busy";
    case WallCause::kUnknown:
      break;
  }
  return nullptr;
}

// ---- Stages -----------------------------------------------------------------

std::string StageCell(const std::optional<SampleStats>& s) {
  return s ? Value(s->median, "s") : std::string("-");
}

std::string Improvement(const StageDelta& d) {
  return d.improvement_pct ? fmt::format("{:.1f} %", *d.improvement_pct) : std::string("-");
}

json StageJson(const StageDelta& d) {
  return json{{"stage", d.stage},
              {"a_seconds", OptionalJson(d.seconds.a_value())},
              {"b_seconds", OptionalJson(d.seconds.b_value())},
              {"change_seconds", OptionalJson(d.seconds.change)},
              {"change_pct", OptionalJson(d.seconds.change_pct)},
              {"improvement_pct", OptionalJson(d.improvement_pct)}};
}

}  // namespace

std::optional<DiffFormat> ParseDiffFormat(std::string_view name) {
  if (name == "text") return DiffFormat::kText;
  if (name == "markdown") return DiffFormat::kMarkdown;
  if (name == "json") return DiffFormat::kJson;
  if (name == "junit") return DiffFormat::kJunit;
  return std::nullopt;
}

std::string DiffVerdict(const RunDiff& diff) {
  return WallSentence(diff) + ColdSentence(diff) + TracedSentence(diff) + OpsSentence(diff) +
         NoiseSentence(diff);
}

json RunDiffToJson(const RunDiff& diff, const std::vector<GateResult>& gates) {
  json j;
  j["schema"] = "htpscope.diff/1";
  j["a"] = SideJson(diff.a);
  j["b"] = SideJson(diff.b);
  j["wall_basis"] = diff.wall_metric.empty() ? json(nullptr) : json(diff.wall_metric);
  for (const auto& m : diff.metrics) j[m.name] = DeltaJson(m.delta);
  const char* cause = WallCauseName(diff.wall_cause);
  j["wall_cause"] = cause ? json(cause) : json(nullptr);
  json ops = json::array(), htp = json::array(), units = json::array(), attribution = json::array();
  for (const auto& op : diff.qnn_ops) ops.push_back(OpJson(op));
  for (const auto& op : diff.htp_op_types) htp.push_back(OpJson(op));
  for (const auto& u : diff.units)
    units.push_back({{"tid", u.tid},
                     {"kind", UnitKindName(u.kind)},
                     {"a_cycles_used", OptionalJson(u.cycles_used.a_value())},
                     {"b_cycles_used", OptionalJson(u.cycles_used.b_value())},
                     {"change_pct", OptionalJson(u.cycles_used.change_pct)},
                     {"a_utilization_pct", OptionalJson(u.utilization_pct.a_value())},
                     {"b_utilization_pct", OptionalJson(u.utilization_pct.b_value())}});
  for (const auto& w : diff.attribution)
    attribution.push_back({{"name", w.name},
                           {"status", OpMatchName(w.status)},
                           {"dpc_change_cycles", w.dpc_change_cycles},
                           {"share_of_wall_change_pct", OptionalJson(w.share_of_wall_change_pct)}});
  j["ops"] = ops;
  j["htp_op_types"] = htp;
  j["units"] = units;
  j["attribution"] = attribution;
  json profile_ops = json::array();
  for (const auto& op : diff.profile_ops)
    profile_ops.push_back({{"name", op.name},
                           {"status", OpMatchName(op.status)},
                           {"a_op_id", OptionalJson(op.a_op_id)},
                           {"b_op_id", OptionalJson(op.b_op_id)},
                           {"steady_change_cycles", OptionalJson(op.steady_change_cycles())},
                           {ItemFigureName(ItemFigure::kSteadyCycles), DeltaJson(op.steady_cycles)},
                           {ItemFigureName(ItemFigure::kColdCycles), DeltaJson(op.cold_cycles)}});
  j["profile_ops"] = profile_ops;
  j["modules"] = ModuleDiffToJson(diff.modules);
  j["gates"] = GatesJson(gates);
  j["exit_status"] = GateExitStatus(gates);
  j["verdict"] = DiffVerdict(diff);
  j["notes"] = diff.notes;
  return j;
}

std::string RenderRunDiff(const RunDiff& diff, const std::vector<GateResult>& gates,
                          DiffFormat format, int top_n) {
  switch (format) {
    case DiffFormat::kText:
      return RenderText(diff, gates, top_n);
    case DiffFormat::kMarkdown:
      return RenderMarkdown(diff, gates, top_n);
    case DiffFormat::kJson:
      return RunDiffToJson(diff, gates).dump(2) + "\n";
    case DiffFormat::kJunit:
      return GatesToJunit(gates, "htpscope diff", DiffVerdict(diff));
  }
  return "";
}

std::string StageVerdict(const StageDiff& diff) {
  const MetricDelta& t = diff.total.seconds;
  if (!t.both()) return "No total on both sides.";
  double a = t.a->median, b = t.b->median;
  std::string s;
  if (b < a)
    s = fmt::format("B lowers {:.1f} % faster in total ({})", *diff.total.improvement_pct,
                    Arrow(t));
  else if (b > a)
    s = a > 0 ? fmt::format("B lowers {:.1f} % slower in total ({})", -*diff.total.improvement_pct,
                            Arrow(t))
              : fmt::format("B lowers slower in total ({})", Arrow(t));
  else
    s = fmt::format("B's total lowering time equals A's ({})", WithUnit(a, "s"));
  std::vector<std::string> parts;
  for (const auto& st : diff.stages)
    if (st.improvement_pct)
      parts.push_back(fmt::format("{} {:.1f} %", st.stage, *st.improvement_pct));
  if (!parts.empty()) s += fmt::format("; improvement per stage: {}", fmt::join(parts, ", "));
  return s + ".";
}

json StageDiffToJson(const StageDiff& diff, const std::vector<GateResult>& gates) {
  json stages = json::array();
  for (const auto& s : diff.stages) stages.push_back(StageJson(s));
  return json{{"schema", "htpscope.stage_diff/1"},
              {"a", diff.a_path},
              {"b", diff.b_path},
              {"stages", stages},
              {"total", StageJson(diff.total)},
              {"gates", GatesJson(gates)},
              {"exit_status", GateExitStatus(gates)},
              {"verdict", StageVerdict(diff)},
              {"notes", diff.notes}};
}

std::string RenderStageDiff(const StageDiff& diff, const std::vector<GateResult>& gates,
                            DiffFormat format) {
  std::vector<const StageDelta*> rows;
  for (const auto& s : diff.stages) rows.push_back(&s);
  rows.push_back(&diff.total);
  switch (format) {
    case DiffFormat::kText: {
      std::string out =
          fmt::format("Lowering time by stage: A = {}, B = {}\n\n", diff.a_path, diff.b_path);
      size_t width = 5;
      for (const auto* r : rows) width = std::max(width, r->stage.size());
      out += fmt::format("  {:<{}} {:>10} {:>10} {:>11} {:>12}\n", "stage", width, "A s", "B s",
                         "change s", "improvement");
      for (const auto* r : rows)
        out += fmt::format("  {:<{}} {:>10} {:>10} {:>11} {:>12}\n", r->stage, width,
                           StageCell(r->seconds.a), StageCell(r->seconds.b), Change(r->seconds),
                           Improvement(*r));
      out += "  improvement = (A − B) ÷ A × 100: positive when B is faster\n\n";
      out += StageVerdict(diff) + "\n";
      for (const auto& n : diff.notes) out += "  * " + n + "\n";
      GateRows(out, gates);
      return out;
    }
    case DiffFormat::kMarkdown: {
      std::string out = "### htpscope diff --stages\n\n";
      out += MdEscape(StageVerdict(diff)) + "\n\n";
      out += "| stage | A s | B s | change s | improvement |\n|---|--:|--:|--:|--:|\n";
      for (const auto* r : rows) {
        bool total = r == &diff.total;
        out += fmt::format("| {}{}{} | {} | {} | {} | {} |\n", total ? "**" : "",
                           MdEscape(r->stage), total ? "**" : "", StageCell(r->seconds.a),
                           StageCell(r->seconds.b), Change(r->seconds), Improvement(*r));
      }
      if (!gates.empty()) {
        out += "\n| gate | result | detail |\n|---|---|---|\n";
        for (const auto& g : gates)
          out += fmt::format("| `{}` | {} | {} |\n", g.expr, GateMark(g), MdEscape(g.detail));
      }
      for (const auto& n : diff.notes) out += "- " + MdEscape(n) + "\n";
      return out;
    }
    case DiffFormat::kJson:
      return StageDiffToJson(diff, gates).dump(2) + "\n";
    case DiffFormat::kJunit:
      return GatesToJunit(gates, "htpscope diff --stages", StageVerdict(diff));
  }
  return "";
}

std::string GatesToJunit(const std::vector<GateResult>& gates, std::string_view suite_name,
                         std::string_view verdict) {
  int failures = 0, errors = 0;
  for (const auto& g : gates) {
    if (!g.evaluated)
      ++errors;
    else if (!g.passed)
      ++failures;
  }
  std::string suite = XmlEscape(suite_name);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\">\n", suite,
                     gates.size(), failures, errors);
  out += fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\">\n", suite,
      gates.size(), failures, errors);
  for (const auto& g : gates) {
    out += fmt::format("    <testcase classname=\"htpscope.diff\" name=\"{}\"", XmlEscape(g.expr));
    if (!g.evaluated) {
      out += fmt::format(">\n      <error type=\"input\" message=\"{}\"/>\n    </testcase>\n",
                         XmlEscape(g.detail));
    } else if (!g.passed) {
      out += fmt::format(
          ">\n      <failure type=\"regression\" message=\"{}\">{}</failure>\n    </testcase>\n",
          XmlEscape(g.detail), XmlEscape(g.detail));
    } else if (g.within_noise) {
      out += fmt::format(">\n      <system-out>{}</system-out>\n    </testcase>\n",
                         XmlEscape(g.detail));
    } else {
      out += "/>\n";
    }
  }
  out += fmt::format("    <system-out>{}</system-out>\n", XmlEscape(verdict));
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace htpscope
