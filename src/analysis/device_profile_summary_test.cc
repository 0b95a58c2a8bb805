// AI Hub and Genie summaries of profiles, and ExecuTorch runner logs'
// summaries, written from their definitions; every expected figure is
// computed here from the values the test files hold
// (src/formats/testdata/aihub_profile.json, genie_profile.json,
// llm_runner_stats.log, and logs written by the tests).
#include "analysis/device_profile_summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "base/corpus_test_util.h"
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

// The three stats lines of llm_runner_stats.log, as written (ms).
struct RunnerLine {
  int64_t load_start, load_end, start, prompt_eval_end, first_token, end, sampling;
};
constexpr int64_t kBase = 93450000;
constexpr RunnerLine kRunnerLines[] = {
    {kBase + 120, kBase + 2098, kBase + 2101, kBase + 2315, kBase + 2315, kBase + 5344, 41},
    {kBase + 120, kBase + 2098, kBase + 5400, kBase + 5561, kBase + 5561, kBase + 8350, 80},
    {kBase + 120, kBase + 2098, kBase + 8400, kBase + 8558, kBase + 8558, kBase + 11290, 118},
};
constexpr double kPromptTokens = 27, kGeneratedTokens = 96;

double MedianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

TEST(LlmRunnerSummary, EachGenerationByTheRunnersDefinitionsColdApartFromSteady) {
  htpscope::Run run = LoadRun({ProfileTestdata("llm_runner_stats.log")});
  ASSERT_TRUE(run.llm_runner);
  EXPECT_TRUE(run.OnlyDeviceProfiles());
  EXPECT_TRUE(run.missing.empty());
  EXPECT_TRUE(run.Gives(RunData::kLlmRunnerStats));
  const LlmRunnerStatsTables& t = *run.llm_runner;
  ASSERT_EQ(t.generations.size(), 3u);
  std::vector<double> ttft, prefill, prefill_rate, decode, decode_rate, total;
  for (size_t i = 0; i < 3; ++i) {
    const RunnerLine& l = kRunnerLines[i];
    const LlmGenerationRow& g = t.generations[i];
    EXPECT_EQ(g.generation, i + 1);
    // ms → µs: × 1000 (SCALING_FACTOR_UNITS_PER_SECOND 1000).
    EXPECT_EQ(g.inference_start_us, l.start * 1000);
    EXPECT_EQ(g.model_load_us, (l.load_end - l.load_start) * 1000);
    EXPECT_EQ(g.prefill_us, (l.prompt_eval_end - l.start) * 1000);
    EXPECT_EQ(g.ttft_us, (l.first_token - l.start) * 1000);
    EXPECT_EQ(g.decode_us, (l.end - l.prompt_eval_end) * 1000);
    EXPECT_EQ(g.inference_us, (l.end - l.start) * 1000);
    EXPECT_EQ(g.sampling_us, l.sampling * 1000);
    const double prefill_s = static_cast<double>(l.prompt_eval_end - l.start) / 1000;
    const double decode_s = static_cast<double>(l.end - l.prompt_eval_end) / 1000;
    EXPECT_DOUBLE_EQ(*g.prefill_rate_tps, kPromptTokens / prefill_s);
    EXPECT_DOUBLE_EQ(*g.decode_rate_tps, kGeneratedTokens / decode_s);
    if (i == 0) continue;
    ttft.push_back(static_cast<double>(l.first_token - l.start) * 1000);
    prefill.push_back(static_cast<double>(l.prompt_eval_end - l.start) * 1000);
    prefill_rate.push_back(kPromptTokens / prefill_s);
    decode.push_back(static_cast<double>(l.end - l.prompt_eval_end) * 1000);
    decode_rate.push_back(kGeneratedTokens / decode_s);
    total.push_back(static_cast<double>(l.end - l.start) * 1000);
  }
  const LlmRunnerSummary s = SummarizeLlmRunner(t);
  ASSERT_EQ(s.cold, &t.generations[0]);
  EXPECT_EQ(s.cold->ttft_us, 214000);   // 2315 − 2101 ms
  EXPECT_EQ(s.model_load_us, 1978000);  // 2098 − 120 ms
  EXPECT_EQ(s.model_load_generation, 1u);
  ASSERT_TRUE(s.steady);
  EXPECT_EQ(s.steady->first, 2);
  EXPECT_EQ(s.steady->last, 3);
  EXPECT_DOUBLE_EQ(s.steady->ttft_us->median, MedianOf(ttft));  // (161 + 158) / 2 ms
  EXPECT_DOUBLE_EQ(s.steady->ttft_us->min, 158000);
  EXPECT_DOUBLE_EQ(s.steady->ttft_us->max, 161000);
  EXPECT_DOUBLE_EQ(s.steady->prefill_us->median, MedianOf(prefill));
  EXPECT_DOUBLE_EQ(s.steady->prefill_rate_tps->median, MedianOf(prefill_rate));
  EXPECT_DOUBLE_EQ(s.steady->decode_us->median, MedianOf(decode));
  EXPECT_DOUBLE_EQ(s.steady->decode_rate_tps->median, MedianOf(decode_rate));
  EXPECT_DOUBLE_EQ(s.steady->inference_us->median, MedianOf(total));
  EXPECT_EQ(s.steady->decode_rate_tps->n, 2);
  // Generations 2 and 3 repeat generation 1's load: said, not counted as loads.
  bool repeated = false;
  for (const auto& n : s.notes) repeated |= n.find("2 later generations repeat") == 0;
  EXPECT_TRUE(repeated);
}

std::string WriteLog(const std::string& name, const std::string& text) {
  const std::string path = testing_support::TempDir(name) + "/run.log";
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(LlmRunnerSummary, OlderFieldsResetLoadsDisorderAndOtherScales) {
  // An older runner (four fields), a generation after a warmup's reset (load
  // 0 and 0), one whose first_token precedes inference_start, and one in µs.
  const std::string log =
      "PyTorchObserver {\"prompt_tokens\":8,\"generated_tokens\":30,"
      "\"inference_start_ms\":1000,\"prompt_eval_end_ms\":1040}\n"
      "PyTorchObserver {\"prompt_tokens\":8,\"generated_tokens\":30,\"model_load_start_ms\":0,"
      "\"model_load_end_ms\":0,\"inference_start_ms\":2000,\"inference_end_ms\":2600,"
      "\"prompt_eval_end_ms\":2050,\"first_token_ms\":1990,\"aggregate_sampling_time_ms\":3,"
      "\"SCALING_FACTOR_UNITS_PER_SECOND\":1000}\n"
      "PyTorchObserver {\"prompt_tokens\":8,\"generated_tokens\":30,\"model_load_start_ms\":5,"
      "\"model_load_end_ms\":5,\"inference_start_ms\":3000000,\"inference_end_ms\":3500000,"
      "\"prompt_eval_end_ms\":3040000,\"first_token_ms\":3041000,"
      "\"SCALING_FACTOR_UNITS_PER_SECOND\":1000000}\n";
  htpscope::Run run = LoadRun({WriteLog("llm_summary_mixed", log)});
  ASSERT_TRUE(run.llm_runner);
  const auto& g = run.llm_runner->generations;
  ASSERT_EQ(g.size(), 3u);
  // The older line: prefill and its rate only.
  EXPECT_EQ(g[0].prefill_us, 40000);
  EXPECT_DOUBLE_EQ(*g[0].prefill_rate_tps, 8 / 0.040);
  EXPECT_FALSE(g[0].ttft_us);
  EXPECT_FALSE(g[0].decode_us);
  EXPECT_FALSE(g[0].decode_rate_tps);
  EXPECT_FALSE(g[0].inference_us);
  EXPECT_FALSE(g[0].model_load_us);
  EXPECT_FALSE(g[0].sampling_us);
  // Reset load: absent; TTFT before the start: absent, the rest given.
  EXPECT_FALSE(g[1].model_load_us);
  EXPECT_FALSE(g[1].ttft_us);
  EXPECT_EQ(g[1].decode_us, 550000);
  EXPECT_DOUBLE_EQ(*g[1].decode_rate_tps, 30 / 0.550);
  // µs units: 1 unit = 1 µs; a load of 0 µs between two non-zero stamps is one.
  EXPECT_EQ(g[2].units_per_second, 1000000);
  EXPECT_EQ(g[2].ttft_us, 41000);
  EXPECT_EQ(g[2].decode_us, 460000);
  EXPECT_EQ(g[2].model_load_us, 0);
  const LlmRunnerSummary s = SummarizeLlmRunner(*run.llm_runner);
  EXPECT_EQ(s.model_load_us, 0);
  EXPECT_EQ(s.model_load_generation, 3u);
  // Steady state over generations 2..3, each figure over the lines that give it.
  EXPECT_EQ(s.steady->ttft_us->n, 1);
  EXPECT_DOUBLE_EQ(s.steady->ttft_us->median, 41000);
  EXPECT_DOUBLE_EQ(s.steady->decode_us->median, (550000.0 + 460000.0) / 2);
  std::string notes;
  for (const auto& n : s.notes) notes += n + "\n";
  EXPECT_NE(notes.find("TTFT of generation 2 (line 2)"), std::string::npos) << notes;
  EXPECT_NE(notes.find("1 generation with model_load_start_ms = model_load_end_ms = 0"),
            std::string::npos)
      << notes;
  EXPECT_NE(notes.find("older runners print fewer"), std::string::npos) << notes;
}

}  // namespace
}  // namespace htpscope::device_profile_summary_test
