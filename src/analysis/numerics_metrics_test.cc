#include "analysis/numerics_metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace htpscope::numerics_metrics_test {
namespace {

constexpr double kMax = std::numeric_limits<double>::max();
constexpr double kMinNormal = std::numeric_limits<double>::min();
constexpr double kDenormMin = std::numeric_limits<double>::denorm_min();
constexpr double kInf = std::numeric_limits<double>::infinity();

ErrorMetrics Metrics(const std::vector<double>& ref, const std::vector<double>& dev) {
  ErrorSums sums;
  sums.Add(ref.data(), dev.data(), ref.size());
  return FinishMetrics(sums);
}

std::vector<double> Scaled(const std::vector<double>& v, double factor) {
  std::vector<double> out;
  for (double x : v) out.push_back(x * factor);
  return out;
}

const std::vector<double> kShape = {1, -2, 3, 4, -5};  // Σx² = 55

// The metrics of (x·s, y·s) follow from those of (x, y): cosine and SNR do
// not change, mse scales by s², mean_abs and max_abs by s.  Checked at every
// scale where the results are representable, including both ends of the
// float64 range where naive sums overflow to inf or underflow to 0.
TEST(NumericsRange, MetricsAreScaleInvariantAcrossTheWholeRange) {
  const std::vector<double> dev = {1.5, -2, 2, 4, -5};  // off by +0.5 and −1
  const ErrorMetrics unit = Metrics(kShape, dev);
  ASSERT_TRUE(unit.cosine && unit.snr_db);
  for (int e : {-1070, -1000, -700, -600, -451, -450, -449, -300, -200, -100, -1,  0,
                1,     100,   200,  300,  449,  450,  451,  600,  700,  1000, 1020}) {
    double s = std::ldexp(1.0, e);
    ErrorMetrics m = Metrics(Scaled(kShape, s), Scaled(dev, s));
    SCOPED_TRACE(e);
    if (e >= -1000) {  // below that, 0.5·s and the inputs themselves lose bits
      EXPECT_DOUBLE_EQ(*m.cosine, *unit.cosine);
      EXPECT_NEAR(*m.snr_db, *unit.snr_db, 1e-9);
      EXPECT_DOUBLE_EQ(*m.max_abs, *unit.max_abs * s);
      EXPECT_DOUBLE_EQ(*m.mean_abs, *unit.mean_abs * s);
      if (2 * e < 1020 && 2 * e > -1020) {
        EXPECT_DOUBLE_EQ(*m.mse, *unit.mse * s * s);
      }
    }
    EXPECT_TRUE(std::isfinite(*m.cosine));
    EXPECT_TRUE(std::isfinite(*m.snr_db));
  }
}

TEST(NumericsRange, SignFlipNearOneE200IsMinusOneNotNaN) {
  // Naively Σr² = inf and cosine = inf/inf = NaN, which compared as "ok".
  std::vector<double> ref = Scaled(kShape, 1e200), dev = Scaled(kShape, -1e200);
  ErrorMetrics m = Metrics(ref, dev);
  EXPECT_DOUBLE_EQ(*m.cosine, -1.0);
  // (2x)² / x² = 4: SNR 10·log10(1/4).
  EXPECT_NEAR(*m.snr_db, 10 * std::log10(0.25), 1e-12);
  EXPECT_EQ(*m.mse, kInf);  // 4·55/5·1e400: beyond the largest double, honestly inf
  EXPECT_DOUBLE_EQ(*m.max_abs, 10e200);
  EXPECT_DOUBLE_EQ(*m.mean_abs, 2 * 15 / 5.0 * 1e200);
  // And identical tensors there read cosine 1, SNR +inf.
  m = Metrics(ref, ref);
  EXPECT_DOUBLE_EQ(*m.cosine, 1.0);
  EXPECT_EQ(*m.snr_db, kInf);
  EXPECT_EQ(*m.mse, 0.0);
}

TEST(NumericsRange, SignFlipNearOneEMinus200IsMinusOneNotOne) {
  // Naively every product underflows to 0: "both all zero", cosine 1.
  std::vector<double> ref = Scaled(kShape, 1e-200), dev = Scaled(kShape, -1e-200);
  ErrorMetrics m = Metrics(ref, dev);
  EXPECT_DOUBLE_EQ(*m.cosine, -1.0);
  EXPECT_NEAR(*m.snr_db, 10 * std::log10(0.25), 1e-12);
  EXPECT_EQ(*m.mse, 0.0);  // 44e-400 underflows: the true mean square is below every double
  EXPECT_DOUBLE_EQ(*m.max_abs, 10e-200);
  // Orthogonal tiny vectors: cosine 0, not 1.
  m = Metrics({1e-200, 0}, {0, 1e-200});
  EXPECT_EQ(*m.cosine, 0.0);
}

TEST(NumericsRange, ExtremesAndSubnormals) {
  // The largest doubles, opposite signs: the difference itself overflows.
  ErrorMetrics m = Metrics({kMax, kMax / 2}, {-kMax, -kMax / 2});
  EXPECT_DOUBLE_EQ(*m.cosine, -1.0);
  EXPECT_EQ(*m.max_abs, kInf);  // 2·DBL_MAX is not a double
  EXPECT_TRUE(std::isfinite(*m.snr_db));
  // Subnormals only.
  m = Metrics({kDenormMin, 3 * kDenormMin}, {-kDenormMin, -3 * kDenormMin});
  EXPECT_DOUBLE_EQ(*m.cosine, -1.0);
  EXPECT_NEAR(*m.snr_db, 10 * std::log10(0.25), 1e-12);
  m = Metrics({kMinNormal, kDenormMin}, {kMinNormal, kDenormMin});
  EXPECT_DOUBLE_EQ(*m.cosine, 1.0);
  EXPECT_EQ(*m.snr_db, kInf);
}

TEST(NumericsRange, RunsOfDifferentMagnitudesCombine) {
  // 256 pairs near 1e-200 then 256 near 1e200 (separate runs, separately
  // scaled): the large run dominates every sum, the small one still counts.
  std::vector<double> ref, dev;
  for (int i = 0; i < 256; ++i) {
    ref.push_back(1e-200);
    dev.push_back(-1e-200);
  }
  for (int i = 0; i < 256; ++i) {
    ref.push_back(1e200);
    dev.push_back(1e200);
  }
  ErrorSums sums;
  sums.Add(ref.data(), dev.data(), ref.size());
  ErrorMetrics m = FinishMetrics(sums);
  EXPECT_EQ(sums.compared, 512u);
  EXPECT_DOUBLE_EQ(*m.cosine, 1.0);
  EXPECT_DOUBLE_EQ(*m.max_abs, 2e-200);
  // mse = 256·4e-400 / 512 is below every double, but the sum is not lost.
  EXPECT_FALSE(sums.sum_sq_error.IsZero());
  EXPECT_NEAR(static_cast<double>(std::log10(sums.sum_sq_error.Value())), std::log10(1024.0) - 400,
              1e-9);
  // Merging two halves gives the same sums as one pass.
  ErrorSums first, second;
  first.Add(ref.data(), dev.data(), 256);
  second.Add(ref.data() + 256, dev.data() + 256, 256);
  first.Merge(second);
  EXPECT_NEAR(static_cast<double>(first.sum_ref_sq.Value() / sums.sum_ref_sq.Value()), 1.0, 1e-15);
  EXPECT_EQ(first.sum_sq_error.exponent(), sums.sum_sq_error.exponent());
  EXPECT_DOUBLE_EQ(*FinishMetrics(first).cosine, 1.0);
}

TEST(NumericsRange, NonFiniteValuesAreCountedNotSummed) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  ErrorSums sums;
  std::vector<double> ref = {1e200, kNaN, kInf, 2e200, -kInf};
  std::vector<double> dev = {-1e200, kNaN, kInf, -2e200, 7};
  sums.Add(ref.data(), dev.data(), ref.size());
  EXPECT_EQ(sums.elements, 5u);
  EXPECT_EQ(sums.compared, 2u);
  EXPECT_EQ(sums.nonfinite_mismatch, 1u);  // −Inf against 7
  EXPECT_EQ(sums.reference_inf, 2u);
  EXPECT_EQ(sums.device_nan, 1u);
  EXPECT_DOUBLE_EQ(*FinishMetrics(sums).cosine, -1.0);
}

TEST(NumericsRange, ScaledSumKeepsExactValues) {
  ScaledSum s;
  EXPECT_TRUE(s.IsZero());
  s.Add(3, 0);
  s.Add(0.5, 2);  // 2
  EXPECT_EQ(s.Value(), 5.0L);
  ScaledSum big;
  big.Add(1, 3000);  // 2^3000: beyond double, kept as an exponent
  big.Add(1, 3000);
  EXPECT_EQ(big.exponent() + std::ilogb(static_cast<double>(big.value())), 3001);
  EXPECT_FALSE(big.IsZero());
}

}  // namespace
}  // namespace htpscope::numerics_metrics_test
