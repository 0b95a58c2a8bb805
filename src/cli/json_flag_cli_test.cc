// Every command that prints JSON takes --json; those with --format keep
// --format json, and the two print the same bytes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/test_paths.h"
#include "cli/cli_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::json_flag_cli_test {
namespace {

using testing_support::CliResult;
using testing_support::RunCli;

const std::string kExample = "'" + std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run'";

// `htpscope ARGS --json` and `htpscope ARGS --format json` print the same
// JSON document, with the same exit status; --json with --format `other` is
// refused.
void ExpectJsonFlagIsFormatJson(const std::string& args, const std::string& other = "text") {
  const int status = 0;
  SCOPED_TRACE(args);
  CliResult flag = RunCli(args + " --json", "json_flag");
  CliResult format = RunCli(args + " --format json", "json_flag_format");
  EXPECT_EQ(flag.status, status) << flag.err;
  EXPECT_EQ(format.status, status) << format.err;
  EXPECT_EQ(flag.out, format.out);
  EXPECT_TRUE(nlohmann::json::accept(flag.out)) << flag.out;
  // Both at once ask for two formats: a usage error.
  CliResult both = RunCli(args + " --json --format " + other, "json_flag_both");
  EXPECT_EQ(both.status, 2) << both.out;
  EXPECT_NE(both.err.find("--json"), std::string::npos) << both.err;
}

TEST(JsonFlagCli, DiffTakesJsonAsFormatJson) {
  ExpectJsonFlagIsFormatJson("diff " + kExample + " " + kExample);
  const std::string dir = testing_support::TempDir("json_flag_stages");
  testing_support::WriteTestFile(dir + "/a.csv", "stage,seconds\nquantize,548\ncompile,929\n");
  testing_support::WriteTestFile(dir + "/b.csv", "stage,seconds\nquantize,469\ncompile,803\n");
  ExpectJsonFlagIsFormatJson("diff --stages '" + dir + "/a.csv' '" + dir + "/b.csv'");
}

TEST(JsonFlagCli, SqlAndTrendTakeJsonAsFormatJson) {
  CliResult rows = RunCli("sql " + kExample + " -q 'select 6 * 7 as answer' --json");
  EXPECT_EQ(rows.status, 0) << rows.err;
  EXPECT_TRUE(nlohmann::json::accept(rows.out)) << rows.out;
  EXPECT_NE(rows.out.find("42"), std::string::npos) << rows.out;
  ExpectJsonFlagIsFormatJson("sql " + kExample + " -q 'select count(*) as n from ops'", "csv");
  // A store of two runs for trend.
  const std::string db = testing_support::TempDir("json_flag_store") + "/runs.db";
  for (int64_t dur : {150, 400}) {
    const std::string run = testing_support::TempDir("json_flag_run" + std::to_string(dur));
    testing_support::WriteTestFile(
        run + "/chrometrace.json",
        testing_support::OptraceJson({{1, "conv", "Conv2d", "uses_hmx", 256, 0, dur}}));
    ASSERT_EQ(RunCli("ingest '" + run + "' --db '" + db + "'").status, 0);
  }
  ExpectJsonFlagIsFormatJson("trend --db '" + db + "' --metric graph_wall_cycles", "csv");
  auto trend = nlohmann::json::parse(
      RunCli("trend --db '" + db + "' --metric graph_wall_cycles --json").out);
  ASSERT_EQ(trend["runs"].size(), 2u);
  EXPECT_EQ(trend["runs"][1]["change"], 250.0);  // 400 - 150 cycles
}

// Every command whose output may be JSON says --json in its help.
TEST(JsonFlagCli, EveryCommandThatPrintsJsonTakesJson) {
  for (const char* command : {"summary", "timeline", "graph", "diff", "numerics", "heap", "lint",
                              "memory", "sql", "trend", "aot"}) {
    SCOPED_TRACE(command);
    CliResult help = RunCli(std::string(command) + " --help", "json_flag_help");
    EXPECT_EQ(help.status, 0) << help.err;
    EXPECT_NE(help.out.find("--json"), std::string::npos) << help.out;
  }
}

}  // namespace
}  // namespace htpscope::json_flag_cli_test
