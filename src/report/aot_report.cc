#include "report/aot_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/diff_report.h"
#include "report/format_util.h"
#include "report/json_values.h"

namespace htpscope {
namespace {

using nlohmann::json;

constexpr size_t kFrameColumns = 90;

// Seconds with as many decimals as their size deserves.
std::string Seconds(double s) {
  double a = std::fabs(s);
  if (a == 0) return "0";
  if (a >= 10) return FormatMeasure(s, 1);
  if (a >= 1) return FormatMeasure(s, 2);
  return FormatMeasure(s, 3);
}

std::string SignedSeconds(double s) { return (s > 0 ? "+" : "") + Seconds(s); }

std::string OptionalSeconds(const std::optional<double>& s) {
  return s ? Seconds(*s) : std::string("-");
}

std::string Pct(double pct) { return fmt::format("{:.1f} %", pct); }

std::string OptionalPct(const std::optional<double>& pct, bool sign) {
  if (!pct) return "-";
  return sign ? fmt::format("{:+.1f} %", *pct) : Pct(*pct);
}

// GC seconds and their share of the stage: "12.0 (2.2 %)".
std::string GcCell(double gc, double stage) {
  if (gc <= 0) return "-";
  return stage > 0 ? fmt::format("{} ({})", Seconds(gc), Pct(gc / stage * 100.0)) : Seconds(gc);
}

// Markdown: text in a code span (frame names, paths, expressions), and
// prose with the characters markdown would interpret escaped.
std::string MdCode(std::string_view s) {
  std::string out = "`";
  for (char c : s) out += c == '`' ? '\'' : c;
  out += '`';
  std::string escaped;
  for (char c : out) {
    if (c == '|') escaped += '\\';
    escaped += c;
  }
  return escaped;
}

std::string MdProse(std::string_view s) {
  constexpr std::string_view kSpecial = "\\`*_[]<>|#";
  std::string out;
  for (char c : s) {
    if (kSpecial.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string ProfileLine(const StageAttribution& s) {
  return fmt::format("{}; {} samples; total {} s", s.source,
                     GroupDigits(static_cast<int64_t>(s.samples)), Seconds(s.total_seconds));
}

std::string MapLine(const StageMap& map) {
  std::vector<std::string> stages;
  for (const auto& st : map.stages) stages.push_back(st.name);
  std::string gc = map.gc_regex == kDefaultGcRegex ? "CPython's and the profilers' (default)"
                   : map.gc_regex.empty()          ? "none"
                                                   : "/" + map.gc_regex + "/";
  return fmt::format("stage map {} ({}; samples in no stage: other); GC frames: {}", map.name,
                     fmt::join(stages, ", "), gc);
}

json ProfileJson(const StageAttribution& s) {
  return json{{"path", s.path},
              {"source", s.source},
              {"samples", s.samples},
              {"total_seconds", s.total_seconds},
              {"gc_seconds", s.gc_seconds}};
}

json MapJson(const StageMap& map) {
  json stages = json::array();
  for (const auto& st : map.stages) stages.push_back({{"name", st.name}, {"regex", st.regex}});
  return json{{"name", map.name}, {"stages", stages}, {"gc_regex", map.gc_regex}};
}

json FramesJson(const std::vector<FrameSeconds>& frames) {
  json out = json::array();
  for (const auto& f : frames) out.push_back({{"frame", f.frame}, {"self_seconds", f.seconds}});
  return out;
}

std::string GateMark(const GateResult& g) {
  if (!g.evaluated) return "ERROR";
  return g.passed ? "PASS" : "FAIL";
}

std::string ExitSentence(const std::vector<GateResult>& gates) {
  int status = GateExitStatus(gates);
  return fmt::format("exit status {}: {}", status,
                     status == 0   ? "every gate passed"
                     : status == 1 ? "a gate found a regression"
                                   : "a gate could not be evaluated from these profiles");
}

// ---- One profile ------------------------------------------------------------

std::string AttributionText(const StageAttribution& s, const StageMap& map) {
  std::string out = fmt::format("Lowering time by stage: {}\n  {}\n  {}\n\n", s.path,
                                ProfileLine(s), MapLine(map));
  size_t width = 5;
  for (const auto& st : s.stages) width = std::max(width, st.name.size());
  out += fmt::format("  {:<{}} {:>10} {:>8}  {}\n", "stage", width, "seconds", "share",
                     "GC seconds (share of stage)");
  for (const auto& st : s.stages)
    out += fmt::format("  {:<{}} {:>10} {:>8}  {}\n", st.name, width, Seconds(st.seconds),
                       Pct(st.share_pct), GcCell(st.gc_seconds, st.seconds));
  out += fmt::format("  {:<{}} {:>10} {:>8}  {}\n", "total", width, Seconds(s.total_seconds),
                     Pct(s.total_seconds > 0 ? 100.0 : 0.0), GcCell(s.gc_seconds, s.total_seconds));
  out += "\nTop self-time frames by stage (time with the frame innermost)\n";
  for (const auto& st : s.stages) {
    if (st.top_self_frames.empty()) continue;
    out += fmt::format("  {}\n", st.name);
    for (const auto& f : st.top_self_frames)
      out += fmt::format("    {:>10} s  {:>6}  {}\n", Seconds(f.seconds),
                         Pct(st.seconds > 0 ? f.seconds / st.seconds * 100.0 : 0),
                         Ellipsize(f.frame, kFrameColumns));
  }
  if (!s.notes.empty()) {
    out += "\nNotes\n";
    for (const auto& n : s.notes) out += "  * " + n + "\n";
  }
  return out;
}

std::string AttributionMarkdown(const StageAttribution& s, const StageMap& map) {
  std::string out =
      fmt::format("### htpscope aot {}\n\n{}\n\n", MdCode(s.path), MdProse(ProfileLine(s)));
  out += "| stage | seconds | share | GC seconds |\n|---|--:|--:|--:|\n";
  for (const auto& st : s.stages)
    out += fmt::format("| {} | {} | {} | {} |\n", MdProse(st.name), Seconds(st.seconds),
                       Pct(st.share_pct), GcCell(st.gc_seconds, st.seconds));
  out += fmt::format("| **total** | {} | 100.0 % | {} |\n\n", Seconds(s.total_seconds),
                     GcCell(s.gc_seconds, s.total_seconds));
  out += "| stage | top self-time frame | seconds |\n|---|---|--:|\n";
  for (const auto& st : s.stages)
    for (const auto& f : st.top_self_frames)
      out +=
          fmt::format("| {} | {} | {} |\n", MdProse(st.name), MdCode(f.frame), Seconds(f.seconds));
  out += "\n" + MdProse(MapLine(map)) + "\n";
  for (const auto& n : s.notes) out += "- " + MdProse(n) + "\n";
  return out;
}

// ---- Two profiles -------------------------------------------------------------

std::vector<const StageDelta*> DiffRows(const AotDiff& d) {
  std::vector<const StageDelta*> rows;
  for (const auto& s : d.stages.stages) rows.push_back(&s);
  rows.push_back(&d.stages.total);
  return rows;
}

// The comparison's notes, then each side's, prefixed "A: " or "B: ".
std::vector<std::string> AllNotes(const AotDiff& d, const StageAttribution& a,
                                  const StageAttribution& b) {
  std::vector<std::string> notes = d.notes;
  for (const auto& n : a.notes) notes.push_back("A: " + n);
  for (const auto& n : b.notes) notes.push_back("B: " + n);
  return notes;
}

const AotDiff::Gc& GcOfRow(const AotDiff& d, size_t row) {
  return row < d.stage_gc.size() ? d.stage_gc[row] : d.total_gc;
}

std::string DiffText(const AotDiff& d, const StageAttribution& a, const StageAttribution& b,
                     const StageMap& map, const std::vector<GateResult>& gates) {
  std::string out =
      fmt::format("Lowering time by stage: A = {}, B = {}\n  A: {}\n  B: {}\n  {}\n\n", a.path,
                  b.path, ProfileLine(a), ProfileLine(b), MapLine(map));
  auto rows = DiffRows(d);
  size_t width = 5;
  for (const auto* r : rows) width = std::max(width, r->stage.size());
  out += fmt::format("  {:<{}} {:>10} {:>10} {:>10} {:>12}  {:>16} {:>16}\n", "stage", width, "A s",
                     "B s", "change s", "improvement", "A GC s", "B GC s");
  for (size_t i = 0; i < rows.size(); ++i) {
    const StageDelta& r = *rows[i];
    const auto& gc = GcOfRow(d, i);
    out += fmt::format("  {:<{}} {:>10} {:>10} {:>10} {:>12}  {:>16} {:>16}\n", r.stage, width,
                       OptionalSeconds(r.seconds.a_value()), OptionalSeconds(r.seconds.b_value()),
                       r.seconds.change ? SignedSeconds(*r.seconds.change) : "-",
                       OptionalPct(r.improvement_pct, false),
                       GcCell(gc.a_seconds, r.seconds.a_value().value_or(0)),
                       GcCell(gc.b_seconds, r.seconds.b_value().value_or(0)));
  }
  out += "  improvement = (A − B) ÷ A × 100: positive when B is faster\n\n";
  out += StageVerdict(d.stages) + "\n";
  if (!d.frames.empty()) {
    out += "\nFrames whose self time changed most (B − A)\n";
    out += fmt::format("  {:>10} {:>10} {:>10} {:>9}  {}\n", "change s", "A s", "B s", "change",
                       "frame");
    for (const auto& f : d.frames)
      out += fmt::format("  {:>10} {:>10} {:>10} {:>9}  {}\n", SignedSeconds(f.change_seconds),
                         Seconds(f.a_self_seconds), Seconds(f.b_self_seconds),
                         OptionalPct(f.change_pct, true), Ellipsize(f.frame, kFrameColumns));
  }
  if (!gates.empty()) {
    out += "\nGates (--fail-on)\n";
    for (const auto& g : gates)
      out += fmt::format("  {:<5}  {}  — {}\n", GateMark(g), g.expr, g.detail);
    out += "  " + ExitSentence(gates) + "\n";
  }
  std::vector<std::string> notes = AllNotes(d, a, b);
  if (!notes.empty()) {
    out += "\nNotes\n";
    for (const auto& n : notes) out += "  * " + n + "\n";
  }
  return out;
}

std::string DiffMarkdown(const AotDiff& d, const StageAttribution& a, const StageAttribution& b,
                         const std::vector<GateResult>& gates) {
  std::string out =
      fmt::format("### htpscope aot\n\n**A** {} · **B** {}\n\n", MdCode(a.path), MdCode(b.path));
  if (!gates.empty())
    out += fmt::format("**Gates: {}**\n\n", GateExitStatus(gates) == 0 ? "passed" : "failed");
  out += MdProse(StageVerdict(d.stages)) + "\n\n";
  out +=
      "| stage | A s | B s | change s | improvement | A GC s | B GC s |\n"
      "|---|--:|--:|--:|--:|--:|--:|\n";
  auto rows = DiffRows(d);
  for (size_t i = 0; i < rows.size(); ++i) {
    const StageDelta& r = *rows[i];
    const auto& gc = GcOfRow(d, i);
    bool total = i + 1 == rows.size();
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n",
                       total ? "**total**" : MdProse(r.stage), OptionalSeconds(r.seconds.a_value()),
                       OptionalSeconds(r.seconds.b_value()),
                       r.seconds.change ? SignedSeconds(*r.seconds.change) : "-",
                       OptionalPct(r.improvement_pct, false),
                       GcCell(gc.a_seconds, r.seconds.a_value().value_or(0)),
                       GcCell(gc.b_seconds, r.seconds.b_value().value_or(0)));
  }
  if (!d.frames.empty()) {
    out += "\n| frame (self time) | A s | B s | change s | change |\n|---|--:|--:|--:|--:|\n";
    for (const auto& f : d.frames)
      out += fmt::format("| {} | {} | {} | {} | {} |\n", MdCode(f.frame), Seconds(f.a_self_seconds),
                         Seconds(f.b_self_seconds), SignedSeconds(f.change_seconds),
                         OptionalPct(f.change_pct, true));
  }
  if (!gates.empty()) {
    out += "\n| gate | result | detail |\n|---|---|---|\n";
    for (const auto& g : gates)
      out += fmt::format("| {} | {} | {} |\n", MdCode(g.expr), GateMark(g), MdProse(g.detail));
  }
  out += "\n";
  for (const auto& n : AllNotes(d, a, b)) out += "- " + MdProse(n) + "\n";
  return out;
}

}  // namespace

std::optional<AotFormat> ParseAotFormat(std::string_view name) {
  if (name == "text") return AotFormat::kText;
  if (name == "markdown") return AotFormat::kMarkdown;
  if (name == "json") return AotFormat::kJson;
  return std::nullopt;
}

json AotAttributionToJson(const StageAttribution& s, const StageMap& map) {
  json stages = json::array();
  for (const auto& st : s.stages)
    stages.push_back({{"stage", st.name},
                      {"seconds", st.seconds},
                      {"share_pct", st.share_pct},
                      {"gc_seconds", st.gc_seconds},
                      {"top_self_frames", FramesJson(st.top_self_frames)}});
  return json{{"schema", "htpscope.aot/1"},
              {"profile", ProfileJson(s)},
              {"stage_map", MapJson(map)},
              {"stages", stages},
              {"notes", s.notes}};
}

std::string RenderAotAttribution(const StageAttribution& s, const StageMap& map, AotFormat format) {
  switch (format) {
    case AotFormat::kText:
      return AttributionText(s, map);
    case AotFormat::kMarkdown:
      return AttributionMarkdown(s, map);
    case AotFormat::kJson:
      return AotAttributionToJson(s, map).dump(2) + "\n";
  }
  return "";
}

json AotDiffToJson(const AotDiff& diff, const StageAttribution& a, const StageAttribution& b,
                   const StageMap& map, const std::vector<GateResult>& gates) {
  // The stage rows, total, gates, exit status and verdict as `diff --stages`
  // writes them, with the GC time of each side added.
  json j = StageDiffToJson(diff.stages, gates);
  j["schema"] = "htpscope.aot_diff/1";
  j["a"] = ProfileJson(a);
  j["b"] = ProfileJson(b);
  j["stage_map"] = MapJson(map);
  for (size_t i = 0; i < j["stages"].size() && i < diff.stage_gc.size(); ++i) {
    j["stages"][i]["a_gc_seconds"] = diff.stage_gc[i].a_seconds;
    j["stages"][i]["b_gc_seconds"] = diff.stage_gc[i].b_seconds;
  }
  j["total"]["a_gc_seconds"] = diff.total_gc.a_seconds;
  j["total"]["b_gc_seconds"] = diff.total_gc.b_seconds;
  json frames = json::array();
  for (const auto& f : diff.frames)
    frames.push_back({{"frame", f.frame},
                      {"a_self_seconds", f.a_self_seconds},
                      {"b_self_seconds", f.b_self_seconds},
                      {"change_seconds", f.change_seconds},
                      {"change_pct", OptionalJson(f.change_pct)}});
  j["frames"] = frames;
  j["notes"] = AllNotes(diff, a, b);
  return j;
}

std::string RenderAotDiff(const AotDiff& diff, const StageAttribution& a, const StageAttribution& b,
                          const StageMap& map, const std::vector<GateResult>& gates,
                          AotFormat format) {
  switch (format) {
    case AotFormat::kText:
      return DiffText(diff, a, b, map, gates);
    case AotFormat::kMarkdown:
      return DiffMarkdown(diff, a, b, gates);
    case AotFormat::kJson:
      return AotDiffToJson(diff, a, b, map, gates).dump(2) + "\n";
  }
  return "";
}

}  // namespace htpscope
