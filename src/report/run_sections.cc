#include "report/run_sections.h"

#include <fmt/format.h>

#include "report/format_util.h"
#include "report/text_sanitize.h"

namespace htpscope {

void AppendSection(std::string& out, std::string_view title) {
  out += fmt::format("\n{}\n{}\n", title, std::string(title.size(), '-'));
}

std::string ReadArtifactLines(const std::vector<ArtifactRow>& artifacts) {
  std::string out;
  for (const auto& a : artifacts)
    out += fmt::format("  read {:<22} {}\n", ArtifactKindName(a.type), TerminalSafe(a.path));
  return out;
}

nlohmann::json ArtifactsJson(const std::vector<ArtifactRow>& artifacts) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& a : artifacts)
    out.push_back({{"path", a.path}, {"kind", ArtifactKindName(a.type)}});
  return out;
}

nlohmann::json CrossChecksJson(const std::vector<CrossCheckRow>& checks, std::string_view topic) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : checks)
    if (topic.empty() || c.topic == topic)
      out.push_back({{"name", c.name},
                     {"unit", c.unit},
                     {"a_source", c.a_source},
                     {"a", c.a},
                     {"b_source", c.b_source},
                     {"b", c.b},
                     {"agree", c.agree},
                     {"note", c.note}});
  return out;
}

std::string CrossChecksSection(const std::vector<CrossCheckRow>& checks, std::string_view topic) {
  std::string out;
  for (const auto& c : checks) {
    if (!topic.empty() && c.topic != topic) continue;
    if (out.empty()) AppendSection(out, "Cross-checks between artifacts");
    const char* relation = !c.agree ? "vs" : c.a == c.b ? "=" : "≈";
    out += fmt::format("  [{}] {}: {} {} {} {} {}", c.agree ? "agree" : "DIFFER", c.name,
                       c.a_source, FormatFigure(c.a), relation, c.b_source, FormatFigure(c.b));
    if (!c.agree && c.unit != "ops")
      out += fmt::format(" (difference {} {})", FormatFigure(c.a - c.b), c.unit);
    out += "\n";
    if (!c.note.empty() && !c.agree) out += fmt::format("      {}\n", c.note);
  }
  return out;
}

nlohmann::json WarningsJson(const std::vector<WarningRow>& warnings) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& w : warnings)
    out.push_back({{"code", WarningName(w.code)}, {"message", w.message}});
  return out;
}

nlohmann::json MissingArtifactsJson(const std::vector<MissingRow>& missing) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& m : missing)
    out.push_back({{"artifact", m.artifact}, {"withholds", m.withholds}});
  return out;
}

std::string MissingArtifactsSection(const std::vector<MissingRow>& missing) {
  if (missing.empty()) return "";
  std::string out;
  AppendSection(out, "Missing artifacts (and what they would give)");
  for (const auto& m : missing) out += fmt::format("  {}: {}\n", m.artifact, m.withholds);
  return out;
}

}  // namespace htpscope
