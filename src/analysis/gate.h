// Comparing one figure between two sides (A = baseline, B = candidate), the
// noise rule that decides whether a change is real, and the CI gates
// (`--fail-on`) evaluated over such comparisons.
//
// Noise rule (docs/diff.md): a side's spread is its robust standard deviation
// σ = 1.4826 × MAD (median absolute deviation; 1.4826 makes it equal to σ for
// normally distributed samples), counted only for a side with at least
// kMinSamplesForNoise samples (steady-state executions, or runs for per-run
// figures).  A change |B − A| (of the medians) is "within noise" when it is at
// most kNoiseSigmas × √(σ_A² + σ_B²).  With fewer samples on both sides the
// noise is not assessed and every change counts.
#pragma once

#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/statistics.h"

namespace htpscope {

inline constexpr int kMinSamplesForNoise = 3;
inline constexpr double kMadToSigma = 1.4826;
inline constexpr double kNoiseSigmas = 3.0;

// One figure on both sides.  Each side is a statistic over its samples (a
// single measurement is a sample of one); the figure is the median.
struct MetricDelta {
  std::string unit;   // "us", "cycles", "bytes", "pct", "instances", "s"
  std::string basis;  // what was measured, e.g. "steady-state median of executions 2..N"
  std::optional<SampleStats> a, b;
  std::optional<double> change;      // b − a, in `unit`
  std::optional<double> change_pct;  // (b − a) ÷ a × 100; absent when a is 0 or a side is absent
  std::optional<double> noise_bound;  // in `unit`; absent when the noise is not assessed
  bool within_noise = false;          // |change| ≤ noise_bound

  std::optional<double> a_value() const { return a ? std::optional(a->median) : std::nullopt; }
  std::optional<double> b_value() const { return b ? std::optional(b->median) : std::nullopt; }
  bool both() const { return a && b; }
};

// Compares the medians of two samples (either may be empty: that side is
// absent) and applies the noise rule.  `unit` and `basis` are copied.
MetricDelta CompareSamples(std::vector<double> a, std::vector<double> b, std::string unit,
                           std::string basis);

// The same, reading the samples in place.
MetricDelta CompareSamples(std::span<const double> a, std::span<const double> b,
                           std::string_view unit, std::string_view basis);

// Compares two single values (no spread: the noise is not assessed).
MetricDelta CompareValues(std::optional<double> a, std::optional<double> b, std::string unit,
                          std::string basis);

// A CI gate: `--fail-on EXPR`.  Grammar (docs/diff.md):
//   EXPR      := METRIC ('>' | '<') THRESHOLD
//   METRIC    := NAME                      a run-level figure: wall_us, work_cycles, ...
//              | FAMILY ':' GLOB ':' FIELD  per item: op:*:dpc_cycles, htp:q::Conv*:work_cycles,
//                                           unit:256:utilization_pct, stage:compile:seconds,
//                                           layer:conv1#2:time_us (AI Hub layers),
//                                           profile_op:_MatMul_3:steady_cycles,
//                                           module:model/layers.*:cycles
//   THRESHOLD := ['+' | '-'] NUMBER ['%']
// '>' fails when the change B − A exceeds the threshold, '<' when it is below
// it; with '%' the change is relative to A.  Whitespace around tokens is
// ignored.  GLOB may contain ':' (HTP op types do); FIELD is after the last ':'.
enum class GateDirection { kAbove, kBelow };

struct Gate {
  std::string expr;     // as written
  std::string family;   // "" for a run-level figure, else "op", "htp", "unit", "stage",
                        // "layer", "profile_op" or "module"
  std::string pattern;  // glob over item names ('*', '?'); "" for run-level figures
  std::string field;    // a figure's name (model/figures.h): wall_us, dpc_cycles, ...
  GateDirection direction = GateDirection::kAbove;
  double threshold = 0;  // in the figure's unit, or percent when `percent`
  bool percent = false;
};

// A gate expression that does not follow the grammar: what() names the
// expression and the 1-based character where it goes wrong.
class GateSyntaxError : public std::invalid_argument {
 public:
  GateSyntaxError(std::string_view expr, size_t offset, const std::string& problem);
  size_t offset() const { return offset_; }  // 0-based, into the expression

 private:
  size_t offset_;
};

// Parses one gate expression ("wall_us>+5%").  Throws GateSyntaxError.
Gate ParseGate(std::string_view expr);

// A figure a gate may test: family "" with name "" for run-level figures.
struct GateSubject {
  std::string family, name, field;
  const MetricDelta* delta = nullptr;  // must outlive the evaluation
};

// A subject whose change crossed the gate's threshold.
struct GateExceedance {
  std::string subject;  // NAME or FAMILY:NAME:FIELD: wall_us, op:MatMul_2:dpc_cycles
  double change = 0;    // in `unit`
  std::string unit;     // the figure's unit ("us", "cycles", ...)
  std::optional<double> change_pct;
  std::optional<double> noise_bound;
  bool within_noise = false;  // forgiven: the change is inside the measurements' spread
};

struct GateResult {
  std::string expr;
  bool evaluated = false;  // false: no figure the gate names exists on both sides (input error)
  bool passed = true;
  bool within_noise = false;  // a threshold was crossed only within noise
  int compared = 0;           // subjects compared against the threshold
  std::vector<GateExceedance> exceeded;
  std::vector<std::string> skipped;  // "<subject>: why it was not compared"
  std::string detail;                // one sentence for people
};

// Evaluates `gate` over every subject whose family and field equal the gate's
// and whose name matches its glob.  A subject absent on one side (an added or
// removed op) is skipped, and so is, for a percent threshold, one whose A is 0
// (no relative change exists); both are named in `skipped`.
GateResult EvaluateGate(const Gate& gate, const std::vector<GateSubject>& subjects);

// Each gate evaluated over `diff`'s subjects (GateSubjects(diff)), in gate
// order.  The subjects, one per figure of every op, are made only when there
// is a gate: a big diff's would take tens of MB for nothing.
template <typename Diff>
std::vector<GateResult> EvaluateGates(const std::vector<Gate>& gates, const Diff& diff) {
  std::vector<GateResult> results;
  if (gates.empty()) return results;
  const std::vector<GateSubject> subjects = GateSubjects(diff);
  for (const Gate& gate : gates) results.push_back(EvaluateGate(gate, subjects));
  return results;
}

// Exit status over all gates: 2 when one could not be evaluated, else 1 when
// one failed, else 0.
int GateExitStatus(const std::vector<GateResult>& results);

// Shell-style match of `pattern` ('*' any run, '?' any one character) against
// the whole of `text`.
bool GlobMatch(std::string_view pattern, std::string_view text);

}  // namespace htpscope
