// The profile CSV reader on whole files in each real layout: the QAIRT 2.47
// viewer's linting CSV of two graphs and ONNX Runtime's QNN EP CSV
// (src/formats/testdata/, described in linting_example_test_util.h).  The
// expected figures are read off those files by hand.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "formats/artifact_kind.h"
#include "formats/heap_profile.h"
#include "formats/linting_example_test_util.h"
#include "formats/profile_text.h"
#include "formats/profile_text_test_util.h"

namespace htpscope::profile_csv_layouts_test {
namespace {

using testing_support::Lint;
using testing_support::NodeSum;
using testing_support::ProfileTestdata;
using testing_support::Value;
using testing_support::WaitSum;

const ProfileNode& Node(const ProfileBlock& block, std::string_view label) {
  if (const ProfileNode* n = testing_support::FindNode(block, label)) return *n;
  ADD_FAILURE() << label << " missing from " << block.title;
  static const ProfileNode kNone;
  return kNone;
}

// ---------------------------------------------------------------------------
// QAIRT 2.47 linting CSV: graph 0 "model.prefill" runs twice, graph 1
// "model.decode" three times, in the order prefill, decode, decode, prefill,
// decode.  Critical paths (cycles): prefill 20,000,000 then 17,000,000; decode
// 4,000,000, 3,500,000, 3,400,000; each = Σ op cycles + Σ waits.

class Qairt247Csv : public ::testing::Test {
 protected:
  void SetUp() override { r_ = ReadProfileCsv(ProfileTestdata("qairt247_linting_two_graphs.csv")); }
  ProfileReport r_;
};

TEST_F(Qairt247Csv, RecognisedByContent) {
  EXPECT_EQ(DetectArtifactKind(ProfileTestdata("qairt247_linting_two_graphs.csv")),
            ArtifactKind::kProfileCsv);
}

TEST_F(Qairt247Csv, PreambleAndVersions) {
  EXPECT_TRUE(r_.warnings.empty()) << r_.warnings.front();
  EXPECT_EQ(r_.format, ProfileFormat::kCsv);
  EXPECT_EQ(r_.viewer_version, "v2.47.0.260601114230");
  EXPECT_EQ(r_.application_version, "v2.47.0.260601114230");
  EXPECT_EQ(r_.backend_version, "v2.47.0.260601114230");
  ASSERT_EQ(r_.header.size(), 4u);
  EXPECT_EQ(r_.header[0].key, "input log file location");
  EXPECT_EQ(r_.header[0].value, "./qnn-profiling-data.log");
  EXPECT_EQ(r_.header[0].line, 1);
  EXPECT_EQ(r_.header[3].key, "Backend version");
  EXPECT_EQ(r_.header[3].line, 4);
}

TEST_F(Qairt247Csv, StatisticsBlocks) {
  ASSERT_EQ(r_.statistics.size(), 2u);
  const ProfileBlock& init = r_.statistics[0];
  EXPECT_EQ(init.title, "Init Stats");
  EXPECT_EQ(init.first_line, 6);
  ASSERT_EQ(init.metrics.size(), 3u);
  EXPECT_EQ(init.metrics[0].name, "NetRun");  // identifier "null"
  EXPECT_EQ(init.metrics[0].source, "NetRun");
  EXPECT_EQ(init.metrics[0].value, 251000);
  EXPECT_EQ(Value(init, "QNN (load binary) time"), 238000);
  EXPECT_EQ(init.timestamp_us, 0u);
  const ProfileBlock& deinit = r_.statistics[1];
  EXPECT_EQ(deinit.title, "De-Init Stats");
  EXPECT_EQ(Value(deinit, "NetRun"), 4100);
  EXPECT_EQ(Value(deinit, "RPC (deinit) time"), 900);
  EXPECT_EQ(deinit.timestamp_us, 81280000u);
  EXPECT_FALSE(deinit.graph_index.has_value());
}

TEST_F(Qairt247Csv, ExecutionsKnowTheirGraph) {
  ASSERT_EQ(r_.raw.size(), 5u);
  struct Expected {
    int index;
    const char* name;
    int graph_execution;
    uint64_t timestamp_us;
    int first_line;
    double netrun_us;
  };
  const Expected expected[] = {{0, "model.prefill", 1, 81234567, 9, 15000},
                               {1, "model.decode", 1, 81250100, 42, 3600},
                               {1, "model.decode", 2, 81254200, 68, 3200},
                               {0, "model.prefill", 2, 81258000, 94, 13100},
                               {1, "model.decode", 3, 81272300, 127, 3150}};
  for (size_t i = 0; i < 5; ++i) {
    SCOPED_TRACE(i);
    const ProfileBlock& b = r_.raw[i];
    EXPECT_EQ(b.execution, static_cast<int>(i) + 1);
    EXPECT_EQ(b.title, "Execute Stat " + std::to_string(i + 1));
    EXPECT_EQ(b.graph_index, expected[i].index);
    EXPECT_EQ(b.graph_name, expected[i].name);
    EXPECT_EQ(b.graph, "Graph " + std::to_string(expected[i].index) + ": " + expected[i].name);
    EXPECT_EQ(b.graph_execution, expected[i].graph_execution);
    EXPECT_EQ(b.timestamp_us, expected[i].timestamp_us);
    EXPECT_EQ(b.first_line, expected[i].first_line);
    ASSERT_FALSE(b.metrics.empty());
    EXPECT_EQ(b.metrics[0].name, "NetRun");
    EXPECT_EQ(b.metrics[0].source, "NetRun");
    EXPECT_EQ(b.metrics[0].unit, "us");
    EXPECT_EQ(b.metrics[0].value, expected[i].netrun_us);
    EXPECT_EQ(b.metrics.size(), 9u);
    EXPECT_EQ(Value(b, "Number of HVX threads used"), 6);
    EXPECT_EQ(b.nodes_parent, "Accelerator (critical path execute) time (cycles)");
    // The op lines plus their waits make up the critical path.
    EXPECT_EQ(NodeSum(b) + WaitSum(b),
              Value(b, "Accelerator (critical path execute) time (cycles)"));
  }
  EXPECT_EQ(Value(r_.raw[0], "Accelerator (critical path execute) time (cycles)"), 20000000);
  EXPECT_EQ(Value(r_.raw[1], "Accelerator (critical path execute) time (cycles)"), 4000000);
  EXPECT_EQ(Value(r_.raw[3], "Accelerator (critical path execute) time (cycles)"), 17000000);
  EXPECT_EQ(Value(r_.raw[4], "Accelerator (critical path execute) time (cycles)"), 3400000);
  EXPECT_EQ(Value(r_.raw[0], "Accelerator (execute excluding wait) time"), 14000);
  EXPECT_EQ(Value(r_.raw[2], "QNN accelerator (execute) time"), 2750);
}

TEST_F(Qairt247Csv, GraphsInFileOrder) {
  std::vector<ProfileGraph> graphs = r_.Graphs();
  ASSERT_EQ(graphs.size(), 2u);
  EXPECT_EQ(graphs[0].index, 0);
  EXPECT_EQ(graphs[0].name, "model.prefill");
  EXPECT_EQ(graphs[1].index, 1);
  EXPECT_EQ(graphs[1].name, "model.decode");
  ASSERT_EQ(graphs[0].executions.size(), 2u);
  ASSERT_EQ(graphs[1].executions.size(), 3u);
  EXPECT_EQ(graphs[0].executions[1], &r_.raw[3]);
  EXPECT_EQ(graphs[1].executions[2], &r_.raw[4]);
  EXPECT_TRUE(graphs[0].statistics.empty());
  EXPECT_EQ(r_.Executions().size(), 5u);
}

TEST_F(Qairt247Csv, LintingEntriesOfEachOp) {
  const ProfileBlock& prefill = r_.raw[0];
  ASSERT_EQ(prefill.nodes.size(), 4u);
  const ProfileNode& input = prefill.nodes[0];
  EXPECT_EQ(input.label, "Input OpId_2");
  EXPECT_EQ(input.cycles, 1000000);
  EXPECT_TRUE(input.has_lint());
  EXPECT_TRUE(Lint(input).resources.empty());  // Time ""
  EXPECT_EQ(Lint(input).overlap_cycles, 0);

  const ProfileNode& norm = Node(prefill, "blocks.0.norm:OpId_31");
  EXPECT_EQ(norm.qnn_op_name, "blocks.0.norm");
  EXPECT_EQ(norm.op_id, 31u);
  EXPECT_EQ(norm.cycles, 5000000);
  EXPECT_EQ(Lint(norm).wait_cycles, 20000);
  EXPECT_EQ(Lint(norm).overlap_cycles, 4000000);
  EXPECT_EQ(Lint(norm).overlap_wait_cycles, 15000);
  // The names are written with a trailing space; the reader trims it.
  EXPECT_EQ(Lint(norm).overlap_ops, (std::vector<std::string>{"blocks.0.attn.q_proj:OpId_40"}));
  EXPECT_EQ(Lint(norm).overlap_wait_ops,
            (std::vector<std::string>{"blocks.0.attn.k_proj:OpId_41"}));
  EXPECT_EQ(Lint(norm).resources, (std::vector<std::string>{"HVX", "DMA"}));  // "HVX, DMA"

  const ProfileNode& q_proj = Node(prefill, "blocks.0.attn.q_proj:OpId_40");
  EXPECT_EQ(q_proj.cycles, 12000000);
  EXPECT_EQ(Lint(q_proj).wait_cycles, 100000);
  EXPECT_EQ(Lint(q_proj).overlap_cycles, 3000000);
  EXPECT_EQ(Lint(q_proj).overlap_ops,
            (std::vector<std::string>{"blocks.0.norm:OpId_31", "blocks.0.attn.k_proj:OpId_41"}));
  EXPECT_TRUE(Lint(q_proj).overlap_wait_ops.empty());
  EXPECT_EQ(Lint(q_proj).resources, (std::vector<std::string>{"HMX", "HVX", "DMA"}));
  EXPECT_EQ(Lint(Node(prefill, "Output OpId_3")).resources, (std::vector<std::string>{"DMA"}));

  // The warm prefill and the decode executions keep their own figures.
  EXPECT_EQ(Node(r_.raw[3], "blocks.0.attn.q_proj:OpId_40").cycles, 9000000);
  const ProfileBlock& decode = r_.raw[2];
  ASSERT_EQ(decode.nodes.size(), 3u);
  const ProfileNode& dq = Node(decode, "blocks.0.attn.q_proj:OpId_40");
  EXPECT_EQ(dq.cycles, 2500000);
  EXPECT_EQ(Lint(dq).wait_cycles, 30000);
  EXPECT_EQ(Lint(dq).overlap_cycles, 1000000);
  EXPECT_EQ(Lint(dq).overlap_ops, (std::vector<std::string>{"Output OpId_3"}));
  EXPECT_EQ(Lint(dq).resources, (std::vector<std::string>{"HMX", "DMA"}));
}

TEST_F(Qairt247Csv, HeapReadsItAsAProfileWithoutCheckpoints) {
  HeapCheckpoints h = ReadHeapCheckpoints(ProfileTestdata("qairt247_linting_two_graphs.csv"));
  EXPECT_EQ(h.format, HeapSourceFormat::kProfileCsv);
  EXPECT_TRUE(h.checkpoints.empty());
}

// ---------------------------------------------------------------------------
// ONNX Runtime QNN EP CSV of a ResNet-50 session: 5 executions, one unnamed
// graph, NODE rows under "Accelerator (execute) time (cycles)".

TEST(OrtQnnEpCsv, ResNet50FiveExecutions) {
  const std::string path = ProfileTestdata("ort_qnn_ep_resnet50.csv");
  EXPECT_EQ(DetectArtifactKind(path), ArtifactKind::kProfileCsv);
  ProfileReport r = ReadProfileCsv(path);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  EXPECT_TRUE(r.header.empty());
  EXPECT_EQ(r.viewer_version, "");
  ASSERT_EQ(r.statistics.size(), 2u);
  EXPECT_EQ(r.statistics[0].title, "Init Stats");
  EXPECT_EQ(Value(r.statistics[0], "QNN (load binary) time"), 41230);
  EXPECT_EQ(r.statistics[1].title, "De-Init Stats");
  EXPECT_EQ(Value(r.statistics[1], "QNN Accelerator (deinit) time"), 898);

  std::vector<const ProfileBlock*> ex = r.Executions();
  ASSERT_EQ(ex.size(), 5u);
  const int64_t cycles[] = {3755250, 3553000, 3548400, 3559200, 3550800};
  const double excluding_wait_us[] = {1132, 1068, 1066, 1071, 1067};
  for (size_t i = 0; i < 5; ++i) {
    SCOPED_TRACE(i);
    const ProfileBlock& b = *ex[i];
    EXPECT_EQ(b.execution, static_cast<int>(i) + 1);
    EXPECT_EQ(b.graph_execution, static_cast<int>(i) + 1);
    EXPECT_FALSE(b.graph_index.has_value());
    EXPECT_EQ(b.graph_name, "");
    EXPECT_EQ(b.timestamp_us, 6000000u + i * 10000);
    EXPECT_EQ(b.metrics.size(), 10u);
    EXPECT_EQ(Value(b, "Accelerator (execute) time (cycles)"), cycles[i]);
    EXPECT_EQ(Value(b, "Accelerator (execute excluding wait) time"), excluding_wait_us[i]);
    EXPECT_EQ(b.nodes_parent, "Accelerator (execute) time (cycles)");
    ASSERT_EQ(b.nodes.size(), 6u);
    EXPECT_EQ(NodeSum(b), cycles[i]);
    EXPECT_FALSE(b.nodes[0].has_lint());
  }
  EXPECT_EQ(Value(*ex[0], "Accelerator (execute) time"), 1355);
  EXPECT_EQ(Value(*ex[0], "QNN accelerator (execute) time"), 1601);
  EXPECT_EQ(Value(*ex[0], "Time for HVX + HMX power on and acquire"), 9200);
  const ProfileNode& conv = ex[0]->nodes[1];
  EXPECT_EQ(conv.label, "/conv1/Conv:OpId_14");
  EXPECT_EQ(conv.qnn_op_name, "/conv1/Conv");
  EXPECT_EQ(conv.op_id, 14u);
  EXPECT_EQ(conv.cycles, 850000);

  std::vector<ProfileGraph> graphs = r.Graphs();
  ASSERT_EQ(graphs.size(), 1u);
  EXPECT_FALSE(graphs[0].index.has_value());
  EXPECT_EQ(graphs[0].name, "");
  EXPECT_EQ(graphs[0].executions.size(), 5u);
}

}  // namespace
}  // namespace htpscope::profile_csv_layouts_test
