// Runs the built htpscope on AI Hub and Genie profiles: summary (text and
// --json), diff with gates (exit 1 on a regression), report, sql, an
// almost-profile refused (exit 2 naming the file), ingest and trend.
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

}  // namespace
}  // namespace htpscope::device_profile_cli_test
