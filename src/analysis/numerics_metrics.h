// Metric maths of the numerics comparison: running sums over (reference,
// device) element pairs and the metrics finished from them.
//
// Metrics, over the element pairs where both values are finite (d = device,
// r = reference, n = number of such pairs):
//   mse      = Σ(d−r)² / n
//   mean_abs = Σ|d−r| / n
//   max_abs  = max |d−r|
//   cosine   = Σdr / √(Σd² · Σr²); 1 when both sides are all zero, 0 when
//              exactly one is (a zero tensor has no direction to agree with)
//   snr_db   = 10·log10(Σr² / Σ(d−r)²); +inf when identical, −inf when the
//              reference is all zero but the device is not
// The sums are right across the whole float64 range: each run of up to 256
// pairs whose magnitudes leave the range where squares are safe (about
// 2^±450) is scaled by a power of two before squaring, and every sum is kept
// as value × 2^exponent, so values near 1e±300 neither overflow to inf (a
// NaN cosine) nor underflow to 0 (a sign flip read as "both zero", cosine 1).
// cosine and snr_db are then always finite or their documented ±inf; mse,
// mean_abs and max_abs are inf only when the true figure exceeds the largest
// double.  NaN and ±Inf are counted per side and left out of every sum; a
// pair whose sides are not both finite in the same way is a "non-finite
// mismatch".  Totals are long double and each thread's partial sums are
// merged, so results do not depend on block sizes beyond the last bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace htpscope {

enum class NumericsMetric { kMse, kMeanAbs, kMaxAbs, kCosine, kSnrDb };

// Accepts "mse", "mean_abs", "max_abs", "cosine", "snr" (and "snr_db").
std::optional<NumericsMetric> ParseNumericsMetric(std::string_view name);
// The metric's field name: "mse", "mean_abs", "max_abs", "cosine", "snr_db".
std::string_view NumericsMetricName(NumericsMetric metric);
// True for the error metrics (divergent above the threshold); false for
// cosine and SNR (divergent below it).
bool DivergesAbove(NumericsMetric metric);
// Threshold used when none is given: cosine 0.99, SNR 20 dB; none for the
// scale-dependent error metrics, which need an explicit threshold.
std::optional<double> DefaultThreshold(NumericsMetric metric);

// A sum kept as value × 2^exponent, so that it can hold squares of values
// near the ends of the float64 range.  Zero only when every term was zero.
class ScaledSum {
 public:
  // Adds term × 2^exponent.
  void Add(long double term, int exponent);
  void Merge(const ScaledSum& other) { Add(other.value_, other.exponent_); }
  bool IsZero() const { return value_ == 0; }
  // The sum as a long double (may be ±inf or 0 beyond its range).
  long double Value() const;
  // log2 of |sum|'s scale: the sum is value() × 2^exponent().
  long double value() const { return value_; }
  int exponent() const { return exponent_; }

 private:
  long double value_ = 0;
  int exponent_ = 0;
};

// Running sums over (reference, device) element pairs.
struct ErrorSums {
  uint64_t elements = 0;  // pairs seen
  uint64_t compared = 0;  // pairs with both values finite
  uint64_t reference_nan = 0;
  uint64_t reference_inf = 0;
  uint64_t device_nan = 0;
  uint64_t device_inf = 0;
  uint64_t nonfinite_mismatch = 0;
  ScaledSum sum_sq_error;
  ScaledSum sum_abs_error;
  ScaledSum sum_ref_dev;
  ScaledSum sum_ref_sq;
  ScaledSum sum_dev_sq;
  double max_abs_error = 0;

  // Accumulates `count` pairs ref[i] ↔ dev[i].
  void Add(const double* ref, const double* dev, size_t count);
  // Adds another partial result (e.g. another thread's element range).
  void Merge(const ErrorSums& other);

 private:
  // Adds a run of at most 256 pairs, all finite.
  void AddFinite(const double* ref, const double* dev, size_t count);
};

struct ErrorMetrics {
  // All nullopt when no pair was compared.  snr_db may be ±infinity.
  std::optional<double> mse, mean_abs, max_abs, cosine, snr_db;
};
ErrorMetrics FinishMetrics(const ErrorSums& sums);
std::optional<double> MetricValue(const ErrorMetrics& metrics, NumericsMetric metric);

}  // namespace htpscope
