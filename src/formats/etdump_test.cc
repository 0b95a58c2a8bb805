#include "formats/etdump.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "base/test_paths.h"
#include "formats/etdump_test_util.h"

namespace htpscope::etdump_test {
namespace {

using testing_support::TempDir;
using testing_support::WriteEtdump;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::optional<InputError> ErrorOf(const std::string& path, std::string_view bytes) {
  try {
    ParseEtdump(path, bytes);
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

// One block of each event kind, every field set.
constexpr const char* kEveryEventKind = R"({
  "version": 7,
  "run_data": [
    {"name": "Default", "bundled_input_index": 2, "allocators": [{"name": "planned"}],
     "events": [
       {"allocation_event": {"allocator_id": 1, "allocation_size": 4096}},
       {"profile_event": {"name": "Method::init", "chain_index": 0, "instruction_id": 4,
                          "start_time": 100, "end_time": 350}}]},
    {"name": "Execute",
     "events": [
       {"profile_event": {"delegate_debug_id_str": "conv_0", "delegate_debug_metadata": [1, 2, 3],
                          "start_time": 0, "end_time": 9000}},
       {"profile_event": {"delegate_debug_id_int": 12, "start_time": 0, "end_time": 77}},
       {"debug_event": {"name": "aten.add", "chain_index": 0, "instruction_id": 5,
                        "delegate_debug_id_int": 3,
                        "debug_entry": {"val": "TensorList", "output": {"bool_val": true},
                                        "tensor_list": {"tensors": [
                                          {"scalar_type": "FLOAT", "sizes": [2, 3],
                                           "strides": [3, 1], "offset": 64},
                                          {"scalar_type": "QUINT8", "sizes": [4], "offset": 128}]}}}},
       {"debug_event": {"delegate_debug_id_str": "relu_1",
                        "debug_entry": {"val": "Int", "int_value": {"int_val": 5}}}}]}]
})";

TEST(EtdumpReader, ReadsEveryEventKindWrittenByFlatc) {
  std::string dir = TempDir("etdump_kinds");
  std::string path = WriteEtdump(dir, "kinds", kEveryEventKind);
  ASSERT_FALSE(path.empty());
  Etdump dump = ReadEtdump(path);
  EXPECT_EQ(dump.version, 7u);
  EXPECT_TRUE(dump.warnings.empty());
  ASSERT_EQ(dump.runs.size(), 2u);
  const EtdumpRunData& init = dump.runs[0];
  EXPECT_EQ(init.name, "Default");
  EXPECT_EQ(init.bundled_input_index, 2);
  EXPECT_EQ(init.allocators, std::vector<std::string>{"planned"});
  ASSERT_EQ(init.events.size(), 2u);
  EXPECT_EQ(init.events[0].kind, EtdumpEventKind::kAllocation);
  EXPECT_EQ(init.events[0].allocator_id, 1);
  EXPECT_EQ(init.events[0].allocation_bytes, 4096u);
  EXPECT_EQ(init.events[1].kind, EtdumpEventKind::kProfile);
  EXPECT_EQ(dump.strings.View(init.events[1].name), "Method::init");
  EXPECT_EQ(init.events[1].instruction_id, 4);
  EXPECT_EQ(init.events[1].start_ticks, 100u);
  EXPECT_EQ(init.events[1].end_ticks, 350u);
  EXPECT_EQ(init.events[1].delegate_debug_id_int, -1);  // the schema's default

  const EtdumpRunData& run = dump.runs[1];
  ASSERT_EQ(run.events.size(), 4u);
  EXPECT_EQ(dump.strings.View(run.events[0].name), "");
  EXPECT_EQ(dump.strings.View(run.events[0].delegate_debug_id_str), "conv_0");
  EXPECT_EQ(run.events[0].delegate_metadata_bytes, 3u);
  EXPECT_EQ(run.events[0].end_ticks, 9000u);
  EXPECT_EQ(run.events[1].delegate_debug_id_int, 12);
  const EtdumpEvent& debug = run.events[2];
  EXPECT_EQ(debug.kind, EtdumpEventKind::kDebug);
  EXPECT_EQ(debug.value_type, EtdumpValueType::kTensorList);
  EXPECT_TRUE(debug.program_output);
  EXPECT_EQ(debug.delegate_debug_id_int, 3);
  EXPECT_EQ(debug.instruction_id, 5);
  ASSERT_EQ(debug.tensors.size(), 2u);
  EXPECT_EQ(debug.tensors[0].scalar_type, 6);
  EXPECT_EQ(debug.tensors[0].sizes, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(debug.tensors[0].strides, (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(debug.tensors[0].offset_bytes, 64);
  EXPECT_EQ(debug.tensors[1].scalar_type, 13);
  EXPECT_TRUE(debug.tensors[1].strides.empty());
  EXPECT_GT(debug.tensors[1].table_byte, 0u);
  EXPECT_LT(debug.tensors[1].table_byte, dump.file_bytes);
  EXPECT_EQ(run.events[3].value_type, EtdumpValueType::kInt);
  EXPECT_TRUE(run.events[3].tensors.empty());
}

TEST(EtdumpReader, TutorialEtdumpNeedsSharedReference) {
  std::string path = testing_support::TutorialEtdump();
  if (path.empty()) GTEST_SKIP() << "../shared/reference/executorch absent";
  Etdump dump = ReadEtdump(path);
  ASSERT_EQ(dump.runs.size(), 2u);
  EXPECT_EQ(dump.runs[0].name, "Default");
  EXPECT_EQ(dump.runs[1].name, "Execute");
  EXPECT_EQ(dump.runs[0].events.size(), 2u);
  EXPECT_EQ(dump.runs[1].events.size(), 29u);
  // The first convolution, as `flatc --json` shows it: 426786 .. 971569.
  const EtdumpEvent& conv = dump.runs[1].events[0];
  EXPECT_EQ(dump.strings.View(conv.name), "native_call_convolution.out");
  EXPECT_EQ(conv.start_ticks, 426786u);
  EXPECT_EQ(conv.end_ticks, 971569u);
}

// The in-repo schema is ExecuTorch's, less two tables no field refers to:
// flatc decodes the tutorial's ETDump to the same JSON with either.
TEST(EtdumpReader, InRepoSchemaDecodesTheTutorialAsThePublishedOneNeedsSharedReference) {
  std::string path = testing_support::TutorialEtdump();
  std::string published = testing_support::PublishedEtdumpSchemaDir();
  if (path.empty() || published.empty()) GTEST_SKIP() << "../shared/reference/executorch absent";
  std::string dir = TempDir("etdump_schemas");
  auto decode = [&](const std::string& schema, const std::string& out) {
    std::filesystem::create_directories(dir + "/" + out);
    std::string command = std::string("'") + HTPSCOPE_FLATC + "' --json --strict-json " +
                          "--raw-binary --size-prefixed -o '" + dir + "/" + out + "' '" + schema +
                          "' -- '" + path + "'";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return Slurp(dir + "/" + out + "/etdump.json");
  };
  std::string ours = decode(testing_support::EtdumpSchema(), "ours");
  std::string theirs = decode(published + "/etdump_schema_flatcc.fbs", "published");
  EXPECT_GT(ours.size(), 1000u);
  EXPECT_NE(ours.find("native_call_convolution.out"), std::string::npos);
  EXPECT_EQ(ours, theirs);
}

TEST(EtdumpReader, RecognisesTheFramingByContent) {
  std::string framed = std::string("\x10\0\0\0\x08\0\0\0ED00", 12);
  EXPECT_TRUE(LooksLikeEtdump(framed));
  EXPECT_TRUE(LooksLikeEtdump(std::string("\x08\0\0\0ED00", 8)));  // no size prefix
  EXPECT_FALSE(LooksLikeEtdump(std::string("\x10\0\0\0\x08\0\0\0ED01", 12)));
  EXPECT_FALSE(LooksLikeEtdump("{\"traceEvents\": []}"));
  EXPECT_EQ(EtdumpScalarTypeName(6), "FLOAT");
  EXPECT_EQ(EtdumpScalarTypeName(99), "scalar type 99");
  EXPECT_EQ(EtdumpScalarTypeDType(15), DType::kBFloat16);
  EXPECT_EQ(EtdumpScalarTypeDType(13), DType::kUInt8);
  EXPECT_FALSE(EtdumpScalarTypeDType(22));  // BITS16
  EXPECT_FALSE(EtdumpScalarTypeDType(16));  // QUINT4X2
}

TEST(EtdumpReader, TruncatedAtEveryByteNamesFileAndOffset) {
  std::string dir = TempDir("etdump_cut");
  std::string whole = Slurp(WriteEtdump(dir, "kinds", kEveryEventKind));
  ASSERT_GT(whole.size(), 100u);
  for (size_t cut = 0; cut < whole.size(); ++cut) {
    std::string part = whole.substr(0, cut);
    auto error = ErrorOf("cut.etdp", part);
    ASSERT_TRUE(error) << "cut at " << cut;
    EXPECT_EQ(error->file(), "cut.etdp");
    ASSERT_TRUE(error->byte_offset()) << error->what();
    EXPECT_LE(*error->byte_offset(), part.size()) << error->what();
    if (cut >= 12) {
      EXPECT_NE(error->problem().find("truncated ETDump"), std::string::npos) << error->what();
    }
  }
}

TEST(EtdumpReader, FramingErrorsSayWhatIsWrong) {
  std::string dir = TempDir("etdump_framing");
  std::string whole = Slurp(WriteEtdump(dir, "kinds", kEveryEventKind));
  std::string wrong_id = whole;
  wrong_id[11] = '1';
  auto error = ErrorOf("x.etdp", wrong_id);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->byte_offset(), 8u);
  std::string unprefixed = whole.substr(4);
  error = ErrorOf("x.etdp", unprefixed);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->byte_offset(), 4u);
  EXPECT_NE(error->problem().find("without its size prefix"), std::string::npos);
  // Bytes after the prefixed size are ignored, with a warning.
  Etdump padded = ParseEtdump("x.etdp", whole + std::string(16, '\0'));
  ASSERT_EQ(padded.warnings.size(), 1u);
  EXPECT_NE(padded.warnings[0].find("16 bytes after"), std::string::npos);
  EXPECT_EQ(padded.runs.size(), 2u);
}

TEST(EtdumpReader, CorruptTablesArePointedAt) {
  std::string dir = TempDir("etdump_corrupt");
  std::string whole = Slurp(WriteEtdump(dir, "kinds", kEveryEventKind));
  // The root offset pointing far past the end.
  std::string bad_root = whole;
  bad_root[6] = '\x7f';
  auto error = ErrorOf("x.etdp", bad_root);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->byte_offset(), 4u);
  EXPECT_NE(error->problem().find("root table offset"), std::string::npos) << error->what();
  // Every single-byte change either still verifies or fails with a located
  // error: never a crash or an out-of-bounds read (ASan runs this too).
  size_t failures = 0;
  for (size_t i = 12; i < whole.size(); ++i) {
    for (unsigned char flip : {0xffu, 0x80u, 0x01u}) {
      std::string bytes = whole;
      bytes[i] = static_cast<char>(static_cast<unsigned char>(bytes[i]) ^ flip);
      try {
        ParseEtdump("x.etdp", bytes);
      } catch (const InputError& e) {
        ++failures;
        ASSERT_TRUE(e.byte_offset()) << e.what();
        EXPECT_LT(*e.byte_offset(), bytes.size()) << e.what();
        EXPECT_NE(e.problem().find("corrupt ETDump"), std::string::npos) << e.what();
      }
    }
  }
  EXPECT_GT(failures, 10u);
}

}  // namespace
}  // namespace htpscope::etdump_test
