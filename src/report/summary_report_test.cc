#include "report/summary_report.h"

#include <gtest/gtest.h>

#include "analysis/summary.h"
#include "model/fake_run_test_util.h"

namespace htpscope::summary_report_test {
namespace {

// Two executions of one graph in a viewer's text, each listing two nodes.
constexpr char kTwoExecutions[] = R"(Execute Stats (Overall):
---------------------
Execute Stat 1:
    QNN accelerator (execute) time: 900 us
    Accelerator (execute) time: 800 us
    Accelerator (execute) time (cycles): 1000000 cycles
        conv_a:OpId_5 (cycles) : 60000  cycles
        conv_b:OpId_6 (cycles) : 2000  cycles
Execute Stat 2:
    QNN accelerator (execute) time: 500 us
    Accelerator (execute) time: 450 us
    Accelerator (execute) time (cycles): 700000 cycles
        conv_a:OpId_5 (cycles) : 6000  cycles
        conv_b:OpId_6 (cycles) : 1900  cycles
)";

TEST(SummaryReport, OpWarmupInTextAndJson) {
  htpscope::Run run = testing_support::RunOfText("profile.txt", kTwoExecutions);
  Summary s = Summarize(run);
  std::string text = RenderSummaryText(s, 10);
  EXPECT_NE(text.find("Per-op warm-up"), std::string::npos) << text;
  EXPECT_NE(text.find("conv_a                                    60,000         6,000"),
            std::string::npos)
      << text;
  nlohmann::json j = SummaryToJson(s);
  ASSERT_EQ(j["op_warmup"].size(), 2u);
  EXPECT_EQ(j["op_warmup"][0]["name"], "conv_a");  // 54,000 cycles beyond execution 2
  EXPECT_EQ(j["op_warmup"][0]["cold_cycles"], 60000);
  EXPECT_EQ(j["op_warmup"][0]["warm_cycles"], 6000);
  EXPECT_TRUE(j["op_warmup"][0]["steady_median_cycles"].is_null());
  EXPECT_EQ(j["op_warmup"][1]["op_id"], 6);
}

}  // namespace
}  // namespace htpscope::summary_report_test
