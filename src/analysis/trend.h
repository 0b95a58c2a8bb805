// A figure over a series of runs (the store of runs, docs/sql.md): each run
// compared with the runs before it by the same noise rule `diff` applies
// (analysis/gate.h, CompareSamples), so "changed" means the same thing in a
// trend as in a diff.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/gate.h"
#include "analysis/statistics.h"

namespace htpscope {

// One run of the series, in series order (oldest first).
struct TrendPoint {
  int64_t run_id = 0;
  std::string run;              // the run's directory or first file, as ingested
  std::string label;            // the label given when it was ingested ("" for none)
  std::string ingested_at;      // UTC, ISO 8601
  std::vector<double> samples;  // the figure's samples in this run (may be empty)
};

enum class TrendMark {
  kNoValue,      // the run has no sample of the figure
  kFirst,        // no earlier run has one: nothing to compare with
  kUnchanged,    // equal medians
  kWithinNoise,  // changed, but within the noise bound
  kUp,           // rose beyond the noise bound (or, noise not assessed, rose)
  kDown,         // fell likewise
};
// "-", "first", "unchanged", "within noise", "up", "down".
const char* TrendMarkName(TrendMark mark);

struct TrendRow {
  TrendPoint point;
  std::optional<SampleStats> stats;    // of point.samples
  std::vector<int64_t> baseline_runs;  // the earlier runs it was compared with
  // Baseline (A: the baseline runs' samples pooled) against this run (B);
  // absent for kNoValue and kFirst.
  std::optional<MetricDelta> delta;
  TrendMark mark = TrendMark::kNoValue;
  // True when the noise was assessed (a side had enough samples): an up or
  // down mark is then a change beyond the noise bound.
  bool noise_assessed = false;
};

// Compares every point that has samples with the `baseline_runs` (>= 1)
// nearest earlier points that have samples, pooled as one side, exactly as
// `htpscope diff --a EARLIER... --b RUN` compares a figure: medians, and a
// change within kNoiseSigmas × the combined robust σ is "within noise".
// With too few samples on both sides the noise is not assessed and any
// change is marked up or down.  Throws ValueError (kTrendBaselineRuns) when
// baseline_runs < 1.
std::vector<TrendRow> ComputeTrend(std::vector<TrendPoint> points, int baseline_runs,
                                   const std::string& unit);

}  // namespace htpscope
