#include "analysis/statistics.h"

#include <algorithm>
#include <cmath>

namespace htpscope {
namespace {

double MedianOfSorted(const std::vector<double>& sorted) {
  size_t n = sorted.size();
  return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

}  // namespace

std::optional<SampleStats> StatsOf(std::span<const double> samples) {
  if (samples.size() > 1) return ComputeStats(std::vector<double>(samples.begin(), samples.end()));
  if (samples.empty()) return std::nullopt;
  SampleStats stats;
  stats.n = 1;
  stats.min = stats.max = stats.median = samples.front();
  stats.mad = std::fabs(samples.front() - stats.median);  // as ComputeStats: 0, NaN for NaN
  return stats;
}

std::optional<SampleStats> ComputeStats(std::vector<double> samples) {
  if (samples.empty()) return std::nullopt;
  std::sort(samples.begin(), samples.end());
  SampleStats stats;
  stats.n = static_cast<int>(samples.size());
  stats.min = samples.front();
  stats.max = samples.back();
  stats.median = MedianOfSorted(samples);
  // The deviations overwrite the samples, which are not needed any more.
  for (double& s : samples) s = std::fabs(s - stats.median);
  std::sort(samples.begin(), samples.end());
  stats.mad = MedianOfSorted(samples);
  return stats;
}

}  // namespace htpscope
