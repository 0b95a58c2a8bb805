#include "analysis/numerics_metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace htpscope {
namespace {

constexpr size_t kChunk = 256;
// Magnitudes whose squares, summed 256 at a time, stay far from overflow and
// whose products with each other stay far from underflow in double.
const double kSafeHigh = std::ldexp(1.0, 450);
const double kSafeLow = std::ldexp(1.0, -450);

// A long double that may exceed the double range, as the double it rounds to.
double ToDouble(long double x) {
  constexpr long double kMax = std::numeric_limits<double>::max();
  if (x > kMax) return std::numeric_limits<double>::infinity();
  if (x < -kMax) return -std::numeric_limits<double>::infinity();
  return static_cast<double>(x);
}

bool BothFinite(double r, double d) { return (r - r == 0) & (d - d == 0); }

}  // namespace

std::optional<NumericsMetric> ParseNumericsMetric(std::string_view name) {
  if (name == "mse") return NumericsMetric::kMse;
  if (name == "mean_abs") return NumericsMetric::kMeanAbs;
  if (name == "max_abs") return NumericsMetric::kMaxAbs;
  if (name == "cosine") return NumericsMetric::kCosine;
  if (name == "snr" || name == "snr_db") return NumericsMetric::kSnrDb;
  return std::nullopt;
}

std::string_view NumericsMetricName(NumericsMetric metric) {
  switch (metric) {
    case NumericsMetric::kMse:
      return "mse";
    case NumericsMetric::kMeanAbs:
      return "mean_abs";
    case NumericsMetric::kMaxAbs:
      return "max_abs";
    case NumericsMetric::kCosine:
      return "cosine";
    case NumericsMetric::kSnrDb:
      return "snr_db";
  }
  return "";
}

bool DivergesAbove(NumericsMetric metric) {
  return metric != NumericsMetric::kCosine && metric != NumericsMetric::kSnrDb;
}

std::optional<double> DefaultThreshold(NumericsMetric metric) {
  if (metric == NumericsMetric::kCosine) return 0.99;
  if (metric == NumericsMetric::kSnrDb) return 20.0;
  return std::nullopt;
}

void ScaledSum::Add(long double term, int exponent) {
  if (term == 0) return;
  if (value_ == 0) {
    value_ = term;
    exponent_ = exponent;
  } else if (exponent > exponent_) {
    value_ = std::ldexp(value_, exponent_ - exponent) + term;
    exponent_ = exponent;
  } else {
    value_ += std::ldexp(term, exponent - exponent_);
  }
  // Keep the value near 1 so that no later shift leaves the long double range.
  int shift = 0;
  long double fraction = std::frexp(value_, &shift);
  if (shift > 64 || shift < -64) {
    value_ = fraction;
    exponent_ += shift;
  }
}

long double ScaledSum::Value() const { return std::ldexp(value_, exponent_); }

void ErrorSums::Add(const double* ref, const double* dev, size_t count) {
  for (size_t start = 0; start < count; start += kChunk) {
    const size_t n = std::min(kChunk, count - start);
    const double* r = ref + start;
    const double* d = dev + start;
    bool finite = true;
    for (size_t i = 0; i < n; ++i) finite &= BothFinite(r[i], d[i]);
    elements += n;
    if (finite) {
      AddFinite(r, d, n);
      continue;
    }
    // Classify the non-finite pairs; the finite ones are summed as usual.
    double finite_r[kChunk], finite_d[kChunk];
    size_t kept = 0;
    for (size_t i = 0; i < n; ++i) {
      bool r_finite = std::isfinite(r[i]), d_finite = std::isfinite(d[i]);
      if (r_finite && d_finite) {
        finite_r[kept] = r[i];
        finite_d[kept++] = d[i];
        continue;
      }
      if (!r_finite) ++(std::isnan(r[i]) ? reference_nan : reference_inf);
      if (!d_finite) ++(std::isnan(d[i]) ? device_nan : device_inf);
      bool same = !r_finite && !d_finite &&
                  (std::isnan(r[i]) ? std::isnan(d[i]) : (!std::isnan(d[i]) && r[i] == d[i]));
      if (!same) ++nonfinite_mismatch;
    }
    AddFinite(finite_r, finite_d, kept);
  }
}

void ErrorSums::AddFinite(const double* r, const double* d, size_t n) {
  compared += n;
  double largest = 0;
  for (size_t i = 0; i < n; ++i) largest = std::max({largest, std::fabs(r[i]), std::fabs(d[i])});
  if (largest == 0) return;  // all zero: no sum changes
  // Outside the safe range, every value is scaled by 2^-e (exactly) so the
  // largest lies in [0.5, 1); squares and products then carry 2^2e.
  int e = 0;
  if (largest > kSafeHigh || largest < kSafeLow) std::frexp(largest, &e);
  double scaled_r[kChunk], scaled_d[kChunk];
  if (e != 0) {
    for (size_t i = 0; i < n; ++i) {
      scaled_r[i] = std::ldexp(r[i], -e);
      scaled_d[i] = std::ldexp(d[i], -e);
    }
    r = scaled_r;
    d = scaled_d;
  }
  // Double sums over 4 independent lanes (short dependency chains), added to
  // the long double totals per run, so rounding stays at the level of one
  // 256-term double sum.
  constexpr int kLanes = 4;
  double sq[kLanes] = {}, ab[kLanes] = {}, rd[kLanes] = {}, rr[kLanes] = {}, dd[kLanes] = {};
  double mx[kLanes] = {};
  auto accumulate = [&](int k, double ri, double di) {
    double error = di - ri;
    sq[k] += error * error;
    ab[k] += std::fabs(error);
    rd[k] += ri * di;
    rr[k] += ri * ri;
    dd[k] += di * di;
    mx[k] = std::max(mx[k], std::fabs(error));
  };
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int k = 0; k < kLanes; ++k) accumulate(k, r[i + k], d[i + k]);
  for (; i < n; ++i) accumulate(0, r[i], d[i]);
  for (int k = 0; k < kLanes; ++k) {
    sum_sq_error.Add(sq[k], 2 * e);
    sum_abs_error.Add(ab[k], e);
    sum_ref_dev.Add(rd[k], 2 * e);
    sum_ref_sq.Add(rr[k], 2 * e);
    sum_dev_sq.Add(dd[k], 2 * e);
    max_abs_error = std::max(max_abs_error, std::ldexp(mx[k], e));
  }
}

void ErrorSums::Merge(const ErrorSums& o) {
  elements += o.elements;
  compared += o.compared;
  reference_nan += o.reference_nan;
  reference_inf += o.reference_inf;
  device_nan += o.device_nan;
  device_inf += o.device_inf;
  nonfinite_mismatch += o.nonfinite_mismatch;
  sum_sq_error.Merge(o.sum_sq_error);
  sum_abs_error.Merge(o.sum_abs_error);
  sum_ref_dev.Merge(o.sum_ref_dev);
  sum_ref_sq.Merge(o.sum_ref_sq);
  sum_dev_sq.Merge(o.sum_dev_sq);
  max_abs_error = std::max(max_abs_error, o.max_abs_error);
}

ErrorMetrics FinishMetrics(const ErrorSums& s) {
  ErrorMetrics m;
  if (s.compared == 0) return m;
  long double n = static_cast<long double>(s.compared);
  auto mean = [&](const ScaledSum& sum) {
    return ToDouble(std::ldexp(sum.value() / n, sum.exponent()));
  };
  m.mse = mean(s.sum_sq_error);
  m.mean_abs = mean(s.sum_abs_error);
  m.max_abs = s.max_abs_error;
  if (s.sum_ref_sq.IsZero() && s.sum_dev_sq.IsZero()) {
    m.cosine = 1.0;
  } else if (s.sum_ref_sq.IsZero() || s.sum_dev_sq.IsZero()) {
    m.cosine = 0.0;
  } else {
    // Σdr / √(Σd²·Σr²) on the scaled parts; an odd exponent total is evened first.
    long double dev_sq = s.sum_dev_sq.value();
    int exponents = s.sum_dev_sq.exponent() + s.sum_ref_sq.exponent();
    if (exponents % 2 != 0) {
      dev_sq *= 2;
      --exponents;
    }
    long double ratio = s.sum_ref_dev.value() / std::sqrt(dev_sq * s.sum_ref_sq.value());
    long double c = std::ldexp(ratio, s.sum_ref_dev.exponent() - exponents / 2);
    m.cosine = static_cast<double>(std::clamp<long double>(c, -1, 1));
  }
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (s.sum_sq_error.IsZero()) {
    m.snr_db = kInf;
  } else if (s.sum_ref_sq.IsZero()) {
    m.snr_db = -kInf;
  } else {
    long double log10_ratio =
        std::log10(s.sum_ref_sq.value()) - std::log10(s.sum_sq_error.value()) +
        (s.sum_ref_sq.exponent() - s.sum_sq_error.exponent()) * std::log10(2.0L);
    m.snr_db = static_cast<double>(10 * log10_ratio);
  }
  return m;
}

std::optional<double> MetricValue(const ErrorMetrics& m, NumericsMetric metric) {
  switch (metric) {
    case NumericsMetric::kMse:
      return m.mse;
    case NumericsMetric::kMeanAbs:
      return m.mean_abs;
    case NumericsMetric::kMaxAbs:
      return m.max_abs;
    case NumericsMetric::kCosine:
      return m.cosine;
    case NumericsMetric::kSnrDb:
      return m.snr_db;
  }
  return std::nullopt;
}

}  // namespace htpscope
