#include "analysis/trend.h"

#include <string>

#include "base/errors.h"

namespace htpscope {

const char* TrendMarkName(TrendMark mark) {
  switch (mark) {
    case TrendMark::kNoValue:
      return "-";
    case TrendMark::kFirst:
      return "first";
    case TrendMark::kUnchanged:
      return "unchanged";
    case TrendMark::kWithinNoise:
      return "within noise";
    case TrendMark::kUp:
      return "up";
    case TrendMark::kDown:
      return "down";
  }
  return "-";
}

std::vector<TrendRow> ComputeTrend(std::vector<TrendPoint> points, int baseline_runs,
                                   const std::string& unit) {
  if (baseline_runs < 1)
    throw ValueError(ValueRole::kTrendBaselineRuns, "", "expected 1 or more runs");
  std::vector<TrendRow> rows;
  std::vector<size_t> with_samples;  // rows that have samples, in order
  for (auto& point : points) {
    TrendRow row;
    row.point = std::move(point);
    row.stats = ComputeStats(row.point.samples);
    if (!row.stats) {
      rows.push_back(std::move(row));
      continue;
    }
    if (with_samples.empty()) {
      row.mark = TrendMark::kFirst;
    } else {
      std::vector<double> baseline;
      size_t first = with_samples.size() > static_cast<size_t>(baseline_runs)
                         ? with_samples.size() - static_cast<size_t>(baseline_runs)
                         : 0;
      for (size_t k = first; k < with_samples.size(); ++k) {
        const TrendRow& earlier = rows[with_samples[k]];
        row.baseline_runs.push_back(earlier.point.run_id);
        baseline.insert(baseline.end(), earlier.point.samples.begin(), earlier.point.samples.end());
      }
      row.delta = CompareSamples(std::move(baseline), row.point.samples, unit,
                                 "median of the run against the median of its baseline runs");
      const MetricDelta& d = *row.delta;
      row.noise_assessed = d.noise_bound.has_value();
      const double change = d.change.value_or(0);
      if (change == 0)
        row.mark = TrendMark::kUnchanged;
      else if (d.within_noise)
        row.mark = TrendMark::kWithinNoise;
      else
        row.mark = change > 0 ? TrendMark::kUp : TrendMark::kDown;
    }
    with_samples.push_back(rows.size());
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace htpscope
