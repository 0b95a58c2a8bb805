// Diffs of AI Hub and Genie profiles and ExecuTorch runner logs written from
// their definitions (examples/docs/aihub, genie, llm_runner): every expected
// figure is computed here from the values the files hold.
#include "analysis/device_profile_diff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>

#include "base/corpus_test_util.h"
#include "base/test_paths.h"
#include "model/figures.h"

namespace htpscope::device_profile_diff_test {
namespace {

std::string Example(const std::string& name) {
  return std::string(HTPSCOPE_SOURCE_DIR) + "/examples/docs/" + name;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

const GateResult Gate(const DeviceProfileDiff& d, const std::string& expr) {
  return EvaluateGate(ParseGate(expr), GateSubjects(d));
}

TEST(AihubDiff, FiguresLayersAndGates) {
  htpscope::Run a = LoadRun({Example("aihub/a.json")});
  htpscope::Run b = LoadRun({Example("aihub/b.json")});
  const DeviceProfileDiff d = DiffAihubRuns({&a}, {&b});
  EXPECT_EQ(d.kind, "aihub");
  const NamedDelta* inf = d.Find("inference_us");
  ASSERT_NE(inf, nullptr);
  const double a_steady = Median({4205, 4180, 4230, 4198});
  const double b_steady = Median({1390, 1402, 1385, 1410});
  EXPECT_DOUBLE_EQ(*inf->delta.a_value(), a_steady);
  EXPECT_DOUBLE_EQ(*inf->delta.b_value(), b_steady);
  EXPECT_DOUBLE_EQ(*inf->delta.change, b_steady - a_steady);
  ASSERT_TRUE(inf->delta.noise_bound);  // 4 samples a side: assessed
  EXPECT_FALSE(inf->delta.within_noise);
  EXPECT_DOUBLE_EQ(*d.Find("cold_inference_us")->delta.change, 7810.0 - 10003.0);
  EXPECT_DOUBLE_EQ(*d.Find("estimated_inference_us")->delta.change, 1102.0 - 3652.0);
  // Coverage by time: A's NPU layers 12+410+35+388 of 5018 µs; B moved softmax (310 µs) to
  // the NPU and resize fell to 1190 µs.
  const double a_sum = 12 + 410 + 35 + 388 + 23 + 1250 + 2900;
  const double b_sum = 12 + 410 + 35 + 388 + 23 + 1190 + 310;
  EXPECT_DOUBLE_EQ(*d.Find("npu_time_pct")->delta.a_value(), 100.0 * 845 / a_sum);
  EXPECT_DOUBLE_EQ(*d.Find("npu_time_pct")->delta.b_value(), 100.0 * (845 + 310) / b_sum);
  EXPECT_DOUBLE_EQ(*d.Find("npu_layers_pct")->delta.b_value(), 100.0 * 6 / 8);
  EXPECT_DOUBLE_EQ(*d.Find("fallback_layers")->delta.change, -1);
  EXPECT_DOUBLE_EQ(*d.Find("fallback_time_us")->delta.b_value(), 23.0 + 1190);
  // Layers: repeated names keep their order; softmax changed unit.
  ASSERT_EQ(d.layers.size(), 8u);
  EXPECT_EQ(d.layers[1].key, "conv1");
  EXPECT_EQ(d.layers[3].key, "conv1#2");
  EXPECT_EQ(d.layers[3].occurrence, 2u);
  const auto softmax = std::find_if(d.layers.begin(), d.layers.end(),
                                    [](const LayerDelta& l) { return l.name == "softmax"; });
  ASSERT_NE(softmax, d.layers.end());
  EXPECT_TRUE(softmax->unit_changed());
  EXPECT_EQ(softmax->a_unit, "CPU");
  EXPECT_EQ(softmax->b_unit, "NPU");
  EXPECT_DOUBLE_EQ(*softmax->time_us.change, 310.0 - 2900);
  // Gates.
  EXPECT_TRUE(Gate(d, "inference_us>+5%").passed);
  EXPECT_FALSE(Gate(d, "inference_us<-5%").passed);  // it fell 67 %
  EXPECT_TRUE(Gate(d, "npu_time_pct<-1").passed);
  const GateResult layer = Gate(d, "layer:resize:time_us<-50");
  EXPECT_FALSE(layer.passed);  // fell by 60 µs
  EXPECT_EQ(Gate(d, "layer:conv1#2:time_us>+0").compared, 1);
}

TEST(AihubDiff, LayersOnOneSideOnlyKeepTheirPlace) {
  htpscope::Run a = LoadRun({Example("aihub/a.json")});
  htpscope::Run b =
      LoadRun({std::string(HTPSCOPE_SOURCE_DIR) + "/src/formats/testdata/aihub_profile_v0.json"});
  const DeviceProfileDiff d = DiffAihubRuns({&a}, {&b});
  // B's three layers first in B's order, A's eight after the B layer they followed (none).
  int added = 0, removed = 0;
  for (const auto& l : d.layers) {
    added += l.status == OpMatch::kAdded;
    removed += l.status == OpMatch::kRemoved;
  }
  EXPECT_EQ(added, 3);
  EXPECT_EQ(removed, 8);
  EXPECT_FALSE(d.Find("inference_us")->delta.b);  // v0 has no all_inference_times
  EXPECT_FALSE(d.notes.empty());
}

TEST(GenieDiff, TtftAndTokenRateGates) {
  htpscope::Run a = LoadRun({Example("genie/a.json")});
  htpscope::Run b = LoadRun({Example("genie/b.json")});
  const DeviceProfileDiff d = DiffGenieRuns({&a}, {&b});
  const NamedDelta* ttft = d.Find("ttft_us");
  ASSERT_NE(ttft, nullptr);
  const double a_ttft = (25100.0 + 24800.0) / 2, b_ttft = (28400.0 + 28100.0) / 2;
  EXPECT_DOUBLE_EQ(*ttft->delta.a_value(), a_ttft);
  EXPECT_DOUBLE_EQ(*ttft->delta.b_value(), b_ttft);
  EXPECT_NEAR(*ttft->delta.change_pct, (b_ttft - a_ttft) / a_ttft * 100, 1e-9);  // +13.2 %
  EXPECT_DOUBLE_EQ(*d.Find("cold_ttft_us")->delta.change, 31800.0 - 29090.0);
  const double a_rate = (23.9 + 24.2) / 2, b_rate = (22.1 + 22.3) / 2;
  EXPECT_NEAR(*d.Find("token_rate")->delta.change_pct, (b_rate - a_rate) / a_rate * 100,
              1e-9);  // −7.7 %
  EXPECT_DOUBLE_EQ(*d.Find("init_us")->delta.a_value(), 1180345);
  EXPECT_FALSE(Gate(d, "ttft_us>+10%").passed);
  EXPECT_FALSE(Gate(d, "token_rate<-5%").passed);
  EXPECT_TRUE(Gate(d, "ttft_us>+20%").passed);
  EXPECT_TRUE(Gate(d, "token_rate<-10%").passed);
}

TEST(GenieDiff, ASingleQueryDialogStandsInAndSaysSo) {
  htpscope::Run a = LoadRun({Example("genie/a.json")});
  const DeviceProfileDiff same = DiffGenieRuns({&a}, {&a});
  EXPECT_DOUBLE_EQ(*same.Find("ttft_us")->delta.change, 0);
  EXPECT_TRUE(same.notes.empty());
  EXPECT_THROW(DiffAihubRuns({&a}, {&a}), std::invalid_argument);
}

TEST(LlmRunnerDiff, SteadyGenerationsPooledWithGates) {
  htpscope::Run a = LoadRun({Example("llm_runner/a.log")});
  htpscope::Run b = LoadRun({Example("llm_runner/b.log")});
  const DeviceProfileDiff d = DiffLlmRunnerRuns({&a}, {&b});
  EXPECT_EQ(d.kind, "llm_runner");
  // Generations 2..3 of each log (ms as written: inference_start, prompt_eval_end =
  // first_token, inference_end).
  const double a_ttft = Median({(5561.0 - 5400) * 1000, (8558.0 - 8400) * 1000});
  const double b_ttft = Median({(6285.0 - 6100) * 1000, (9582.0 - 9400) * 1000});
  const NamedDelta* ttft = d.Find("ttft_us");
  ASSERT_NE(ttft, nullptr);
  EXPECT_DOUBLE_EQ(*ttft->delta.a_value(), a_ttft);
  EXPECT_DOUBLE_EQ(*ttft->delta.b_value(), b_ttft);
  EXPECT_NEAR(*ttft->delta.change_pct, (b_ttft - a_ttft) / a_ttft * 100, 1e-9);  // +15.0 %
  EXPECT_DOUBLE_EQ(*d.Find("cold_ttft_us")->delta.change,
                   (2660.0 - 2401) * 1000 - (2315.0 - 2101) * 1000);
  const double a_rate = Median({96 / ((8350.0 - 5561) / 1000), 96 / ((11290.0 - 8558) / 1000)});
  const double b_rate = Median({96 / ((9300.0 - 6285) / 1000), 96 / ((12650.0 - 9582) / 1000)});
  EXPECT_NEAR(*d.Find("decode_token_rate")->delta.a_value(), a_rate, 1e-9);
  EXPECT_NEAR(*d.Find("decode_token_rate")->delta.change_pct, (b_rate - a_rate) / a_rate * 100,
              1e-9);  // −9.2 %
  EXPECT_DOUBLE_EQ(*d.Find("generation_us")->delta.b_value(),
                   Median({(9300.0 - 6100) * 1000, (12650.0 - 9400) * 1000}));
  // A loaded its model once (2098 − 120 ms); B's stats were reset after a warmup.
  EXPECT_DOUBLE_EQ(*d.Find("model_load_us")->delta.a_value(), 1978000);
  EXPECT_FALSE(d.Find("model_load_us")->delta.b_value());
  EXPECT_FALSE(d.Find("gpu_peak_usage_mb")->delta.a_value());
  EXPECT_FALSE(Gate(d, "ttft_us>+10%").passed);
  EXPECT_FALSE(Gate(d, "decode_token_rate<-5%").passed);
  EXPECT_TRUE(Gate(d, "ttft_us>+20%").passed);
  EXPECT_TRUE(Gate(d, "decode_token_rate<-10%").passed);
  EXPECT_TRUE(d.notes.empty());
  EXPECT_THROW(DiffGenieRuns({&a}, {&b}), std::invalid_argument);
}

}  // namespace
}  // namespace htpscope::device_profile_diff_test

namespace htpscope::device_profile_diff_test {
namespace {

std::string Testdata(const std::string& name) {
  return std::string(HTPSCOPE_SOURCE_DIR) + "/src/formats/testdata/" + name;
}

const ModuleDelta* ModuleAt(const DeviceProfileDiff& d, std::string_view path) {
  for (const auto& m : d.modules.modules)
    if (m.path == path) return &m;
  return nullptr;
}

// aihub_profile_decoder4{,_slower}.json (analysis/module_run_test.cc says
// how they are built): layer 2's mlp down_proj went from 150 to 640 µs, so
// layer 2 from 753 to 1,243 µs; nothing else changed.
TEST(AihubDiff, ModulesNameTheLayerThatGotSlower) {
  htpscope::Run a = LoadRun({Testdata("aihub_profile_decoder4.json")});
  htpscope::Run b = LoadRun({Testdata("aihub_profile_decoder4_slower.json")});
  const DeviceProfileDiff d = DiffAihubRuns({&a}, {&b});
  EXPECT_EQ(d.modules.basis, "aihub_layer_us");
  EXPECT_EQ(d.modules.unit, "us");
  EXPECT_TRUE(d.modules.has_modules);
  EXPECT_EQ(d.modules.slowest_block, "model/layers.2");
  const ModuleDelta* l2 = ModuleAt(d, "model/layers.2");
  ASSERT_NE(l2, nullptr);
  EXPECT_DOUBLE_EQ(*l2->time.a_value(), 753);
  EXPECT_DOUBLE_EQ(*l2->time.b_value(), 753 + 490);
  EXPECT_DOUBLE_EQ(*ModuleAt(d, "model/layers.2/mlp/down_proj")->time.change, 490);
  EXPECT_DOUBLE_EQ(*ModuleAt(d, "(all)")->time.change, 490);
  for (const char* same : {"model/layers.0", "model/layers.1", "model/layers.3", "lm_head"})
    EXPECT_DOUBLE_EQ(*ModuleAt(d, same)->time.change, 0) << same;
  // The largest changes first: the root and every module down to down_proj
  // by +490, the others 0.
  ASSERT_GE(d.modules.modules.size(), 6u);
  EXPECT_DOUBLE_EQ(*d.modules.modules[4].time.change, 490);
  EXPECT_DOUBLE_EQ(*d.modules.modules[5].time.change, 0);
  // The layer itself, by name.
  const auto layer = std::find_if(d.layers.begin(), d.layers.end(), [](const LayerDelta& l) {
    return l.time_us.change && *l.time_us.change != 0;
  });
  ASSERT_NE(layer, d.layers.end());
  EXPECT_EQ(layer->key, "/model/layers.2/mlp/down_proj/MatMul");

  // Gates on module times, in µs.
  GateResult blocks = Gate(d, "module:model/layers.*:us>+20%");
  EXPECT_TRUE(blocks.evaluated);
  EXPECT_FALSE(blocks.passed);
  ASSERT_FALSE(blocks.exceeded.empty());
  EXPECT_EQ(blocks.exceeded.front().subject, "module:model/layers.2:us");
  GateResult layer0 = Gate(d, "module:model/layers.0:us>+1%");
  EXPECT_TRUE(layer0.evaluated);
  EXPECT_TRUE(layer0.passed);
  EXPECT_EQ(layer0.compared, 1);
  EXPECT_FALSE(Gate(d, "module:(all):us>+10%").passed);                 // +13.3 %
  EXPECT_FALSE(Gate(d, "module:model/layers.*:cycles>+1%").evaluated);  // no cycles basis
}

}  // namespace
}  // namespace htpscope::device_profile_diff_test

namespace htpscope::device_profile_diff_test {
namespace {

// Every run-level row of `d` is the registry's figure of that name, given by
// `artifact`: its unit, and the label and basis the artifact's source says,
// in the registry's order; so is every gate subject of family "".
void ExpectRowsAreTheRegistrys(const DeviceProfileDiff& d, DeviceArtifact artifact) {
  std::vector<std::string> rows, expected;
  for (const NamedDelta& m : d.metrics) {
    rows.push_back(m.name);
    const DeviceFigureInfo* f = FindDeviceFigure(m.name);
    ASSERT_NE(f, nullptr) << d.kind << ": " << m.name << " is not in model/figures.cc";
    const DeviceFigureSource& source = f->From(artifact);
    ASSERT_TRUE(source.given()) << d.kind << ": " << m.name;
    EXPECT_EQ(m.label, source.label) << m.name;
    EXPECT_EQ(m.delta.unit, f->unit) << m.name;
    EXPECT_EQ(m.delta.basis, source.basis) << m.name;
  }
  for (const DeviceFigureInfo* f : DeviceFiguresOf(artifact)) expected.push_back(f->name);
  EXPECT_EQ(rows, expected) << d.kind;
  int run_level = 0;
  for (const GateSubject& s : GateSubjects(d)) {
    if (!s.family.empty()) continue;
    ++run_level;
    EXPECT_NE(FindDeviceFigure(s.field), nullptr) << s.field;
  }
  EXPECT_EQ(run_level, static_cast<int>(expected.size()));
}

TEST(DeviceProfileDiff, EveryRowIsARegistryFigure) {
  htpscope::Run aihub_a = LoadRun({Example("aihub/a.json")});
  htpscope::Run aihub_b = LoadRun({Example("aihub/b.json")});
  ExpectRowsAreTheRegistrys(DiffAihubRuns({&aihub_a}, {&aihub_b}), DeviceArtifact::kAihub);
  htpscope::Run genie_a = LoadRun({Example("genie/a.json")});
  htpscope::Run genie_b = LoadRun({Example("genie/b.json")});
  ExpectRowsAreTheRegistrys(DiffGenieRuns({&genie_a}, {&genie_b}), DeviceArtifact::kGenie);
  htpscope::Run runner_a = LoadRun({Example("llm_runner/a.log")});
  htpscope::Run runner_b = LoadRun({Example("llm_runner/b.log")});
  ExpectRowsAreTheRegistrys(DiffLlmRunnerRuns({&runner_a}, {&runner_b}),
                            DeviceArtifact::kLlmRunner);
  // Rows a side lacks are rows still: a version-0 AI Hub profile.
  htpscope::Run v0 =
      LoadRun({std::string(HTPSCOPE_SOURCE_DIR) + "/src/formats/testdata/aihub_profile_v0.json"});
  ExpectRowsAreTheRegistrys(DiffAihubRuns({&v0}, {&aihub_b}), DeviceArtifact::kAihub);
}

std::string WriteTestFile(const std::string& dir, const std::string& name,
                          const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// A dialog of one query (15 prompt tokens; B's queries have 12): its query
// stands in for the steady figures, and the notes name them.
TEST(GenieDiff, ASingleQueryDialogsNotesNameTheSteadyFigures) {
  const std::string dir = testing_support::TempDir("genie_one_query");
  const std::string one = WriteTestFile(dir, "one.json", R"({
  "header": {"header_version": {"major": 0, "minor": 1, "patch": 0},
             "version": {"major": 0, "minor": 1, "patch": 0}, "artifact_type": "GENIE_PROFILE"},
  "metadata": {"timestamp": 8123400000},
  "components": [{"name": "dialog0", "type": "dialog", "events": [
    {"type": "GenieDialog_create", "duration": 1184210, "start": 8123401000, "stop": 8124585210,
     "init-time": {"value": 1180345, "unit": "us"}},
    {"type": "GenieDialog_query", "duration": 5123456, "start": 8125000000, "stop": 8130123456,
     "num-prompt-tokens": {"value": 15, "unit": ""},
     "prompt-processing-rate": {"value": 412.5, "unit": "toks/sec"},
     "time-to-first-token": {"value": 29090, "unit": "us"},
     "num-generated-tokens": {"value": 100, "unit": ""},
     "token-generation-rate": {"value": 21.7, "unit": "toks/sec"}}]}]
})");
  htpscope::Run a = LoadRun({one});
  htpscope::Run b = LoadRun({Example("genie/b.json")});
  const DeviceProfileDiff d = DiffGenieRuns({&a}, {&b});
  EXPECT_DOUBLE_EQ(*d.Find("ttft_us")->delta.a_value(), 29090);
  EXPECT_EQ(d.notes, (std::vector<std::string>{
                         "a dialog of one query has no steady state: its only (cold) query stands "
                         "in for ttft_us, token_rate, prompt_rate and query_us",
                         "the sides processed different token counts: TTFT and rates depend on "
                         "them, compare like with like"}));
}

// A log of one generation (30 prompt tokens; B's have 27), likewise.
TEST(LlmRunnerDiff, ASingleGenerationLogsNotesNameTheSteadyFigures) {
  const std::string dir = testing_support::TempDir("runner_one_generation");
  const std::string one = WriteTestFile(
      dir, "one.log",
      "PyTorchObserver {\"prompt_tokens\":30,\"generated_tokens\":96,\"model_load_start_ms\":"
      "93450120,\"model_load_end_ms\":93452098,\"inference_start_ms\":93452101,\"inference_end_"
      "ms\":93455344,\"prompt_eval_end_ms\":93452315,\"first_token_ms\":93452315,\"aggregate_"
      "sampling_time_ms\":41,\"SCALING_FACTOR_UNITS_PER_SECOND\":1000}\n");
  htpscope::Run a = LoadRun({one});
  htpscope::Run b = LoadRun({Example("llm_runner/b.log")});
  const DeviceProfileDiff d = DiffLlmRunnerRuns({&a}, {&b});
  EXPECT_DOUBLE_EQ(*d.Find("ttft_us")->delta.a_value(), (2315.0 - 2101) * 1000);
  EXPECT_EQ(d.notes,
            (std::vector<std::string>{
                "a log of one generation has no steady state: its only (cold) generation stands "
                "in for ttft_us, prefill_us, prefill_token_rate, decode_us, decode_token_rate and "
                "generation_us",
                "the sides processed different token counts: times and rates depend on them, "
                "compare like with like"}));
}

// A profile before version 1.2 has no all_inference_times: the note points
// to the estimate.
TEST(AihubDiff, AProfileWithoutSamplesPointsToTheEstimate) {
  htpscope::Run v0 =
      LoadRun({std::string(HTPSCOPE_SOURCE_DIR) + "/src/formats/testdata/aihub_profile_v0.json"});
  htpscope::Run b = LoadRun({Example("aihub/b.json")});
  const DeviceProfileDiff d = DiffAihubRuns({&v0}, {&b});
  ASSERT_FALSE(d.notes.empty());
  EXPECT_EQ(d.notes.front(),
            "a profile without all_inference_times (before profile version 1.2) has no steady "
            "state or cold run: compare estimated_inference_us");
  EXPECT_FALSE(d.Find("inference_us")->delta.a_value());
}

}  // namespace
}  // namespace htpscope::device_profile_diff_test
