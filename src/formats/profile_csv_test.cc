#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "base/errors.h"
#include "formats/artifact_kind.h"
#include "formats/profile_text.h"
#include "formats/profile_text_test_util.h"

namespace htpscope::profile_csv_test {
namespace {

using testing_support::Contains;
using testing_support::Lint;
using testing_support::NodeSum;
using testing_support::Value;

constexpr char kPath[] = "profile.csv";

std::optional<InputError> CsvError(std::string_view text) {
  return testing_support::CsvError(kPath, text);
}
void ExpectCsvError(std::string_view text, uint64_t line, std::string_view mentions) {
  testing_support::ExpectCsvError(kPath, text, line, mentions);
}
constexpr char kHeader[] =
    "Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event Identifier\n";

// Rows as ONNX Runtime's QNN EP writes them (formats.md §5.3).
constexpr char kTwoExecutions[] =
    "UNKNOWN,INIT,8480,US,BACKEND,ROOT,RPC (load binary) time\n"
    "UNKNOWN,INIT,17769,US,BACKEND,ROOT,QNN (load binary) time\n"
    "UNKNOWN,EXECUTE,4,COUNT,BACKEND,ROOT,Number of HVX threads used\n"
    "UNKNOWN,EXECUTE,3161,US,BACKEND,ROOT,RPC (execute) time\n"
    "UNKNOWN,EXECUTE,825,US,BACKEND,ROOT,QNN accelerator (execute) time\n"
    "UNKNOWN,EXECUTE,251974,CYCLES,BACKEND,ROOT,Accelerator (execute) time (cycles)\n"
    "UNKNOWN,NODE,19874,CYCLES,BACKEND,SUB-EVENT,Input OpId_2 (cycles)\n"
    "UNKNOWN,NODE,184418,CYCLES,BACKEND,SUB-EVENT,MatMul_0:OpId_25 (cycles)\n"
    "UNKNOWN,NODE,47682,CYCLES,BACKEND,SUB-EVENT,Output OpId_3 (cycles)\n"
    "UNKNOWN,EXECUTE,0,OBJECT,BACKEND,ROOT,Unknown event type\n"
    "UNKNOWN,EXECUTE,4,COUNT,BACKEND,ROOT,Number of HVX threads used\n"
    "UNKNOWN,EXECUTE,2484,US,BACKEND,ROOT,RPC (execute) time\n"
    "UNKNOWN,EXECUTE,201,US,BACKEND,ROOT,QNN accelerator (execute) time\n"
    "UNKNOWN,EXECUTE,118273,CYCLES,BACKEND,ROOT,Accelerator (execute) time (cycles)\n"
    "UNKNOWN,NODE,20324,CYCLES,BACKEND,SUB-EVENT,Input OpId_2 (cycles)\n"
    "UNKNOWN,NODE,97949,CYCLES,BACKEND,SUB-EVENT,MatMul_0:OpId_25 (cycles)\n"
    "UNKNOWN,DE-INIT,922,US,BACKEND,ROOT,RPC (deinit) time\n";

TEST(ProfileCsv, TwoExecutionsWithNodes) {
  ProfileReport r = ParseProfileCsv(kPath, std::string(kHeader) + kTwoExecutions);
  EXPECT_EQ(r.path, kPath);
  EXPECT_EQ(r.format, ProfileFormat::kCsv);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();

  ASSERT_EQ(r.statistics.size(), 2u);
  const ProfileBlock& init = r.statistics[0];
  EXPECT_EQ(init.title, "Init Stats");
  EXPECT_EQ(init.first_line, 2);  // its first row
  ASSERT_EQ(init.metrics.size(), 2u);
  EXPECT_EQ(init.metrics[0].name, "RPC (load binary) time");
  EXPECT_EQ(init.metrics[0].source, "Backend");
  EXPECT_EQ(init.metrics[0].unit, "us");
  EXPECT_EQ(init.metrics[0].value, 8480);
  EXPECT_EQ(Value(init, "QNN (load binary) time"), 17769);
  const ProfileBlock& deinit = r.statistics[1];
  EXPECT_EQ(deinit.title, "De-Init Stats");
  ASSERT_EQ(deinit.metrics.size(), 1u);
  EXPECT_EQ(deinit.metrics[0].value, 922);

  std::vector<const ProfileBlock*> ex = r.Executions();
  ASSERT_EQ(ex.size(), 2u);
  ASSERT_EQ(r.raw.size(), 2u);
  const ProfileBlock& one = *ex[0];
  EXPECT_EQ(one.title, "Execute Stat 1");
  EXPECT_EQ(one.execution, 1);
  ASSERT_EQ(one.metrics.size(), 5u);
  const ProfileMetric* threads = one.Find("Number of HVX threads used");
  ASSERT_NE(threads, nullptr);
  EXPECT_EQ(threads->value, 4);
  EXPECT_EQ(threads->unit, "count");
  EXPECT_EQ(Value(one, "RPC (execute) time"), 3161);
  EXPECT_EQ(Value(one, "QNN accelerator (execute) time"), 825);
  const ProfileMetric* cycles = one.Find("Accelerator (execute) time (cycles)");
  ASSERT_NE(cycles, nullptr);
  EXPECT_EQ(cycles->value, 251974);
  EXPECT_EQ(cycles->unit, "cycles");
  const ProfileMetric* unknown = one.Find("Unknown event type");
  ASSERT_NE(unknown, nullptr);
  EXPECT_FALSE(unknown->has_value);
  EXPECT_EQ(unknown->unit, "object");
  EXPECT_EQ(one.nodes_parent, "Accelerator (execute) time (cycles)");
  ASSERT_EQ(one.nodes.size(), 3u);
  EXPECT_EQ(one.nodes[0].label, "Input OpId_2");
  EXPECT_EQ(one.nodes[0].qnn_op_name, "Input");
  EXPECT_EQ(one.nodes[0].op_id, 2u);
  EXPECT_EQ(one.nodes[0].cycles, 19874);
  EXPECT_EQ(one.nodes[1].label, "MatMul_0:OpId_25");
  EXPECT_EQ(one.nodes[1].qnn_op_name, "MatMul_0");
  EXPECT_EQ(one.nodes[1].op_id, 25u);
  EXPECT_EQ(one.nodes[1].cycles, 184418);
  EXPECT_EQ(NodeSum(one), 251974);

  const ProfileBlock& two = *ex[1];
  EXPECT_EQ(two.title, "Execute Stat 2");
  EXPECT_EQ(two.execution, 2);
  ASSERT_EQ(two.metrics.size(), 4u);
  EXPECT_EQ(Value(two, "QNN accelerator (execute) time"), 201);
  EXPECT_EQ(Value(two, "Accelerator (execute) time (cycles)"), 118273);
  ASSERT_EQ(two.nodes.size(), 2u);
  EXPECT_EQ(NodeSum(two), 118273);
}

// `csv` (no quotes or commas inside fields) with every field quoted and
// CRLF line ends, as R's write.csv or Python's csv.QUOTE_ALL re-save it.
std::string QuoteEveryField(std::string_view csv) {
  std::string out;
  for (size_t pos = 0; pos < csv.size();) {
    const size_t end = std::min(csv.find('\n', pos), csv.size());
    std::string_view line = csv.substr(pos, end - pos);
    for (size_t at = 0; at <= line.size();) {
      const size_t comma = std::min(line.find(',', at), line.size());
      out += (at ? ",\"" : "\"") + std::string(line.substr(at, comma - at)) + "\"";
      at = comma + 1;
    }
    out += "\r\n";
    pos = end + 1;
  }
  return out;
}

TEST(ProfileCsv, EveryFieldQuotedReadsAsUnquoted) {
  const std::string plain =
      std::string("qnn-profile-viewer version, v2.47.0\n") + kHeader + kTwoExecutions;
  const std::string quoted = QuoteEveryField(plain);
  ASSERT_EQ(quoted.substr(0, 41), "\"qnn-profile-viewer version\",\" v2.47.0\"\r\n");
  EXPECT_TRUE(LooksLikeProfileCsv(quoted));
  EXPECT_EQ(DetectArtifactKindFromPrefix(quoted), ArtifactKind::kProfileCsv);
  const ProfileReport a = ParseProfileCsv(kPath, plain), b = ParseProfileCsv(kPath, quoted);
  EXPECT_EQ(b.viewer_version, "v2.47.0");
  EXPECT_EQ(b.viewer_version, a.viewer_version);
  ASSERT_EQ(b.raw.size(), 2u);
  ASSERT_EQ(b.raw.size(), a.raw.size());
  for (size_t i = 0; i < a.raw.size(); ++i) {
    ASSERT_EQ(b.raw[i].nodes.size(), a.raw[i].nodes.size());
    for (size_t j = 0; j < a.raw[i].nodes.size(); ++j) {
      EXPECT_EQ(b.raw[i].nodes[j].label, a.raw[i].nodes[j].label);
      EXPECT_EQ(b.raw[i].nodes[j].cycles, a.raw[i].nodes[j].cycles);
    }
    EXPECT_EQ(Value(b.raw[i], "QNN accelerator (execute) time"),
              Value(a.raw[i], "QNN accelerator (execute) time"));
  }
  EXPECT_EQ(NodeSum(b.raw[0]), 19874 + 184418 + 47682);
}

TEST(ProfileCsv, CommaInsideIdentifier) {
  ProfileReport r = ParseProfileCsv(
      kPath, std::string(kHeader) +
                 "UNKNOWN,EXECUTE,900,CYCLES,BACKEND,ROOT,Accelerator (execute) time (cycles)\n"
                 "UNKNOWN,NODE,600,CYCLES,BACKEND,SUB-EVENT,concat_a,b:OpId_7 (cycles)\n"
                 "UNKNOWN,NODE,300,CYCLES,BACKEND,SUB-EVENT,x, y, z:OpId_8 (cycles)\n"
                 "UNKNOWN,EXECUTE,12,US,BACKEND,ROOT,time, with a comma\n");
  ASSERT_EQ(r.raw.size(), 1u);
  const ProfileBlock& b = r.raw[0];
  ASSERT_EQ(b.nodes.size(), 2u);
  EXPECT_EQ(b.nodes[0].label, "concat_a,b:OpId_7");
  EXPECT_EQ(b.nodes[0].qnn_op_name, "concat_a,b");
  EXPECT_EQ(b.nodes[0].op_id, 7u);
  EXPECT_EQ(b.nodes[0].cycles, 600);
  EXPECT_EQ(b.nodes[1].qnn_op_name, "x, y, z");
  EXPECT_EQ(b.nodes[1].cycles, 300);
  EXPECT_EQ(Value(b, "time, with a comma"), 12);
}

TEST(ProfileCsv, RepeatedHeaderFromConcatenatedFiles) {
  // ONNX Runtime writes the header only into a new file; two of its files
  // concatenated repeat it.  Each part is a session of its own
  // (profile_csv_sessions_test.cc).
  constexpr char kRun[] =
      "UNKNOWN,INIT,100,US,BACKEND,ROOT,QNN (load binary) time\n"
      "UNKNOWN,EXECUTE,50,US,BACKEND,ROOT,QNN accelerator (execute) time\n";
  std::string text = std::string(kHeader) + kRun + kHeader + kRun;
  ProfileReport r = ParseProfileCsv(kPath, text);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(Contains(r.warnings[0], "2 inference sessions")) << r.warnings[0];
  ASSERT_EQ(r.statistics.size(), 2u);
  EXPECT_EQ(r.statistics[0].title, "Init Stats");
  EXPECT_EQ(r.statistics[0].graph_name, "session 1");
  EXPECT_EQ(r.statistics[1].title, "Init Stats");
  EXPECT_EQ(r.statistics[1].graph_name, "session 2");
  ASSERT_EQ(r.Executions().size(), 2u);
  EXPECT_EQ(r.Executions()[1]->execution, 2);
  EXPECT_EQ(r.Executions()[1]->graph_execution, 1);
  EXPECT_EQ(Value(*r.Executions()[1], "QNN accelerator (execute) time"), 50);
}

TEST(ProfileCsv, MissingHeaderAndCrlf) {
  // Rows appended by a later run to a file whose header is elsewhere.
  ProfileReport r =
      ParseProfileCsv(kPath,
                      "UNKNOWN,EXECUTE,825,US,BACKEND,ROOT,QNN accelerator (execute) time\r\n"
                      "UNKNOWN,EXECUTE,201,US,BACKEND,ROOT,QNN accelerator (execute) time\r\n"
                      "1718000000123,EXECUTE,175,US,BACKEND,ROOT,QNN accelerator (execute) time");
  std::vector<const ProfileBlock*> ex = r.Executions();
  ASSERT_EQ(ex.size(), 3u);
  EXPECT_EQ(Value(*ex[0], "QNN accelerator (execute) time"), 825);
  EXPECT_EQ(Value(*ex[1], "QNN accelerator (execute) time"), 201);
  EXPECT_EQ(Value(*ex[2], "QNN accelerator (execute) time"), 175);
}

TEST(ProfileCsv, BackendTypedRowsSplitOnRepeatedIdentifier) {
  // HTP events have backend-specific types, printed "BACKEND": executions are
  // told apart by a repeated ROOT identifier, init rows by their identifier.
  std::string text =
      "Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event "
      "Identifier,ONNX Source Ops\n"
      "0,BACKEND,8480,US,BACKEND,ROOT,RPC (load binary) time,\n";
  const int qnn_us[] = {100, 90, 80};
  for (int run = 0; run < 3; ++run) {
    text += "0,BACKEND," + std::to_string(qnn_us[run]) + ",US,BACKEND,ROOT,QNN (execute) time,\n";
    text += "0,BACKEND,1000,CYCLES,BACKEND,ROOT,Accelerator (execute) time (cycles),\n";
    text += "0,NODE,1000,CYCLES,BACKEND,SUB-EVENT,a,b:OpId_3 (cycles),/model/Add\n";
    text += "0,BACKEND,4,COUNT,BACKEND,ROOT,Number of HVX threads used,\"Add,Mul\"\n";
  }
  ProfileReport r = ParseProfileCsv(kPath, text);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  ASSERT_EQ(r.statistics.size(), 1u);
  EXPECT_EQ(r.statistics[0].title, "Init Stats");
  EXPECT_EQ(Value(r.statistics[0], "RPC (load binary) time"), 8480);
  std::vector<const ProfileBlock*> ex = r.Executions();
  ASSERT_EQ(ex.size(), 3u);
  for (int run = 0; run < 3; ++run) {
    SCOPED_TRACE(run);
    ASSERT_EQ(ex[run]->metrics.size(), 3u);
    EXPECT_EQ(Value(*ex[run], "QNN (execute) time"), qnn_us[run]);
    // The 8th column is cut at the last comma (or before a quoted field).
    EXPECT_EQ(Value(*ex[run], "Number of HVX threads used"), 4);
    ASSERT_EQ(ex[run]->nodes.size(), 1u);
    EXPECT_EQ(ex[run]->nodes[0].label, "a,b:OpId_3");
    EXPECT_EQ(ex[run]->nodes[0].cycles, 1000);
  }
}

TEST(ProfileCsv, NetRunSourceAndLintingSubEvents) {
  ProfileReport r = ParseProfileCsv(
      kPath,
      std::string(kHeader) +
          "UNKNOWN,EXECUTE,9120,US,NETRUN,ROOT,NetRun\n"
          "UNKNOWN,BACKEND,1000000,CYCLES,BACKEND,ROOT,Accelerator (critical path execute) time "
          "(cycles)\n"
          "UNKNOWN,NODE,300000,CYCLES,BACKEND,SUB-EVENT,net_conv1_Conv2D:OpId_20 (cycles)\n"
          "UNKNOWN,BACKEND,40,CYCLES,BACKEND,SUB-EVENT,Wait (Scheduler) time\n"
          "UNKNOWN,BACKEND,150000,CYCLES,BACKEND,SUB-EVENT,Overlap time\n"
          "UNKNOWN,BACKEND,40,CYCLES,BACKEND,SUB-EVENT,Overlap (wait) time\n"
          "UNKNOWN,BACKEND,7,COUNT,BACKEND,SUB-EVENT,Something else\n");
  ASSERT_EQ(r.raw.size(), 1u);
  const ProfileBlock& b = r.raw[0];
  ASSERT_EQ(b.metrics.size(), 2u);
  EXPECT_EQ(b.metrics[0].source, "NetRun");
  EXPECT_EQ(b.metrics[0].value, 9120);
  EXPECT_EQ(b.nodes_parent, "Accelerator (critical path execute) time (cycles)");
  ASSERT_EQ(b.nodes.size(), 1u);
  EXPECT_TRUE(b.nodes[0].has_lint());
  EXPECT_EQ(b.nodes[0].cycles, 300000);
  EXPECT_EQ(Lint(b.nodes[0]).wait_cycles, 40);
  EXPECT_EQ(Lint(b.nodes[0]).overlap_cycles, 150000);
  EXPECT_EQ(Lint(b.nodes[0]).overlap_wait_cycles, 40);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(Contains(r.warnings[0], "line 8:")) << r.warnings[0];
  EXPECT_TRUE(Contains(r.warnings[0], "Something else")) << r.warnings[0];
}

TEST(ProfileCsv, NonNumericValueOfUnknownUnitIsKeptWithoutValue) {
  ProfileReport r =
      ParseProfileCsv(kPath, std::string(kHeader) + "5,EXECUTE,true,BACKEND,BACKEND,ROOT,Flag\n");
  ASSERT_EQ(r.raw.size(), 1u);
  EXPECT_FALSE(r.raw[0].metrics[0].has_value);
  EXPECT_EQ(r.raw[0].metrics[0].unit, "backend");
  EXPECT_EQ(r.warnings.size(), 1u);
}

TEST(ProfileCsv, GzipInput) {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("htpscope_profile_csv_" + std::to_string(::getpid()) + ".csv.gz");
  const std::string text = std::string(kHeader) + kTwoExecutions;
  gzFile gz = gzopen(path.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  ASSERT_EQ(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  ASSERT_EQ(gzclose(gz), Z_OK);
  ProfileReport r = ReadProfileCsv(path.string());
  std::filesystem::remove(path);
  ASSERT_EQ(r.Executions().size(), 2u);
  EXPECT_EQ(Value(*r.Executions()[0], "Accelerator (execute) time (cycles)"), 251974);
  EXPECT_EQ(r.Executions()[0]->nodes.size(), 3u);
}

TEST(ProfileCsv, LooksLikeProfileCsv) {
  EXPECT_TRUE(LooksLikeProfileCsv(kHeader));
  EXPECT_TRUE(LooksLikeProfileCsv(std::string("\xEF\xBB\xBF") + kHeader));
  EXPECT_TRUE(LooksLikeProfileCsv("UNKNOWN,EXECUTE,3100,US,BACKEND,ROOT,QNN (execute) time\n"));
  EXPECT_FALSE(LooksLikeProfileCsv(""));
  EXPECT_FALSE(LooksLikeProfileCsv("a,b,c,d,e,f,g\n"));
  EXPECT_FALSE(LooksLikeProfileCsv("qnn-profile-viewer: v2.45.0\n"));
  EXPECT_FALSE(LooksLikeProfileCsv("{\"traceEvents\": []}"));
}

// ---------------------------------------------------------------------------
// Malformed inputs.

TEST(ProfileCsv, TooFewColumns) {
  ExpectCsvError(std::string(kHeader) +
                     "UNKNOWN,EXECUTE,825,US,BACKEND,ROOT,QNN accelerator (execute) time\n"
                     "UNKNOWN,EXECUTE,825,US,BACKEND\n",
                 3, "expected 7 comma-separated columns");
}

TEST(ProfileCsv, NonNumericTime) {
  ExpectCsvError(std::string(kHeader) + "UNKNOWN,EXECUTE,8x25,US,BACKEND,ROOT,RPC (execute) time\n",
                 2, "not a number");
  ExpectCsvError(std::string(kHeader) + "UNKNOWN,EXECUTE,,COUNT,BACKEND,ROOT,Threads\n", 2,
                 "expected a number of count");
  ExpectCsvError(std::string(kHeader) + "UNKNOWN,EXECUTE,-3,US,BACKEND,ROOT,RPC (execute) time\n",
                 2, "negative");
}

TEST(ProfileCsv, CyclesOverflowOrFraction) {
  ExpectCsvError(std::string(kHeader) +
                     "UNKNOWN,EXECUTE,18446744073709551615,CYCLES,BACKEND,ROOT,Accelerator "
                     "(execute) time (cycles)\n",
                 2, "overflows");
  ExpectCsvError(std::string(kHeader) +
                     "UNKNOWN,EXECUTE,10,CYCLES,BACKEND,ROOT,Accelerator (execute) time (cycles)\n"
                     "UNKNOWN,NODE,2.5,CYCLES,BACKEND,SUB-EVENT,a:OpId_1 (cycles)\n",
                 3, "whole number of cycles");
}

TEST(ProfileCsv, NodeWithoutCyclesRoot) {
  ExpectCsvError(
      std::string(kHeader) + "UNKNOWN,NODE,5,CYCLES,BACKEND,SUB-EVENT,a:OpId_1 (cycles)\n", 2,
      "no ROOT row above it");
  ExpectCsvError(std::string(kHeader) +
                     "UNKNOWN,EXECUTE,825,US,BACKEND,ROOT,QNN accelerator (execute) time\n"
                     "UNKNOWN,NODE,5,CYCLES,BACKEND,SUB-EVENT,a:OpId_1 (cycles)\n",
                 3, "which is in us");
  // A repeated header closes the blocks: the node row no longer has a root.
  ExpectCsvError(
      std::string(kHeader) +
          "UNKNOWN,EXECUTE,10,CYCLES,BACKEND,ROOT,Accelerator (execute) time (cycles)\n" + kHeader +
          "UNKNOWN,NODE,5,CYCLES,BACKEND,SUB-EVENT,a:OpId_1 (cycles)\n",
      4, "no ROOT row above it");
}

TEST(ProfileCsv, BadEventLevelOrHeader) {
  ExpectCsvError(std::string(kHeader) + "UNKNOWN,EXECUTE,5,US,BACKEND,LEAF,RPC (execute) time\n", 2,
                 "expected ROOT or SUB-EVENT");
  ExpectCsvError("Msg Timestamp,Message,Time,Unit,Source,Level,Identifier\n", 1,
                 "unexpected CSV header");
  ExpectCsvError(
      "Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event "
      "Identifier,ONNX Source Ops,Extra\n",
      1, "unexpected CSV header");
}

TEST(ProfileCsv, EmptyOrHeaderOnly) {
  for (std::string_view text : {"", "\n \n"}) {
    std::optional<InputError> e = CsvError(text);
    ASSERT_TRUE(e.has_value());
    EXPECT_TRUE(Contains(e->what(), kPath));
    EXPECT_TRUE(Contains(e->problem(), "empty file")) << e->what();
  }
  std::optional<InputError> e = CsvError(std::string(kHeader) + "\n");
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE(Contains(e->problem(), "no data rows")) << e->what();
  EXPECT_EQ(e->line(), 1u);
}

}  // namespace
}  // namespace htpscope::profile_csv_test
