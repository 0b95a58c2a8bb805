// Runs the built htpscope on qnn-net-run profiling logs: `summary` of a log,
// of a directory holding one, and `summary --json` of a log against the same
// of the viewer's CSV of it (a log built here, and the QAIRT 2.47 pairs of
// ../shared/corpus/qnn_net_run_2.47); a damaged log exits 2 naming the file
// and a byte offset.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/cli_test_util.h"
#include "formats/qnn_profile_log_test_util.h"

namespace htpscope::qnn_profile_log_cli_test {
namespace {

using nlohmann::json;
using testing_support::CliResult;
using testing_support::RunCli;

void Write(const std::string& path, const std::string& bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

// `summary --json` with what names the input taken out: the run's label,
// the artifacts' paths and kinds, and in each warning the file and where in
// it ("line N: " of a CSV, "byte N: " of a log).
json SummaryWithoutInputNames(const std::string& path) {
  CliResult r = RunCli("summary --json '" + path + "'", "qnn_log_cli");
  EXPECT_EQ(r.status, 0) << r.err;
  json j = json::parse(r.out);
  j.erase("label");
  for (json& a : j["artifacts"]) {
    a.erase("path");
    a.erase("kind");
  }
  for (json& w : j["warnings"]) {
    std::string message = w["message"];
    if (message.rfind(path + ": ", 0) == 0) message.erase(0, path.size() + 2);
    const size_t colon = message.find(": ");
    if ((message.rfind("line ", 0) == 0 || message.rfind("byte ", 0) == 0) &&
        colon != std::string::npos)
      message.erase(0, colon + 2);
    w["message"] = message;
  }
  return j;
}

#if HTPSCOPE_HAVE_QNN_LOG

TEST(QnnProfileLogCli, SummaryOfALogEqualsTheSummaryOfItsCsv) {
  const std::string dir = testing_support::TempDir("qnn_log_cli_small");
  const std::string log = dir + "/log/qnn-profiling-data_0.log";
  const std::string csv = dir + "/csv/profile.csv";
  Write(log, testing_support::BuildLog(testing_support::SmallRun()));
  Write(csv, "qnn-net-run version, v2.47.0.1\nBackend version, v2.47.0.2\n" +
                 std::string(testing_support::kViewerCsvHeader) +
                 std::string(testing_support::kSmallRunRows));
  EXPECT_EQ(SummaryWithoutInputNames(log).dump(2), SummaryWithoutInputNames(csv).dump(2));
  // A directory holding the log is a run too.
  CliResult r = RunCli("summary '" + dir + "/log'", "qnn_log_cli");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("qnn-profiling-data_0.log"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(QnnProfileLogCli, ADamagedLogExitsTwoNamingFileAndOffset) {
  const std::string dir = testing_support::TempDir("qnn_log_cli_bad");
  const std::string log = dir + "/qnn-profiling-data_0.log";
  std::string bytes = testing_support::BuildLog(testing_support::SmallRun());
  Write(log, bytes.substr(0, bytes.size() - 10));
  CliResult r = RunCli("summary '" + log + "'", "qnn_log_cli");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(log), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

#endif  // HTPSCOPE_HAVE_QNN_LOG

class QnnProfileLogCliCorpus : public testing::TestWithParam<std::string> {};

TEST_P(QnnProfileLogCliCorpus, SummaryJsonOfTheLogEqualsTheCsvsSkipsWithoutShared) {
  const std::string base = std::string(HTPSCOPE_SOURCE_DIR) +
                           "/../shared/corpus/qnn_net_run_2.47/tiny_llm_block_" + GetParam();
  if (!std::filesystem::exists(base + ".profile.csv")) GTEST_SKIP() << "../shared/corpus absent";
#if !HTPSCOPE_HAVE_QNN_LOG
  GTEST_SKIP() << "built without FlatBuffers";
#endif
  EXPECT_EQ(SummaryWithoutInputNames(base + ".qnn-profiling-data_0.log").dump(2),
            SummaryWithoutInputNames(base + ".profile.csv").dump(2));
  // Time to first inference from either: the viewer's INIT spans compose
  // and finalize, so INIT + the cold execute (decode 243,917 + 7,499).
  CliResult log = RunCli("summary --json '" + base + ".qnn-profiling-data_0.log'", "qnn_log_cli");
  const json from_log = json::parse(log.out)["first_inference"];
  EXPECT_EQ(from_log["init"]["us"], GetParam() == "prefill" ? 224589.0 : 243917.0);
  EXPECT_EQ(from_log["total_us"], GetParam() == "prefill" ? 233129.0 : 251416.0);
  EXPECT_EQ(from_log["missing"], json::array());
}

INSTANTIATE_TEST_SUITE_P(Pairs, QnnProfileLogCliCorpus, testing::Values("prefill", "decode"));

}  // namespace
}  // namespace htpscope::qnn_profile_log_cli_test
