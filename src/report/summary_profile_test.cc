#include "report/summary_profile.h"

#include <gtest/gtest.h>

#include "formats/qnn_net_run_test_util.h"
#include "report/summary_report.h"

namespace htpscope::summary_profile_test {
namespace {

// netrun_phases.csv (figures in qnn_net_run_test_util.h).
TEST(SummaryProfile, PhasesAndOpSteadyStateInTextAndJson) {
  htpscope::Run run = LoadRun({testing_support::ProfileTestdata("netrun_phases.csv")});
  Summary s = Summarize(run);
  std::string text = RenderSummaryText(s, 10);
  EXPECT_NE(text.find("Phases: time to first inference"), std::string::npos) << text;
  EXPECT_NE(text.find("    Graph Optimizations                             600 µs\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  to the first inference                          1,440 µs  init + cold "
                      "execute\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    HVX + HMX power on and acquire                   35 µs  (steady "
                      "median 1 µs)"),
            std::string::npos)
      << text;
  // The op table: no optrace or QHAS, so per-node cycles ranked by steady median.
  EXPECT_NE(text.find("Per-op steady state"), std::string::npos) << text;
  EXPECT_NE(text.find("steady median Accelerator (execute) time 200 cycles"), std::string::npos)
      << text;
  //                     op        steady median  cold   min   max   MAD   share
  EXPECT_NE(text.find("    a                                            100          500         "
                      "90        120        10  50.0 %"),
            std::string::npos)
      << text;
  EXPECT_LT(text.find("    a        "), text.find("    b        "));

  nlohmann::json j = SummaryToJson(s);
  ASSERT_TRUE(j["first_inference"].is_object());
  EXPECT_NE(text.find("  init (spans compose and finalize)               1,400 µs  (NetRun)\n"
                      "    init alone                                      100 µs  (init − "
                      "compose − finalize)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(j["first_inference"]["total_us"], 1440);
  EXPECT_EQ(j["first_inference"]["init"]["us"], 1400);
  EXPECT_EQ(j["first_inference"]["init_spans_compose_and_finalize"], true);
  EXPECT_EQ(j["first_inference"]["init_alone_us"], 100);
  EXPECT_EQ(j["first_inference"]["graphs"][0]["finalize_stages"][1]["name"], "VTCM Allocation");
  EXPECT_EQ(j["first_inference"]["graphs"][0]["power_on_us"], 35);
  EXPECT_EQ(j["first_inference"]["inferences_per_second"], 50);
  ASSERT_EQ(j["profile_phases"].size(), 31u);
  EXPECT_EQ(j["profile_phases"][0]["phase"], "init");
  EXPECT_TRUE(j["profile_phases"][0]["graph"].is_null());
  ASSERT_EQ(j["op_steady_state"].size(), 3u);
  EXPECT_EQ(j["op_steady_state"][0]["name"], "a");
  EXPECT_EQ(j["op_steady_state"][0]["cold_cycles"], 500);
  EXPECT_EQ(j["op_steady_state"][0]["steady_median_cycles"], 100);
  EXPECT_EQ(j["op_steady_state"][0]["steady_mad_cycles"], 10);
  EXPECT_EQ(j["op_steady_state"][0]["steady_executions"], 3);
  EXPECT_EQ(j["op_steady_state"][0]["steady_share_pct"], 50);
  EXPECT_EQ(j["op_steady_state"][2]["name"], "c");
}

// A run whose profile prints no phase but executions keeps its summary
// free of the section, and JSON says null.
TEST(SummaryProfile, NoPhasesNoSection) {
  htpscope::Run run;
  Summary s = Summarize(run);
  EXPECT_EQ(RenderFirstInferenceText(s), "");
  EXPECT_EQ(RenderOpSteadyStateText(s, 10), "");
  nlohmann::json j = SummaryToJson(s);
  EXPECT_TRUE(j["first_inference"].is_null());
  EXPECT_TRUE(j["op_steady_state"].empty());
  EXPECT_TRUE(j["profile_phases"].empty());
}

// The real prefill CSV: its top op by steady median and the load phases.
TEST(SummaryProfile, CorpusQnnNetRunPrefillSkipsWithoutCorpus) {
  HTPSCOPE_REQUIRE_QNN_NET_RUN_CORPUS();
  htpscope::Run run = LoadRun({testing_support::QnnNetRunCsv("prefill")});
  Summary s = Summarize(run);
  std::string text = RenderSummaryText(s, 5);
  EXPECT_NE(
      text.find("to the first inference                        233,129 µs  init + cold execute"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("    _MatMul_3                                 60,482      179,542     "
                      "44,474     77,371     5,590  16.8 %"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("... 65 more ops"), std::string::npos) << text;
  nlohmann::json j = SummaryToJson(s);
  EXPECT_EQ(j["executions"].size(), 10u);
  EXPECT_EQ(j["executions"][0]["cold"], true);
  EXPECT_EQ(j["op_steady_state"][0]["name"], "_MatMul_3");
}

}  // namespace
}  // namespace htpscope::summary_profile_test
