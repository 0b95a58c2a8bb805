#include "analysis/gate.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "base/errors.h"
#include "base/suggest.h"
#include "base/text_util.h"

namespace htpscope {
namespace {

// A side's robust standard deviation, or 0 when it has too few samples to say.
double RobustSigma(const std::optional<SampleStats>& s) {
  if (!s || s->n < kMinSamplesForNoise) return 0;
  return kMadToSigma * s->mad;
}

// The delta of two sides' statistics (either may be absent), with the
// noise rule applied.
MetricDelta DeltaOf(std::optional<SampleStats> a, std::optional<SampleStats> b, std::string unit,
                    std::string basis) {
  MetricDelta d;
  d.unit = std::move(unit);
  d.basis = std::move(basis);
  d.a = a;
  d.b = b;
  if (!d.both()) return d;
  d.change = d.b->median - d.a->median;
  if (d.a->median != 0) d.change_pct = *d.change / std::fabs(d.a->median) * 100.0;
  bool assessed = d.a->n >= kMinSamplesForNoise || d.b->n >= kMinSamplesForNoise;
  if (assessed) {
    double sa = RobustSigma(d.a), sb = RobustSigma(d.b);
    d.noise_bound = kNoiseSigmas * std::sqrt(sa * sa + sb * sb);
    d.within_noise = std::fabs(*d.change) <= *d.noise_bound;
  }
  return d;
}

bool IsSpace(char c) { return c == ' ' || c == '\t'; }

bool ValidFieldName(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// "+206848 bytes", "+3.5 us": whole numbers without decimals.
std::string NumberWithUnit(double v, const std::string& unit, bool sign) {
  bool whole = std::fabs(v - std::round(v)) < 1e-9;
  std::string number = whole ? (sign ? fmt::format("{:+.0f}", v) : fmt::format("{:.0f}", v))
                             : (sign ? fmt::format("{:+.2f}", v) : fmt::format("{:.2f}", v));
  return unit.empty() ? number : number + " " + unit;
}

std::string SubjectName(const GateSubject& s) {
  return s.family.empty() ? s.field : fmt::format("{}:{}:{}", s.family, s.name, s.field);
}

}  // namespace

MetricDelta CompareSamples(std::vector<double> a, std::vector<double> b, std::string unit,
                           std::string basis) {
  return DeltaOf(ComputeStats(std::move(a)), ComputeStats(std::move(b)), std::move(unit),
                 std::move(basis));
}

MetricDelta CompareSamples(std::span<const double> a, std::span<const double> b,
                           std::string_view unit, std::string_view basis) {
  return DeltaOf(StatsOf(a), StatsOf(b), std::string(unit), std::string(basis));
}

MetricDelta CompareValues(std::optional<double> a, std::optional<double> b, std::string unit,
                          std::string basis) {
  std::vector<double> sa, sb;
  if (a) sa.push_back(*a);
  if (b) sb.push_back(*b);
  return CompareSamples(std::move(sa), std::move(sb), std::move(unit), std::move(basis));
}

GateSyntaxError::GateSyntaxError(std::string_view expr, size_t offset, const std::string& problem)
    : std::invalid_argument(fmt::format("'{}' at character {}: {}", expr, offset + 1, problem)),
      offset_(offset) {}

Gate ParseGate(std::string_view expr) {
  auto fail = [&](size_t offset, std::string problem) -> Gate {
    throw GateSyntaxError(expr, offset, problem);
  };
  Gate gate;
  gate.expr = std::string(expr);
  // Read the threshold from the right: METRIC may itself contain '<' or '>'.
  size_t end = expr.size();
  while (end > 0 && IsSpace(expr[end - 1])) --end;
  if (end > 0 && expr[end - 1] == '%') {
    gate.percent = true;
    --end;
    while (end > 0 && IsSpace(expr[end - 1])) --end;
  }
  size_t number_begin = end;
  while (number_begin > 0 && ((expr[number_begin - 1] >= '0' && expr[number_begin - 1] <= '9') ||
                              expr[number_begin - 1] == '.'))
    --number_begin;
  if (number_begin == end)
    return fail(end, "expected a threshold number at the end, e.g. \"wall_us>+5%\"");
  double magnitude = 0;
  auto [ptr, ec] = std::from_chars(expr.data() + number_begin, expr.data() + end, magnitude);
  if (ec != std::errc() || ptr != expr.data() + end)
    return fail(number_begin, fmt::format("\"{}\" is not a number",
                                          expr.substr(number_begin, end - number_begin)));
  size_t pos = number_begin;
  while (pos > 0 && IsSpace(expr[pos - 1])) --pos;
  double sign = 1;
  if (pos > 0 && (expr[pos - 1] == '+' || expr[pos - 1] == '-')) {
    sign = expr[pos - 1] == '-' ? -1 : 1;
    --pos;
    while (pos > 0 && IsSpace(expr[pos - 1])) --pos;
  }
  gate.threshold = sign * magnitude;
  if (pos == 0 || (expr[pos - 1] != '>' && expr[pos - 1] != '<'))
    return fail(pos, "expected '>' or '<' before the threshold, e.g. \"wall_us>+5%\"");
  gate.direction = expr[pos - 1] == '>' ? GateDirection::kAbove : GateDirection::kBelow;
  std::string_view metric = Trim(expr.substr(0, pos - 1));
  size_t metric_offset = metric.empty() ? 0 : static_cast<size_t>(metric.data() - expr.data());
  if (metric.empty()) return fail(0, "expected a metric name before the comparison");
  size_t first_colon = metric.find(':');
  if (first_colon == std::string_view::npos) {
    if (!ValidFieldName(metric))
      return fail(metric_offset, fmt::format("\"{}\" is not a metric name (lower-case letters, "
                                             "digits and '_', e.g. wall_us)",
                                             metric));
    gate.field = std::string(metric);
    return gate;
  }
  std::string_view family = metric.substr(0, first_colon);
  if (family != "op" && family != "htp" && family != "unit" && family != "stage" &&
      family != "layer" && family != "profile_op" && family != "module")
    return fail(metric_offset,
                fmt::format("unknown family \"{}\": expected op, htp, unit, stage, layer, "
                            "profile_op or module{}",
                            family,
                            DidYouMean(family, {"op", "htp", "unit", "stage", "layer", "profile_op",
                                                "module"})));
  size_t last_colon = metric.rfind(':');
  if (last_colon == first_colon)
    return fail(metric_offset + first_colon + 1,
                fmt::format("expected {}:<name glob>:<field>, e.g. op:*:dpc_cycles", family));
  std::string_view pattern = metric.substr(first_colon + 1, last_colon - first_colon - 1);
  std::string_view field = metric.substr(last_colon + 1);
  if (pattern.empty())
    return fail(metric_offset + first_colon + 1, "empty name glob (use * for every item)");
  if (!ValidFieldName(field))
    return fail(metric_offset + last_colon + 1,
                fmt::format("\"{}\" is not a field name, e.g. dpc_cycles", field));
  gate.family = std::string(family);
  gate.pattern = std::string(pattern);
  gate.field = std::string(field);
  return gate;
}

namespace {

// A misspelt field ("wal_us"), else a misspelt item name without wildcards.
std::string GateSuggestion(const Gate& gate, const std::vector<GateSubject>& subjects) {
  std::vector<std::string> fields, names;
  for (const auto& s : subjects) {
    if (s.family != gate.family) continue;
    if (std::find(fields.begin(), fields.end(), s.field) == fields.end()) fields.push_back(s.field);
    if (s.field == gate.field && std::find(names.begin(), names.end(), s.name) == names.end())
      names.push_back(s.name);
  }
  if (std::find(fields.begin(), fields.end(), gate.field) == fields.end())
    return DidYouMean(gate.field, fields);
  if (!gate.family.empty() && gate.pattern.find_first_of("*?") == std::string::npos)
    return DidYouMean(gate.pattern, names);
  return "";
}

}  // namespace

GateResult EvaluateGate(const Gate& gate, const std::vector<GateSubject>& subjects) {
  GateResult r;
  r.expr = gate.expr;
  int matched = 0;
  for (const auto& s : subjects) {
    if (s.family != gate.family || s.field != gate.field) continue;
    if (!gate.family.empty() && !GlobMatch(gate.pattern, s.name)) continue;
    ++matched;
    const MetricDelta& d = *s.delta;
    std::string name = SubjectName(s);
    if (!d.both()) {
      r.skipped.push_back(fmt::format("{}: absent on side {}", name,
                                      !d.a && !d.b ? "A and B"
                                      : !d.a       ? "A"
                                                   : "B"));
      continue;
    }
    if (gate.percent && !d.change_pct) {
      r.skipped.push_back(fmt::format("{}: A is 0, so no relative change exists", name));
      continue;
    }
    ++r.compared;
    double change = gate.percent ? *d.change_pct : *d.change;
    bool crossed =
        gate.direction == GateDirection::kAbove ? change > gate.threshold : change < gate.threshold;
    if (!crossed) continue;
    r.exceeded.push_back({name, *d.change, d.unit, d.change_pct, d.noise_bound, d.within_noise});
    if (d.within_noise)
      r.within_noise = true;
    else
      r.passed = false;
  }
  if (matched == 0) {
    r.evaluated = false;
    r.passed = false;
    r.detail = gate.family.empty() ? fmt::format("no run-level figure named \"{}\"", gate.field)
                                   : fmt::format("no {} item matches \"{}\" with a field \"{}\"",
                                                 gate.family, gate.pattern, gate.field);
    r.detail += GateSuggestion(gate, subjects);
    return r;
  }
  if (gate.family.empty() && r.compared == 0) {
    // A run-level figure the inputs do not give on both sides: the gate
    // cannot be judged, and passing it silently would hide that.
    r.evaluated = false;
    r.passed = false;
    r.detail = fmt::format("cannot evaluate: {}", r.skipped.empty() ? "" : r.skipped.front());
    return r;
  }
  r.evaluated = true;
  // within_noise says the gate passed only because its crossings were noise.
  r.within_noise = r.within_noise && r.passed;
  std::vector<std::string> failing, forgiven;
  for (const auto& e : r.exceeded) {
    std::string what = fmt::format("{} {}", e.subject, NumberWithUnit(e.change, e.unit, true));
    if (e.change_pct) what += fmt::format(" ({:+.1f} %)", *e.change_pct);
    if (e.within_noise)
      forgiven.push_back(fmt::format("{}, within noise ±{}", what,
                                     NumberWithUnit(e.noise_bound.value_or(0), e.unit, false)));
    else
      failing.push_back(what);
  }
  if (!failing.empty())
    r.detail = fmt::format("regression: {}", fmt::join(failing, "; "));
  else if (!forgiven.empty())
    r.detail =
        fmt::format("passed: threshold crossed only within noise ({})", fmt::join(forgiven, "; "));
  else if (r.compared == 0)
    r.detail = fmt::format("passed: nothing compared ({} skipped)", r.skipped.size());
  else
    r.detail = fmt::format("passed: {} compared", r.compared);
  if (!failing.empty() && !forgiven.empty())
    r.detail += fmt::format("; within noise: {}", fmt::join(forgiven, "; "));
  return r;
}

int GateExitStatus(const std::vector<GateResult>& results) {
  int status = 0;
  for (const auto& r : results) {
    if (!r.evaluated) return 2;
    if (!r.passed) status = 1;
  }
  return status;
}

bool GlobMatch(std::string_view pattern, std::string_view text) {
  // Iterative matcher with one backtrack point for the last '*'.
  size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    // '*' is always a wildcard, even where the text holds a literal '*'.
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace htpscope
