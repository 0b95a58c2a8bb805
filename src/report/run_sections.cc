#include "report/run_sections.h"

#include <fmt/format.h>

#include "report/text_sanitize.h"

namespace htpscope {

void AppendSection(std::string& out, std::string_view title) {
  out += fmt::format("\n{}\n{}\n", title, std::string(title.size(), '-'));
}

std::string ReadArtifactLines(const std::vector<LoadedArtifact>& artifacts) {
  std::string out;
  for (const auto& a : artifacts)
    out += fmt::format("  read {:<22} {}\n", ArtifactKindName(a.kind), TerminalSafe(a.path));
  return out;
}

nlohmann::json ArtifactsJson(const std::vector<LoadedArtifact>& artifacts) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& a : artifacts)
    out.push_back({{"path", a.path}, {"kind", ArtifactKindName(a.kind)}});
  return out;
}

nlohmann::json CrossChecksJson(const std::vector<CrossCheck>& checks) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : checks)
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

nlohmann::json MissingArtifactsJson(const std::vector<MissingArtifact>& missing) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& m : missing)
    out.push_back({{"artifact", m.artifact}, {"withholds", m.withholds}});
  return out;
}

std::string MissingArtifactsSection(const std::vector<MissingArtifact>& missing) {
  if (missing.empty()) return "";
  std::string out;
  AppendSection(out, "Missing artifacts (and what they would give)");
  for (const auto& m : missing) out += fmt::format("  {}: {}\n", m.artifact, m.withholds);
  return out;
}

}  // namespace htpscope
