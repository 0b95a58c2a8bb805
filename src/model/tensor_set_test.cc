#include "model/tensor_set.h"

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

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "formats/etdump_test_util.h"
#include "formats/htp_graph.h"
#include "formats/tensor_test_util.h"

namespace htpscope::tensor_set_test {
namespace {

namespace fs = std::filesystem;
using testing_support::NpyImage;

class TensorSetTest : public testing_support::ScratchDirTest {};

TEST_F(TensorSetTest, ScansNpyDirectoryInNaturalOrder) {
  for (const char* name : {"t10__debugID_10.npy", "t2__debugID_2.npy", "t1__debugID_1.npy"})
    Write(name, NpyImage("|u1", "(2,)", 2));
  Write("notes.txt", "ignored");
  TensorSet set = LoadTensorSet(dir_);
  EXPECT_FALSE(set.ordered());
  ASSERT_EQ(set.tensors.size(), 3u);
  EXPECT_EQ(set.tensors[0].name, "t1__debugID_1");
  EXPECT_EQ(set.tensors[1].name, "t2__debugID_2");
  EXPECT_EQ(set.tensors[2].name, "t10__debugID_10");
  EXPECT_EQ(set.tensors[0].layout, TensorLayout::kUnstated);
}

TEST_F(TensorSetTest, LoadsManifestFromDirectoryFileOrOverride) {
  Write("data/a.raw", std::string(8, '\0'));
  std::string json = R"({"tensors": [{"name": "a", "file": "a.raw", "dtype": "float64",
                         "shape": []}]})";
  Write("data/manifest.json", json);
  EXPECT_EQ(LoadTensorSet(dir_ + "/data").tensors[0].data.path, dir_ + "/data/a.raw");
  EXPECT_EQ(LoadTensorSet(dir_ + "/data/manifest.json").tensors[0].data.path, dir_ + "/data/a.raw");
  std::string elsewhere = Write("elsewhere.json", json);
  TensorSet set = LoadTensorSet(dir_ + "/data", elsewhere);
  EXPECT_EQ(set.manifest_path, elsewhere);
  EXPECT_EQ(set.tensors[0].data.path, dir_ + "/data/a.raw");
  std::string single = Write("x__debugID_4.npy", NpyImage("<i2", "(3,)", 6));
  TensorSet one = LoadTensorSet(single);
  ASSERT_EQ(one.tensors.size(), 1u);
  EXPECT_EQ(one.tensors[0].name, "x__debugID_4");
  EXPECT_EQ(one.tensors[0].data.dtype, DType::kInt16);
}

TEST_F(TensorSetTest, DirectoryProblemsAreClear) {
  Write("raw/a.raw", "xxxx");
  EXPECT_EQ(ErrorOf([&] { LoadTensorSet(dir_ + "/raw"); }),
            dir_ +
                "/raw: has 1 .raw files but no manifest.json; raw dumps need a manifest "
                "giving dtype and shape (see docs/numerics.md)");
  fs::create_directories(dir_ + "/empty");
  EXPECT_NE(ErrorOf([&] { LoadTensorSet(dir_ + "/empty"); }).find("has no .npy files"),
            std::string::npos);
  EXPECT_EQ(ErrorOf([&] { LoadTensorSet(dir_ + "/missing"); }), dir_ + "/missing: does not exist");
  Write("bad.npy", "not numpy at all");
  EXPECT_NE(ErrorOf([&] { LoadTensorSet(dir_); }).find("bad.npy: at byte 0: not an .npy file"),
            std::string::npos);
}

// What a path would be read from is recognised without reading it.
TEST_F(TensorSetTest, SourceOfAPathIsRecognised) {
  Write("npy/a.npy", NpyImage("|u1", "(2,)", 2));
  Write("with_manifest/manifest.json", "{}");
  std::string manifest = Write("m.json", "{}");
  std::string npy = Write("one.npy", "not even read");
  std::string dump = Write("run.bin", std::string("\0\0\0\0ED00", 8) + std::string(8, '\0'));
  std::string other = Write("notes.txt", "x");
  EXPECT_EQ(TensorSetSourceOf(dir_ + "/npy"), TensorSetSource::kNpyDirectory);
  EXPECT_EQ(TensorSetSourceOf(dir_ + "/with_manifest"), TensorSetSource::kManifest);
  EXPECT_EQ(TensorSetSourceOf(manifest), TensorSetSource::kManifest);
  EXPECT_EQ(TensorSetSourceOf(npy), TensorSetSource::kNpyFile);
  EXPECT_EQ(TensorSetSourceOf(dump), TensorSetSource::kEtdump);  // by content, not its name
  EXPECT_EQ(TensorSetSourceOf(other), std::nullopt);
  EXPECT_EQ(TensorSetSourceOf(dir_ + "/absent"), std::nullopt);
  EXPECT_STREQ(TensorSetSourceName(TensorSetSource::kNpyDirectory), "directory of .npy files");
  EXPECT_EQ(ErrorOf([&] { LoadTensorSet(other); }),
            other + ": is not a directory, a .json manifest, an .npy file or an ExecuTorch ETDump");
}

// An ETDump's tensors are in its debug buffer: without one the caller is
// told which value to give, in its own terms (an option, a keyword).
TEST_F(TensorSetTest, AnEtdumpNeedsItsDebugBuffer) {
  std::string dump = Write("run.etdp", std::string("\0\0\0\0ED00", 8) + std::string(8, '\0'));
  try {
    LoadTensorSet(dump);
    ADD_FAILURE();
  } catch (const InputNeedsValueError& e) {
    EXPECT_EQ(e.needed(), ValueRole::kEtdumpDebugBuffer);
    EXPECT_EQ(e.file(), dump);
    EXPECT_EQ(e.problem(),
              "is an ExecuTorch ETDump: its tensors are in the debug buffer the runtime wrote "
              "beside it; give it");
  }
  // Asked for its debug tensors directly, the same.
  EXPECT_THROW(LoadEtdumpTensorSet(dump, ""), InputNeedsValueError);
}

TEST(TensorSetGraphOrder, SortsNodesByCyclesStartThenTensorIndex) {
  HtpGraph graph;
  auto node = [&](uint64_t id, std::string grouping, std::optional<int64_t> start, int64_t index) {
    HtpNode n;
    n.id = id;
    n.grouping = std::move(grouping);
    if (start) n.scalar_params["cycles_start"] = ScalarParam{100, *start};
    graph.nodes[id] = n;
    graph.tensors[id] = HtpTensor{id, index, 3, 562, {1}};
  };
  node(0x10, "conv__debugID_2", 300, 0);
  node(0x11, "conv__debugID_2", 350, 1);  // second HTP node of the same QNN op
  node(0x12, "input__debugID_0", 100, 2);
  node(0x13, "relu__debugID_1", 200, 3);
  EXPECT_EQ(ExecutionOrderOps(graph),
            (std::vector<std::string>{"input__debugID_0", "relu__debugID_1", "conv__debugID_2"}));
  // Without timing for every node, tensor index order.
  graph.nodes[0x12].scalar_params.clear();
  EXPECT_EQ(ExecutionOrderOps(graph),
            (std::vector<std::string>{"conv__debugID_2", "input__debugID_0", "relu__debugID_1"}));
}

// ---- ETDump + debug buffer ---------------------------------------------

// A debug buffer under construction: tensors appended at 8-byte aligned offsets.
struct DebugBuffer {
  std::string bytes;
  template <typename T>
  int64_t Add(const std::vector<T>& values) {
    bytes.resize((bytes.size() + 7) / 8 * 8, '\0');
    int64_t offset = static_cast<int64_t>(bytes.size());
    for (T v : values) {
      char b[sizeof(T)];
      std::memcpy(b, &v, sizeof(T));
      bytes.append(b, sizeof(T));
    }
    return offset;
  }
};

// A debug event logging one tensor, in flatc's JSON form.
std::string DebugEvent(int handle, const std::string& scalar_type, const std::string& sizes,
                       int64_t offset, const std::string& strides = "") {
  return fmt::format(
      R"({{"debug_event": {{"delegate_debug_id_int": {}, "debug_entry": {{"val": "Tensor", )"
      R"("tensor": {{"scalar_type": "{}", "sizes": {}{}, "offset": {}}}}}}}}})",
      handle, scalar_type, sizes, strides.empty() ? "" : ", \"strides\": " + strides, offset);
}

std::string Etdump(const std::vector<std::string>& events) {
  std::string list;
  for (const auto& e : events) list += (list.empty() ? "" : ",\n") + e;
  return R"({"version": 0, "run_data": [{"name": "Execute", "events": [)" + list + "]}]}";
}

class EtdumpTensorSetTest : public TensorSetTest {
 protected:
  // Writes the ETDump and the debug buffer; returns the loaded set.
  TensorSet Load(const std::vector<std::string>& events, const DebugBuffer& buffer) {
    etdump_ = testing_support::WriteEtdump(dir_, "run", Etdump(events));
    buffer_ = Write("debug_output.bin", buffer.bytes);
    return LoadTensorSet(etdump_, "", buffer_);
  }
  std::vector<double> Values(const TensorEntry& t) {
    TensorReader reader(t);
    std::vector<double> out(reader.element_count());
    std::vector<char> scratch;
    reader.Read(0, out.size(), out.data(), scratch);
    return out;
  }
  std::string etdump_, buffer_;
};

// Equality that holds for NaN too.
void ExpectSameValues(const std::vector<double>& got, const std::vector<double>& want,
                      const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << what << " [" << i << "]";
    } else {
      EXPECT_EQ(got[i], want[i]) << what << " [" << i << "]";
    }
  }
}

TEST_F(EtdumpTensorSetTest, EveryScalarTypeWithAWidthDecodes) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  DebugBuffer buffer;
  struct Case {
    std::string type;
    int64_t offset;
    std::vector<double> want;
  };
  std::vector<Case> cases = {
      {"BYTE", buffer.Add<uint8_t>({0, 1, 200, 255}), {0, 1, 200, 255}},
      {"CHAR", buffer.Add<int8_t>({-128, -1, 0, 127}), {-128, -1, 0, 127}},
      {"SHORT", buffer.Add<int16_t>({-32768, -2, 3, 32767}), {-32768, -2, 3, 32767}},
      {"INT", buffer.Add<int32_t>({INT32_MIN, -5, 6, INT32_MAX}), {INT32_MIN, -5, 6, INT32_MAX}},
      {"LONG",
       buffer.Add<int64_t>({-(int64_t{1} << 53), -7, 8, int64_t{1} << 53}),
       {-9007199254740992.0, -7, 8, 9007199254740992.0}},
      {"HALF",
       buffer.Add<uint16_t>({0x3c00, 0xc000, 0x7c00, 0x0001}),
       {1, -2, kInf, std::ldexp(1.0, -24)}},
      {"FLOAT",
       buffer.Add<float>({1.5f, -2.25f, 0.0f, 1e30f}),
       {1.5, -2.25, 0, static_cast<double>(1e30f)}},
      {"DOUBLE", buffer.Add<double>({1e200, -1e-200, 0.5, 3}), {1e200, -1e-200, 0.5, 3}},
      {"BOOL", buffer.Add<uint8_t>({0, 1, 0, 2}), {0, 1, 0, 1}},
      {"QINT8", buffer.Add<int8_t>({-3, 4, -128, 127}), {-3, 4, -128, 127}},
      {"QUINT8", buffer.Add<uint8_t>({3, 4, 128, 255}), {3, 4, 128, 255}},
      {"QINT32", buffer.Add<int32_t>({-9, 10, 0, 1 << 30}), {-9, 10, 0, 1 << 30}},
      {"BFLOAT16",
       buffer.Add<uint16_t>({0x3f80, 0xc000, 0x7f80, 0x0001}),
       {1, -2, kInf, std::ldexp(1.0, -133)}},
      // 1.0, the largest finite value, Inf/NaN, the smallest subnormal.
      {"FLOAT8E5M2",
       buffer.Add<uint8_t>({0x3c, 0x7b, 0xfc, 0x01}),
       {1, 57344, -kInf, std::ldexp(1.0, -16)}},
      {"FLOAT8E4M3FN",
       buffer.Add<uint8_t>({0x38, 0x7e, 0x7f, 0x01}),
       {1, 448, kNaN, std::ldexp(1.0, -9)}},
      {"FLOAT8E5M2FNUZ",
       buffer.Add<uint8_t>({0x40, 0x7f, 0x80, 0x81}),
       {1, 57344, kNaN, -std::ldexp(1.0, -17)}},
      {"FLOAT8E4M3FNUZ",
       buffer.Add<uint8_t>({0x40, 0x7f, 0x80, 0x01}),
       {1, 240, kNaN, std::ldexp(1.0, -10)}},
      {"UINT16", buffer.Add<uint16_t>({0, 1, 65535, 300}), {0, 1, 65535, 300}},
      {"UINT32", buffer.Add<uint32_t>({0, 1, UINT32_MAX, 7}), {0, 1, 4294967295.0, 7}},
      {"UINT64",
       buffer.Add<uint64_t>({0, 1, uint64_t{1} << 63, 5}),
       {0, 1, 9223372036854775808.0, 5}},
  };
  std::vector<std::string> events;
  for (size_t i = 0; i < cases.size(); ++i)
    events.push_back(DebugEvent(static_cast<int>(i), cases[i].type, "[4]", cases[i].offset));
  TensorSet set = Load(events, buffer);
  EXPECT_EQ(set.source, TensorSetSource::kEtdump);
  EXPECT_TRUE(set.ordered());
  ASSERT_EQ(set.tensors.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(set.tensors[i].debug_handle, static_cast<int64_t>(i));
    EXPECT_EQ(set.tensors[i].output_index, 0);
    ExpectSameValues(Values(set.tensors[i]), cases[i].want, cases[i].type);
  }
}

TEST_F(EtdumpTensorSetTest, StridesAreHonouredForAnyRange) {
  DebugBuffer buffer;
  std::vector<float> ramp(64);
  for (size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<float>(i);
  int64_t base = buffer.Add(ramp);
  TensorSet set = Load({DebugEvent(0, "FLOAT", "[3, 2]", base, "[1, 3]"),         // a transpose
                        DebugEvent(1, "FLOAT", "[2, 2]", base + 4, "[6, 2]"),     // gaps
                        DebugEvent(2, "FLOAT", "[3]", base + 8, "[0]"),           // broadcast
                        DebugEvent(3, "FLOAT", "[2, 3, 4]", base, "[1, 16, 2]"),  // mixed
                        DebugEvent(4, "FLOAT", "[2, 3]", base, "[3, 1]")},        // contiguous
                       buffer);
  ASSERT_EQ(set.tensors.size(), 5u);
  EXPECT_EQ(Values(set.tensors[0]), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(Values(set.tensors[1]), (std::vector<double>{1, 3, 7, 9}));
  EXPECT_EQ(Values(set.tensors[2]), (std::vector<double>{2, 2, 2}));
  EXPECT_EQ(Values(set.tensors[4]), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  // Element [i][j][k] of the mixed one is ramp[i + 16j + 2k]; read it in
  // every window of 5 elements, so rows are entered and left mid-way.
  std::vector<double> want;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) want.push_back(i + 16 * j + 2 * k);
  TensorReader reader(set.tensors[3]);
  std::vector<char> scratch;
  for (uint64_t first = 0; first < want.size(); ++first) {
    size_t count = std::min<size_t>(5, want.size() - first);
    std::vector<double> got(count);
    reader.Read(first, count, got.data(), scratch);
    EXPECT_EQ(got, std::vector<double>(want.begin() + first, want.begin() + first + count))
        << "from element " << first;
  }
}

TEST_F(EtdumpTensorSetTest, OutputsOfOneHandleStayApart) {
  DebugBuffer buffer;
  int64_t a = buffer.Add<float>({1, 2});
  int64_t b = buffer.Add<float>({3, 4});
  int64_t c = buffer.Add<float>({5, 6});
  std::string list = fmt::format(
      R"({{"debug_event": {{"delegate_debug_id_int": 7, "debug_entry": {{"val": "TensorList", )"
      R"("tensor_list": {{"tensors": [{{"scalar_type": "FLOAT", "sizes": [2], "offset": {}}}, )"
      R"({{"scalar_type": "FLOAT", "sizes": [2], "offset": {}}}]}}}}}}}})",
      a, b);
  std::string by_name = fmt::format(
      R"({{"debug_event": {{"delegate_debug_id_str": "q::Relu", "debug_entry": {{"val": "Tensor", )"
      R"("tensor": {{"scalar_type": "FLOAT", "sizes": [2], "offset": {}}}}}}}}})",
      c);
  std::string scalar =
      R"({"debug_event": {"delegate_debug_id_int": 9, "debug_entry": {"val": "Int", "int_value": {"int_val": 1}}}})";
  TensorSet set = Load({list, DebugEvent(7, "FLOAT", "[2]", c), by_name, scalar}, buffer);
  ASSERT_EQ(set.tensors.size(), 4u);
  EXPECT_EQ(set.tensors[0].output_index, 0);
  EXPECT_EQ(set.tensors[1].output_index, 1);
  EXPECT_EQ(set.tensors[2].output_index, 2);  // a later event of the same handle
  EXPECT_EQ(set.tensors[2].debug_handle, 7);
  EXPECT_EQ(set.tensors[1].name, "debug_handle_7:1");
  EXPECT_FALSE(set.tensors[3].debug_handle);
  EXPECT_EQ(set.tensors[3].name, "q::Relu");
  EXPECT_EQ(Values(set.tensors[1]), (std::vector<double>{3, 4}));
  ASSERT_EQ(set.notes.size(), 1u);
  EXPECT_NE(set.notes[0].find("1 debug event(s) holding a scalar"), std::string::npos);
}

TEST_F(EtdumpTensorSetTest, BadTensorDescriptionsNameTheEtdumpAndTable) {
  DebugBuffer buffer;
  buffer.Add<float>({1, 2, 3, 4});  // 16 bytes
  struct Case {
    std::string event;
    std::string says;
  };
  std::vector<Case> cases = {
      {DebugEvent(0, "FLOAT", "[4]", 8), "needs debug-buffer bytes up to 24, but"},
      {DebugEvent(0, "FLOAT", "[4]", -4), "tensor offset -4 is negative"},
      {DebugEvent(0, "FLOAT", "[2, 2]", 0, "[1]"), "has 1 strides for 2 sizes"},
      {DebugEvent(0, "FLOAT", "[2]", 0, "[-1]"), "stride -1 is negative"},
      {DebugEvent(0, "FLOAT", "[2, -2]", 0), "sizes [2, -2] are negative or too large"},
      {DebugEvent(0, "FLOAT", "[2]", 0, "[4611686018427387904]"), "overflow a byte offset"},
      {DebugEvent(0, "FLOAT", "[2]", 0, "[100]"), "needs debug-buffer bytes up to 404"},
      {DebugEvent(0, "BITS16", "[2]", 0), "scalar type BITS16 has no numeric decoding"},
      {DebugEvent(0, "QUINT4X2", "[2]", 0), "scalar type QUINT4X2 has no numeric decoding"},
  };
  for (const Case& c : cases) {
    try {
      Load({c.event}, buffer);
      ADD_FAILURE() << "accepted: " << c.event;
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), etdump_) << e.what();
      EXPECT_NE(e.problem().find(c.says), std::string::npos) << e.what();
      EXPECT_NE(e.problem().find("run 'Execute' event 0"), std::string::npos) << e.what();
      ASSERT_TRUE(e.byte_offset());
      EXPECT_GT(*e.byte_offset(), 0u);
    }
  }
  EXPECT_NE(ErrorOf([&] {
              Load({DebugEvent(0, "FLOAT", "[4]", 0)}, buffer);
              LoadTensorSet(etdump_);
            }).find("debug buffer the runtime wrote beside it; give it"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              testing_support::WriteEtdump(
                  dir_, "nodebug",
                  Etdump({R"({"profile_event": {"name": "x", "start_time": 1, "end_time": 2}})"}));
              LoadTensorSet(dir_ + "/nodebug.etdp", "", buffer_);
            }).find("has no debug events"),
            std::string::npos);
}

TEST_F(TensorSetTest, DebugBufferForAnythingButAnEtdumpIsRefused) {
  std::string npy = Write("a.npy", NpyImage("<f4", "(1,)", 4));
  EXPECT_EQ(ErrorOf([&] { LoadTensorSet(npy, "", "debug_output.bin"); }),
            npy +
                ": a debug buffer (debug_output.bin) was given for it, but it is not an "
                "ExecuTorch ETDump");
  EXPECT_NE(ErrorOf([&] { LoadTensorSet(dir_, "", "debug_output.bin"); }).find("not an ExecuTorch"),
            std::string::npos);
}

TEST_F(EtdumpTensorSetTest, DebugBufferThatShrankIsAnInputError) {
  DebugBuffer buffer;
  int64_t at = buffer.Add<float>({1, 2, 3, 4});
  TensorSet set = Load({DebugEvent(0, "FLOAT", "[4]", at)}, buffer);
  Write("debug_output.bin", "short");
  std::string error = ErrorOf([&] { TensorReader reader(set.tensors[0]); });
  EXPECT_NE(error.find(buffer_ + ": at byte 5: tensor \"debug_handle_0\": float32 × [4] at byte 0 "
                                 "needs bytes up to 16 but the file has 5"),
            std::string::npos)
      << error;
}

}  // namespace
}  // namespace htpscope::tensor_set_test
