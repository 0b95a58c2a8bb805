// Phases in both profile readers: INIT, COMPOSE GRAPHS, FINALIZE and its
// stages, EXECUTE, EXECUTE IPS and DE-INIT, in any order of rows; only
// EXECUTE makes an execution.
#include <gtest/gtest.h>

#include "formats/profile_text.h"
#include "formats/qnn_net_run_test_util.h"

namespace htpscope::profile_phases_test {
namespace {

const ProfileBlock* FindStatistics(const ProfileReport& r, ProfilePhase phase) {
  for (const auto& b : r.statistics)
    if (b.phase == phase) return &b;
  return nullptr;
}

void ExpectMetric(const ProfileMetric& m, std::string_view name, std::string_view source,
                  double value, std::string_view unit, int32_t parent) {
  SCOPED_TRACE(std::string(name));
  EXPECT_EQ(m.name, name);
  EXPECT_EQ(m.source, source);
  EXPECT_TRUE(m.has_value);
  EXPECT_DOUBLE_EQ(m.value, value);
  EXPECT_EQ(m.unit, unit);
  EXPECT_EQ(m.parent, parent);
}

// netrun_phases.csv: its figures are listed in qnn_net_run_test_util.h.
TEST(ProfilePhases, CsvEveryPhaseAndFinalizeStages) {
  ProfileReport r = ReadProfileCsv(testing_support::ProfileTestdata("netrun_phases.csv"));
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  // The FINALIZE row "Graph 0: g" opens no execution: four, all of g.
  ASSERT_EQ(r.Executions().size(), 4u);
  for (const ProfileBlock* e : r.Executions()) {
    EXPECT_EQ(e->phase, ProfilePhase::kExecute);
    EXPECT_EQ(e->graph_name, "g");
  }
  EXPECT_EQ(r.Executions()[0]->graph_execution, 1);
  EXPECT_EQ(r.Executions()[0]->timestamp_us, 4000u);
  EXPECT_DOUBLE_EQ(r.Executions()[0]->Find("NetRun")->value, 40);

  const ProfileBlock* init = FindStatistics(r, ProfilePhase::kInit);
  ASSERT_TRUE(init);
  EXPECT_EQ(init->title, "Init Stats");
  ASSERT_EQ(init->metrics.size(), 2u);
  ExpectMetric(init->metrics[0], "NetRun", "NetRun", 1400, "us", -1);
  const ProfileBlock* compose = FindStatistics(r, ProfilePhase::kCompose);
  ASSERT_TRUE(compose);
  ExpectMetric(compose->metrics.at(0), "NetRun", "NetRun", 500, "us", -1);
  const ProfileBlock* finalize = FindStatistics(r, ProfilePhase::kFinalize);
  ASSERT_TRUE(finalize);
  EXPECT_EQ(finalize->graph_index, 0);
  EXPECT_EQ(finalize->graph_name, "g");
  EXPECT_EQ(finalize->timestamp_us, 3000u);
  ASSERT_EQ(finalize->metrics.size(), 5u);
  ExpectMetric(finalize->metrics[0], "NetRun", "NetRun", 800, "us", -1);
  ExpectMetric(finalize->metrics[1], "RPC (finalize) time", "Backend", 60, "us", -1);
  ExpectMetric(finalize->metrics[2], "QNN (finalize) time", "Backend", 790, "us", -1);
  ExpectMetric(finalize->metrics[3], "Graph Optimizations", "Backend", 600, "us", 2);
  ExpectMetric(finalize->metrics[4], "VTCM Allocation", "Backend", 50, "us", 2);
  const ProfileBlock* deinit = FindStatistics(r, ProfilePhase::kDeinit);
  ASSERT_TRUE(deinit);
  EXPECT_EQ(deinit->timestamp_us, 9000u);
  ExpectMetric(deinit->metrics.at(0), "NetRun", "NetRun", 300, "us", -1);
  const ProfileBlock* ips = FindStatistics(r, ProfilePhase::kExecuteIps);
  ASSERT_TRUE(ips);
  ExpectMetric(ips->metrics.at(0), "NetRun", "NetRun", 50, "inf/sec", -1);

  // The graph's statistics include its Finalize block.
  std::vector<ProfileGraph> graphs = r.Graphs();
  ASSERT_EQ(graphs.size(), 1u);
  EXPECT_EQ(graphs[0].executions.size(), 4u);
  ASSERT_EQ(graphs[0].statistics.size(), 1u);
  EXPECT_EQ(graphs[0].statistics[0], finalize);
}

constexpr std::string_view kHeader =
    "Msg Timestamp, Message, Time, Unit of Measurement, Timing Source, Event Level, Event "
    "Identifier\n";

// Backend FINALIZE rows before the NETRUN row naming their graph, two
// graphs finalized one after the other, executions interleaved.
TEST(ProfilePhases, CsvFinalizeOfTwoGraphsInAnyOrder) {
  std::string csv = std::string(kHeader) +
                    "10,FINALIZE,70,US,BACKEND,ROOT,QNN (finalize) time\n"
                    "10,FINALIZE,40,US,BACKEND,SUB-EVENT,Graph Sequencing for Target\n"
                    "10,FINALIZE,75,US,NETRUN,ROOT,Graph 0: p\n"
                    "20,FINALIZE,30,US,NETRUN,ROOT,Graph 1: d\n"
                    "20,FINALIZE,25,US,BACKEND,ROOT,QNN (finalize) time\n"
                    "20,FINALIZE,5,US,BACKEND,SUB-EVENT,Completion\n"
                    "30,EXECUTE,9,US,NETRUN,ROOT,Graph 0: p\n"
                    "40,EXECUTE,8,US,NETRUN,ROOT,Graph 1: d\n"
                    "50,EXECUTE,7,US,NETRUN,ROOT,Graph 0: p\n";
  ProfileReport r = ParseProfileCsv("two.csv", csv);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  ASSERT_EQ(r.raw.size(), 3u);
  ASSERT_EQ(r.statistics.size(), 2u);
  const ProfileBlock& p = r.statistics[0];
  EXPECT_EQ(p.graph_name, "p");
  ASSERT_EQ(p.metrics.size(), 3u);
  ExpectMetric(p.metrics[0], "QNN (finalize) time", "Backend", 70, "us", -1);
  ExpectMetric(p.metrics[1], "Graph Sequencing for Target", "Backend", 40, "us", 0);
  ExpectMetric(p.metrics[2], "NetRun", "NetRun", 75, "us", -1);
  const ProfileBlock& d = r.statistics[1];
  EXPECT_EQ(d.graph_name, "d");
  EXPECT_EQ(d.graph_index, 1);
  ASSERT_EQ(d.metrics.size(), 3u);
  ExpectMetric(d.metrics[2], "Completion", "Backend", 5, "us", 1);
  std::vector<ProfileGraph> graphs = r.Graphs();
  ASSERT_EQ(graphs.size(), 2u);
  EXPECT_EQ(graphs[0].name, "p");
  EXPECT_EQ(graphs[0].executions.size(), 2u);
  EXPECT_EQ(graphs[1].executions.size(), 1u);
}

// The same phases as the text prints its statistics part; stage lines are
// indented under their root line (the layout inferred from the CSV's).
TEST(ProfilePhases, TextFinalizeStagesAndPhases) {
  std::string text =
      "qnn-profile-viewer: v2.47.0.260601114230\n"
      "Qnn Init/Prepare/Finalize/De-Init/Execute/Lib-Load Statistics:\n"
      "Init Stats:\n-----------\n    NetRun: 1000 us\n\n"
      "Compose Graphs Stats:\n--------------\n    NetRun: 500 us\n\n"
      "Finalize Stats:\n---------------\nGraph 0 (g):\n"
      "    NetRun: 800 us\n"
      "    Backend (QNN (finalize) time): 790 us\n"
      "        Backend (Graph Optimizations): 600 us\n"
      "        VTCM Allocation: 50 us\n\n"
      "De-Init Stats:\n--------------\n    NetRun: 300 us\n\n"
      "Execute Stats (Overall):\n---\n    NetRun IPS:  50 inf/sec\n\n"
      "Printing All Data Received From Back End\n\n"
      "Execute Stats: \n\nExecute Stat 1\n\n"
      "Accelerator (execute) time (cycles) : 650  cycles\n"
      "    a:OpId_10 (cycles) : 650  cycles\n";
  ProfileReport r = ParseProfileText("t.txt", text);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  ASSERT_EQ(r.Executions().size(), 1u);
  EXPECT_EQ(r.Executions()[0]->phase, ProfilePhase::kExecute);
  EXPECT_EQ(r.Executions()[0]->graph_name, "g");  // the one graph the statistics name
  const ProfileBlock* finalize = FindStatistics(r, ProfilePhase::kFinalize);
  ASSERT_TRUE(finalize);
  EXPECT_EQ(finalize->graph_name, "g");
  ASSERT_EQ(finalize->metrics.size(), 4u);
  ExpectMetric(finalize->metrics[1], "QNN (finalize) time", "Backend", 790, "us", -1);
  ExpectMetric(finalize->metrics[2], "Graph Optimizations", "Backend", 600, "us", 1);
  ExpectMetric(finalize->metrics[3], "VTCM Allocation", "", 50, "us", 1);
  ASSERT_TRUE(FindStatistics(r, ProfilePhase::kInit));
  ASSERT_TRUE(FindStatistics(r, ProfilePhase::kCompose));
  ASSERT_TRUE(FindStatistics(r, ProfilePhase::kDeinit));
  const ProfileBlock* ips = FindStatistics(r, ProfilePhase::kExecuteIps);
  ASSERT_TRUE(ips);
  ExpectMetric(ips->metrics.at(0), "NetRun IPS", "NetRun", 50, "inf/sec", -1);
}

TEST(ProfilePhases, PhaseOfTitle) {
  EXPECT_EQ(ProfilePhaseOfTitle("Init Stats"), ProfilePhase::kInit);
  EXPECT_EQ(ProfilePhaseOfTitle("Create From Binary Stats"), ProfilePhase::kInit);
  EXPECT_EQ(ProfilePhaseOfTitle("Compose Graphs Stats"), ProfilePhase::kCompose);
  EXPECT_EQ(ProfilePhaseOfTitle("Finalize Stats"), ProfilePhase::kFinalize);
  EXPECT_EQ(ProfilePhaseOfTitle("Execute Stat 12"), ProfilePhase::kExecute);
  EXPECT_EQ(ProfilePhaseOfTitle("Execute Stats (Average)"), ProfilePhase::kExecute);
  EXPECT_EQ(ProfilePhaseOfTitle("Execute Stats (Overall)"), ProfilePhase::kExecuteIps);
  EXPECT_EQ(ProfilePhaseOfTitle("De-Init Stats"), ProfilePhase::kDeinit);
  EXPECT_EQ(ProfilePhaseOfTitle("Layer Times"), ProfilePhase::kOther);
  EXPECT_STREQ(ProfilePhaseName(ProfilePhase::kExecuteIps), "execute_ips");
}

// The real prefill CSV: 10 executions (the FINALIZE row is none), the
// finalize block with its eight stages, DE-INIT printed before the
// executions; no warnings.
TEST(ProfilePhases, CorpusQnnNetRunPrefillSkipsWithoutCorpus) {
  HTPSCOPE_REQUIRE_QNN_NET_RUN_CORPUS();
  ProfileReport r = ReadProfileCsv(testing_support::QnnNetRunCsv("prefill"));
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  ASSERT_EQ(r.Executions().size(), 10u);
  EXPECT_DOUBLE_EQ(r.Executions()[0]->Find("NetRun")->value, 8540);
  EXPECT_DOUBLE_EQ(r.Executions()[0]->Find("Time for HVX + HMX power on and acquire")->value,
                   38444);
  const ProfileBlock* finalize = FindStatistics(r, ProfilePhase::kFinalize);
  ASSERT_TRUE(finalize);
  EXPECT_EQ(finalize->graph_name, "tiny_block_prefill");
  ASSERT_EQ(finalize->metrics.size(), 13u);  // NetRun, 4 Backend roots, 8 stages
  ExpectMetric(finalize->metrics[0], "NetRun", "NetRun", 65960, "us", -1);
  ExpectMetric(finalize->metrics[4], "QNN (finalize) time", "Backend", 65932, "us", -1);
  ExpectMetric(finalize->metrics[6], "Graph Optimizations", "Backend", 40652, "us", 4);
  ExpectMetric(finalize->metrics[12], "Completion", "Backend", 20, "us", 4);
  const ProfileBlock* ips = FindStatistics(r, ProfilePhase::kExecuteIps);
  ASSERT_TRUE(ips);
  EXPECT_DOUBLE_EQ(ips->metrics.at(0).value, 180.141235);
}

}  // namespace
}  // namespace htpscope::profile_phases_test
