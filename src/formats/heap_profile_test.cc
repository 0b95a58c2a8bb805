#include "formats/heap_profile.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <optional>
#include <string>

#include "base/corpus_test_util.h"
#include "base/errors.h"

namespace htpscope::heap_profile_test {
namespace {

using testing_support::TempDir;

bool Contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

std::optional<InputError> HeapFileError(std::string_view text) {
  try {
    ParseExecuTorchHeapFile("heap.txt", text);
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

std::string WriteFile(const std::string& dir, const std::string& name, const std::string& text) {
  std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// ExecuTorch's QnnProfiler writes "<identifier><unit suffix>, <value>\n".
constexpr char kExecuTorchFile[] =
    "DSP:before_context_created (bytes), 928212\n"
    "DSP:after_context_freed (bytes), 1060864\n";

TEST(HeapProfile, ExecuTorchHeapFile) {
  HeapCheckpoints h = ParseExecuTorchHeapFile("heap.txt", kExecuTorchFile);
  EXPECT_EQ(h.path, "heap.txt");
  EXPECT_EQ(h.format, HeapSourceFormat::kExecuTorchHeapFile);
  EXPECT_TRUE(h.warnings.empty());
  ASSERT_EQ(h.checkpoints.size(), 2u);
  EXPECT_EQ(h.checkpoints[0].kind, HeapCheckpointKind::kBeforeContextCreated);
  EXPECT_EQ(h.checkpoints[0].identifier, "DSP:before_context_created (bytes)");
  EXPECT_EQ(h.checkpoints[0].value_bytes, 928212);
  EXPECT_EQ(h.checkpoints[0].line, 1u);
  EXPECT_EQ(h.checkpoints[0].Where(), "line 1");
  EXPECT_EQ(h.checkpoints[1].kind, HeapCheckpointKind::kAfterContextFreed);
  EXPECT_EQ(h.checkpoints[1].value_bytes, 1060864);
  EXPECT_EQ(h.checkpoints[1].line, 2u);
}

TEST(HeapProfile, ExecuTorchHeapFileQuirks) {
  // BOM, CRLF, blank lines, no space after the comma, no final newline.
  HeapCheckpoints h = ParseExecuTorchHeapFile(
      "heap.txt",
      "\xEF\xBB\xBF\r\nDSP:after_context_freed (bytes),7\r\n\r\n  DSP:before_context_created "
      "(BYTES) ,  0  ");
  ASSERT_EQ(h.checkpoints.size(), 2u);
  EXPECT_EQ(h.checkpoints[0].kind, HeapCheckpointKind::kAfterContextFreed);
  EXPECT_EQ(h.checkpoints[0].value_bytes, 7);
  EXPECT_EQ(h.checkpoints[0].line, 2u);
  EXPECT_EQ(h.checkpoints[1].value_bytes, 0);
  EXPECT_EQ(h.checkpoints[1].line, 4u);
}

TEST(HeapProfile, BareIdentifierIsAWarningNotSilent) {
  HeapCheckpoints h = ParseExecuTorchHeapFile("heap.txt", "DSP:before_context_created, 5\n");
  ASSERT_EQ(h.checkpoints.size(), 1u);
  EXPECT_EQ(h.checkpoints[0].value_bytes, 5);
  ASSERT_EQ(h.warnings.size(), 1u);
  EXPECT_TRUE(Contains(h.warnings[0], "line 1:")) << h.warnings[0];
  EXPECT_TRUE(Contains(h.warnings[0], "no unit suffix")) << h.warnings[0];
}

TEST(HeapProfile, ExecuTorchHeapFileErrors) {
  struct Case {
    std::string text;
    uint64_t line;
    std::string expected;
  };
  const Case cases[] = {
      {"DSP:before_context_created (bytes), 92x8212\n", 1, "is not a whole number of bytes"},
      {"DSP:before_context_created (bytes), 1\nDSP:after_context_freed (bytes), -5\n", 2,
       "is negative"},
      {"DSP:before_context_created (bytes), 12.5\n", 1, "is not a whole number of bytes"},
      {"DSP:before_context_created (bytes), 99999999999999999999\n", 1, "overflows"},
      {"DSP:before_context_created (bytes),\n", 1, "no value after the comma"},
      {"\nDSP:during_execute (bytes), 5\n", 2, "unknown identifier"},
      // Split at the last comma: the identifier keeps its comma and is unknown.
      {"DSP:before_context_created, (bytes), 5\n", 1,
       "unknown identifier \"DSP:before_context_created, (bytes)\""},
      {"DSP:before_context_created (us), 5\n", 1, "is in \"us\""},
      {"DSP:before_context_created (bytes) 5\n", 1, "expected \"<identifier>, <value>\""},
  };
  for (const auto& c : cases) {
    std::optional<InputError> e = HeapFileError(c.text);
    ASSERT_TRUE(e) << c.text;
    EXPECT_EQ(e->file(), "heap.txt");
    EXPECT_EQ(e->line(), c.line) << c.text;
    EXPECT_TRUE(Contains(e->problem(), c.expected)) << c.text << " -> " << e->what();
  }
  std::optional<InputError> empty = HeapFileError(" \n\n");
  ASSERT_TRUE(empty);
  EXPECT_TRUE(Contains(empty->problem(), "empty file")) << empty->what();
}

// qnn-profile-viewer text: the statistics form ("Backend (...)") and the raw
// dump ("name : value  unit").
TEST(HeapProfile, FromProfileText) {
  std::string text = R"(qnn-profile-viewer: v2.45.0.1

Qnn Init/Prepare/Finalize/De-Init/Execute/Lib-Load Statistics:
------------------------------------------------------------
Init Stats:
-----------
    NetRun: 17795 us
    Backend (DSP:before_context_created): 928212  bytes
    Backend (DSP:before_context_created_total): 5  bytes
De-Init Stats:
--------------
    Backend (QNN Accelerator (deinit) time): 825 us

Printing All Data Received From Back End

Create From Binary Stats:
RPC (load binary) time : 8480  us
DSP:after_context_freed : 1003520  bytes
)";
  ProfileReport report = ParseProfileText("p.txt", text);
  HeapCheckpoints h = HeapCheckpointsFromProfile(report, text);
  EXPECT_EQ(h.format, HeapSourceFormat::kProfileText);
  // The longer identifier on line 9 is not a checkpoint.
  ASSERT_EQ(h.checkpoints.size(), 2u);
  EXPECT_EQ(h.checkpoints[0].kind, HeapCheckpointKind::kBeforeContextCreated);
  EXPECT_EQ(h.checkpoints[0].value_bytes, 928212);
  EXPECT_EQ(h.checkpoints[0].line, 8u);
  EXPECT_EQ(h.checkpoints[0].context, "Init Stats");
  EXPECT_EQ(h.checkpoints[1].kind, HeapCheckpointKind::kAfterContextFreed);
  EXPECT_EQ(h.checkpoints[1].value_bytes, 1003520);
  EXPECT_EQ(h.checkpoints[1].line, 18u);
  EXPECT_EQ(h.checkpoints[1].context, "Create From Binary Stats");
}

TEST(HeapProfile, FromProfileTextWrongUnit) {
  std::string text =
      "Init Stats:\n-----------\n    Backend (DSP:before_context_created): 928  us\n";
  ProfileReport report = ParseProfileText("p.txt", text);
  try {
    HeapCheckpointsFromProfile(report, text);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 3u);
    EXPECT_TRUE(Contains(e.problem(), "expected a value in bytes")) << e.what();
  }
}

TEST(HeapProfile, FromProfileTextNegativeIsTheReadersError) {
  std::string text = "Init Stats:\n    Backend (DSP:before_context_created): -928  bytes\n";
  try {
    ParseProfileText("p.txt", text);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2u);
    EXPECT_TRUE(Contains(e.problem(), "negative")) << e.what();
  }
}

TEST(HeapProfile, FromProfileCsv) {
  std::string text =
      "Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event Identifier\n"
      "UNKNOWN,BACKEND,928212,BYTES,BACKEND,ROOT,DSP:before_context_created\n"
      "UNKNOWN,EXECUTE,3100,US,BACKEND,ROOT,QNN accelerator (execute) time\n"
      "UNKNOWN,DE-INIT,1060864,BYTES,BACKEND,ROOT,DSP:after_context_freed\n";
  ProfileReport report = ParseProfileCsv("p.csv", text);
  HeapCheckpoints h = HeapCheckpointsFromProfile(report, text);
  EXPECT_EQ(h.format, HeapSourceFormat::kProfileCsv);
  ASSERT_EQ(h.checkpoints.size(), 2u);
  EXPECT_EQ(h.checkpoints[0].kind, HeapCheckpointKind::kBeforeContextCreated);
  EXPECT_EQ(h.checkpoints[0].value_bytes, 928212);
  EXPECT_EQ(h.checkpoints[0].line, 2u);
  EXPECT_EQ(h.checkpoints[1].kind, HeapCheckpointKind::kAfterContextFreed);
  EXPECT_EQ(h.checkpoints[1].value_bytes, 1060864);
  EXPECT_EQ(h.checkpoints[1].line, 4u);
}

// formats.md §5.4 shape, with heap events added where a profile would carry
// them (create-from-binary and deinit).  No real QNN_PROFILE file was seen.
constexpr char kQnnProfile[] = R"json({"header": {"artifact_type": "QNN_PROFILE"},
 "metadata": {"appName": "qnn-net-run", "appVersion": "v2.49.0.260730134355",
              "backendVersion": "v2.49.0.260730134355", "build": 7},
 "messages": [
  {"method": "BACKEND_CREATE_FROM_BINARY", "profilingEvents": [
    {"identifier": "RPC (load binary) time", "unit": "MICROSEC", "type": "", "value": 3104},
    {"identifier": "DSP:before_context_created", "unit": "BYTES", "type": "", "value": 928212}]},
  {"method": "BACKEND_EXECUTE", "profilingEvents": [
    {"identifier": "Accelerator (execute) time (cycles)", "unit": "CYCLES", "type": "",
     "value": 29239, "sub-events": [
       {"identifier": "Input OpId_2 (cycles)", "unit": "CYCLES", "type": "NODE", "value": 8405},
       {"identifier": "fc:OpId_17 (cycles)", "unit": "CYCLES", "type": "NODE", "value": 6137}]},
    {"identifier": "Accelerator (execute) time", "unit": "MICROSEC", "type": "", "value": 17.5}]},
  {"method": "BACKEND_DEINIT", "profilingEvents": [
    {"identifier": "DSP:after_context_freed", "unit": "BYTES", "type": "DEINIT", "value": 1003520}]}
 ]}
)json";

TEST(QnnProfileJson, ReadsTheDocumentedShape) {
  std::string text = kQnnProfile;
  QnnProfileJson p = ParseQnnProfileJson("p.json", text);
  EXPECT_EQ(p.metadata.at("appName"), "qnn-net-run");
  EXPECT_EQ(p.metadata.at("backendVersion"), "v2.49.0.260730134355");
  EXPECT_EQ(p.metadata.count("build"), 0u);  // not a string: noted, not kept
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_TRUE(Contains(p.warnings[0], "\"build\"")) << p.warnings[0];
  ASSERT_EQ(p.messages.size(), 3u);
  EXPECT_EQ(p.messages[0].method, "BACKEND_CREATE_FROM_BINARY");
  EXPECT_EQ(p.messages[1].method, "BACKEND_EXECUTE");
  EXPECT_EQ(p.messages[2].method, "BACKEND_DEINIT");
  ASSERT_EQ(p.messages[1].events.size(), 2u);
  const QnnProfileEvent& cycles = p.messages[1].events[0];
  EXPECT_EQ(cycles.identifier, "Accelerator (execute) time (cycles)");
  EXPECT_EQ(cycles.unit, "CYCLES");
  EXPECT_EQ(cycles.type, "");
  EXPECT_EQ(cycles.integer_value, 29239);
  ASSERT_EQ(cycles.sub_events.size(), 2u);
  EXPECT_EQ(cycles.sub_events[1].identifier, "fc:OpId_17 (cycles)");
  EXPECT_EQ(cycles.sub_events[1].type, "NODE");
  EXPECT_EQ(cycles.sub_events[1].integer_value, 6137);
  const QnnProfileEvent& us = p.messages[1].events[1];
  EXPECT_DOUBLE_EQ(us.value, 17.5);
  EXPECT_FALSE(us.integer_value.has_value());
  // Each event knows where its object starts.
  EXPECT_EQ(cycles.byte_offset,
            text.find("{\"identifier\": \"Accelerator (execute) time (cycles)"));
  EXPECT_EQ(cycles.sub_events[0].byte_offset, text.find("{\"identifier\": \"Input OpId_2"));

  HeapCheckpoints h = HeapCheckpointsFromQnnProfile(p);
  EXPECT_EQ(h.format, HeapSourceFormat::kQnnProfileJson);
  ASSERT_EQ(h.checkpoints.size(), 2u);
  EXPECT_EQ(h.checkpoints[0].kind, HeapCheckpointKind::kBeforeContextCreated);
  EXPECT_EQ(h.checkpoints[0].value_bytes, 928212);
  EXPECT_EQ(h.checkpoints[0].context, "messages[0] BACKEND_CREATE_FROM_BINARY");
  EXPECT_EQ(h.checkpoints[0].byte_offset,
            text.find("{\"identifier\": \"DSP:before_context_created\""));
  EXPECT_FALSE(h.checkpoints[0].line.has_value());
  EXPECT_EQ(h.checkpoints[1].kind, HeapCheckpointKind::kAfterContextFreed);
  EXPECT_EQ(h.checkpoints[1].value_bytes, 1003520);
  EXPECT_EQ(h.checkpoints[1].context, "messages[2] BACKEND_DEINIT");
}

std::optional<InputError> QnnHeapError(const std::string& json) {
  try {
    HeapCheckpointsFromQnnProfile(ParseQnnProfileJson("p.json", json));
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

TEST(QnnProfileJson, Errors) {
  auto wrap = [](const std::string& event) {
    return R"({"header": {"artifact_type": "QNN_PROFILE"}, "messages": [{"method": "M", )"
           R"("profilingEvents": [)" +
           event + "]}]}";
  };
  struct Case {
    std::string json;
    std::string expected;
  };
  const Case cases[] = {
      {R"({"header": {"artifact_type": "QHAS"}, "messages": []})", "expected \"QNN_PROFILE\""},
      {R"({"messages": []})", "no \"header\""},
      {R"({"header": {"artifact_type": "QNN_PROFILE"}})", "no \"messages\""},
      {wrap(R"({"identifier": "x", "value": "12"})"), "expected a number"},
      {wrap(R"({"identifier": "DSP:before_context_created", "unit": "MICROSEC", "value": 1})"),
       "expected \"BYTES\""},
      {wrap(R"({"identifier": "DSP:before_context_created", "unit": "BYTES", "value": -1})"),
       "negative"},
      {wrap(R"({"identifier": "DSP:after_context_freed", "unit": "BYTES", "value": 1.5})"),
       "not a whole number"},
      {wrap(R"({"identifier": "DSP:after_context_freed", "unit": "BYTES"})"), "no \"value\""},
      {wrap(R"({"identifier": "x", "value": 1)"), "JSON"},
  };
  for (const auto& c : cases) {
    std::optional<InputError> e = QnnHeapError(c.json);
    ASSERT_TRUE(e) << c.json;
    EXPECT_EQ(e->file(), "p.json");
    EXPECT_TRUE(e->byte_offset().has_value()) << e->what();
    EXPECT_TRUE(Contains(e->what(), c.expected)) << c.json << " -> " << e->what();
  }
  // The offset of a checkpoint error is its event's.
  std::string negative =
      wrap(R"({"identifier": "DSP:before_context_created", "unit": "BYTES", "value": -1})");
  EXPECT_EQ(QnnHeapError(negative)->byte_offset(), negative.find("{\"identifier\""));
}

TEST(HeapProfile, ReadRecognisesEveryFormatByContent) {
  std::string dir = TempDir("heap_profile");
  std::string heap = WriteFile(dir, "a.json", kExecuTorchFile);  // the name does not matter
  std::string csv = WriteFile(
      dir, "b.txt",
      "Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event Identifier\n"
      "UNKNOWN,BACKEND,1,BYTES,BACKEND,ROOT,DSP:before_context_created\n");
  std::string text =
      WriteFile(dir, "c.csv", "Create From Binary Stats:\nDSP:after_context_freed : 2  bytes\n");
  std::string json = WriteFile(dir, "d.log", kQnnProfile);
  std::string optrace =
      WriteFile(dir, "e.json", R"({"header": {"artifact_type": "OP_TRACE"}, "traceEvents": []})");

  HeapCheckpoints h = ReadHeapCheckpoints(heap);
  EXPECT_EQ(h.format, HeapSourceFormat::kExecuTorchHeapFile);
  EXPECT_EQ(h.checkpoints.size(), 2u);
  h = ReadHeapCheckpoints(csv);
  EXPECT_EQ(h.format, HeapSourceFormat::kProfileCsv);
  ASSERT_EQ(h.checkpoints.size(), 1u);
  EXPECT_EQ(h.checkpoints[0].value_bytes, 1);
  h = ReadHeapCheckpoints(text);
  EXPECT_EQ(h.format, HeapSourceFormat::kProfileText);
  ASSERT_EQ(h.checkpoints.size(), 1u);
  EXPECT_EQ(h.checkpoints[0].value_bytes, 2);
  EXPECT_EQ(h.checkpoints[0].line, 2u);
  h = ReadHeapCheckpoints(json);
  EXPECT_EQ(h.format, HeapSourceFormat::kQnnProfileJson);
  EXPECT_EQ(h.checkpoints.size(), 2u);
  try {
    ReadHeapCheckpoints(optrace);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_TRUE(Contains(e.problem(), "artifact type \"OP_TRACE\"")) << e.what();
  }
  EXPECT_THROW(ReadHeapCheckpoints(dir + "/absent.txt"), InputError);

  // Recognition alone says the same, without reading the checkpoints.
  EXPECT_EQ(DetectHeapSourceFormatOf(heap), HeapSourceFormat::kExecuTorchHeapFile);
  EXPECT_EQ(DetectHeapSourceFormatOf(csv), HeapSourceFormat::kProfileCsv);
  EXPECT_EQ(DetectHeapSourceFormatOf(text), HeapSourceFormat::kProfileText);
  EXPECT_EQ(DetectHeapSourceFormatOf(json), HeapSourceFormat::kQnnProfileJson);
  EXPECT_EQ(DetectHeapSourceFormatOf(optrace), std::nullopt);
  std::string type;
  EXPECT_EQ(DetectHeapSourceFormat(R"({"header": {"artifact_type": "HTP_GRAPH"}})", &type),
            std::nullopt);
  EXPECT_EQ(type, "HTP_GRAPH");
  EXPECT_THROW(DetectHeapSourceFormatOf(dir + "/absent.txt"), InputError);

  // gzip is recognised by its magic bytes.
  std::string gz = dir + "/f.txt";
  gzFile out = gzopen(gz.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  gzputs(out, kExecuTorchFile);
  gzclose(out);
  EXPECT_EQ(DetectHeapSourceFormatOf(gz), HeapSourceFormat::kExecuTorchHeapFile);
  h = ReadHeapCheckpoints(gz);
  ASSERT_EQ(h.checkpoints.size(), 2u);
  EXPECT_EQ(h.checkpoints[1].value_bytes, 1060864);
}

}  // namespace
}  // namespace htpscope::heap_profile_test
