// Runs the built htpscope on AI Hub and Genie profiles and ExecuTorch LLM
// runner logs: summary (text and --json), diff with gates (exit 1 on a
// regression), report, sql, an almost-profile refused (exit 2 naming the
// file), ingest and trend.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/cli_test_util.h"

namespace htpscope::device_profile_cli_test {
namespace {

using testing_support::CliResult;
using testing_support::RunCli;
using testing_support::Slurp;

const std::string kExamples = std::string(HTPSCOPE_SOURCE_DIR) + "/examples/docs/";

TEST(DeviceProfileCli, AihubSummaryJsonHasCoverageByCountAndTime) {
  CliResult r = RunCli("summary --json " + kExamples + "aihub/a.json", "device_summary");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  const auto& h = j["aihub"];
  ASSERT_TRUE(h.is_object());
  EXPECT_TRUE(j["genie"].is_null());
  EXPECT_EQ(h["inference"]["estimated_us"], 3652);
  EXPECT_EQ(h["inference"]["cold_us"], 10003);
  EXPECT_DOUBLE_EQ(h["inference"]["steady_state"]["median"].get<double>(), (4198 + 4205) / 2.0);
  EXPECT_DOUBLE_EQ(h["npu_layers_pct"].get<double>(), 62.5);
  EXPECT_DOUBLE_EQ(h["npu_time_pct"].get<double>(), 100.0 * 845 / 5018);
  EXPECT_EQ(h["fallback_layers"], 3);
  EXPECT_EQ(h["fallback_time_us"], 23 + 1250 + 2900);
  EXPECT_EQ(h["fallbacks"][2]["name"], "softmax");
  EXPECT_EQ(h["layer_table"].size(), 8u);
  EXPECT_TRUE(h["layer_table"][7]["time_us"].is_null());
  EXPECT_TRUE(j["missing"].empty());
}

TEST(DeviceProfileCli, GenieSummaryText) {
  CliResult r = RunCli("summary " + kExamples + "genie/a.json", "device_summary");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("dialog dialog0: init 1,180,345 µs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("steady state (queries 2..3, median): TTFT 24,950 µs"), std::string::npos)
      << r.out;
}

TEST(DeviceProfileCli, DiffGatesExitOneOnARegression) {
  CliResult r = RunCli("diff " + kExamples + "genie/a.json " + kExamples +
                           "genie/b.json --fail-on 'ttft_us>+10%' --format json",
                       "device_diff");
  EXPECT_EQ(r.status, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "htpscope.device_diff/1");
  EXPECT_EQ(j["kind"], "genie");
  EXPECT_FALSE(j["gates"][0]["passed"]);
  CliResult ok = RunCli("diff " + kExamples + "aihub/a.json " + kExamples +
                            "aihub/b.json --fail-on 'inference_us>+5%'",
                        "device_diff");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_NE(ok.out.find("softmax"), std::string::npos);
  CliResult mixed =
      RunCli("diff " + kExamples + "aihub/a.json " + kExamples + "genie/b.json", "device_diff");
  EXPECT_EQ(mixed.status, 2);
}

TEST(DeviceProfileCli, AlmostAnAihubProfileIsRefused) {
  const std::string dir = testing_support::TempDir("device_bad_input");
  const std::string path = dir + "/almost.json";
  std::ofstream(path) << R"({"execution_summary": {"estimated_inference_time": 5}})";
  CliResult r = RunCli("summary " + path, "device_bad_out");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no \"execution_detail\""), std::string::npos) << r.err;
}

TEST(DeviceProfileCli, ReportSqlIngestTrend) {
  const std::string dir = testing_support::TempDir("device_store_files");
  CliResult page =
      RunCli("report " + kExamples + "aihub/a.json -o " + dir + "/r.html", "device_store");
  ASSERT_EQ(page.status, 0) << page.err;
  const std::string html = Slurp(dir + "/r.html");
  EXPECT_NE(html.find("model/tf.math.divide/truediv"), std::string::npos);
  EXPECT_NE(html.find("class=\"fallback\""), std::string::npos);
  CliResult sql = RunCli("sql " + kExamples +
                             "aihub/a.json --format csv -q \"select compute_unit, count(*), "
                             "sum(time_us) from aihub_layers group by 1 order by 1\"",
                         "device_store");
  ASSERT_EQ(sql.status, 0) << sql.err;
  EXPECT_NE(sql.out.find("CPU,2,2923"), std::string::npos) << sql.out;
  EXPECT_NE(sql.out.find("NPU,5,845"), std::string::npos) << sql.out;
  std::filesystem::remove(dir + "/runs.db");
  for (const char* f : {"genie/a.json", "genie/b.json"})
    ASSERT_EQ(
        RunCli("ingest " + kExamples + f + " --db " + dir + "/runs.db", "device_store").status, 0);
  CliResult trend =
      RunCli("trend --db " + dir + "/runs.db --metric ttft_us --format json", "device_store");
  ASSERT_EQ(trend.status, 0) << trend.err;
  const auto j = nlohmann::json::parse(trend.out);
  EXPECT_FALSE(j.empty());
  EXPECT_NE(trend.out.find("28250"), std::string::npos) << trend.out;  // B's median, queries 2..3
}

TEST(DeviceProfileCli, LlmRunnerSummaryJsonAndText) {
  CliResult r = RunCli("summary --json " + kExamples + "llm_runner/a.log", "runner_summary");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  const auto& l = j["llm_runner"];
  ASSERT_TRUE(l.is_object());
  EXPECT_FALSE(j.contains("aihub"));  // only the members of the profiles the run holds
  EXPECT_TRUE(j["missing"].empty());
  ASSERT_EQ(l["generations"].size(), 3u);
  EXPECT_TRUE(l["generations"][0]["cold"]);
  EXPECT_EQ(l["generations"][0]["ttft_us"], (2315 - 2101) * 1000);
  EXPECT_EQ(l["generations"][2]["decode_us"], (11290 - 8558) * 1000);
  EXPECT_EQ(l["generations"][1]["line"], 8);  // header 3, then text, stats, log line each
  EXPECT_EQ(l["model_load_us"], (2098 - 120) * 1000);
  EXPECT_DOUBLE_EQ(l["steady_state"]["ttft_us"]["median"].get<double>(),
                   ((5561 - 5400) + (8558 - 8400)) * 1000 / 2.0);
  EXPECT_DOUBLE_EQ(l["steady_state"]["decode_rate_tps"]["max"].get<double>(),
                   96 / ((11290 - 8558) / 1000.0));
  EXPECT_NE(l["measures"].get<std::string>().find("not HTP cycles"), std::string::npos);
  CliResult text = RunCli("summary " + kExamples + "llm_runner/b.log", "runner_summary");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("steady state (generations 2..3, median): TTFT 183,500 µs"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("model load: not measured in this log"), std::string::npos);
}

TEST(DeviceProfileCli, LlmRunnerDiffGatesSqlTrendReport) {
  CliResult diff = RunCli("diff " + kExamples + "llm_runner/a.log " + kExamples +
                              "llm_runner/b.log --fail-on 'ttft_us>+10%' "
                              "--fail-on 'decode_token_rate<-5%' --format json",
                          "runner_diff");
  EXPECT_EQ(diff.status, 1) << diff.err;
  auto j = nlohmann::json::parse(diff.out);
  EXPECT_EQ(j["kind"], "llm_runner");
  EXPECT_FALSE(j["gates"][0]["passed"]);
  EXPECT_FALSE(j["gates"][1]["passed"]);
  CliResult ok = RunCli("diff " + kExamples + "llm_runner/a.log " + kExamples +
                            "llm_runner/b.log --fail-on 'ttft_us>+20%'",
                        "runner_diff");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_NE(ok.out.find("htpscope diff (ExecuTorch LLM runner logs)"), std::string::npos);
  CliResult mixed =
      RunCli("diff " + kExamples + "llm_runner/a.log " + kExamples + "genie/b.json", "runner_diff");
  EXPECT_EQ(mixed.status, 2);

  const std::string dir = testing_support::TempDir("runner_store_files");
  CliResult sql = RunCli("sql " + kExamples +
                             "llm_runner/a.log --format csv -q \"select generation_index, "
                             "ttft_us, decode_us from llm_generations order by 1\"",
                         "runner_store");
  ASSERT_EQ(sql.status, 0) << sql.err;
  EXPECT_NE(sql.out.find("1,214000,3029000"), std::string::npos) << sql.out;
  EXPECT_NE(sql.out.find("3,158000,2732000"), std::string::npos) << sql.out;
  std::filesystem::remove(dir + "/runs.db");
  for (const char* f : {"llm_runner/a.log", "llm_runner/b.log"})
    ASSERT_EQ(
        RunCli("ingest " + kExamples + f + " --db " + dir + "/runs.db", "runner_store").status, 0);
  CliResult trend = RunCli(
      "trend --db " + dir + "/runs.db --metric decode_token_rate --format json", "runner_store");
  ASSERT_EQ(trend.status, 0) << trend.err;
  EXPECT_NE(trend.out.find("31.5"), std::string::npos) << trend.out;  // B's median, 2..3
  CliResult ttft =
      RunCli("trend --db " + dir + "/runs.db --metric ttft_us --format json", "runner_store");
  ASSERT_EQ(ttft.status, 0) << ttft.err;
  EXPECT_NE(ttft.out.find("183500"), std::string::npos) << ttft.out;
  CliResult page =
      RunCli("report " + kExamples + "llm_runner/a.log -o " + dir + "/r.html", "runner_store");
  ASSERT_EQ(page.status, 0) << page.err;
  EXPECT_NE(Slurp(dir + "/r.html").find("ExecuTorch LLM runner log"), std::string::npos);
}

// The model embedded in a report page (<script id="data">), parsed.
nlohmann::json PageData(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"data\">";
  const size_t begin = page.find(open);
  if (begin == std::string::npos) return nullptr;
  const size_t end = page.find("</script>", begin);
  return nlohmann::json::parse(page.substr(begin + open.size(), end - begin - open.size()));
}

// The table `id` of a device-profile view in a report's model.
nlohmann::json ViewTableOf(const nlohmann::json& view, const std::string& id) {
  if (!view.is_object() || !view.contains("blocks")) return nullptr;
  for (const auto& b : view["blocks"])
    if (b["kind"] == "table" && b["table"]["id"] == id) return b["table"];
  return nullptr;
}

// A profile CSV with an AI Hub profile, a Genie profile and a runner's log:
// the main report (not the device-only page) carries each profile's
// figures, the same summary --json gives.
TEST(DeviceProfileCli, MixedRunReportCarriesTheDeviceProfiles) {
  const std::string testdata = std::string(HTPSCOPE_SOURCE_DIR) + "/src/formats/testdata/";
  const std::string inputs = testdata + "netrun_phases.csv " + testdata + "aihub_profile.json " +
                             testdata + "genie_profile.json " + testdata + "llm_runner_stats.log";
  const std::string dir = testing_support::TempDir("device_mixed_report");
  CliResult page = RunCli("report " + inputs + " -o " + dir + "/r.html", "device_mixed");
  ASSERT_EQ(page.status, 0) << page.err;
  const nlohmann::json data = PageData(Slurp(dir + "/r.html"));
  ASSERT_TRUE(data.is_object()) << "not the main report page";
  EXPECT_TRUE(data.contains("overview"));  // the profile CSV's sections stay
  for (const char* key : {"aihub", "genie", "llm_runner"}) ASSERT_TRUE(data.contains(key)) << key;
  CliResult summary = RunCli("summary --json " + inputs, "device_mixed");
  ASSERT_EQ(summary.status, 0) << summary.err;
  const auto s = nlohmann::json::parse(summary.out);

  const auto inference = ViewTableOf(data["aihub"], "aihub_inference");
  ASSERT_TRUE(inference.is_object()) << data["aihub"].dump();
  EXPECT_EQ(inference["rows"][1][1], 10003);  // all_inference_times[0]
  EXPECT_EQ(inference["rows"][1][1], s["aihub"]["inference"]["cold_us"]);
  EXPECT_DOUBLE_EQ(inference["rows"][2][1].get<double>(), (4198 + 4205) / 2.0);
  EXPECT_EQ(inference["rows"][2][1], s["aihub"]["inference"]["steady_state"]["median"]);
  const auto coverage = ViewTableOf(data["aihub"], "aihub_coverage");
  EXPECT_EQ(coverage["rows"][2], nlohmann::json::array({"CPU", 2, 25.0, 2, 23 + 2900,
                                                        s["aihub"]["coverage"][2]["time_pct"]}));
  const auto fallbacks = ViewTableOf(data["aihub"], "aihub_fallbacks");
  EXPECT_EQ(fallbacks["rows"][2][5], "softmax");
  EXPECT_EQ(fallbacks["rows"][2][2], 2900);
  const auto queries = ViewTableOf(data["genie"], "genie_0_queries");
  EXPECT_EQ(queries["rows"][0][1], "cold");
  EXPECT_DOUBLE_EQ(queries["rows"][0][2].get<double>(), 29090);
  const auto genie_steady = ViewTableOf(data["genie"], "genie_0_steady");
  EXPECT_DOUBLE_EQ(genie_steady["rows"][0][1].get<double>(), 24950);
  EXPECT_EQ(genie_steady["rows"][0][1],
            s["genie"]["components"][0]["steady_state"]["ttft_us"]["median"]);
  const auto generations = ViewTableOf(data["llm_runner"], "llm_runner_generations");
  EXPECT_EQ(generations["rows"][0][2], 214000);
  EXPECT_EQ(generations["rows"][0][2], s["llm_runner"]["generations"][0]["ttft_us"]);
}

TEST(DeviceProfileCli, AlmostARunnerLogIsRefusedNamingTheLine) {
  const std::string dir = testing_support::TempDir("runner_bad_input");
  const std::string path = dir + "/run.log";
  std::ofstream(path) << "loading\nPyTorchObserver {\"prompt_tokens\":12,\"generated_tok\n";
  CliResult r = RunCli("summary " + path, "runner_bad_out");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(path + ":2: column"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not closed on its line"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace htpscope::device_profile_cli_test
