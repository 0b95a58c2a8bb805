// The device-profile views (DeviceProfileViews) of a mixed run: a
// qnn-profile-viewer CSV with an AI Hub profile, a Genie profile and an
// ExecuTorch runner log (src/formats/testdata), every expected figure
// computed here from the values those files hold; and the device-only page
// printing the same views.
#include "report/device_profile_report.h"

#include <gtest/gtest.h>

#include <fstream>

#include "base/corpus_test_util.h"
#include "model/run.h"

namespace htpscope::device_profile_report_test {
namespace {

using nlohmann::json;

std::string Testdata(const std::string& name) {
  return std::string(HTPSCOPE_SOURCE_DIR) + "/src/formats/testdata/" + name;
}

htpscope::Run MixedRun() {
  return LoadRun({Testdata("netrun_phases.csv"), Testdata("aihub_profile.json"),
                  Testdata("genie_profile.json"), Testdata("llm_runner_stats.log")});
}

// The table `id` of a view.
const json& ViewTable(const json& view, const std::string& id) {
  static const json kNone = {{"rows", json::array()}};
  if (!view.is_object() || !view.contains("blocks")) {
    ADD_FAILURE() << "not a view";
    return kNone;
  }
  for (const json& b : view["blocks"])
    if (b["kind"] == "table" && b["table"]["id"] == id) return b["table"];
  ADD_FAILURE() << "no table " << id;
  return kNone;
}

// The row of `table` whose first cell is `first`.
json RowOf(const json& table, const json& first) {
  for (const json& r : table["rows"])
    if (r[0] == first) return r;
  ADD_FAILURE() << "no row " << first.dump();
  return json::array();
}

// aihub_profile.json: all_inference_times [10003, 4205, 4180, 4230, 4198];
// layer times 12, 410, 35, 388 (NPU), 23 (CPU), 1250 (GPU), 2900 (CPU) and
// one NPU layer without a time.
constexpr double kLayerSumUs = 12 + 410 + 35 + 388 + 23 + 1250 + 2900;

TEST(DeviceProfileViews, AihubFiguresOfAMixedRun) {
  const htpscope::Run run = MixedRun();
  ASSERT_FALSE(run.OnlyDeviceProfiles());
  const json views = DeviceProfileViews(run);
  ASSERT_TRUE(views.contains("aihub") && views.contains("genie") && views.contains("llm_runner"));
  const json& v = views["aihub"];
  EXPECT_EQ(v["title"], "AI Hub profile (qai_hub layout)");
  // What the figures measure comes first.
  EXPECT_EQ(v["blocks"][0]["kind"], "note");
  EXPECT_NE(v["blocks"][0]["text"].get<std::string>().find("not optrace dominant-path cycles"),
            std::string::npos);

  const json& inference = ViewTable(v, "aihub_inference");
  EXPECT_EQ(RowOf(inference, "estimated (AI Hub's figure)")[1], 3652);
  EXPECT_EQ(RowOf(inference, "cold first run (all_inference_times[0])")[1], 10003);
  const json steady = RowOf(inference, "steady state median (runs 2..5)");
  EXPECT_DOUBLE_EQ(steady[1].get<double>(), (4198 + 4205) / 2.0);  // of 4180 4198 4205 4230
  EXPECT_DOUBLE_EQ(steady[2].get<double>(), 4180);
  EXPECT_DOUBLE_EQ(steady[3].get<double>(), 4230);
  EXPECT_EQ(steady[4], 4);

  const json first_load = RowOf(ViewTable(v, "aihub_stages"), "first_load");
  EXPECT_EQ(first_load[1], 1374293);
  EXPECT_EQ(first_load[2], 166711296);
  EXPECT_EQ(first_load[3], "68.9 MiB – 78.2 MiB");   // [72258864, 82031840] ÷ 2^20
  EXPECT_EQ(first_load[4], "93.7 MiB – 103.0 MiB");  // [98230272, 108003248] ÷ 2^20
  EXPECT_EQ(first_load[5], 2);                       // all_first_load_times
  EXPECT_DOUBLE_EQ(first_load[6].get<double>(), (1374293 + 1401220) / 2.0);

  // Coverage by count and by time: CPU is 2 of 8 layers but most of the time.
  const json cpu = RowOf(ViewTable(v, "aihub_coverage"), "CPU");
  EXPECT_EQ(cpu[1], 2);
  EXPECT_DOUBLE_EQ(cpu[2].get<double>(), 100.0 * 2 / 8);
  EXPECT_EQ(cpu[4], 23 + 2900);
  EXPECT_DOUBLE_EQ(cpu[5].get<double>(), 100.0 * (23 + 2900) / kLayerSumUs);
  const json npu = RowOf(ViewTable(v, "aihub_coverage"), "NPU");
  EXPECT_EQ(npu[1], 5);
  EXPECT_EQ(npu[3], 4);  // timed
  EXPECT_EQ(npu[4], 12 + 410 + 35 + 388);

  // The fallback layers, named, with their time.
  const json& fallbacks = ViewTable(v, "aihub_fallbacks");
  EXPECT_EQ(fallbacks["title"],
            "Fallback layers (not on the NPU): 3 of 8 layers, 4,173 µs = 83.2 % of Σ layer time");
  ASSERT_EQ(fallbacks["rows"].size(), 3u);
  const json softmax = fallbacks["rows"][2];
  EXPECT_EQ(softmax[0], 6);
  EXPECT_EQ(softmax[1], "CPU");
  EXPECT_EQ(softmax[2], 2900);
  EXPECT_DOUBLE_EQ(softmax[3].get<double>(), 100.0 * 2900 / kLayerSumUs);
  EXPECT_EQ(softmax[5], "softmax");
  EXPECT_EQ(fallbacks["rows"][0][5], "model/tf.math.divide/truediv");

  const json& layers = ViewTable(v, "aihub_layers");
  ASSERT_EQ(layers["rows"].size(), 8u);
  EXPECT_EQ(layers["total_rows"], 8);
  EXPECT_FALSE(layers.contains("kept"));
  EXPECT_EQ(layers["row_classes"],
            json::array({"", "", "", "", "fallback", "fallback", "fallback", ""}));
  EXPECT_EQ(layers["rows"][1], json::array({1, "conv1", "Conv2d", "NPU", 410, 590000}));
  EXPECT_TRUE(layers["rows"][7][4].is_null());  // "output" has no execution_time
}

TEST(DeviceProfileViews, AihubLayerTableKeepsTheSlowestInOrder) {
  const json views = DeviceProfileViews(MixedRun(), 3);
  ASSERT_TRUE(views.contains("aihub"));
  const json& layers = ViewTable(views["aihub"], "aihub_layers");
  ASSERT_EQ(layers["rows"].size(), 3u);
  // 2900 (softmax), 1250 (resize), 410 (conv1): in layer order.
  EXPECT_EQ(layers["rows"][0][0], 1);
  EXPECT_EQ(layers["rows"][1][0], 5);
  EXPECT_EQ(layers["rows"][2][0], 6);
  EXPECT_EQ(layers["row_classes"], json::array({"", "fallback", "fallback"}));
  EXPECT_EQ(layers["total_rows"], 8);
  EXPECT_EQ(layers["kept"], "the slowest layers by execution_time");
}

TEST(DeviceProfileViews, GenieQueriesColdApartFromTheSteadyState) {
  const json views = DeviceProfileViews(MixedRun());
  ASSERT_TRUE(views.contains("genie"));
  const json& v = views["genie"];
  EXPECT_EQ(v["title"], "Genie profile (version 0.1.0, header 0.1.0)");
  const json& events = ViewTable(v, "genie_0_events");
  EXPECT_EQ(RowOf(events, "init (the create event's init-time)")[1], 1180345);
  EXPECT_EQ(RowOf(events, "create event")[1], 1184210);
  const json& queries = ViewTable(v, "genie_0_queries");
  ASSERT_EQ(queries["rows"].size(), 3u);
  const json& cold = queries["rows"][0];
  EXPECT_EQ(cold[0], 1);
  EXPECT_EQ(cold[1], "cold");
  EXPECT_DOUBLE_EQ(cold[2].get<double>(), 29090);    // time-to-first-token
  EXPECT_DOUBLE_EQ(cold[3].get<double>(), 12);       // num-prompt-tokens
  EXPECT_DOUBLE_EQ(cold[4].get<double>(), 412.5);    // prompt-processing-rate
  EXPECT_DOUBLE_EQ(cold[5].get<double>(), 100);      // num-generated-tokens
  EXPECT_DOUBLE_EQ(cold[6].get<double>(), 21.7);     // token-generation-rate
  EXPECT_DOUBLE_EQ(cold[7].get<double>(), 4608000);  // token-generation-time
  EXPECT_EQ(cold[8], 5123456);                       // the event's duration
  EXPECT_EQ(queries["rows"][1][1], "steady");
  const json& steady = ViewTable(v, "genie_0_steady");
  EXPECT_EQ(steady["title"], "Steady state (queries 2..3)");
  const json ttft = RowOf(steady, "TTFT µs");
  EXPECT_DOUBLE_EQ(ttft[1].get<double>(), (25100 + 24800) / 2.0);
  EXPECT_EQ(ttft[4], 2);
  EXPECT_DOUBLE_EQ(RowOf(steady, "generation toks/s")[1].get<double>(), (23.9 + 24.2) / 2);
}

TEST(DeviceProfileViews, RunnerGenerationsColdApartFromTheSteadyState) {
  const json views = DeviceProfileViews(MixedRun());
  ASSERT_TRUE(views.contains("llm_runner"));
  const json& v = views["llm_runner"];
  EXPECT_EQ(v["title"], "ExecuTorch LLM runner log (3 generations, PyTorchObserver lines)");
  bool load = false;
  for (const json& b : v["blocks"])
    load = load || (b["kind"] == "note" && b["text"] == "Model load 1,978,000 µs (generation 1).");
  EXPECT_TRUE(load);  // model_load_end_ms 93452098 − start 93450120
  const json& gens = ViewTable(v, "llm_runner_generations");
  ASSERT_EQ(gens["rows"].size(), 3u);
  const json& cold = gens["rows"][0];
  EXPECT_EQ(cold[1], "cold");
  EXPECT_EQ(cold[2], (93452315 - 93452101) * 1000);  // TTFT: first_token − inference_start
  EXPECT_EQ(cold[6], (93455344 - 93452315) * 1000);  // decode: inference_end − prompt_eval_end
  EXPECT_EQ(cold[10], 41 * 1000);                    // aggregate_sampling_time_ms
  const json& steady = ViewTable(v, "llm_runner_steady");
  EXPECT_DOUBLE_EQ(RowOf(steady, "TTFT µs")[1].get<double>(),
                   ((93455561 - 93455400) + (93458558 - 93458400)) * 1000 / 2.0);
  EXPECT_FALSE(views.contains("llm_runner_gpu"));
}

TEST(DeviceProfileViews, NoneForARunWithoutDeviceProfiles) {
  EXPECT_EQ(DeviceProfileViews(LoadRun({Testdata("netrun_phases.csv")})), json::object());
}

TEST(DeviceProfilesHtml, TheDeviceOnlyPagePrintsTheViews) {
  const htpscope::Run run = LoadRun({Testdata("aihub_profile.json")});
  ASSERT_TRUE(run.OnlyDeviceProfiles());
  const std::string page = RenderDeviceProfilesHtml(run);
  for (const char* expected : {
           "<h2>AI Hub profile (qai_hub layout)</h2>",
           "<td>cold first run (all_inference_times[0])</td><td class=\"n\">10,003</td>",
           "<td>steady state median (runs 2..5)</td><td class=\"n\">4,201.50</td>"
           "<td class=\"n\">4,180</td><td class=\"n\">4,230</td><td class=\"n\">4</td>",
           "<td>first_load</td><td class=\"n\">1,374,293</td><td class=\"n\">159.0 MiB</td>"
           "<td>68.9 MiB – 78.2 MiB</td><td>93.7 MiB – 103.0 MiB</td>",
           "<td>CPU</td><td class=\"n\">2</td><td class=\"n\">25.0</td><td class=\"n\">2</td>"
           "<td class=\"n\">2,923</td><td class=\"n\">58.3</td>",
           "<tr class=\"fallback\"><td class=\"n\">6</td><td>softmax</td><td>Softmax</td>"
           "<td>CPU</td><td class=\"n\">2,900</td>",
           "<h2>Modules: time by the model's own modules</h2>",
       })
    EXPECT_NE(page.find(expected), std::string::npos) << expected << "\n" << page;
}

TEST(DeviceProfilesHtml, InputStringsAreEscaped) {
  const std::string dir = testing_support::TempDir("device_profile_report_hostile");
  const std::string path = dir + "/hostile.json";
  std::ofstream(path) << R"({"execution_summary": {"estimated_inference_time": 5},
    "execution_detail": [{"name": "<img src=x onerror=alert(1)>", "type": "<b>",
    "compute_unit": "<i>CPU", "execution_time": 3}]})";
  const std::string page = RenderDeviceProfilesHtml(LoadRun({path}));
  EXPECT_EQ(page.find("<img"), std::string::npos) << page;
  EXPECT_EQ(page.find("<b>"), std::string::npos);
  EXPECT_EQ(page.find("<i>"), std::string::npos);
  EXPECT_NE(page.find("<td>&lt;img src=x onerror=alert(1)&gt;</td>"), std::string::npos) << page;
}

}  // namespace
}  // namespace htpscope::device_profile_report_test
