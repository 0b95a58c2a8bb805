// Order statistics over repeated measurements.
#pragma once

#include <optional>
#include <span>
#include <vector>

namespace htpscope {

struct SampleStats {
  double median = 0, min = 0, max = 0;
  // Median absolute deviation from the median (same unit as the samples).
  double mad = 0;
  int n = 0;
};

// Statistics of `samples` (any unit; the result has the same unit).
// Returns nullopt for an empty sample.  The median of an even count is the
// mean of the two middle values.
std::optional<SampleStats> ComputeStats(std::vector<double> samples);
// The same, read in place: no copy for zero or one sample (a diff of two
// single runs compares 80 k ops of one sample a side).
std::optional<SampleStats> StatsOf(std::span<const double> samples);

}  // namespace htpscope
