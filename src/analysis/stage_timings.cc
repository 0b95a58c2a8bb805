#include "analysis/stage_timings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

#include "base/errors.h"
#include "base/text_util.h"
#include "model/input_text.h"

namespace htpscope {
namespace {

StageDelta MakeStageDelta(std::string stage, std::optional<double> a, std::optional<double> b) {
  StageDelta d;
  d.stage = std::move(stage);
  d.seconds = CompareValues(a, b, "s", "one lowering run per side");
  if (d.seconds.change_pct) d.improvement_pct = -*d.seconds.change_pct;
  return d;
}

}  // namespace

StageTimings ParseStageTimings(const std::string& path, std::string_view text) {
  StageTimings out;
  out.path = path;
  std::set<std::string> seen;
  int line_no = 0;
  bool first_row = true;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = Trim(text.substr(pos, eol - pos));
    pos = eol + 1;
    ++line_no;
    if (line_no == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line = Trim(line.substr(3));
    if (line.empty() || line.front() == '#') continue;
    size_t comma = line.rfind(',');
    if (comma == std::string_view::npos)
      throw InputError(path, fmt::format("expected \"stage,seconds\", found \"{}\"", line), {},
                       line_no);
    std::string_view stage = Trim(line.substr(0, comma));
    std::string_view value = Trim(line.substr(comma + 1));
    bool header = first_row && EqualsIgnoreCase(value, "seconds");
    first_row = false;
    if (header) continue;
    if (stage.empty()) throw InputError(path, "empty stage name before the comma", {}, line_no);
    double seconds = 0;
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
    if (value.empty() || ec != std::errc() || ptr != value.data() + value.size() ||
        !std::isfinite(seconds))
      throw InputError(path,
                       fmt::format("stage \"{}\": \"{}\" is not a number of seconds", stage, value),
                       {}, line_no);
    if (seconds < 0)
      throw InputError(path, fmt::format("stage \"{}\": negative duration {}", stage, value), {},
                       line_no);
    if (!seen.insert(std::string(stage)).second)
      throw InputError(path, fmt::format("stage \"{}\" is listed twice", stage), {}, line_no);
    out.stages.push_back({std::string(stage), seconds, line_no});
  }
  if (out.stages.empty())
    throw InputError(path, "no \"stage,seconds\" rows", {}, std::max(line_no, 1));
  return out;
}

StageTimings ReadStageTimings(const std::string& path) {
  return ParseStageTimings(path, ReadInputText(path));
}

StageDiff DiffStages(const StageTimings& a, const StageTimings& b) {
  StageDiff d;
  d.a_path = a.path;
  d.b_path = b.path;
  auto find = [](const StageTimings& t, const std::string& stage) -> std::optional<double> {
    for (const auto& s : t.stages)
      if (s.stage == stage) return s.seconds;
    return std::nullopt;
  };
  double total_a = 0, total_b = 0;
  for (const auto& s : a.stages) {
    total_a += s.seconds;
    auto other = find(b, s.stage);
    if (!other)
      d.notes.push_back(fmt::format("stage \"{}\" is listed in A ({}) only", s.stage, a.path));
    d.stages.push_back(MakeStageDelta(s.stage, s.seconds, other));
  }
  for (const auto& s : b.stages) {
    total_b += s.seconds;
    if (find(a, s.stage)) continue;
    d.notes.push_back(fmt::format("stage \"{}\" is listed in B ({}) only", s.stage, b.path));
    d.stages.push_back(MakeStageDelta(s.stage, std::nullopt, s.seconds));
  }
  if (!d.notes.empty())
    d.notes.push_back("the totals sum each side's own stages, so they cover different stages");
  d.total = MakeStageDelta("total", total_a, total_b);
  return d;
}

std::vector<GateSubject> GateSubjects(const StageDiff& diff) {
  std::vector<GateSubject> out;
  for (const auto& s : diff.stages) out.push_back({"stage", s.stage, "seconds", &s.seconds});
  out.push_back({"", "", "total_seconds", &diff.total.seconds});
  return out;
}

}  // namespace htpscope
