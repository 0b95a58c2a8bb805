#include "report/summary_hardware.h"

#include <gtest/gtest.h>

#include "base/corpus_test_util.h"
#include "model/fake_qhas_test_util.h"
#include "model/fake_run_test_util.h"
#include "report/html_report.h"
#include "report/summary_report.h"

namespace htpscope::summary_hardware_test {
namespace {

using testing_support::FakeRun;
using testing_support::OptraceJson;

// conv: HMX [0, 100) then ForceFormat on HVX [50, 150) (on the path 100..150);
// idle [150, 200); Input: DMA [200, 230) and its wait [230, 250).
htpscope::Run SmallRun() {
  return FakeRun(
      OptraceJson({{0x100000000001, "conv", "q::Conv", "uses_hmx", 256, 0, 100},
                   {0x100100000001, "conv", "q::ForceFormat_Crouton", "uses_hvx", 512, 50, 100},
                   {0x100200000002, "Input", "q::*InputSlice", "dma", 256, 200, 30},
                   {0x100300000002, "Input", "DmaCheckpointWait", "dma_wait", 256, 230, 20}}),
      "");
}

TEST(SummaryHardware, PathByUnitAndRollupInJson) {
  htpscope::Run run = SmallRun();
  nlohmann::json j = SummaryToJson(Summarize(run));
  const auto& p = j["dominant_path_by_unit"];
  EXPECT_EQ(p["source"], "reconstructed");
  EXPECT_EQ(p["path_cycles"], 250);
  EXPECT_EQ(p["total"]["hmx_cycles"], 100);
  EXPECT_EQ(p["total"]["hvx_cycles"], 50);
  EXPECT_EQ(p["total"]["dma_cycles"], 30);
  EXPECT_EQ(p["total"]["dma_wait_cycles"], 20);
  EXPECT_EQ(p["total"]["idle_cycles"], 50);
  EXPECT_DOUBLE_EQ(p["share_of_path"]["hmx_pct"].get<double>(), 40.0);
  ASSERT_EQ(p["ops"].size(), 2u);
  EXPECT_EQ(p["ops"][0]["name"], "conv");
  EXPECT_EQ(p["ops"][0]["path_cycles"], 150);
  EXPECT_FALSE(p["ops"][0].contains("idle_cycles"));
  const auto& r = j["op_rollup"];
  EXPECT_EQ(r["total"]["compute_work_cycles"], 100);
  EXPECT_EQ(r["total"]["staging_work_cycles"], 100);
  EXPECT_EQ(r["total"]["dma_work_cycles"], 50);
  EXPECT_EQ(r["total"]["work_cycles"], 250);
  EXPECT_EQ(r["ops"][0]["name"], "conv");
  EXPECT_DOUBLE_EQ(r["ops"][0]["staging_share_of_work_pct"].get<double>(), 50.0);
  EXPECT_TRUE(j["qhas_cores"].empty());
}

TEST(SummaryHardware, PathByUnitAndRollupInText) {
  htpscope::Run run = SmallRun();
  std::string text = RenderSummaryText(Summarize(run), 10);
  EXPECT_NE(text.find("Dominant path by hardware (recomputed from the optrace"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  HMX                      100     40.0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  idle                      50     20.0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  total                    250    100.0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Compute / staging / DMA per QNN op"), std::string::npos) << text;
  EXPECT_NE(text.find("    all ops"), std::string::npos) << text;
}

TEST(SummaryHardware, TwoCoresListedInTextAndJson) {
  testing_support::FakeQhasCore c0{0, 1000, 10.0, {{"HMX", 256, 900}, {"HVX", 512, 100}}, {}};
  c0.path = {{0x11, 0, 900}, {0, 900, 1000}};
  testing_support::FakeQhasCore c1{1, 600, 25.0, {{"HMX", 256, 300}, {"HVX", 512, 450}}, {}};
  c1.path = {{0x21, 5000, 5450}, {0, 5450, 5600}};
  std::vector<testing_support::FakeQhasInstance> rows = {
      {0x11, "q::MatMul", "a", "hmx", 256, 0, 900, 900},
      {0x21, "q::MatMul", "b", "hmx", 256, 5000, 450, 450}};
  rows[1].htp = 1;
  htpscope::Run run = FakeRun("", "", testing_support::FakeQhasJson({c0, c1}, rows));
  Summary s = Summarize(run);
  nlohmann::json j = SummaryToJson(s);
  ASSERT_EQ(j["qhas_cores"].size(), 2u);
  EXPECT_EQ(j["qhas_cores"][1]["core"], 1);
  EXPECT_EQ(j["qhas_cores"][1]["timeline_cycles"], 600);
  EXPECT_EQ(j["qhas_cores"][1]["path_op_cycles"], 450);
  EXPECT_EQ(j["qhas_cores"][1]["path_idle_cycles"], 150);
  EXPECT_DOUBLE_EQ(j["qhas_cores"][1]["hmx_utilization_pct"].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(j["qhas_cores"][1]["busiest_hvx_utilization_pct"].get<double>(), 75.0);
  std::string text = RenderSummaryText(s, 10);
  EXPECT_NE(text.find("HTP cores (QHAS"), std::string::npos) << text;
  EXPECT_NE(text.find("     1             600    75.0           450          150"),
            std::string::npos)
      << text;
}

// QNN op a reads 400 bytes from DRAM and 1,000 from VTCM (hit 1000 ÷ 1400 =
// 71.43 %), b 500 from VTCM only (100 %); all ops 1500 ÷ 1900 = 78.95 %.
htpscope::Run TrafficRun() {
  testing_support::FakeQhasCore c0{0, 1000, 0.0, {{"HMX", 256, 1000}}, {}};
  std::vector<testing_support::FakeQhasInstance> rows = {
      {0x11, "q::Conv", "a", "hmx", 256, 0, 400, 400, 300, 900},
      {0x12, "q::Conv", "a", "hmx", 256, 400, 300, 300, 100, 100},
      {0x21, "q::Add", "b", "hvx", 512, 700, 300, 300, 0, 500}};
  return FakeRun("", "", testing_support::FakeQhasJson({c0}, rows));
}

TEST(SummaryHardware, VtcmReadHitsInJson) {
  htpscope::Run run = TrafficRun();
  nlohmann::json j = SummaryToJson(Summarize(run));
  const auto& h = j["vtcm_read_hits"];
  EXPECT_EQ(h["source"], "qhas");
  EXPECT_EQ(h["dram_read_bytes"], 400);
  EXPECT_EQ(h["vtcm_read_bytes"], 1500);
  EXPECT_NEAR(h["vtcm_read_hit_pct"].get<double>(), 1500.0 / 1900 * 100, 1e-9);
  ASSERT_EQ(h["ops"].size(), 2u);
  EXPECT_EQ(h["ops"][0]["name"], "a");
  EXPECT_EQ(h["ops"][0]["instances"], 2);
  EXPECT_EQ(h["ops"][0]["dram_read_bytes"], 400);
  EXPECT_EQ(h["ops"][0]["vtcm_read_bytes"], 1000);
  EXPECT_NEAR(h["ops"][0]["vtcm_read_hit_pct"].get<double>(), 1000.0 / 1400 * 100, 1e-9);
  EXPECT_DOUBLE_EQ(h["ops"][0]["dram_share_pct"].get<double>(), 100.0);
  EXPECT_EQ(h["ops"][1]["name"], "b");
  EXPECT_DOUBLE_EQ(h["ops"][1]["vtcm_read_hit_pct"].get<double>(), 100.0);
  // Without per-op traffic the key is null.
  EXPECT_TRUE(SummaryToJson(Summarize(SmallRun()))["vtcm_read_hits"].is_null());
}

TEST(SummaryHardware, VtcmReadHitsInText) {
  htpscope::Run run = TrafficRun();
  std::string text = RenderSummaryText(Summarize(run), 10);
  EXPECT_NE(text.find("VTCM read hit ratio per QNN op, in bytes (QHAS htp_op_instances)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  all ops: VTCM served 78.9 % of the bytes read (VTCM read 1,500 (1.5 KiB), "
                      "DRAM read 400 (400 B))\n"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find("    a                                         400          1,000        71.4 "
                "  100.0\n"),
      std::string::npos)
      << text;
  EXPECT_NE(
      text.find("    b                                           0            500       100.0 "
                "    0.0\n"),
      std::string::npos)
      << text;
}

// Figures from a short python script over the corpus QHAS htp_op_instances:
// Σ vtcm_read 2,113,536 and Σ dram_read 591,872 (78.12 %); Input reads
// 524,288 bytes from each (50 %), the most from DRAM, then $Const_11 65,536
// (Output, which writes as many DRAM bytes as Input reads, reads none).
TEST(SummaryHardwareCorpus, V8c8VtcmReadHits) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("v8c8_256")});
  nlohmann::json h = SummaryToJson(Summarize(run))["vtcm_read_hits"];
  EXPECT_EQ(h["source"], "qhas");
  EXPECT_EQ(h["vtcm_read_bytes"], 2113536);
  EXPECT_EQ(h["dram_read_bytes"], 591872);
  EXPECT_NEAR(h["vtcm_read_hit_pct"].get<double>(), 78.1226, 1e-4);
  EXPECT_EQ(h["ops"][0]["name"], "Input");
  EXPECT_EQ(h["ops"][0]["dram_read_bytes"], 524288);
  EXPECT_DOUBLE_EQ(h["ops"][0]["vtcm_read_hit_pct"].get<double>(), 50.0);
  EXPECT_EQ(h["ops"][1]["name"], "$Const_11");
  EXPECT_EQ(h["ops"][1]["dram_read_bytes"], 65536);
  EXPECT_DOUBLE_EQ(h["ops"][1]["vtcm_read_hit_pct"].get<double>(), 0.0);
}

// The HTML report keeps at most max_table_rows per-op rows of each table,
// with the total beside them.
TEST(SummaryHardware, HtmlModelCapsThePerOpRows) {
  std::vector<testing_support::FakeSlice> slices;
  for (int i = 0; i < 30; ++i)
    slices.push_back({0x100000000000u + static_cast<uint64_t>(i), fmt::format("op_{}", i),
                      "q::Conv", "uses_hmx", 256, 10 * i, 10});
  htpscope::Run run = FakeRun(OptraceJson(slices), "");
  HtmlReportOptions options;
  options.max_table_rows = 10;
  nlohmann::json model = BuildReportModel(Summarize(run), options);
  const auto& overview = model["overview"];
  EXPECT_EQ(overview["dominant_path_by_unit"]["ops"].size(), 10u);
  EXPECT_EQ(overview["dominant_path_by_unit"]["ops_total_rows"], 30);
  EXPECT_EQ(overview["dominant_path_by_unit"]["path_cycles"], 300);
  EXPECT_EQ(overview["op_rollup"]["ops"].size(), 10u);
  EXPECT_EQ(overview["op_rollup"]["ops_total_rows"], 30);
  EXPECT_EQ(overview["op_rollup"]["total"]["compute_work_cycles"], 300);
}

}  // namespace
}  // namespace htpscope::summary_hardware_test
