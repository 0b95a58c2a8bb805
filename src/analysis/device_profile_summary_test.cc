// AI Hub and Genie summaries of profiles written from their definitions;
// every expected figure is computed here from the values the test files
// hold (src/formats/testdata/aihub_profile.json, genie_profile.json).
#include "analysis/device_profile_summary.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "base/test_paths.h"
#include "model/run.h"

namespace htpscope::device_profile_summary_test {
namespace {

std::string ProfileTestdata(const std::string& name) {
  return std::string(HTPSCOPE_SOURCE_DIR) + "/src/formats/testdata/" + name;
}

// The layers of aihub_profile.json: unit and execution_time (-1: none).
struct Layer {
  const char* unit;
  int64_t time_us;
};
constexpr Layer kLayers[] = {{"NPU", 12}, {"NPU", 410},  {"NPU", 35},   {"NPU", 388},
                             {"CPU", 23}, {"GPU", 1250}, {"CPU", 2900}, {"NPU", -1}};

TEST(AihubSummary, CoverageByCountAndByTimeAndTheFallbacks) {
  htpscope::Run run = LoadRun({ProfileTestdata("aihub_profile.json")});
  ASSERT_TRUE(run.aihub);
  EXPECT_TRUE(run.OnlyDeviceProfiles());
  EXPECT_TRUE(run.missing.empty());
  const AihubSummary s = SummarizeAihub(*run.aihub);
  int64_t all = 0, timed = 0, sum = 0, npu = 0, npu_time = 0, cpu_time = 0;
  for (const Layer& l : kLayers) {
    ++all;
    if (std::string(l.unit) == "NPU") ++npu;
    if (l.time_us < 0) continue;
    ++timed;
    sum += l.time_us;
    if (std::string(l.unit) == "NPU") npu_time += l.time_us;
    if (std::string(l.unit) == "CPU") cpu_time += l.time_us;
  }
  EXPECT_EQ(s.layers, all);
  EXPECT_EQ(s.timed_layers, timed);
  EXPECT_EQ(s.layer_time_us, sum);
  ASSERT_GE(s.coverage.size(), 3u);
  EXPECT_EQ(s.coverage[0].unit, "NPU");
  EXPECT_EQ(s.coverage[0].layers, npu);
  EXPECT_EQ(s.coverage[0].time_us, npu_time);
  EXPECT_DOUBLE_EQ(*s.npu_layers_pct, 100.0 * npu / all);     // 62.5 %
  EXPECT_DOUBLE_EQ(*s.npu_time_pct, 100.0 * npu_time / sum);  // 16.8 %: CPU dominates
  EXPECT_EQ(s.coverage[2].unit, "CPU");
  EXPECT_EQ(s.coverage[2].time_us, cpu_time);
  EXPECT_DOUBLE_EQ(*s.coverage[2].time_pct, 100.0 * cpu_time / sum);
  EXPECT_EQ(s.fallback_layers, all - npu);
  EXPECT_EQ(s.fallback_time_us, sum - npu_time);
  EXPECT_DOUBLE_EQ(*s.fallback_time_pct, 100.0 * (sum - npu_time) / sum);
  ASSERT_EQ(s.fallbacks.size(), 3u);
  EXPECT_EQ(s.fallbacks[0].layer->name, "model/tf.math.divide/truediv");
  EXPECT_EQ(s.fallbacks[2].layer->name, "softmax");
  EXPECT_DOUBLE_EQ(*s.fallbacks[2].time_pct, 100.0 * 2900 / sum);
  // The repeated name keeps its order.
  EXPECT_EQ(run.aihub->layers[1].occurrence, 1u);
  EXPECT_EQ(run.aihub->layers[3].occurrence, 2u);
}

TEST(AihubSummary, ColdRunApartFromTheSteadyStateBesideTheEstimate) {
  htpscope::Run run = LoadRun({ProfileTestdata("aihub_profile.json")});
  const AihubSummary s = SummarizeAihub(*run.aihub);
  const std::vector<double> all = {10003, 4205, 4180, 4230, 4198};
  ASSERT_NE(s.inference, nullptr);
  EXPECT_EQ(s.inference->row->time_us, 3652);  // the estimate, as written
  EXPECT_EQ(s.inference->cold_us, 10003);
  ASSERT_TRUE(s.inference->steady_us);
  std::vector<double> steady(all.begin() + 1, all.end());
  std::sort(steady.begin(), steady.end());  // 4180 4198 4205 4230
  EXPECT_DOUBLE_EQ(s.inference->steady_us->median, (steady[1] + steady[2]) / 2);
  EXPECT_DOUBLE_EQ(s.inference->steady_us->min, 4180);
  EXPECT_DOUBLE_EQ(s.inference->steady_us->max, 4230);
  EXPECT_EQ(s.inference->steady_us->n, 4);
  const AihubStageRow* first = run.aihub->Stage("first_load");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->peak_lower_bytes, 98230272);
  EXPECT_EQ(first->peak_upper_bytes, 108003248);
  EXPECT_EQ(first->samples, 2u);
  EXPECT_FALSE(run.aihub->Stage("compile")->peak_lower_bytes);  // null range
}

TEST(AihubSummary, OlderLayoutsSayWhatTheyLack) {
  htpscope::Run v0 = LoadRun({ProfileTestdata("aihub_profile_v0.json")});
  const AihubSummary s = SummarizeAihub(*v0.aihub);
  EXPECT_FALSE(s.inference->cold_us);
  EXPECT_FALSE(s.inference->steady_us);
  EXPECT_FALSE(s.layer_time_us);
  EXPECT_FALSE(s.npu_time_pct);
  EXPECT_DOUBLE_EQ(*s.npu_layers_pct, 100.0 * 2 / 3);
  EXPECT_EQ(v0.aihub->layers[0].compute_unit, "NPU");  // prefix removed
  bool said = false;
  for (const auto& n : s.notes) said |= n.find("coverage by time is unknown") != std::string::npos;
  EXPECT_TRUE(said);
  htpscope::Run tetra = LoadRun({ProfileTestdata("aihub_profile_tetra.json")});
  EXPECT_EQ(tetra.aihub->layout, "tetra_hub");
  EXPECT_EQ(SummarizeAihub(*tetra.aihub).fallback_layers, 1);
}

TEST(GenieSummary, PerDialogColdQueryApartFromTheSteadyState) {
  htpscope::Run run = LoadRun({ProfileTestdata("genie_profile.json")});
  ASSERT_TRUE(run.genie);
  const GenieSummary s = SummarizeGenie(*run.genie);
  ASSERT_EQ(s.components.size(), 1u);
  const GenieComponentSummary& c = s.components[0];
  EXPECT_EQ(c.init_us, 1180345);
  EXPECT_EQ(c.create_us, 1184210);
  EXPECT_EQ(c.free_us, 152000);
  ASSERT_EQ(c.queries.size(), 3u);
  EXPECT_TRUE(c.queries[0].cold);
  EXPECT_EQ(c.queries[0].ttft_us, 29090);
  EXPECT_EQ(c.queries[0].prompt_tokens, 12);
  EXPECT_EQ(c.queries[0].generated_tokens, 100);
  EXPECT_DOUBLE_EQ(*c.queries[1].generation_rate_tps, 23.9);
  EXPECT_DOUBLE_EQ(*c.queries[2].token_acceptance_rate, 2.4);
  ASSERT_TRUE(c.steady);
  EXPECT_EQ(c.steady->first, 2);
  EXPECT_EQ(c.steady->last, 3);
  EXPECT_DOUBLE_EQ(c.steady->ttft_us->median, (25100.0 + 24800.0) / 2);
  EXPECT_DOUBLE_EQ(c.steady->generation_rate_tps->median, (23.9 + 24.2) / 2);
  EXPECT_DOUBLE_EQ(c.steady->prompt_rate_tps->median, (478.1 + 483.9) / 2);
  EXPECT_DOUBLE_EQ(c.steady->duration_us->median, (4620000.0 + 4580000.0) / 2);
}

}  // namespace
}  // namespace htpscope::device_profile_summary_test
