#include "report/module_diff_report.h"

#include <fmt/format.h>

#include <cmath>

#include "report/format_util.h"
#include "report/run_sections.h"
#include "report/text_sanitize.h"

namespace htpscope {
namespace {

using nlohmann::json;

json Opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

std::string StatsCell(const std::optional<SampleStats>& s) {
  return s ? FormatFigure(s->median) : std::string("-");
}

std::string Signed(const std::optional<double>& v) {
  if (!v) return "-";
  return (*v > 0 ? "+" : *v < 0 ? "-" : "") + FormatFigure(std::fabs(*v));
}

std::string PctCell(const std::optional<double>& pct) {
  return pct ? (*pct >= 0 ? "+" : "") + FormatMeasure(*pct, 1) + " %" : std::string("-");
}

std::string Noise(const MetricDelta& d) {
  if (!d.both()) return "";
  if (!d.noise_bound) return fmt::format("not assessed (n {}/{})", d.a->n, d.b->n);
  return fmt::format("{} ±{}", d.within_noise ? "within noise" : "beyond noise",
                     FormatFigure(*d.noise_bound));
}

std::string SlowestSentence(const ModuleDiff& diff) {
  for (const auto& m : diff.modules)
    if (m.path == diff.slowest_block)
      return fmt::format("the repeated block that grew most: {} ({} {}, {})", m.path,
                         Signed(m.time.change), diff.unit, PctCell(m.time.change_pct));
  return "";
}

}  // namespace

void AppendModuleDiffText(const ModuleDiff& diff, int top_n, std::string& out) {
  if (!diff.has_modules) return;
  AppendSection(out,
                fmt::format("Modules by |Δ| ({})", diff.unit.empty() ? "not compared" : diff.unit));
  if (!diff.modules.empty()) {
    out += fmt::format("  {:<8} {:<40} {:>14} {:>14} {:>14} {:>8}  {}\n", "status", "module", "A",
                       "B", "change", "%", "noise");
    int shown = 0;
    for (const auto& m : diff.modules) {
      if (shown++ >= top_n) break;
      out += fmt::format("  {:<8} {:<40} {:>14} {:>14} {:>14} {:>8}  {}\n",
                         ModuleMatchName(m.status), EllipsizeLeft(TerminalSafe(m.path), 40),
                         StatsCell(m.time.a), StatsCell(m.time.b), Signed(m.time.change),
                         PctCell(m.time.change_pct), Noise(m.time));
    }
    if (static_cast<int>(diff.modules.size()) > top_n)
      out += fmt::format("  … {} more (--top, or --format json for all)\n",
                         FormatCount(diff.modules.size() - top_n));
    out += fmt::format("  time = {}\n", diff.modules.front().time.basis);
    std::string slowest = SlowestSentence(diff);
    if (!slowest.empty()) out += "  " + TerminalSafe(slowest) + "\n";
  }
  for (const auto& n : diff.notes) out += "  note: " + TerminalSafe(n) + "\n";
}

void AppendModuleDiffMarkdown(const ModuleDiff& diff, int top_n, std::string& out) {
  if (!diff.has_modules || diff.modules.empty()) return;
  out += fmt::format(
      "\n<details><summary>Modules by |Δ| ({}, top {})</summary>\n\n"
      "| status | module | A | B | change | % |\n|---|---|--:|--:|--:|--:|\n",
      diff.unit, std::min<size_t>(diff.modules.size(), static_cast<size_t>(top_n)));
  int shown = 0;
  for (const auto& m : diff.modules) {
    if (shown++ >= top_n) break;
    std::string path;
    for (char c : m.path) {
      if (c == '|' || c == '*' || c == '_' || c == '`' || c == '<' || c == '>') path += '\\';
      path += c;
    }
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", ModuleMatchName(m.status), path,
                       StatsCell(m.time.a), StatsCell(m.time.b), Signed(m.time.change),
                       PctCell(m.time.change_pct));
  }
  std::string slowest = SlowestSentence(diff);
  if (!slowest.empty()) out += "\n" + slowest + "\n";
  out += "\n</details>\n";
}

json ModuleDiffToJson(const ModuleDiff& diff) {
  json j;
  j["basis"] = diff.basis.empty() ? json(nullptr) : json(diff.basis);
  j["time_unit"] = diff.unit.empty() ? json(nullptr) : json(diff.unit);
  j["has_modules"] = diff.has_modules;
  j["slowest_block"] = diff.slowest_block.empty() ? json(nullptr) : json(diff.slowest_block);
  json modules = json::array();
  for (const auto& m : diff.modules) {
    const MetricDelta& d = m.time;
    modules.push_back({{"path", m.path},
                       {"depth", m.depth},
                       {"status", ModuleMatchName(m.status)},
                       {"block", m.block},
                       {"a", Opt(d.a_value())},
                       {"b", Opt(d.b_value())},
                       {"change", Opt(d.change)},
                       {"change_pct", Opt(d.change_pct)},
                       {"noise_bound", Opt(d.noise_bound)},
                       {"within_noise", d.within_noise},
                       {"a_runs", d.a ? d.a->n : 0},
                       {"b_runs", d.b ? d.b->n : 0}});
  }
  j["modules"] = std::move(modules);
  j["notes"] = diff.notes;
  return j;
}

}  // namespace htpscope
