#include "analysis/numerics.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>

#include "base/errors.h"
#include "formats/tensor_test_util.h"

namespace htpscope::numerics_test {
namespace {

// The value an error of `compare` says would settle it; nullopt for another
// InputError.
std::optional<ValueRole> NeededValue(const std::function<void()>& compare) {
  try {
    compare();
  } catch (const InputNeedsValueError& e) {
    return e.needed();
  } catch (const InputError&) {
    return std::nullopt;
  }
  ADD_FAILURE() << "no error";
  return std::nullopt;
}

namespace fs = std::filesystem;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Stored bytes of `values` as `dtype` (values must be representable).
std::string Encode(DType dtype, const std::vector<double>& values, bool big_endian = false) {
  std::string out;
  auto put = [&](auto v) {
    char b[sizeof(v)];
    std::memcpy(b, &v, sizeof(v));
    if (big_endian) std::reverse(b, b + sizeof(v));
    out.append(b, sizeof(v));
  };
  for (double v : values) {
    switch (dtype) {
      case DType::kBool:
        put(static_cast<uint8_t>(v != 0));
        break;
      case DType::kInt8:
        put(static_cast<int8_t>(v));
        break;
      case DType::kUInt8:
        put(static_cast<uint8_t>(v));
        break;
      case DType::kInt16:
        put(static_cast<int16_t>(v));
        break;
      case DType::kUInt16:
        put(static_cast<uint16_t>(v));
        break;
      case DType::kInt32:
        put(static_cast<int32_t>(v));
        break;
      case DType::kUInt32:
        put(static_cast<uint32_t>(v));
        break;
      case DType::kInt64:
        put(static_cast<int64_t>(v));
        break;
      case DType::kUInt64:
        put(static_cast<uint64_t>(v));
        break;
      case DType::kFloat16: {
        // Exact for the small integers and halves used here.
        float f = static_cast<float>(v);
        uint32_t bits = std::bit_cast<uint32_t>(f);
        uint16_t half = static_cast<uint16_t>(((bits >> 16) & 0x8000) |
                                              (f == 0 ? 0 : ((((bits >> 23) & 0xff) - 112) << 10)) |
                                              ((bits >> 13) & 0x3ff));
        put(half);
        break;
      }
      case DType::kFloat32:
        put(static_cast<float>(v));
        break;
      case DType::kFloat64:
        put(v);
        break;
      default:
        ADD_FAILURE() << "no test encoder for " << DTypeName(dtype);
    }
  }
  return out;
}

std::string NpyImage(DType dtype, const std::vector<int64_t>& shape,
                     const std::vector<double>& values, bool big_endian = false) {
  static const std::map<DType, std::string> kDescr = {
      {DType::kBool, "b1"},    {DType::kInt8, "i1"},    {DType::kUInt8, "u1"},
      {DType::kInt16, "i2"},   {DType::kUInt16, "u2"},  {DType::kInt32, "i4"},
      {DType::kUInt32, "u4"},  {DType::kInt64, "i8"},   {DType::kUInt64, "u8"},
      {DType::kFloat16, "f2"}, {DType::kFloat32, "f4"}, {DType::kFloat64, "f8"}};
  std::string shape_tuple = "(";
  for (int64_t d : shape) shape_tuple += fmt::format("{},", d);
  shape_tuple += ")";
  char order = DTypeBytes(dtype) == 1 ? '|' : big_endian ? '>' : '<';
  std::string dict = fmt::format("{{'descr': '{}{}', 'fortran_order': False, 'shape': {}, }}",
                                 order, kDescr.at(dtype), shape_tuple);
  dict += std::string((64 - (10 + dict.size() + 1) % 64) % 64, ' ') + "\n";
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict + Encode(dtype, values, big_endian);
}

class NumericsTest : public testing_support::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    options_.threads = 2;
    options_.min_elements_per_thread = 1;  // split even tiny tensors across both threads
    options_.block_elements = 5;           // many blocks, with a partial last one
  }
  // A raw tensor entry as a manifest would describe it.
  TensorEntry Raw(const std::string& name, DType dtype, std::vector<int64_t> shape,
                  const std::vector<double>& values, std::string layout = "",
                  std::optional<Quantization> q = std::nullopt) {
    TensorEntry t;
    t.name = name;
    t.data.path = Write(name + ".raw", Encode(dtype, values));
    t.data.dtype = dtype;
    t.data.shape = std::move(shape);
    if (!layout.empty()) {
      t.layout = *ParseTensorLayout(layout);
      t.layout_name = layout;
    }
    t.quantization = std::move(q);
    return t;
  }
  HandleRow Compare(const TensorEntry& ref, const TensorEntry& dev) {
    HandleRow row;
    CompareTensorPair(ref, dev, options_, row);
    return row;
  }
  TensorSet Set(std::vector<TensorEntry> tensors, bool ordered) {
    TensorSet set;
    set.origin = dir_;
    if (ordered) {
      set.manifest_path = dir_ + "/manifest.json";
      set.source = TensorSetSource::kManifest;
    }
    set.tensors = std::move(tensors);
    return set;
  }
  NumericsOptions options_;
};

std::vector<double> Iota(size_t n, double start = 0, double step = 1) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = start + step * static_cast<double>(i);
  return v;
}

TEST_F(NumericsTest, ConstantOffsetGivesKnownMseAndSnr) {
  // ref = 2, dev = 2.5 everywhere: error 0.5, so MSE 0.25, SNR 10·log10(4 / 0.25).
  auto ref = Raw("r", DType::kFloat32, {3, 7}, std::vector<double>(21, 2.0));
  auto dev = Raw("d", DType::kFloat32, {3, 7}, std::vector<double>(21, 2.5));
  HandleRow row = Compare(ref, dev);
  EXPECT_EQ(row.sums.elements, 21u);
  EXPECT_EQ(row.sums.compared, 21u);
  EXPECT_EQ(row.metrics.mse, 0.25);
  EXPECT_EQ(row.metrics.mean_abs, 0.5);
  EXPECT_EQ(row.metrics.max_abs, 0.5);
  EXPECT_DOUBLE_EQ(*row.metrics.snr_db, 10 * std::log10(16.0));
  EXPECT_DOUBLE_EQ(*row.metrics.cosine, 1.0);  // parallel vectors
  EXPECT_EQ(row.reference_preview, (std::vector<double>{2, 2, 2, 2}));
  EXPECT_EQ(row.device_preview, (std::vector<double>{2.5, 2.5, 2.5, 2.5}));
}

TEST_F(NumericsTest, OffsetOnARampKeepsMseExact) {
  // ref = x, dev = x + 0.5 for x = 0..99: MSE 0.25, mean_abs 0.5 whatever x is.
  auto ref = Raw("r", DType::kFloat64, {100}, Iota(100));
  auto dev = Raw("d", DType::kFloat64, {100}, Iota(100, 0.5));
  HandleRow row = Compare(ref, dev);
  EXPECT_EQ(row.metrics.mse, 0.25);
  EXPECT_EQ(row.metrics.mean_abs, 0.5);
  // Σx² = 328350 for x = 0..99; noise Σ0.25 = 25.
  EXPECT_DOUBLE_EQ(*row.metrics.snr_db, 10 * std::log10(328350.0 / 25.0));
}

TEST_F(NumericsTest, SignFlipsNearTheEndsOfTheFloat64RangeAreDivergent) {
  // Near 1e200 naive sums overflow (cosine NaN, "ok"); near 1e-200 they
  // underflow (cosine 1, "ok").  Both must read cosine −1, divergent.
  for (double scale : {1e200, 1e-200, 1e300, 1e-300}) {
    std::vector<double> x = {1 * scale, -2 * scale, 3 * scale};
    std::vector<double> neg = {-1 * scale, 2 * scale, -3 * scale};
    auto ref = Set({Raw("r__debugID_0", DType::kFloat64, {3}, x)}, false);
    auto dev = Set({Raw("d__debugID_0", DType::kFloat64, {3}, neg)}, false);
    NumericsResult result = CompareTensorSets(ref, dev, options_);
    ASSERT_EQ(result.rows.size(), 1u);
    EXPECT_DOUBLE_EQ(*result.rows[0].metrics.cosine, -1.0) << scale;
    EXPECT_TRUE(result.rows[0].divergent) << scale;
    EXPECT_EQ(result.first_divergent, 0u) << scale;
    // The same tensors on both sides are not divergent.
    EXPECT_FALSE(CompareTensorSets(ref, ref, options_).rows[0].divergent) << scale;
  }
}

TEST_F(NumericsTest, SignFlipGivesCosineMinusOne) {
  std::vector<double> x = {1, -2, 3, 4, -5};
  std::vector<double> neg = {-1, 2, -3, -4, 5};
  HandleRow row = Compare(Raw("r", DType::kInt32, {5}, x), Raw("d", DType::kInt32, {5}, neg));
  EXPECT_EQ(row.metrics.cosine, -1.0);
  // (−x − x)² = 4x²; Σx² = 55, so MSE = 4·55/5 = 44, max |2x| = 10.
  EXPECT_EQ(row.metrics.mse, 44.0);
  EXPECT_EQ(row.metrics.max_abs, 10.0);
  // SNR = 10·log10(55 / 220) = 10·log10(1/4).
  EXPECT_DOUBLE_EQ(*row.metrics.snr_db, 10 * std::log10(0.25));
}

TEST_F(NumericsTest, IdenticalTensorsHaveInfiniteSnr) {
  auto ref = Raw("r", DType::kFloat32, {2, 2}, {1.5, -2, 0, 8});
  HandleRow row = Compare(ref, Raw("d", DType::kFloat32, {2, 2}, {1.5, -2, 0, 8}));
  EXPECT_EQ(row.metrics.mse, 0.0);
  EXPECT_EQ(row.metrics.snr_db, kInf);
  EXPECT_EQ(row.metrics.cosine, 1.0);
}

TEST_F(NumericsTest, ZeroNormsHaveDocumentedCosineAndSnr) {
  HandleRow both =
      Compare(Raw("r", DType::kFloat32, {3}, {0, 0, 0}), Raw("d", DType::kFloat32, {3}, {0, 0, 0}));
  EXPECT_EQ(both.metrics.cosine, 1.0);
  EXPECT_EQ(both.metrics.snr_db, kInf);
  HandleRow ref_zero = Compare(Raw("r2", DType::kFloat32, {3}, {0, 0, 0}),
                               Raw("d2", DType::kFloat32, {3}, {0, 3, 0}));
  EXPECT_EQ(ref_zero.metrics.cosine, 0.0);
  EXPECT_EQ(ref_zero.metrics.snr_db, -kInf);
  EXPECT_EQ(ref_zero.metrics.mse, 3.0);
}

TEST_F(NumericsTest, QuantizedUint8DequantizesToTheReferenceExactly) {
  // real = (q − 128) × 0.25
  std::vector<double> q = {0, 127, 128, 129, 200, 255};
  std::vector<double> real = {-32, -0.25, 0, 0.25, 18, 31.75};
  auto dev = Raw("d", DType::kUInt8, {2, 3}, q, "", Quantization{{0.25}, {128}, std::nullopt});
  HandleRow row = Compare(Raw("r", DType::kFloat32, {2, 3}, real), dev);
  EXPECT_TRUE(row.dequantized);
  EXPECT_EQ(row.metrics.mse, 0.0);
  EXPECT_EQ(row.metrics.max_abs, 0.0);
  EXPECT_EQ(row.metrics.snr_db, kInf);
  EXPECT_EQ(row.device_preview, (std::vector<double>{-32, -0.25, 0, 0.25}));
}

TEST_F(NumericsTest, PerAxisQuantizationUsesEachChannelsScaleAndOffset) {
  // int8 [2, 3], axis 1: scales 0.5, 0.25, 2; zero points 0, 1, -1.
  Quantization q{{0.5, 0.25, 2}, {0, 1, -1}, 1};
  std::vector<double> stored = {2, 5, 3, -4, -3, 0};
  std::vector<double> real = {1, 1, 8, -2, -1, 2};
  HandleRow row = Compare(Raw("r", DType::kFloat64, {2, 3}, real),
                          Raw("d", DType::kInt8, {2, 3}, stored, "", q));
  EXPECT_EQ(row.metrics.mse, 0.0);
  // Axis 0 of [3, 2]: one scale per row.
  Quantization rows_q{{1, 10, 100}, {0, 0, 1}, 0};
  HandleRow by_row = Compare(Raw("r0", DType::kFloat64, {3, 2}, {1, 2, 30, 40, 100, 200}),
                             Raw("d0", DType::kInt16, {3, 2}, {1, 2, 3, 4, 2, 3}, "", rows_q));
  EXPECT_EQ(by_row.metrics.mse, 0.0);
}

TEST_F(NumericsTest, Int32AndInt16DeviceTensorsDequantizeToo) {
  HandleRow i32 =
      Compare(Raw("r", DType::kFloat32, {4}, {-1, 0, 1, 2}),
              Raw("d", DType::kInt32, {4}, {-100, 0, 100, 200}, "", Quantization{{0.01}, {0}, {}}));
  EXPECT_NEAR(*i32.metrics.max_abs, 0.0, 1e-15);  // 0.01 is not a binary fraction
  HandleRow u16 = Compare(
      Raw("r2", DType::kFloat32, {3}, {-1, 0, 1}),
      Raw("d2", DType::kUInt16, {3}, {32767, 32768, 32769}, "", Quantization{{1}, {32768}, {}}));
  EXPECT_EQ(u16.metrics.mse, 0.0);
}

// Reference value at (n, c, h, w) for the layout tests.
double Pixel(int64_t n, int64_t c, int64_t h, int64_t w) {
  return static_cast<double>(n * 1000 + c * 100 + h * 10 + w);
}

std::vector<double> Nchw(int64_t N, int64_t C, int64_t H, int64_t W) {
  std::vector<double> v;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w) v.push_back(Pixel(n, c, h, w));
  return v;
}

std::vector<double> Nhwc(int64_t N, int64_t C, int64_t H, int64_t W) {
  std::vector<double> v;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t w = 0; w < W; ++w)
        for (int64_t c = 0; c < C; ++c) v.push_back(Pixel(n, c, h, w));
  return v;
}

TEST_F(NumericsTest, NhwcDeviceIsComparedInNchwReferenceOrder) {
  const int64_t N = 2, C = 3, H = 4, W = 5;
  std::vector<double> dev_values = Nhwc(N, C, H, W);
  // One wrong element at (n=1, c=2, h=1, w=0): +3.  A wrong mapping would
  // spread errors over many elements instead.
  dev_values[((1 * H + 1) * W + 0) * C + 2] += 3;
  for (size_t block : {size_t{5}, size_t{7}, size_t{64}, size_t{1} << 16}) {
    options_.block_elements = block;
    HandleRow row = Compare(Raw("r", DType::kFloat32, {N, C, H, W}, Nchw(N, C, H, W), "NCHW"),
                            Raw("d", DType::kFloat32, {N, H, W, C}, dev_values, "NHWC"));
    EXPECT_TRUE(row.layout_converted);
    EXPECT_EQ(row.sums.elements, 120u) << block;
    EXPECT_EQ(row.metrics.max_abs, 3.0) << block;
    EXPECT_EQ(row.metrics.mse, 9.0 / 120.0) << block;
    // Previews are in reference (NCHW) order on both sides.
    EXPECT_EQ(row.device_preview, (std::vector<double>{0, 1, 2, 3})) << block;
  }
  EXPECT_EQ(Compare(Raw("r2", DType::kFloat32, {N, C, H, W}, Nchw(N, C, H, W), "NCHW"),
                    Raw("d2", DType::kFloat32, {N, H, W, C}, Nhwc(N, C, H, W), "NHWC"))
                .metrics.mse,
            0.0);
}

TEST_F(NumericsTest, NchwDeviceAgainstNhwcReference) {
  const int64_t N = 1, C = 5, H = 3, W = 3;
  HandleRow row = Compare(Raw("r", DType::kFloat32, {N, H, W, C}, Nhwc(N, C, H, W), "NHWC"),
                          Raw("d", DType::kFloat32, {N, C, H, W}, Nchw(N, C, H, W), "NCHW"));
  EXPECT_TRUE(row.layout_converted);
  EXPECT_EQ(row.metrics.mse, 0.0);
  EXPECT_EQ(row.device_preview, (std::vector<double>{0, 100, 200, 300}));
}

TEST_F(NumericsTest, PerAxisQuantizationOnTheNhwcChannelAxis) {
  // Device uint8 NHWC [1, 2, 2, 3] quantized along axis 3 (its channels);
  // reference NCHW [1, 3, 2, 2] holds c × 8 + pixel × 4.
  const int64_t C = 3, H = 2, W = 2;
  Quantization q{{1, 2, 4}, {100, 50, 0}, 3};
  std::vector<double> ref, stored;
  for (int64_t c = 0; c < C; ++c)
    for (int64_t p = 0; p < H * W; ++p) ref.push_back(static_cast<double>(c * 8 + p * 4));
  for (int64_t p = 0; p < H * W; ++p)
    for (int64_t c = 0; c < C; ++c)
      stored.push_back(static_cast<double>(c * 8 + p * 4) / q.scale[c] + q.offset[c]);
  HandleRow row = Compare(Raw("r", DType::kFloat32, {1, C, H, W}, ref, "NCHW"),
                          Raw("d", DType::kUInt8, {1, H, W, C}, stored, "NHWC", q));
  EXPECT_EQ(row.metrics.mse, 0.0);
  EXPECT_TRUE(row.dequantized);
  EXPECT_TRUE(row.layout_converted);
}

TEST_F(NumericsTest, OddElementCountSplitAcrossTwoThreads) {
  // ref = i, dev = i ± 1 alternating: every |error| is 1.
  const size_t n = 1001;
  std::vector<double> ref = Iota(n), dev = Iota(n);
  for (size_t i = 0; i < n; ++i) dev[i] += (i % 2) ? 1 : -1;
  auto r = Raw("r", DType::kFloat64, {static_cast<int64_t>(n)}, ref);
  auto d = Raw("d", DType::kFloat64, {static_cast<int64_t>(n)}, dev);
  options_.block_elements = 7;
  HandleRow two = Compare(r, d);
  options_.threads = 1;
  HandleRow one = Compare(r, d);
  for (const HandleRow* row : {&two, &one}) {
    EXPECT_EQ(row->sums.elements, n);
    EXPECT_EQ(row->metrics.mse, 1.0);
    EXPECT_EQ(row->metrics.mean_abs, 1.0);
    EXPECT_EQ(row->metrics.max_abs, 1.0);
    // Σi² for i < n = (n−1)n(2n−1)/6.
    EXPECT_EQ(row->sums.sum_ref_sq.Value(), 1000.0L * 1001 * 2001 / 6);
  }
  EXPECT_EQ(two.sums.sum_ref_dev.Value(), one.sums.sum_ref_dev.Value());
}

TEST_F(NumericsTest, NanAndInfAreCountedAndExcluded) {
  HandleRow row = Compare(Raw("r", DType::kFloat32, {6}, {1, kNaN, kInf, 3, 5, -kInf}),
                          Raw("d", DType::kFloat32, {6}, {1, kNaN, kInf, kNaN, 6, kInf}));
  EXPECT_EQ(row.sums.reference_nan, 1u);
  EXPECT_EQ(row.sums.reference_inf, 2u);
  EXPECT_EQ(row.sums.device_nan, 2u);
  EXPECT_EQ(row.sums.device_inf, 2u);
  EXPECT_EQ(row.sums.nonfinite_mismatch, 2u);  // 3 vs NaN, −Inf vs +Inf
  EXPECT_EQ(row.sums.compared, 2u);            // 1 vs 1, 5 vs 6
  EXPECT_EQ(row.metrics.mse, 0.5);
  EXPECT_EQ(row.metrics.max_abs, 1.0);
}

TEST_F(NumericsTest, ShapeMismatchIsAnErrorNeverABroadcast) {
  auto ref = Raw("ref_t", DType::kFloat32, {2, 3}, Iota(6));
  auto dev = Raw("dev_t", DType::kFloat32, {3, 2}, Iota(6));
  std::string error = ErrorOf([&] { Compare(ref, dev); });
  EXPECT_NE(error.find("shape mismatch: reference tensor \"ref_t\""), std::string::npos) << error;
  EXPECT_NE(error.find("has shape [2, 3] but device tensor \"dev_t\" has shape [3, 2]"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("nothing is broadcast"), std::string::npos);
  auto one = Raw("one", DType::kFloat32, {1}, {1});
  EXPECT_NE(ErrorOf([&] { Compare(ref, one); }).find("shape mismatch"), std::string::npos);
  // Layout conversion is checked too: NHWC [1, 4, 5, 3] is NCHW [1, 3, 4, 5], not [1, 3, 5, 4].
  auto nchw = Raw("a", DType::kFloat32, {1, 3, 5, 4}, Iota(60), "NCHW");
  auto nhwc = Raw("b", DType::kFloat32, {1, 4, 5, 3}, Iota(60), "NHWC");
  EXPECT_NE(ErrorOf([&] { Compare(nchw, nhwc); }).find("= [1, 3, 4, 5] as NCHW"),
            std::string::npos);
  // Unstated layouts with permuted shapes: the error says how to fix it.
  auto plain = Raw("c", DType::kFloat32, {1, 4, 5, 3}, Iota(60));
  auto plain_ref = Raw("e", DType::kFloat32, {1, 3, 4, 5}, Iota(60));
  EXPECT_NE(ErrorOf([&] { Compare(plain_ref, plain); }).find("state the layouts"),
            std::string::npos);
  EXPECT_EQ(NeededValue([&] { Compare(plain_ref, plain); }), ValueRole::kTensorLayouts);
  EXPECT_EQ(NeededValue([&] { Compare(ref, dev); }), std::nullopt);  // no layout would help
  // Size-1 dimensions do not move elements, so [1, 6] and [6] compare.
  EXPECT_EQ(
      Compare(Raw("f", DType::kFloat32, {1, 6}, Iota(6)), Raw("g", DType::kFloat32, {6}, Iota(6)))
          .metrics.mse,
      0.0);
}

TEST_F(NumericsTest, UnstatedLayoutIsInferredOnlyWhenTheShapesDecide) {
  // NHWC device [1, 3, 3, 2] against an unstated reference [1, 2, 3, 3]: only
  // NCHW fits, so the reference is read as NCHW.
  HandleRow inferred = Compare(Raw("r", DType::kFloat32, {1, 2, 3, 3}, Nchw(1, 2, 3, 3)),
                               Raw("d", DType::kFloat32, {1, 3, 3, 2}, Nhwc(1, 2, 3, 3), "NHWC"));
  EXPECT_EQ(inferred.reference_layout, "NCHW (inferred)");
  EXPECT_TRUE(inferred.layout_converted);
  EXPECT_EQ(inferred.metrics.mse, 0.0);
  // An unstated reference [1, 3, 3, 2] against the same device: only NHWC fits.
  HandleRow same = Compare(Raw("r2", DType::kFloat32, {1, 3, 3, 2}, Nhwc(1, 2, 3, 3)),
                           Raw("d2", DType::kFloat32, {1, 3, 3, 2}, Nhwc(1, 2, 3, 3), "NHWC"));
  EXPECT_FALSE(same.layout_converted);
  EXPECT_EQ(same.metrics.mse, 0.0);
  // [1, 2, 2, 2] fits NCHW and NHWC, which order elements differently: refuse to guess.
  auto ambiguous_ref = Raw("r3", DType::kFloat32, {1, 2, 2, 2}, Iota(8));
  auto nhwc_dev = Raw("d3", DType::kFloat32, {1, 2, 2, 2}, Iota(8), "NHWC");
  EXPECT_EQ(ErrorOf([&] { Compare(ambiguous_ref, nhwc_dev); }),
            dir_ +
                "/r3.raw: tensor \"r3\": layout is ambiguous: device tensor \"d3\" is NHWC "
                "[1, 2, 2, 2] and reference tensor \"r3\" [1, 2, 2, 2] states no layout, which "
                "fits both NHWC and NCHW; state it");
  // The caller says how to state the layouts (options, keyword arguments).
  EXPECT_EQ(NeededValue([&] { Compare(ambiguous_ref, nhwc_dev); }), ValueRole::kTensorLayouts);
  // [1, 4, 1, 1] fits both too, but with one pixel both orders coincide.
  EXPECT_EQ(Compare(Raw("r4", DType::kFloat32, {1, 4, 1, 1}, Iota(4)),
                    Raw("d4", DType::kFloat32, {1, 1, 1, 4}, Iota(4), "NHWC"))
                .metrics.mse,
            0.0);
}

TEST_F(NumericsTest, DefaultLayoutsApplyToUnstatedTensors) {
  options_.reference_layout = TensorLayout::kChannelsFirst;
  options_.device_layout = TensorLayout::kChannelsLast;
  HandleRow row = Compare(Raw("r", DType::kFloat32, {1, 2, 3, 3}, Nchw(1, 2, 3, 3)),
                          Raw("d", DType::kFloat32, {1, 3, 3, 2}, Nhwc(1, 2, 3, 3)));
  EXPECT_EQ(row.reference_layout, "NCHW");
  EXPECT_EQ(row.device_layout, "NHWC");
  EXPECT_EQ(row.metrics.mse, 0.0);
}

TEST_F(NumericsTest, OneSidedHandlesAreListedInHandleOrder) {
  auto ref = Set({Raw("a__debugID_1", DType::kFloat32, {2}, {1, 2}),
                  Raw("b__debugID_2", DType::kFloat32, {2}, {3, 4}),
                  Raw("c__debugID_3", DType::kFloat32, {2}, {5, 6})},
                 false);
  auto dev = Set({Raw("x__debugID_3", DType::kFloat32, {2}, {5, 6}),
                  Raw("y__debugID_1", DType::kFloat32, {2}, {1, 2}),
                  Raw("inserted__debugID_4", DType::kFloat32, {2}, {7, 8})},
                 false);
  NumericsResult result = CompareTensorSets(ref, dev, options_);
  EXPECT_EQ(result.order_source, "debug_handle");
  ASSERT_EQ(result.rows.size(), 4u);
  EXPECT_EQ(result.rows[0].handle, 1);
  EXPECT_EQ(result.rows[0].status, HandleStatus::kCompared);
  EXPECT_EQ(result.rows[0].reference_ops, std::vector<std::string>{"a"});
  EXPECT_EQ(result.rows[0].runtime_ops, std::vector<std::string>{"y"});
  EXPECT_EQ(result.rows[1].handle, 2);
  EXPECT_EQ(result.rows[1].status, HandleStatus::kReferenceOnly);
  EXPECT_EQ(result.rows[1].reference_preview, (std::vector<double>{3, 4}));
  EXPECT_EQ(result.rows[2].handle, 3);
  EXPECT_EQ(result.rows[3].handle, 4);
  EXPECT_EQ(result.rows[3].status, HandleStatus::kDeviceOnly);
  EXPECT_EQ(result.rows[3].device_preview, (std::vector<double>{7, 8}));
  EXPECT_EQ(result.compared, 2u);
  EXPECT_EQ(result.reference_only, 1u);
  EXPECT_EQ(result.device_only, 1u);
  EXPECT_FALSE(result.first_divergent);
}

TEST_F(NumericsTest, MultiOutputHandlesArePairedByOutputIndex) {
  // Reference: outputs of handle 5 in order; device: explicit indices, listed reversed.
  auto ref = Set({Raw("split_a__debugID_5", DType::kFloat32, {2}, {1, 1}),
                  Raw("split_b__debugID_5", DType::kFloat32, {2}, {2, 2})},
                 false);
  auto d1 = Raw("out1", DType::kFloat32, {2}, {2, 2});
  d1.debug_handle = 5;
  d1.output_index = 1;
  auto d0 = Raw("out0", DType::kFloat32, {2}, {1, 1});
  d0.debug_handle = 5;
  d0.output_index = 0;
  NumericsResult result = CompareTensorSets(ref, Set({d1, d0}, true), options_);
  ASSERT_EQ(result.rows.size(), 2u);
  for (const HandleRow& row : result.rows) {
    EXPECT_EQ(row.handle, 5);
    EXPECT_EQ(row.handle_outputs, 2);
    EXPECT_EQ(row.metrics.mse, 0.0) << row.output_index;
  }
  // Device manifest order: output 1 first.
  EXPECT_EQ(result.rows[0].output_index, 1);
  EXPECT_EQ(result.rows[0].reference_tensor, "split_b__debugID_5");
  EXPECT_EQ(result.rows[0].device_tensor, "out1");
  auto clash = d0;
  clash.name = "other";
  std::string error = ErrorOf([&] { CompareTensorSets(ref, Set({d0, clash}, true), options_); });
  EXPECT_NE(error.find("device tensors \"out0\" and \"other\" both claim debug handle 5 output 0"),
            std::string::npos)
      << error;
}

TEST_F(NumericsTest, DeviceManifestOrderAndFirstDivergentHandle) {
  // Device runs handle 3 before 1; handle 2 exists only in the reference and
  // is placed after handle 1 (the next lower handle).  Handle 1.s
  // device values are off, 3 is exact.
  auto ref = Set({Raw("a__debugID_1", DType::kFloat32, {2}, {1, 0}),
                  Raw("b__debugID_2", DType::kFloat32, {2}, {1, 1}),
                  Raw("c__debugID_3", DType::kFloat32, {2}, {1, 1})},
                 false);
  auto dev = Set({Raw("dc__debugID_3", DType::kFloat32, {2}, {1, 1}),
                  Raw("da__debugID_1", DType::kFloat32, {2}, {0, 1})},
                 true);
  NumericsResult result = CompareTensorSets(ref, dev, options_);
  EXPECT_EQ(result.order_source, "device_manifest");
  ASSERT_EQ(result.rows.size(), 3u);
  EXPECT_EQ(result.rows[0].handle, 3);
  EXPECT_EQ(result.rows[1].handle, 1);
  EXPECT_EQ(result.rows[2].handle, 2);
  EXPECT_FALSE(result.rows[0].divergent);
  EXPECT_EQ(result.rows[1].gap, 0.0);  // orthogonal: cosine 0 < 0.99
  EXPECT_TRUE(result.rows[1].divergent);
  EXPECT_EQ(result.first_divergent, 1u);
  EXPECT_EQ(result.divergent, 1u);
}

TEST_F(NumericsTest, HtpGraphOrderWins) {
  auto ref = Set({Raw("a__debugID_1", DType::kFloat32, {1}, {1}),
                  Raw("b__debugID_2", DType::kFloat32, {1}, {1}),
                  Raw("c__debugID_3", DType::kFloat32, {1}, {1})},
                 true);
  auto dev = Set({Raw("da__debugID_1", DType::kFloat32, {1}, {1}),
                  Raw("db__debugID_2", DType::kFloat32, {1}, {1}),
                  Raw("dc__debugID_3", DType::kFloat32, {1}, {1})},
                 true);
  dev.tensors[2].ops = {"conv_c"};
  options_.execution_order_ops = {"conv_c", "input", "op__debugID_2", "op__debugID_1"};
  NumericsResult result = CompareTensorSets(ref, dev, options_);
  EXPECT_EQ(result.order_source, "htp_graph");
  EXPECT_EQ(result.rows[0].handle, 3);  // matched by runtime op name
  EXPECT_EQ(result.rows[1].handle, 2);  // matched by the handle in the op name
  EXPECT_EQ(result.rows[2].handle, 1);
}

TEST_F(NumericsTest, MetricAndThresholdDecideDivergence) {
  auto ref = Set({Raw("a__debugID_1", DType::kFloat32, {2}, {2, 2})}, false);
  auto dev = Set({Raw("b__debugID_1", DType::kFloat32, {2}, {2.5, 2.5})}, false);
  options_.metric = NumericsMetric::kMse;
  options_.threshold = 0.1;
  EXPECT_TRUE(CompareTensorSets(ref, dev, options_).rows[0].divergent);
  options_.threshold = 0.3;
  EXPECT_FALSE(CompareTensorSets(ref, dev, options_).rows[0].divergent);
  options_.metric = NumericsMetric::kSnrDb;
  options_.threshold = 12;  // SNR is 12.04 dB
  EXPECT_FALSE(CompareTensorSets(ref, dev, options_).rows[0].divergent);
  options_.threshold = 12.1;
  NumericsResult r = CompareTensorSets(ref, dev, options_);
  EXPECT_TRUE(r.rows[0].divergent);
  EXPECT_DOUBLE_EQ(*r.rows[0].gap, 10 * std::log10(16.0));
  // NaN where the reference has a number diverges even if the metric is fine.
  auto nan_dev = Set({Raw("n__debugID_1", DType::kFloat32, {2}, {2, kNaN})}, false);
  options_.metric = NumericsMetric::kMaxAbs;
  options_.threshold = 1;
  NumericsResult nan_result = CompareTensorSets(ref, nan_dev, options_);
  EXPECT_EQ(nan_result.rows[0].gap, 0.0);
  EXPECT_TRUE(nan_result.rows[0].divergent);
}

TEST_F(NumericsTest, SingleUnhandledTensorsPairWhateverTheirNames) {
  auto ref = Set({Raw("golden", DType::kFloat16, {3}, {1, 2, 3})}, false);
  auto dev = Set({Raw("out", DType::kFloat32, {3}, {1, 2, 3})}, false);
  NumericsResult result = CompareTensorSets(ref, dev, options_);
  ASSERT_EQ(result.rows.size(), 1u);
  EXPECT_FALSE(result.rows[0].handle);
  EXPECT_EQ(result.rows[0].status, HandleStatus::kCompared);
  EXPECT_EQ(result.rows[0].metrics.mse, 0.0);
}

TEST_F(NumericsTest, NpyVariantsAgainstBigEndianRawThroughLoadedSets) {
  // Reference: a directory of .npy files in several dtypes and versions;
  // device: a manifest of big-endian float32 raw dumps.
  Write("ref/a__debugID_0.npy", NpyImage(DType::kFloat16, {4}, {1, -2, 0.5, 8}));
  Write("ref/b__debugID_1.npy", NpyImage(DType::kInt64, {2, 2}, {1, 2, 3, 4}, true));
  Write("ref/c__debugID_2.npy", NpyImage(DType::kBool, {3}, {1, 0, 1}));
  Write("ref/d__debugID_3.npy", NpyImage(DType::kUInt32, {2}, {7, 4000000000.0}));
  Write("dev/a.raw", Encode(DType::kFloat32, {1, -2, 0.5, 8}, true));
  Write("dev/b.raw", Encode(DType::kFloat32, {1, 2, 3, 5}, true));
  Write("dev/c.raw", Encode(DType::kUInt8, {1, 0, 1}));
  Write("dev/d.raw", Encode(DType::kFloat64, {7, 4000000000.0}));
  Write("dev/manifest.json", R"({"tensors": [
    {"name": "a__debugID_0", "file": "a.raw", "dtype": "float32", "shape": [4], "byte_order": "big"},
    {"name": "b__debugID_1", "file": "b.raw", "dtype": "float32", "shape": [2, 2], "byte_order": "big"},
    {"name": "c__debugID_2", "file": "c.raw", "dtype": "uint8", "shape": [3]},
    {"name": "d__debugID_3", "file": "d.raw", "dtype": "float64", "shape": [2]}]})");
  NumericsResult result =
      CompareTensorSets(LoadTensorSet(dir_ + "/ref"), LoadTensorSet(dir_ + "/dev"), options_);
  ASSERT_EQ(result.rows.size(), 4u);
  EXPECT_EQ(result.rows[0].metrics.mse, 0.0);
  EXPECT_EQ(result.rows[1].metrics.mse, 0.25);  // one of four off by 1
  EXPECT_EQ(result.rows[1].metrics.max_abs, 1.0);
  EXPECT_EQ(result.rows[2].metrics.mse, 0.0);
  EXPECT_EQ(result.rows[3].metrics.mse, 0.0);
  EXPECT_EQ(result.rows[0].reference_preview, (std::vector<double>{1, -2, 0.5, 8}));
}

TEST_F(NumericsTest, TruncatedFileDetectedWhenComparing) {
  auto ref = Raw("r", DType::kFloat32, {4}, {1, 2, 3, 4});
  auto dev = Raw("d", DType::kFloat32, {4}, {1, 2, 3, 4});
  Write("d.raw", Encode(DType::kFloat32, {1, 2, 3}));
  EXPECT_EQ(ErrorOf([&] { Compare(ref, dev); }),
            dir_ +
                "/d.raw: tensor \"d\": file has 12 bytes but float32 × [4] = 4 elements needs "
                "16 bytes (file truncated, or dtype/shape wrong)");
}

TEST(NumericsNames, SplitsDebugHandleSuffix) {
  NameHandle h = SplitDebugHandle("aten_convolution_default_1__debugID_12");
  EXPECT_EQ(h.base, "aten_convolution_default_1");
  EXPECT_EQ(h.handle, 12);
  EXPECT_FALSE(SplitDebugHandle("plain").handle);
  EXPECT_FALSE(SplitDebugHandle("x__debugID_").handle);
  EXPECT_FALSE(SplitDebugHandle("x__debugID_3a").handle);
  EXPECT_EQ(SplitDebugHandle("a__debugID_1__debugID_2").base, "a__debugID_1");
  EXPECT_EQ(SplitDebugHandle("a__debugID_1__debugID_2").handle, 2);
  EXPECT_EQ(ParseNumericsMetric("snr"), NumericsMetric::kSnrDb);
  EXPECT_EQ(ParseNumericsMetric("cosine"), NumericsMetric::kCosine);
  EXPECT_FALSE(ParseNumericsMetric("l2"));
  EXPECT_EQ(NumericsMetricName(NumericsMetric::kMeanAbs), "mean_abs");
  EXPECT_EQ(DefaultThreshold(NumericsMetric::kCosine), 0.99);
  EXPECT_FALSE(DefaultThreshold(NumericsMetric::kMse));
}

TEST(NumericsDequantizer, StartsMidAxisAtAnyFlatIndex) {
  // Shape [2, 3, 2], axis 1: stride 2, so flat indices 0..11 map to channels
  // 0 0 1 1 2 2 0 0 1 1 2 2.
  Dequantizer q(Quantization{{1, 10, 100}, {0, 0, 0}, 1}, {2, 3, 2});
  std::vector<double> v(5, 1.0);
  q.Apply(v.data(), v.size(), 3);  // flat 3..7 → channels 1 2 2 0 0
  EXPECT_EQ(v, (std::vector<double>{10, 100, 100, 1, 1}));
  Dequantizer identity;
  EXPECT_FALSE(identity.active());
}

}  // namespace
}  // namespace htpscope::numerics_test
