// ONNX Runtime's QNN EP CSV: several inference sessions appended to one
// file, and the "ONNX Source Ops" column kept per node.
//
// src/formats/testdata/ort_qnn_ep_sessions.csv is written the way ONNX
// Runtime's profile Serializer writes (qnn_profile_serializer.cc,
// docs/profile-readers.md): CRLF line ends (a text-mode std::ofstream on
// Windows), the 8-column header once at the top, every row ending with its
// source-op cell (empty for ROOT rows and for ops without a trace entry).
//  * session 1 (lines 2-31): load binary, 2 executions;
//  * session 2 (lines 32-74): appended with no header (as ONNX Runtime
//    does), load binary, 3 executions;
//  * session 3 (lines 75-105): a second file, written without framework op
//    tracing (7-column header), concatenated: finalize with two stages, 2
//    executions.
// Per execution the ops are Input, the stem's Conv (fused with its Relu),
// layer1's Conv and Add, a Convert made of a DequantizeLinear and a
// QuantizeLinear, the head's Gemm (MatMul + Add) and Output; their cycles
// are listed in the test below, read off the file.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/artifact_kind.h"
#include "formats/linting_example_test_util.h"
#include "formats/profile_text.h"
#include "formats/profile_text_test_util.h"

namespace htpscope::profile_csv_sessions_test {
namespace {

using testing_support::Contains;
using testing_support::NodeSum;
using testing_support::ProfileTestdata;
using testing_support::Value;

class OrtSessionsCsv : public ::testing::Test {
 protected:
  void SetUp() override { r_ = ReadProfileCsv(ProfileTestdata("ort_qnn_ep_sessions.csv")); }
  ProfileReport r_;
};

TEST_F(OrtSessionsCsv, RecognisedByContent) {
  EXPECT_EQ(DetectArtifactKind(ProfileTestdata("ort_qnn_ep_sessions.csv")),
            ArtifactKind::kProfileCsv);
}

TEST_F(OrtSessionsCsv, OneWarningCountsTheSessions) {
  ASSERT_EQ(r_.warnings.size(), 1u);
  const std::string& w = r_.warnings[0];
  EXPECT_TRUE(Contains(w, "line 32:")) << w;
  EXPECT_TRUE(Contains(w, "3 inference sessions")) << w;
  EXPECT_TRUE(Contains(w, "\"session 1\" .. \"session 3\"")) << w;
  EXPECT_TRUE(Contains(w, "lines 32, 75")) << w;
}

TEST_F(OrtSessionsCsv, EachSessionIsAGraphWithItsOwnExecutions) {
  std::vector<ProfileGraph> graphs = r_.Graphs();
  ASSERT_EQ(graphs.size(), 3u);
  const char* names[] = {"session 1", "session 2", "session 3"};
  const size_t executions[] = {2, 3, 2};
  // The phase blocks of each session: Init Stats (load binary) for 1 and 2,
  // Finalize Stats for 3.
  const char* statistics[] = {"Init Stats", "Init Stats", "Finalize Stats"};
  int execution = 0;
  for (size_t g = 0; g < graphs.size(); ++g) {
    SCOPED_TRACE(g);
    EXPECT_FALSE(graphs[g].index.has_value());
    EXPECT_EQ(graphs[g].name, names[g]);
    ASSERT_EQ(graphs[g].executions.size(), executions[g]);
    for (size_t i = 0; i < executions[g]; ++i) {
      const ProfileBlock& b = *graphs[g].executions[i];
      EXPECT_EQ(b.graph_execution, static_cast<int>(i) + 1);  // the session's first is cold
      EXPECT_EQ(b.execution, ++execution);                    // the file's count goes on
      EXPECT_EQ(b.graph_name, names[g]);
      EXPECT_EQ(b.graph, names[g]);
    }
    ASSERT_EQ(graphs[g].statistics.size(), 1u);
    EXPECT_EQ(graphs[g].statistics[0]->title, statistics[g]);
  }
  EXPECT_EQ(execution, 7);
  EXPECT_EQ(Value(*graphs[0].statistics[0], "QNN (load binary) time"), 41000);
  EXPECT_EQ(Value(*graphs[1].statistics[0], "QNN (load binary) time"), 41001);
  const ProfileBlock& finalize = *graphs[2].statistics[0];
  EXPECT_EQ(Value(finalize, "QNN (finalize) time"), 152000);
  const ProfileMetric* stage = finalize.Find("VTCM Allocation");
  ASSERT_NE(stage, nullptr);
  EXPECT_EQ(stage->value, 9000);
  EXPECT_EQ(finalize.metrics[static_cast<size_t>(stage->parent)].name, "QNN (finalize) time");
}

TEST_F(OrtSessionsCsv, ExecutionFiguresAndNodesPerSession) {
  // Per execution, the cycles of the 7 ops in order (read off the file).
  const std::vector<std::vector<int64_t>> cycles = {
      {1000, 50000, 80000, 6000, 4000, 20000, 2000}, {900, 40000, 70000, 5000, 3000, 18000, 1100},
      {1200, 60000, 90000, 7000, 5000, 25000, 1800}, {800, 41000, 72000, 5200, 3100, 17000, 900},
      {820, 43000, 74000, 5400, 3300, 19000, 480},   {1100, 55000, 85000, 6500, 4500, 22000, 900},
      {700, 39000, 69000, 4900, 2900, 16500, 1000}};
  const int session_of[] = {0, 0, 1, 1, 1, 2, 2};
  const int within[] = {0, 1, 0, 1, 2, 0, 1};
  std::vector<const ProfileBlock*> ex = r_.Executions();
  ASSERT_EQ(ex.size(), 7u);
  for (size_t i = 0; i < ex.size(); ++i) {
    SCOPED_TRACE(i);
    const ProfileBlock& b = *ex[i];
    ASSERT_EQ(b.nodes.size(), 7u);
    int64_t sum = 0;
    for (size_t n = 0; n < 7; ++n) {
      EXPECT_EQ(b.nodes[n].cycles, cycles[i][n]);
      sum += cycles[i][n];
    }
    EXPECT_EQ(NodeSum(b), sum);
    EXPECT_EQ(Value(b, "Accelerator (execute) time (cycles)"), sum);
    // RPC (execute) time = 2000 + 100 × session + the execution's index in it.
    EXPECT_EQ(Value(b, "RPC (execute) time"), 2000 + 100 * session_of[i] + within[i]);
    EXPECT_EQ(Value(b, "QNN (execute) time"), 2400 + 100 * session_of[i] + within[i]);
  }
  EXPECT_EQ(ex[0]->timestamp_us, 7110015u);  // its first row, "Number of HVX threads used"
}

TEST_F(OrtSessionsCsv, SourceOpsKeptPerNode) {
  std::vector<const ProfileBlock*> ex = r_.Executions();
  ASSERT_EQ(ex.size(), 7u);
  const char* sources[] = {"",
                           "/stem/conv/Conv;/stem/relu/Relu",
                           "/layer1/block.0/conv/Conv",
                           "/layer1/block.0/Add",
                           "/layer1/block.0/DequantizeLinear;/layer1/block.0/QuantizeLinear",
                           "/head/fc/MatMul;/head/fc/Add",
                           ""};
  for (size_t i = 0; i < 5; ++i) {  // sessions 1 and 2: the 8-column header
    for (size_t n = 0; n < 7; ++n) {
      SCOPED_TRACE(testing::Message() << i << " " << n);
      const ProfileNode& node = ex[i]->nodes[n];
      ASSERT_TRUE(static_cast<bool>(node.source_ops));
      // The cell, without the CR of the line end.
      EXPECT_EQ(node.source_ops.ValueOrEmpty(), sources[n]);
    }
  }
  EXPECT_EQ(ex[0]->nodes[1].label, "/stem/conv/Conv_token_1:OpId_10");
  EXPECT_EQ(ex[0]->nodes[1].qnn_op_name, "/stem/conv/Conv_token_1");
  EXPECT_EQ(ex[0]->nodes[1].op_id, 10u);
  // Session 3 came from a file without the column: no source ops at all.
  for (size_t i = 5; i < 7; ++i)
    for (const ProfileNode& node : ex[i]->nodes) EXPECT_FALSE(node.source_ops) << node.label;
}

// The rules on small inputs, each written as ONNX Runtime writes it.
constexpr char kPath[] = "profile.csv";
constexpr char kHeader7[] =
    "Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event Identifier\n";
constexpr char kLoad[] = "UNKNOWN,BACKEND,100,US,BACKEND,ROOT,QNN (load binary) time\n";
std::string Execution(int qnn_us) {
  return "UNKNOWN,BACKEND," + std::to_string(qnn_us) +
         ",US,BACKEND,ROOT,QNN accelerator (execute) time\n"
         "UNKNOWN,EXECUTE,9,US,BACKEND,ROOT,QNN (execute) time\n";
}

TEST(OrtSessions, OneSessionStaysUnnamedAndSilent) {
  ProfileReport r =
      ParseProfileCsv(kPath, std::string(kHeader7) + kLoad + Execution(50) + Execution(40));
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  std::vector<ProfileGraph> graphs = r.Graphs();
  ASSERT_EQ(graphs.size(), 1u);
  EXPECT_EQ(graphs[0].name, "");
  EXPECT_EQ(graphs[0].executions.size(), 2u);
  EXPECT_EQ(r.statistics[0].graph_name, "");
}

TEST(OrtSessions, InitRowsOfSeveralGraphsBeforeTheFirstExecutionAreOneSession) {
  // Two QNN graphs of one session: both finalized at session creation, then
  // run; a De-Init at the end does not start a session either.
  ProfileReport r =
      ParseProfileCsv(kPath, std::string(kHeader7) +
                                 "UNKNOWN,FINALIZE,700,US,BACKEND,ROOT,QNN (finalize) time\n"
                                 "UNKNOWN,FINALIZE,800,US,BACKEND,ROOT,QNN (finalize) time\n" +
                                 Execution(50) + Execution(40) +
                                 "UNKNOWN,BACKEND,30,US,BACKEND,ROOT,QNN (deinit) time\n");
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  ASSERT_EQ(r.Graphs().size(), 1u);
  EXPECT_EQ(r.Executions().size(), 2u);
}

TEST(OrtSessions, AppendedSessionWithoutHeaderStartsAtItsLoadRow) {
  ProfileReport r = ParseProfileCsv(
      kPath, std::string(kHeader7) + kLoad + Execution(50) + Execution(40) + kLoad + Execution(60));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(Contains(r.warnings[0], "line 7:")) << r.warnings[0];  // the second load row
  EXPECT_TRUE(Contains(r.warnings[0], "2 inference sessions")) << r.warnings[0];
  std::vector<ProfileGraph> graphs = r.Graphs();
  ASSERT_EQ(graphs.size(), 2u);
  EXPECT_EQ(graphs[0].name, "session 1");
  ASSERT_EQ(graphs[0].executions.size(), 2u);
  EXPECT_EQ(Value(*graphs[0].executions[1], "QNN accelerator (execute) time"), 40);
  EXPECT_EQ(graphs[1].name, "session 2");
  ASSERT_EQ(graphs[1].executions.size(), 1u);
  EXPECT_EQ(graphs[1].executions[0]->graph_execution, 1);
  EXPECT_EQ(Value(*graphs[1].executions[0], "QNN accelerator (execute) time"), 60);
  EXPECT_EQ(graphs[1].executions[0]->first_line, 8);
}

TEST(OrtSessions, MidFileHeaderStartsASession) {
  // Two files concatenated (`cat a.csv b.csv`): each has its header.
  ProfileReport r = ParseProfileCsv(
      kPath, std::string(kHeader7) + Execution(50) + kHeader7 + Execution(60) + Execution(55));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(Contains(r.warnings[0], "line 4:")) << r.warnings[0];
  std::vector<ProfileGraph> graphs = r.Graphs();
  ASSERT_EQ(graphs.size(), 2u);
  EXPECT_EQ(graphs[0].executions.size(), 1u);
  EXPECT_EQ(graphs[1].executions.size(), 2u);
  EXPECT_EQ(graphs[1].name, "session 2");
}

TEST(OrtSessions, ViewerLayoutIsNeverSplitIntoSessions) {
  // qnn-profile-viewer's CSV names its graphs (NETRUN rows): two profiles
  // concatenated keep their graph names and no session is made up.
  const std::string viewer =
      "qnn-profile-viewer version, v2.47.0\n"
      "Msg Timestamp, Message, Time, Unit of Measurement, Timing Source, Event Level, Event "
      "Identifier\n"
      "1, INIT, 100, US, BACKEND, ROOT, QNN (load binary) time\n"
      "2, EXECUTE, 40, US, NETRUN, ROOT, Graph 0: g\n"
      "2, EXECUTE, 30, US, BACKEND, ROOT, QNN accelerator (execute) time\n";
  ProfileReport r = ParseProfileCsv(kPath, viewer + viewer);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  std::vector<ProfileGraph> graphs = r.Graphs();
  ASSERT_EQ(graphs.size(), 1u);
  EXPECT_EQ(graphs[0].name, "g");
  EXPECT_EQ(graphs[0].executions.size(), 2u);
}

TEST(OrtSessions, SourceOpsCellOfEveryShape) {
  ProfileReport r = ParseProfileCsv(
      kPath,
      "Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event "
      "Identifier,ONNX Source Ops\r\n"
      "5,BACKEND,900,CYCLES,BACKEND,ROOT,Accelerator (execute) time (cycles),\r\n"
      "6,NODE,100,CYCLES,BACKEND,SUB-EVENT,add_node:OpId_17 (cycles),onnx_add_a;onnx_add_b\r\n"
      "7,NODE,200,CYCLES,BACKEND,SUB-EVENT,only_tensor:OpId_18 (cycles),\r\n"
      "8,NODE,300,CYCLES,BACKEND,SUB-EVENT,a,b:OpId_19 (cycles),\"Concat,1;Mul\"\r\n"
      "9,NODE,250,CYCLES,BACKEND,SUB-EVENT,short:OpId_20 (cycles)\r\n");
  ASSERT_EQ(r.raw.size(), 1u);
  const std::vector<ProfileNode>& n = r.raw[0].nodes;
  ASSERT_EQ(n.size(), 4u);
  EXPECT_EQ(n[0].qnn_op_name, "add_node");
  EXPECT_EQ(n[0].source_ops.ValueOrEmpty(), "onnx_add_a;onnx_add_b");
  ASSERT_TRUE(static_cast<bool>(n[1].source_ops));  // the column is there, the cell empty
  EXPECT_EQ(n[1].source_ops.ValueOrEmpty(), "");
  EXPECT_EQ(n[2].label, "a,b:OpId_19");  // an identifier with a comma, a quoted list
  EXPECT_EQ(n[2].source_ops.ValueOrEmpty(), "Concat,1;Mul");
  EXPECT_FALSE(n[3].source_ops);  // a row without the cell: none, with a warning
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(Contains(r.warnings[0], "line 6:")) << r.warnings[0];
  EXPECT_TRUE(Contains(r.warnings[0], "no \"ONNX Source Ops\" column")) << r.warnings[0];
}

}  // namespace
}  // namespace htpscope::profile_csv_sessions_test
