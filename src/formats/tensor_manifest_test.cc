#include "formats/tensor_manifest.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "base/errors.h"
#include "formats/tensor_test_util.h"

namespace htpscope::tensor_manifest_test {
namespace {

namespace fs = std::filesystem;
using testing_support::NpyImage;

class TensorManifestTest : public testing_support::ScratchDirTest {
 protected:
  std::vector<ManifestTensor> Parse(const std::string& json) {
    std::string path = Write("manifest.json", json);
    return ParseTensorManifest(path, simdjson::padded_string(json), dir_);
  }
};

TEST_F(TensorManifestTest, ReadsRawEntryWithEveryField) {
  Write("conv__debugID_3.raw", std::string(1 * 2 * 2 * 3, '\0'));
  auto set = Parse(R"({"version": 1, "producer": "test", "tensors": [
    {"name": "conv__debugID_3", "file": "conv__debugID_3.raw", "dtype": "uint8",
     "shape": [1, 2, 2, 3], "layout": "NHWC", "byte_order": "little",
     "quantization": {"scale": 0.5, "offset": 128},
     "debug_handle": 3, "output_index": 1, "ops": ["aten.convolution.default", "relu"]}]})");
  ASSERT_EQ(set.size(), 1u);
  const ManifestTensor& t = set[0];
  EXPECT_EQ(t.name, "conv__debugID_3");
  EXPECT_EQ(t.data.path, dir_ + "/conv__debugID_3.raw");
  EXPECT_FALSE(t.is_npy);
  EXPECT_EQ(t.data.dtype, DType::kUInt8);
  EXPECT_EQ(t.data.shape, (std::vector<int64_t>{1, 2, 2, 3}));
  EXPECT_EQ(t.data.data_offset_bytes, 0u);
  EXPECT_EQ(t.layout, TensorLayout::kChannelsLast);
  EXPECT_EQ(t.layout_name, "NHWC");
  ASSERT_TRUE(t.quantization);
  EXPECT_EQ(t.quantization->scale, std::vector<double>{0.5});
  EXPECT_EQ(t.quantization->offset, std::vector<double>{128});
  EXPECT_FALSE(t.quantization->axis);
  EXPECT_EQ(t.debug_handle, 3);
  EXPECT_EQ(t.output_index, 1);
  EXPECT_EQ(t.ops, (std::vector<std::string>{"aten.convolution.default", "relu"}));
}

TEST_F(TensorManifestTest, ReadsPerAxisQuantizationAndQnnOffsetSign) {
  Write("w.raw", std::string(2 * 3 * 2, '\0'));
  auto set = Parse(R"({"tensors": [
    {"name": "w", "file": "w.raw", "dtype": "int16", "shape": [2, 3], "byte_order": "big",
     "quantization": {"axis": 1, "scale": [0.5, 0.25, 2], "qnn_offset": [-1, 0, 3]}}]})");
  const ManifestTensor& t = set[0];
  EXPECT_TRUE(t.data.big_endian);
  ASSERT_TRUE(t.quantization);
  EXPECT_EQ(t.quantization->axis, 1);
  EXPECT_EQ(t.quantization->scale, (std::vector<double>{0.5, 0.25, 2}));
  // QNN: real = (q + qnn_offset) * scale, so the zero point is -qnn_offset.
  EXPECT_EQ(t.quantization->offset, (std::vector<double>{1, 0, -3}));
}

TEST_F(TensorManifestTest, DefaultsFileToNameDotRawAndOffsetToZero) {
  Write("out_0.raw", std::string(4, '\0'));
  auto set = Parse(R"({"tensors": [{"name": "out_0", "dtype": "int8", "shape": [4],
                            "quantization": {"scale": 0.1}, "layout": null}]})");
  EXPECT_EQ(set[0].data.path, dir_ + "/out_0.raw");
  EXPECT_EQ(set[0].quantization->offset, std::vector<double>{0});
  EXPECT_EQ(set[0].layout, TensorLayout::kNone);
}

TEST_F(TensorManifestTest, NpyEntryTakesDtypeAndShapeFromItsHeader) {
  Write("ref.npy", NpyImage("<f4", "(1, 3, 2, 2)", 48));
  auto set = Parse(R"({"tensors": [{"name": "r__debugID_1", "file": "ref.npy",
                            "layout": "NCHW"}]})");
  const ManifestTensor& t = set[0];
  EXPECT_TRUE(t.is_npy);
  EXPECT_EQ(t.data.dtype, DType::kFloat32);
  EXPECT_EQ(t.data.shape, (std::vector<int64_t>{1, 3, 2, 2}));
  EXPECT_EQ(t.data.data_offset_bytes, 128u);
  EXPECT_EQ(t.layout, TensorLayout::kChannelsFirst);
  EXPECT_NE(ErrorOf([&] {
              Parse(R"({"tensors": [{"name": "r", "file": "ref.npy", "dtype": "float16"}]})");
            })
                .find("tensors[0] \"r\": manifest says dtype float16 but " + dir_ +
                      "/ref.npy holds float32"),
            std::string::npos);
}

TEST_F(TensorManifestTest, BadJsonNamesFileAndByteOffset) {
  std::string json = R"({"tensors": [{"name": "a", "dtype": "uint8", "shape": [1,)";
  std::string error = ErrorOf([&] { Parse(json); });
  EXPECT_EQ(error.rfind(dir_ + "/manifest.json: at byte ", 0), 0u) << error;
  std::string no_comma = R"({"tensors": [{"name": "a" "dtype": "uint8"}]})";
  EXPECT_EQ(ErrorOf([&] { Parse(no_comma); }),
            dir_ + "/manifest.json: at byte 26: tensors[0] (malformed or truncated JSON)");
  // {"tensors": [{"name": "a", "quantization": {"axis": "x"}}]}: "x" starts at byte 52.
  EXPECT_EQ(
      ErrorOf([&] { Parse(R"({"tensors": [{"name": "a", "quantization": {"axis": "x"}}]})"); }),
      dir_ +
          "/manifest.json: at byte 52: tensors[0].quantization.axis: expected an integer "
          "(malformed number)");
  std::string not_object = "[1, 2]";
  EXPECT_NE(ErrorOf([&] { Parse(not_object); }).find("manifest.json: at byte 0"),
            std::string::npos);
  EXPECT_EQ(ErrorOf([&] { Parse(R"({"tensors": [{"name": "a", "shape": [1, "x"]}]})"); }),
            dir_ +
                "/manifest.json: at byte 40: tensors[0].shape[]: expected an integer "
                "(malformed number)");
  EXPECT_EQ(ErrorOf([&] { Parse(R"({"version": 2, "tensors": []})"); }),
            dir_ + "/manifest.json: at byte 13: manifest version 2 is not supported (known: 1)");
  EXPECT_EQ(ErrorOf([&] { Parse(R"({"tensor": []})"); }),
            dir_ +
                "/manifest.json: at byte 0: manifest has no \"tensors\" array (see "
                "docs/numerics.md)");
}

TEST_F(TensorManifestTest, SemanticErrorsNameTheTensor) {
  Write("a.raw", std::string(4, '\0'));
  auto error = [&](const std::string& entry) {
    return ErrorOf([&] { Parse(R"({"tensors": [)" + entry + "]}"); });
  };
  std::string at = dir_ + "/manifest.json: at byte 13: tensors[0] \"a\": ";
  EXPECT_EQ(error(R"({"name": "a", "file": "a.raw", "dtype": "float8", "shape": [4]})"),
            at + "dtype \"float8\" is not known (known: bool, int8, uint8, int16, uint16, int32, "
                 "uint32, int64, uint64, float16, float32, float64, bfloat16, float8_e5m2, "
                 "float8_e4m3fn, float8_e5m2fnuz, float8_e4m3fnuz)");
  EXPECT_EQ(error(R"({"name": "a", "file": "a.raw", "shape": [4]})"),
            at + "a raw file needs \"dtype\"");
  EXPECT_EQ(error(R"({"name": "a", "file": "a.raw", "dtype": "uint8"})"),
            at + "a raw file needs \"shape\"");
  EXPECT_EQ(error(R"({"name": "a", "file": "a.raw", "dtype": "uint8", "shape": [2, 2],
                      "layout": "NHWC"})"),
            at + "layout NHWC needs 4 dimensions but the shape [2, 2] has 2");
  EXPECT_EQ(error(R"({"name": "a", "file": "a.raw", "dtype": "uint8", "shape": [2, 2],
                      "quantization": {"axis": 1, "scale": [1, 2, 3], "offset": [0, 0, 0]}})"),
            at + "quantization has 3 scales but axis 1 of shape [2, 2] has 2 entries");
  EXPECT_EQ(error(R"({"name": "a", "file": "a.raw", "dtype": "uint8", "shape": [4],
                      "quantization": {"scale": 0}})"),
            at + "quantization scale 0 is not > 0");
  EXPECT_EQ(error(R"({"name": "a", "file": "a.raw", "dtype": "float32", "shape": [1],
                      "quantization": {"scale": 1}})"),
            at + "quantization given for a float32 tensor; only integer tensors are dequantized");
  EXPECT_EQ(error(R"({"name": "a", "file": "gone.raw", "dtype": "uint8", "shape": [4]})"),
            at + "file " + dir_ + "/gone.raw does not exist");
  EXPECT_EQ(error(R"({"name": "a", "file": "a.raw", "dtype": "float32", "shape": [1, 10, 10]})"),
            dir_ +
                "/a.raw: tensor \"a\": file has 4 bytes but float32 × [1, 10, 10] = 100 "
                "elements needs 400 bytes (file truncated, or dtype/shape wrong)");
  EXPECT_NE(error(R"({"name": "a", "file": "a.raw", "dtype": "uint8", "shape": [4],
                      "quantization": {"sacle": 1}})")
                .find("unknown key \"quantization.sacle\""),
            std::string::npos);
  EXPECT_NE(error(R"({"name": "a", "file": "a.raw", "dtype": "uint8", "shape": [4],
                      "layuot": "NHWC"})")
                .find("tensors[0]: unknown key \"layuot\""),
            std::string::npos);
  EXPECT_NE(error(R"({"name": "a", "file": "a.raw", "dtype": "uint8", "shape": [4],
                      "layout": "HWC"})")
                .find("layout \"HWC\" is not known"),
            std::string::npos);
  std::string dup = ErrorOf([&] {
    Parse(R"({"tensors": [{"name": "a", "dtype": "uint8", "shape": [4]},
                          {"name": "a", "dtype": "uint8", "shape": [4]}]})");
  });
  EXPECT_NE(dup.find("tensors[1] \"a\": name already used by tensors[0]"), std::string::npos);
}

TEST(TensorManifestNaturalOrder, ComparesDigitRunsAsNumbers) {
  EXPECT_TRUE(NaturalLess("t2", "t10"));
  EXPECT_FALSE(NaturalLess("t10", "t2"));
  EXPECT_TRUE(NaturalLess("a", "b"));
  EXPECT_TRUE(NaturalLess("x_9_out", "x_10_out"));
  EXPECT_TRUE(NaturalLess("t", "t0"));
  EXPECT_FALSE(NaturalLess("t1", "t1"));
  EXPECT_TRUE(NaturalLess("t01", "t1"));  // equal numbers: plain order breaks the tie
  EXPECT_EQ(ParseTensorLayout("NCDHW"), TensorLayout::kChannelsFirst);
  EXPECT_EQ(ParseTensorLayout("NWC"), TensorLayout::kChannelsLast);
  EXPECT_FALSE(ParseTensorLayout("nhwc"));
}

}  // namespace
}  // namespace htpscope::tensor_manifest_test
