#include "analysis/first_inference.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "formats/qnn_net_run_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::first_inference_test {
namespace {

// netrun_phases.csv (figures in qnn_net_run_test_util.h): INIT 1400 spans
// compose 500 and finalize 800 (100 µs alone); 1400 + 40 = 1440 µs to the
// first inference.
TEST(FirstInference, NetRunCsvByHand) {
  htpscope::Run run = LoadRun({testing_support::ProfileTestdata("netrun_phases.csv")});
  FirstInference fi = ComputeFirstInference(run);
  ASSERT_TRUE(fi.init && fi.compose && fi.deinit);
  EXPECT_EQ(fi.init->us, 1400);
  EXPECT_EQ(fi.init->source, "NetRun");
  EXPECT_TRUE(fi.init_spans_compose_and_finalize);
  EXPECT_EQ(fi.init_alone_us, 100);
  EXPECT_EQ(fi.compose->us, 500);
  EXPECT_EQ(fi.deinit->us, 300);
  EXPECT_EQ(fi.inferences_per_second, 50);
  ASSERT_EQ(fi.graphs.size(), 1u);
  const GraphFirstInference& g = fi.graphs[0];
  ASSERT_TRUE(g.finalize && g.cold_execute);
  EXPECT_EQ(g.finalize->us, 800);
  ASSERT_EQ(g.finalize_stages.size(), 2u);
  EXPECT_EQ(g.finalize_stages[0].name, "Graph Optimizations");
  EXPECT_EQ(g.finalize_stages[0].us, 600);
  EXPECT_EQ(g.finalize_stages[1].name, "VTCM Allocation");
  EXPECT_EQ(g.finalize_stages[1].us, 50);
  EXPECT_EQ(g.cold_execute->us, 40);
  EXPECT_EQ(g.power_on_us, 35);
  EXPECT_EQ(g.vtcm_acquire_us, 5);
  EXPECT_EQ(g.steady_power_on_us, 1);
  EXPECT_EQ(g.steady_vtcm_acquire_us, 3);
  EXPECT_EQ(fi.total_us, 1440);
  EXPECT_TRUE(fi.missing.empty());
}

// An INIT smaller than compose + finalize cannot span them: it is taken as a
// phase of its own, and the parts are added: 1200 + 500 + 800 + 40.
TEST(FirstInference, AnInitSmallerThanComposeAndFinalizeIsAPhaseOfItsOwn) {
  std::ifstream in(testing_support::ProfileTestdata("netrun_phases.csv"));
  std::string csv((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string row = "1000,INIT,1400,";
  ASSERT_NE(csv.find(row), std::string::npos);
  csv.replace(csv.find(row), row.size(), "1000,INIT,1200,");
  const std::string path = ::testing::TempDir() + "/first_inference_small_init.csv";
  std::ofstream(path, std::ios::binary) << csv;
  htpscope::Run run = LoadRun({path});
  FirstInference fi = ComputeFirstInference(run);
  ASSERT_TRUE(fi.init);
  EXPECT_EQ(fi.init->us, 1200);
  EXPECT_FALSE(fi.init_spans_compose_and_finalize);
  EXPECT_FALSE(fi.init_alone_us);
  EXPECT_EQ(fi.total_us, 2540);
  std::filesystem::remove(path);
}

// netrun_two_graphs.csv: INIT 1000 spans compose 200 and both finalizes
// (100 + 50), 650 µs alone; the cold execute of p (the graph executed
// first): 1000 + 20.
TEST(FirstInference, TwoGraphsEveryFinalizeAndTheFirstColdExecute) {
  htpscope::Run run = LoadRun({testing_support::ProfileTestdata("netrun_two_graphs.csv")});
  FirstInference fi = ComputeFirstInference(run);
  ASSERT_EQ(fi.graphs.size(), 2u);
  EXPECT_EQ(fi.graphs[1].finalize->us, 50);
  EXPECT_EQ(fi.graphs[1].cold_execute->us, 15);
  EXPECT_TRUE(fi.init_spans_compose_and_finalize);
  EXPECT_EQ(fi.init_alone_us, 650);
  EXPECT_EQ(fi.total_us, 1020);
}

// A profile with no phase rows but executions (a context binary): the
// cold execute alone, init, compose and finalize named as missing.
// The statistics part of a viewer text printout published for a model built
// on the device (INIT 331,158 µs beside COMPOSE 74,748 and FINALIZE 256,372):
// INIT spans them, 331,158 − 74,748 − 256,372 = 38 µs of init alone; with
// the cold execute (2,900 µs) 334,058 µs to the first inference.
TEST(FirstInference, ViewerTextWhoseInitSpansComposeAndFinalize) {
  const std::string text =
      "Qnn Init/Prepare/Finalize/De-Init/Execute/Lib-Load Statistics:\n"
      "------------------------------------------------------------\n"
      "Init Stats:\n-----------\n    NetRun: 331158 us\n\n"
      "Compose Graphs Stats:\n--------------\n    NetRun: 74748 us\n\n"
      "Finalize Stats:\n---------------\nGraph 0 (model):\n    NetRun: 256372 us\n"
      "    Backend (QNN (finalize) time): 256364 us\n\n"
      "De-Init Stats:\n--------------\n    NetRun: 15810 us\n\n"
      "Execute Stats (Average):\n------------------------\nTotal Inference Time:\n"
      "---------------------\nGraph 0 (model):\n    NetRun: 2900 us\n\n"
      "Printing All Data Received From Back End\n\n"
      "Execute Stat 1\n    QNN (execute) time : 2900  us\n"
      "    Accelerator (execute) time (cycles) : 1000  cycles\n";
  htpscope::Run run = testing_support::RunOfText("profile.txt", text);
  FirstInference fi = ComputeFirstInference(run);
  ASSERT_TRUE(fi.init && fi.compose);
  EXPECT_EQ(fi.init->us, 331158);
  EXPECT_EQ(fi.compose->us, 74748);
  ASSERT_EQ(fi.graphs.size(), 1u);
  ASSERT_TRUE(fi.graphs[0].finalize);
  EXPECT_EQ(fi.graphs[0].finalize->us, 256372);
  EXPECT_TRUE(fi.init_spans_compose_and_finalize);
  EXPECT_EQ(fi.init_alone_us, 38);
  ASSERT_TRUE(fi.graphs[0].cold_execute);
  EXPECT_EQ(fi.graphs[0].cold_execute->us, 2900);
  EXPECT_EQ(fi.total_us, 334058);
}

TEST(FirstInference, MissingPhasesAreNamed) {
  htpscope::Run run;
  run.graphs.push_back({"g", Source::kProfile, 1});
  ExecutionRow e;
  e.netrun_us = 12;
  e.block = 99;  // no block: no power-on figures
  run.executions.push_back(e);
  FirstInference fi = ComputeFirstInference(run);
  EXPECT_EQ(fi.total_us, 12);
  EXPECT_EQ(fi.missing, (std::vector<std::string>{"init", "compose", "finalize"}));
  EXPECT_FALSE(fi.empty());
}

TEST(FirstInference, NothingPrintedIsEmpty) {
  htpscope::Run run;
  FirstInference fi = ComputeFirstInference(run);
  EXPECT_TRUE(fi.empty());
  EXPECT_FALSE(fi.total_us);
}

// The real pair, figures read off the CSVs: INIT spans compose and finalize
// (prefill 224,589 = 52 + 158,577 + 65,960; decode 243,917 = 122 + 188,552 +
// 55,243, the logs' spans), so prefill 224,589 + 8,540 = 233,129 µs and
// decode 243,917 + 7,499 = 251,416 µs to the first inference.  Steady medians of power-on / VTCM
// acquire over executions 2..10: prefill 102 / 495 µs, decode 94 / 429 µs.
TEST(FirstInference, CorpusQnnNetRunPairSkipsWithoutCorpus) {
  HTPSCOPE_REQUIRE_QNN_NET_RUN_CORPUS();
  // The figures are views of the run: it is kept while they are read.
  const htpscope::Run prefill_run = LoadRun({testing_support::QnnNetRunCsv("prefill")});
  FirstInference prefill = ComputeFirstInference(prefill_run);
  ASSERT_EQ(prefill.graphs.size(), 1u);
  const GraphFirstInference& p = prefill.graphs[0];
  EXPECT_EQ(prefill.init->us, 224589);
  EXPECT_EQ(prefill.compose->us, 158577);
  EXPECT_EQ(p.finalize->us, 65960);
  ASSERT_EQ(p.finalize_stages.size(), 8u);
  EXPECT_EQ(p.finalize_stages[1].name, "Graph Optimizations");
  EXPECT_EQ(p.finalize_stages[1].us, 40652);
  EXPECT_EQ(p.cold_execute->us, 8540);
  EXPECT_EQ(p.power_on_us, 38444);
  EXPECT_EQ(p.vtcm_acquire_us, 722);
  EXPECT_EQ(p.steady_power_on_us, 102);
  EXPECT_EQ(p.steady_vtcm_acquire_us, 495);
  EXPECT_TRUE(prefill.init_spans_compose_and_finalize);
  EXPECT_EQ(prefill.init_alone_us, 52);
  EXPECT_EQ(prefill.total_us, 233129);
  EXPECT_EQ(prefill.deinit->us, 31695);
  EXPECT_DOUBLE_EQ(prefill.inferences_per_second.value_or(0), 180.141235);

  const htpscope::Run decode_run = LoadRun({testing_support::QnnNetRunCsv("decode")});
  FirstInference decode = ComputeFirstInference(decode_run);
  ASSERT_EQ(decode.graphs.size(), 1u);
  EXPECT_EQ(decode.graphs[0].finalize_stages.size(), 8u);
  EXPECT_EQ(decode.graphs[0].steady_power_on_us, 94);
  EXPECT_EQ(decode.graphs[0].steady_vtcm_acquire_us, 429);
  EXPECT_EQ(decode.init_alone_us, 122);
  EXPECT_EQ(decode.total_us, 251416);
}

}  // namespace
}  // namespace htpscope::first_inference_test
