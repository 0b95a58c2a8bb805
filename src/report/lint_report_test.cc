#include "report/lint_report.h"

#include <gtest/gtest.h>

#include "formats/linting_example_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::lint_report_test {
namespace {

using testing_support::kLintingExampleOps;

bool Contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

// formats.md §5.2b with a second graph, to check selection.
const std::string kTwoGraphs = R"(Execute Stats (Average):
------------------------
Total Inference Time:
---------------------
Graph 0 (encoder):
   Backend (Accelerator (critical path execute) time (cycles)): 1000000  cycles
)" + kLintingExampleOps + R"(Graph 1 (decoder):
   Backend (Accelerator (critical path execute) time (cycles)): 2000  cycles
      dec_div:OpId_9 (cycles): 2000  cycles
            Wait (Scheduler) time: 0  cycles
            Overlap time: 0  cycles
            Resources: HVX
)";

TEST(LintReport, JsonSchemaAndSelection) {
  LintAnalysis a = AnalyzeLint(testing_support::RunOfText("lint.txt", kTwoGraphs));
  ASSERT_EQ(a.graphs.size(), 2u);
  nlohmann::json j = LintToJson(a);
  EXPECT_EQ(j["schema"], "htpscope.lint/1");
  EXPECT_EQ(j["format"], "text");
  EXPECT_EQ(j["selected_graph"], 0);
  EXPECT_EQ(j["critical_path_cycles"], 1000000);
  ASSERT_EQ(j["ops"].size(), 4u);
  const auto& mul = j["ops"][2];
  EXPECT_EQ(mul["name"], "net_mul_mul:OpId_30");
  EXPECT_EQ(mul["cycles"], 600000);
  EXPECT_DOUBLE_EQ(mul["share_pct"].get<double>(), 60.0);
  EXPECT_EQ(mul["wait_cycles"], 0);
  EXPECT_EQ(mul["overlap_cycles"], 60000);
  EXPECT_DOUBLE_EQ(mul["overlap_pct"].get<double>(), 10.0);
  EXPECT_EQ(mul["exposed_cycles"], 540000);
  EXPECT_EQ(mul["resources"], nlohmann::json::array({"HVX"}));
  EXPECT_EQ(mul["overlap_ops"], nlohmann::json::array({"net_conv1_Conv2D:OpId_20"}));
  EXPECT_EQ(mul["hints"][0]["rule"], "hvx_only_low_overlap");
  EXPECT_TRUE(j["ops"][0]["overlap_pct"].is_null());  // Input ran 0 cycles
  ASSERT_EQ(j["bottlenecks"].size(), 3u);
  EXPECT_EQ(j["bottlenecks"][0]["rank"], 1);
  EXPECT_EQ(j["bottlenecks"][0]["name"], "net_mul_mul:OpId_30");
  EXPECT_EQ(j["bottlenecks"][0]["reason"], "60.0 % of critical path, 10.0 % overlapped, HVX only");
  ASSERT_EQ(j["graphs"].size(), 2u);
  EXPECT_EQ(j["graphs"][0]["name"], "Execute Stats (Average) / Graph 0 (encoder)");
  EXPECT_EQ(j["graphs"][0]["consistency"]["difference_cycles"], 0);
  EXPECT_EQ(j["graphs"][0]["consistency"]["agree"], true);
  EXPECT_EQ(j["graphs"][1]["graph"], "Graph 1 (decoder)");

  nlohmann::json second = LintToJson(a, 1);
  EXPECT_EQ(second["selected_graph"], 1);
  EXPECT_EQ(second["critical_path_cycles"], 2000);
  ASSERT_EQ(second["ops"].size(), 1u);
  EXPECT_EQ(second["ops"][0]["name"], "dec_div:OpId_9");
  EXPECT_EQ(second["ops"][0]["op_kind"], "Div");
  EXPECT_EQ(second["ops"][0]["op_kind_source"], "name");
}

TEST(LintReport, TextKeepsGraphsApartAndLabelsHints) {
  LintAnalysis a = AnalyzeLint(testing_support::RunOfText("lint.txt", kTwoGraphs));
  LintReportOptions options;
  options.rows = 2;
  std::string text = RenderLintText(a, options);
  EXPECT_TRUE(Contains(text, "Execute Stats (Average) / Graph 0 (encoder)\n")) << text;
  EXPECT_TRUE(Contains(text, "Execute Stats (Average) / Graph 1 (decoder)\n")) << text;
  EXPECT_TRUE(Contains(text, "Ops by exposed main-thread cycles (2 of 4):")) << text;
  EXPECT_TRUE(Contains(text,
                       "    1. net_mul_mul:OpId_30  540,000 exposed cycles — 60.0 % of critical "
                       "path, 10.0 % overlapped, HVX only\n"))
      << text;
  EXPECT_TRUE(Contains(text,
                       "Consistency: op cycles 999,960 + waits 40 = 1,000,000 vs critical path "
                       "1,000,000: difference 0 cycles (0.00 %) [agree]"))
      << text;
  EXPECT_TRUE(Contains(text, "hint [hvx_only_low_overlap]:")) << text;
  EXPECT_TRUE(Contains(text, "hints are suggestions")) << text;
  // The decoder's Div takes 100 % of its graph with no overlap.
  EXPECT_TRUE(Contains(text, "hint [sub_div_on_critical_path]:")) << text;
}

}  // namespace
}  // namespace htpscope::lint_report_test
