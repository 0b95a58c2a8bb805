#include "formats/npy.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include "base/errors.h"
#include "formats/tensor_test_util.h"

namespace htpscope::npy_test {
namespace {

// A headerless raw dump of `shape` × `dtype` at `path`.
TensorData RawData(const std::string& path, DType dtype, std::vector<int64_t> shape) {
  TensorData data;
  data.path = path;
  data.dtype = dtype;
  data.shape = std::move(shape);
  return data;
}

// An .npy file image: magic, version, little-endian header length, the dict
// padded with spaces to a multiple of 64 bytes and ended by '\n', then data.
std::string NpyImage(std::string_view descr, std::string_view shape_tuple, std::string_view data,
                     int major_version = 1, bool fortran_order = false) {
  std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': {}, 'shape': {}, }}", descr,
                                 fortran_order ? "True" : "False", shape_tuple);
  size_t prefix = major_version == 1 ? 10 : 12;
  size_t unpadded = prefix + dict.size() + 1;
  dict += std::string((64 - unpadded % 64) % 64, ' ') + "\n";
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major_version);
  out += '\0';
  for (size_t i = 0; i < prefix - 8; ++i) out += static_cast<char>((dict.size() >> (8 * i)) & 0xff);
  return out + dict + std::string(data);
}

template <typename T>
std::string Bytes(std::initializer_list<T> values, bool big_endian = false) {
  std::string out;
  for (T v : values) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    if (big_endian) std::reverse(b, b + sizeof(T));
    out.append(b, sizeof(T));
  }
  return out;
}

std::string WriteTemp(const std::string& name, const std::string& bytes) {
  std::string path = testing::TempDir() + "npy_test_" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// Reads every element of an .npy file through the public API.
std::vector<double> ReadAll(const std::string& path) {
  NpyHeader header = ReadNpyHeader(path);
  TensorData data = NpyTensorData(path, header);
  TensorFileReader reader("t", data);
  std::vector<double> values(reader.element_count());
  std::vector<char> scratch;
  reader.Read(0, values.size(), values.data(), scratch);
  return values;
}

std::string ErrorOf(const std::function<void()>& fn) { return testing_support::InputErrorOf(fn); }

TEST(NpyHeader, ParsesVersion1LittleEndianFloat32) {
  std::string image = NpyImage("<f4", "(2, 3)", "");
  NpyHeader h = ParseNpyHeader("a.npy", image);
  EXPECT_EQ(h.major_version, 1);
  EXPECT_EQ(h.dtype, DType::kFloat32);
  EXPECT_FALSE(h.big_endian);
  EXPECT_FALSE(h.fortran_order);
  EXPECT_EQ(h.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(h.data_offset_bytes, 128u);
}

TEST(NpyHeader, ParsesVersions2And3WithFourByteLength) {
  for (int version : {2, 3}) {
    std::string image = NpyImage("<i8", "(5,)", "", version);
    NpyHeader h = ParseNpyHeader("a.npy", image);
    EXPECT_EQ(h.major_version, version);
    EXPECT_EQ(h.dtype, DType::kInt64);
    EXPECT_EQ(h.shape, (std::vector<int64_t>{5}));
    EXPECT_EQ(h.data_offset_bytes, 128u);
  }
}

TEST(NpyHeader, AcceptsScalarEmptyAndPython2Shapes) {
  EXPECT_TRUE(ParseNpyHeader("a.npy", NpyImage("<f8", "()", "")).shape.empty());
  EXPECT_EQ(ParseNpyHeader("a.npy", NpyImage("<f8", "(0, 4)", "")).shape,
            (std::vector<int64_t>{0, 4}));
  EXPECT_EQ(ParseNpyHeader("a.npy", NpyImage("<f8", "(3L, 4L)", "")).shape,
            (std::vector<int64_t>{3, 4}));
  // Key order and quoting are free in the Python literal.
  std::string dict = "{\"shape\": (7,), \"fortran_order\": False, \"descr\": \"|u1\"}";
  std::string image = "\x93NUMPY\x01";
  image += '\0';
  image += static_cast<char>(dict.size());
  image += '\0';
  image += dict;
  NpyHeader h = ParseNpyHeader("a.npy", image);
  EXPECT_EQ(h.dtype, DType::kUInt8);
  EXPECT_EQ(h.shape, (std::vector<int64_t>{7}));
  EXPECT_EQ(h.data_offset_bytes, 10 + dict.size());
}

TEST(NpyHeader, MapsEveryDescr) {
  struct Case {
    const char* descr;
    DType dtype;
    bool big;
  };
  for (Case c : {Case{"|b1", DType::kBool, false}, Case{"|i1", DType::kInt8, false},
                 Case{"|u1", DType::kUInt8, false}, Case{">i2", DType::kInt16, true},
                 Case{"<u2", DType::kUInt16, false}, Case{"<i4", DType::kInt32, false},
                 Case{">u4", DType::kUInt32, true}, Case{"<i8", DType::kInt64, false},
                 Case{"<u8", DType::kUInt64, false}, Case{"<f2", DType::kFloat16, false},
                 Case{">f4", DType::kFloat32, true}, Case{"<f8", DType::kFloat64, false},
                 Case{"=f4", DType::kFloat32, std::endian::native == std::endian::big}}) {
    NpyHeader h = ParseNpyHeader("a.npy", NpyImage(c.descr, "(1,)", ""));
    EXPECT_EQ(h.dtype, c.dtype) << c.descr;
    EXPECT_EQ(h.big_endian, c.big) << c.descr;
  }
}

TEST(NpyHeader, FortranOrderOnlyWhenItEqualsCOrder) {
  EXPECT_TRUE(ParseNpyHeader("a.npy", NpyImage("<f4", "(1, 5)", "", 1, true)).fortran_order);
  EXPECT_NE(ErrorOf([] {
              ParseNpyHeader("a.npy", NpyImage("<f4", "(2, 3)", "", 1, true));
            }).find("Fortran-ordered array of shape [2, 3] is not supported"),
            std::string::npos);
}

TEST(NpyHeader, RejectsBadInputWithFileAndOffset) {
  EXPECT_EQ(ErrorOf([] { ParseNpyHeader("x.npy", "PK\x03\x04 not numpy"); }),
            "x.npy: at byte 0: not an .npy file (missing the \\x93NUMPY magic)");
  EXPECT_EQ(ErrorOf([] { ParseNpyHeader("x.npy", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00"); }),
            "x.npy: at byte 0: not an .npy file: it is gzip-compressed (decompress it first)");
  std::string v4 = NpyImage("<f4", "(1,)", "");
  v4[6] = 4;
  EXPECT_EQ(ErrorOf([&] { ParseNpyHeader("x.npy", v4); }),
            "x.npy: at byte 6: unsupported .npy format version 4.0 (known: 1.0, 2.0, 3.0)");
  EXPECT_NE(ErrorOf([] {
              ParseNpyHeader("x.npy", NpyImage("<c8", "(1,)", ""));
            }).find("x.npy: at byte 20: npy header: unsupported dtype descr '<c8'"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] {
              ParseNpyHeader("x.npy", NpyImage("<U4", "(1,)", ""));
            }).find("unsupported dtype descr '<U4'"),
            std::string::npos);
  std::string structured = NpyImage("<f4", "(1,)", "");
  structured.replace(structured.find("'<f4'"), 5, "[('a', '<f4')]");
  EXPECT_NE(ErrorOf([&] { ParseNpyHeader("x.npy", structured); }).find("structured"),
            std::string::npos);
  std::string image = NpyImage("<f4", "(1,)", "");
  EXPECT_EQ(ErrorOf([&] { ParseNpyHeader("x.npy", image.substr(0, 40)); }),
            "x.npy: at byte 40: file ends inside the .npy header (has 40 bytes, header needs 128)");
  std::string no_shape = "\x93NUMPY\x01";
  no_shape += '\0';
  std::string dict = "{'descr': '<f4', 'fortran_order': False}";
  no_shape += static_cast<char>(dict.size());
  no_shape += '\0';
  no_shape += dict;
  EXPECT_NE(ErrorOf([&] { ParseNpyHeader("x.npy", no_shape); }).find("'shape'"), std::string::npos);
  std::string bad_dim = NpyImage("<f4", "(2, -3)", "");
  EXPECT_NE(ErrorOf([&] {
              ParseNpyHeader("x.npy", bad_dim);
            }).find("expected a non-negative integer dimension"),
            std::string::npos);
}

TEST(NpyRead, DecodesEveryDtypeExactly) {
  auto check = [](const std::string& name, const std::string& image, std::vector<double> want) {
    std::vector<double> got = ReadAll(WriteTemp(name, image));
    ASSERT_EQ(got.size(), want.size()) << name;
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << name << " [" << i << "]";
  };
  check("bool.npy", NpyImage("|b1", "(3,)", std::string("\x00\x01\x02", 3)), {0, 1, 1});
  check("i1.npy", NpyImage("|i1", "(2,)", Bytes<int8_t>({-128, 127})), {-128, 127});
  check("u1.npy", NpyImage("|u1", "(2,)", Bytes<uint8_t>({0, 255})), {0, 255});
  check("i2.npy", NpyImage("<i2", "(2,)", Bytes<int16_t>({-32768, 300})), {-32768, 300});
  check("u2.npy", NpyImage("<u2", "(1,)", Bytes<uint16_t>({65535})), {65535});
  check("i4.npy", NpyImage("<i4", "(2,)", Bytes<int32_t>({INT32_MIN, 7})), {INT32_MIN, 7});
  check("u4.npy", NpyImage("<u4", "(1,)", Bytes<uint32_t>({4294967295u})), {4294967295.0});
  check("i8.npy", NpyImage("<i8", "(2,)", Bytes<int64_t>({-(int64_t{1} << 53), 5})),
        {-9007199254740992.0, 5});
  check("u8.npy", NpyImage("<u8", "(1,)", Bytes<uint64_t>({uint64_t{1} << 53})),
        {9007199254740992.0});
  check("f4.npy", NpyImage("<f4", "(2,)", Bytes<float>({0.1f, -2.5f})),
        {static_cast<double>(0.1f), -2.5});
  check("f8.npy", NpyImage("<f8", "(2, 1)", Bytes<double>({0.1, 1e300})), {0.1, 1e300});
}

TEST(NpyRead, DecodesBigEndianOfEveryWidth) {
  auto check = [](const std::string& name, const std::string& image, std::vector<double> want) {
    EXPECT_EQ(ReadAll(WriteTemp(name, image)), want) << name;
  };
  check("be_i2.npy", NpyImage(">i2", "(3,)", Bytes<int16_t>({1, -2, 300}, true)), {1, -2, 300});
  check("be_u4.npy", NpyImage(">u4", "(1,)", Bytes<uint32_t>({0x01020304u}, true)), {16909060.0});
  check("be_f4.npy", NpyImage(">f4", "(2,)", Bytes<float>({1.5f, -0.25f}, true)), {1.5, -0.25});
  check("be_f8.npy", NpyImage(">f8", "(1,)", Bytes<double>({-3.75}, true), 2), {-3.75});
  check("be_i8.npy", NpyImage(">i8", "(1,)", Bytes<int64_t>({-123456789012}, true), 3),
        {-123456789012.0});
}

TEST(NpyRead, DecodesFloat16IncludingSpecials) {
  // 1, -2, max half, smallest subnormal, 1/3 rounded, +inf, -inf, NaN, -0.
  std::string data =
      Bytes<uint16_t>({0x3c00, 0xc000, 0x7bff, 0x0001, 0x3555, 0x7c00, 0xfc00, 0x7e00, 0x8000});
  std::vector<double> v = ReadAll(WriteTemp("f2.npy", NpyImage("<f2", "(9,)", data)));
  EXPECT_EQ(v[0], 1.0);
  EXPECT_EQ(v[1], -2.0);
  EXPECT_EQ(v[2], 65504.0);
  EXPECT_EQ(v[3], std::ldexp(1.0, -24));
  EXPECT_EQ(v[4], 0.333251953125);
  EXPECT_EQ(v[5], std::numeric_limits<double>::infinity());
  EXPECT_EQ(v[6], -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(v[7]));
  EXPECT_EQ(v[8], 0.0);
  EXPECT_TRUE(std::signbit(v[8]));
  // Big-endian half.
  EXPECT_EQ(
      ReadAll(WriteTemp("f2be.npy", NpyImage(">f2", "(1,)", Bytes<uint16_t>({0x3c00}, true)))),
      std::vector<double>{1.0});
}

TEST(NpyRead, ReadsAnyRangeFromSeveralPlaces) {
  std::string path =
      WriteTemp("range.npy", NpyImage("<i4", "(6,)", Bytes<int32_t>({0, 1, 2, 3, 4, 5})));
  NpyHeader h = ReadNpyHeader(path);
  TensorFileReader reader("range", NpyTensorData(path, h));
  std::vector<char> scratch;
  double out[2];
  reader.Read(3, 2, out, scratch);
  EXPECT_EQ(out[0], 3);
  EXPECT_EQ(out[1], 4);
  reader.Read(0, 1, out, scratch);
  EXPECT_EQ(out[0], 0);
  TensorFileReader moved = std::move(reader);
  moved.Read(5, 1, out, scratch);
  EXPECT_EQ(out[0], 5);
}

TEST(NpyRead, TruncatedOrOversizedDataNamesTensorAndFile) {
  std::string path = WriteTemp("trunc.npy", NpyImage("<f4", "(1, 10, 10)", std::string(396, '\0')));
  NpyHeader h = ReadNpyHeader(path);
  TensorData data = NpyTensorData(path, h);
  EXPECT_EQ(ErrorOf([&] { TensorFileReader("conv__debugID_3", data); }),
            path +
                ": tensor \"conv__debugID_3\": file has 524 bytes but 128-byte header + float32 × "
                "[1, 10, 10] = 100 elements needs 528 bytes (file truncated, or dtype/shape "
                "wrong)");
  std::string raw = WriteTemp("extra.raw", std::string(8, '\0'));
  EXPECT_EQ(ErrorOf([&] { TensorFileReader("r", RawData(raw, DType::kUInt8, {7})); }),
            raw +
                ": tensor \"r\": file has 8 bytes but uint8 × [7] = 7 elements needs 7 bytes "
                "(dtype/shape wrong, or extra data at the end)");
  EXPECT_NE(ErrorOf([] {
              TensorFileReader("m", RawData("/nonexistent/m.raw", DType::kUInt8, {1}));
            }).find("/nonexistent/m.raw: tensor \"m\": cannot open"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] { ReadNpyHeader("/nonexistent/m.npy"); }).find("cannot open"),
            std::string::npos);
}

TEST(NpyDType, NamesRoundTrip) {
  for (std::string_view name : {"bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
                                "int64", "uint64", "float16", "float32", "float64"}) {
    auto dtype = DTypeFromName(name);
    ASSERT_TRUE(dtype) << name;
    EXPECT_EQ(DTypeName(*dtype), name);
  }
  EXPECT_FALSE(DTypeFromName("float8"));
  EXPECT_EQ(DTypeBytes(DType::kFloat16), 2u);
  EXPECT_TRUE(IsIntegerDType(DType::kUInt8));
  EXPECT_FALSE(IsIntegerDType(DType::kBool));
  EXPECT_FALSE(IsIntegerDType(DType::kFloat32));
  EXPECT_EQ(ElementCount({2, 3, 4}), 24u);
  EXPECT_EQ(ElementCount({}), 1u);
  EXPECT_FALSE(ElementCount({1 << 30, 1 << 30, 1 << 30}));
  EXPECT_FALSE(ElementCount({-1}));
}

}  // namespace
}  // namespace htpscope::npy_test
