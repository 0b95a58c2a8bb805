// The text reader on profiles of several graphs: the statistics' "Graph N
// (name):" groups, the raw dump's graph lines, per-graph execution numbers,
// the header's versions, linting entries as the raw dump prints them.
#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "formats/artifact_kind.h"
#include "formats/linting_example_test_util.h"
#include "formats/profile_text.h"
#include "formats/profile_text_test_util.h"

namespace htpscope::profile_text_graphs_test {
namespace {

using testing_support::Contains;
using testing_support::Lint;
using testing_support::NodeSum;
using testing_support::ProfileTestdata;
using testing_support::Value;

constexpr char kPath[] = "profile.txt";

TEST(ProfileGraphLabel, Forms) {
  auto label = ParseProfileGraphLabel("Graph 0 (model.prefill)");
  ASSERT_TRUE(label);
  EXPECT_EQ(label->index, 0);
  EXPECT_EQ(label->name, "model.prefill");
  label = ParseProfileGraphLabel("Graph 12: model.decode ");
  ASSERT_TRUE(label);
  EXPECT_EQ(label->index, 12);
  EXPECT_EQ(label->name, "model.decode");
  label = ParseProfileGraphLabel("Graph 3");
  ASSERT_TRUE(label);
  EXPECT_EQ(label->name, "");
  label = ParseProfileGraphLabel("Graph 1 (a (b))");
  ASSERT_TRUE(label);
  EXPECT_EQ(label->name, "a (b)");
  for (std::string_view bad : {"Graph", "Graph x: a", "Graph 1 a", "Graphs 1", "graph 1",
                               "Graph 1 (a", "Graph 99999999999: a", ""})
    EXPECT_FALSE(ParseProfileGraphLabel(bad)) << bad;
}

// ---------------------------------------------------------------------------
// detailed_two_graphs.txt: statistics per graph, then the raw dump with a
// "Graph N (name):" line before each graph's "Execute Stat" blocks, which
// each graph numbers from 1.  Thread-aggregate cycles per execution: prefill
// 60,000,000 and 52,000,000; decode 11,000,000, 9,800,000, 9,700,000.

class DetailedTwoGraphs : public ::testing::Test {
 protected:
  void SetUp() override { r_ = ReadProfileText(ProfileTestdata("detailed_two_graphs.txt")); }
  ProfileReport r_;
};

TEST_F(DetailedTwoGraphs, HeaderAndVersions) {
  EXPECT_EQ(DetectArtifactKind(ProfileTestdata("detailed_two_graphs.txt")),
            ArtifactKind::kProfileText);
  EXPECT_TRUE(r_.warnings.empty()) << r_.warnings.front();
  EXPECT_EQ(r_.viewer_version, "v2.47.0.260601114230");
  EXPECT_EQ(r_.application_version, "v2.47.0.260601114230");
  EXPECT_EQ(r_.backend_version, "v2.47.0.260601114230");
  ASSERT_EQ(r_.header.size(), 8u);
  EXPECT_EQ(r_.header[2].key, "Time Scale");
  EXPECT_EQ(r_.header[2].value, "1e-06");
  EXPECT_EQ(r_.header[2].line, 3);
  EXPECT_EQ(r_.header[4].key, "Generated using");
  EXPECT_EQ(r_.header[4].value, "");
}

TEST_F(DetailedTwoGraphs, StatisticsPerGraph) {
  ASSERT_EQ(r_.statistics.size(), 6u);
  const ProfileBlock& prefill = r_.statistics[2];
  const ProfileBlock& decode = r_.statistics[3];
  EXPECT_EQ(prefill.title, "Execute Stats (Average)");
  EXPECT_EQ(prefill.graph, "Graph 0 (model.prefill)");
  EXPECT_EQ(prefill.graph_index, 0);
  EXPECT_EQ(prefill.graph_name, "model.prefill");
  EXPECT_EQ(prefill.graph_execution, 0);
  EXPECT_EQ(Value(prefill, "NetRun"), 14050);
  EXPECT_EQ(decode.graph_index, 1);
  EXPECT_EQ(decode.graph_name, "model.decode");
  EXPECT_EQ(Value(decode, "Accelerator (execute) time (cycles)"), 10166666);
  EXPECT_DOUBLE_EQ(Value(r_.statistics[4], "NetRun IPS"), 125.8812);
  EXPECT_EQ(r_.statistics[4].title, "Execute Stats (Overall)");
  EXPECT_FALSE(r_.statistics[4].graph_index.has_value());
  EXPECT_FALSE(r_.statistics[0].graph_index.has_value());  // Init Stats
}

TEST_F(DetailedTwoGraphs, ExecutionsPerGraph) {
  ASSERT_EQ(r_.raw.size(), 6u);
  EXPECT_EQ(r_.raw[0].title, "Create From Binary Stats");
  EXPECT_EQ(r_.raw[0].graph_execution, 0);
  struct Expected {
    int index;
    const char* name;
    int execution;
    int64_t cycles;
    double qnn_accelerator_us;
  };
  const Expected expected[] = {{0, "model.prefill", 1, 60000000, 14500},
                               {0, "model.prefill", 2, 52000000, 12600},
                               {1, "model.decode", 1, 11000000, 3150},
                               {1, "model.decode", 2, 9800000, 2750},
                               {1, "model.decode", 3, 9700000, 2700}};
  for (size_t i = 0; i < 5; ++i) {
    SCOPED_TRACE(i);
    const ProfileBlock& b = r_.raw[i + 1];
    EXPECT_EQ(b.title, "Execute Stat " + std::to_string(expected[i].execution));
    EXPECT_EQ(b.execution, expected[i].execution);
    EXPECT_EQ(b.graph_execution, expected[i].execution);
    EXPECT_EQ(b.graph_index, expected[i].index);
    EXPECT_EQ(b.graph_name, expected[i].name);
    EXPECT_FALSE(b.timestamp_us.has_value());
    EXPECT_EQ(Value(b, "Accelerator (execute) time (cycles)"), expected[i].cycles);
    EXPECT_EQ(NodeSum(b), expected[i].cycles);
    EXPECT_EQ(Value(b, "QNN accelerator (execute) time"), expected[i].qnn_accelerator_us);
  }
  EXPECT_EQ(r_.raw[1].first_line, 58);
  EXPECT_EQ(r_.raw[3].first_line, 92);
  EXPECT_EQ(r_.raw[2].nodes.size(), 4u);
  EXPECT_EQ(r_.raw[3].nodes.size(), 3u);
  EXPECT_EQ(r_.raw[3].nodes[1].label, "blocks.0.attn.q_proj:OpId_40");
  EXPECT_EQ(r_.raw[3].nodes[1].cycles, 9000000);
}

TEST_F(DetailedTwoGraphs, Graphs) {
  std::vector<ProfileGraph> graphs = r_.Graphs();
  ASSERT_EQ(graphs.size(), 2u);
  EXPECT_EQ(graphs[0].name, "model.prefill");
  EXPECT_EQ(graphs[0].statistics.size(), 1u);
  EXPECT_EQ(graphs[0].executions.size(), 2u);
  EXPECT_EQ(graphs[1].name, "model.decode");
  EXPECT_EQ(graphs[1].statistics.size(), 1u);
  ASSERT_EQ(graphs[1].executions.size(), 3u);
  EXPECT_EQ(graphs[1].executions[2]->graph_execution, 3);
}

// ---------------------------------------------------------------------------
// A raw dump naming each execution's graph by a NETRUN line, at linting
// level, with the raw dump's " : " separators, executions numbered over the
// whole file.

constexpr char kRawLinting[] = R"(qnn-profile-viewer: v2.47.0.260601114230
Printing All Data Received From Back End

Execute Stats: 

Execute Stat 1

Graph 0: model.prefill : 1500000  us
Accelerator (critical path execute) time (cycles) : 20000  cycles
    blocks.0.norm:OpId_31 (cycles) : 5000  cycles
        Wait (Scheduler) time : 20  cycles
        Overlap time : 4000  cycles
            blocks.0.attn.q_proj:OpId_40 
        Overlap (wait) time : 15  cycles
            blocks.0.attn.k_proj:OpId_41  :   cycles
        Resources : HVX, DMA  cycles
    Output OpId_3 (cycles) : 14980  cycles
        Resources : 

Execute Stat 2

Graph 1: model.decode : 31000  us
Accelerator (critical path execute) time (cycles) : 4000  cycles
    Output OpId_3 (cycles) : 4000  cycles
        Overlap time : 0  cycles

Execute Stat 3

Graph 0: model.prefill : 1420000  us
)";

TEST(ProfileTextGraphs, RawDumpGraphLinesAndLinting) {
  ProfileReport r = ParseProfileText(kPath, kRawLinting);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  ASSERT_EQ(r.raw.size(), 3u);
  const int indices[] = {0, 1, 0};
  const int graph_executions[] = {1, 1, 2};
  const double netrun_us[] = {1500000, 31000, 1420000};
  for (size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r.raw[i].execution, static_cast<int>(i) + 1);
    EXPECT_EQ(r.raw[i].graph_index, indices[i]);
    EXPECT_EQ(r.raw[i].graph_execution, graph_executions[i]);
    ASSERT_FALSE(r.raw[i].metrics.empty());
    EXPECT_EQ(r.raw[i].metrics[0].name, "NetRun");
    EXPECT_EQ(r.raw[i].metrics[0].source, "NetRun");
    EXPECT_EQ(r.raw[i].metrics[0].value, netrun_us[i]);
  }
  EXPECT_EQ(r.raw[0].graph, "Graph 0: model.prefill");
  EXPECT_EQ(r.raw[1].graph_name, "model.decode");
  const ProfileBlock& b = r.raw[0];
  ASSERT_EQ(b.nodes.size(), 2u);
  const ProfileNode& norm = b.nodes[0];
  EXPECT_EQ(Lint(norm).wait_cycles, 20);
  EXPECT_EQ(Lint(norm).overlap_cycles, 4000);
  EXPECT_EQ(Lint(norm).overlap_wait_cycles, 15);
  EXPECT_EQ(Lint(norm).overlap_ops, (std::vector<std::string>{"blocks.0.attn.q_proj:OpId_40"}));
  EXPECT_EQ(Lint(norm).overlap_wait_ops,
            (std::vector<std::string>{"blocks.0.attn.k_proj:OpId_41"}));
  EXPECT_EQ(Lint(norm).resources, (std::vector<std::string>{"HVX", "DMA"}));
  EXPECT_TRUE(b.nodes[1].has_lint());
  EXPECT_TRUE(Lint(b.nodes[1]).resources.empty());
  EXPECT_EQ(NodeSum(b) + *Lint(norm).wait_cycles,
            Value(b, "Accelerator (critical path execute) time (cycles)"));
}

TEST(ProfileTextGraphs, OneNamedGraphOwnsAnUnnamedRawDump) {
  ProfileReport r = ParseProfileText(kPath, R"(Execute Stats (Average):
Total Inference Time:
Graph 0 (model):
    NetRun:  2952 us
Printing All Data Received From Back End
Execute Stats:
Execute Stat 1
QNN accelerator (execute) time : 1100  us
Execute Stat 2
QNN accelerator (execute) time : 1000  us
)");
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  ASSERT_EQ(r.raw.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(r.raw[i].graph_index, 0);
    EXPECT_EQ(r.raw[i].graph_name, "model");
    EXPECT_EQ(r.raw[i].graph_execution, i + 1);
  }
  ASSERT_EQ(r.Graphs().size(), 1u);
  EXPECT_EQ(r.Graphs()[0].executions.size(), 2u);
  EXPECT_EQ(r.Graphs()[0].statistics.size(), 1u);
}

TEST(ProfileTextGraphs, ColonFormInStatisticsAndConflicts) {
  ProfileReport r = ParseProfileText(kPath, R"(Execute Stats (Average):
Graph 0: enc
    NetRun:  100 us
Graph 1: dec
    NetRun:  200 us
Printing All Data Received From Back End
Graph 0 (enc):
Execute Stat 1
Graph 1: dec : 250  us
Execute Stat 1
Graph 0: enc : 90  us
)");
  ASSERT_EQ(r.statistics.size(), 2u);
  EXPECT_EQ(r.statistics[0].graph_name, "enc");
  EXPECT_EQ(r.statistics[1].graph_index, 1);
  EXPECT_EQ(Value(r.statistics[1], "NetRun"), 200);
  ASSERT_EQ(r.raw.size(), 2u);
  // The NETRUN line wins over the graph line above the block, with a warning.
  EXPECT_EQ(r.raw[0].graph_name, "dec");
  EXPECT_EQ(r.raw[1].graph_name, "enc");
  EXPECT_EQ(r.raw[0].graph_execution, 1);
  EXPECT_EQ(r.raw[1].graph_execution, 1);
  // "Execute Stat 1" twice, but of two graphs: no warning for that.
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(Contains(r.warnings[0], "line 9:")) << r.warnings[0];
  EXPECT_TRUE(Contains(r.warnings[0], "names another graph")) << r.warnings[0];
}

TEST(ProfileTextGraphs, MalformedGraphLines) {
  try {
    ParseProfileText(kPath, "Execute Stat 1\nGraph 0: x : abc  us\n");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2u);
    EXPECT_TRUE(Contains(e.problem(), "\"abc\" is not a number")) << e.what();
  }
  try {
    ParseProfileText(kPath,
                     "Execute Stat 1\nA (cycles) : 5  cycles\n    a:OpId_1 (cycles) : 5  "
                     "cycles\n        Overlap time : lots  cycles\n");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 4u);
    EXPECT_TRUE(Contains(e.problem(), "\"lots\" is not a number")) << e.what();
  }
}

// ---------------------------------------------------------------------------
// The real files read as before, with the new fields filled in.

TEST(ProfileTextGraphsCorpus, V8c8OneUnnamedGraph) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  ProfileReport r = ReadProfileText(testing_support::CorpusFile("v8c8_256", "profile_text.txt"));
  EXPECT_EQ(r.application_version, "v2.45.0.260326154327");
  EXPECT_EQ(r.backend_version, "v2.45.0.260326154327");
  ASSERT_EQ(r.header.size(), 8u);
  EXPECT_EQ(r.header[0].key, "Input Log File Location");
  EXPECT_EQ(r.header[0].value, "phase1_validation/v8c8_indep8_256/profile_dev.log");
  EXPECT_EQ(r.header[3].value, "1777308097764829 Steady Clock Timestamp: 866149941192");
  std::vector<ProfileGraph> graphs = r.Graphs();
  ASSERT_EQ(graphs.size(), 1u);
  EXPECT_FALSE(graphs[0].index.has_value());
  ASSERT_EQ(graphs[0].executions.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(graphs[0].executions[i]->graph_execution, i + 1);
}

}  // namespace
}  // namespace htpscope::profile_text_graphs_test
