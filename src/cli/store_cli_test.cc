// htpscope ingest, trend and sql --db through the binary: a store of fake
// runs whose figures are known.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::store_cli_test {
namespace {

using testing_support::CliResult;
using testing_support::FakeSlice;
using testing_support::RunCli;

// A run directory holding one optrace of one conv slice on HMX 256 lasting
// `dur` cycles (its graph wall), named `op`.
std::string OneOpRun(const std::string& name, const std::string& op, int64_t dur) {
  std::string dir = testing_support::TempDir(name);
  testing_support::WriteTestFile(
      dir + "/chrometrace.json",
      testing_support::OptraceJson({{1, op, "Conv2d", "uses_hmx", 256, 0, dur}}));
  return dir;
}

std::string Quote(const std::string& s) { return "'" + s + "'"; }

TEST(StoreCli, IngestingARunAgainAddsNothing) {
  const std::string a = Quote(OneOpRun("store_a", "conv", 150));
  const std::string b = Quote(OneOpRun("store_b", "conv", 400));
  const std::string db = Quote(testing_support::TempDir("store_db") + "/runs.db");
  CliResult r = RunCli("ingest " + a + " " + b + " --db " + db + " --label nightly");
  ASSERT_EQ(r.status, 0) << r.err;
  r = RunCli("ingest " + a + " --db " + db + " --label other");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("already stored"), std::string::npos) << r.out;
  r = RunCli("sql --db " + db +
             " -q 'select run_id, ingest_label, graph_wall_cycles from runs order by run_id; "
             "select run_id, sum(dur_cycles) from slices group by run_id' --format csv");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "run_id,ingest_label,graph_wall_cycles\r\n1,nightly,150\r\n2,nightly,400\r\n\r\n"
            "run_id,sum(dur_cycles)\r\n1,150\r\n2,400\r\n");
}

TEST(StoreCli, TrendMarksAChangeAndFiltersByLabel) {
  const std::string db = Quote(testing_support::TempDir("trend_db") + "/runs.db");
  const int64_t walls[] = {150, 400, 150};
  for (int i = 0; i < 3; ++i) {
    // Different op names make different artifacts of the same figures.
    const std::string run =
        Quote(OneOpRun("trend_" + std::to_string(i), "conv" + std::to_string(i), walls[i]));
    CliResult r = RunCli("ingest " + run + " --db " + db + (i == 1 ? " --label x" : ""));
    ASSERT_EQ(r.status, 0) << r.err;
  }
  CliResult r = RunCli("trend --db " + db + " --metric graph_wall_cycles --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["runs"].size(), 3u);
  EXPECT_EQ(j["runs"][0]["mark"], "first");
  EXPECT_EQ(j["runs"][1]["mark"], "up");
  EXPECT_EQ(j["runs"][1]["change"], 250.0);
  EXPECT_EQ(j["runs"][2]["mark"], "down");
  EXPECT_EQ(j["runs"][2]["median"], 150.0);
  r = RunCli("trend --db " + db + " --metric graph_wall_cycles --label x --format json");
  j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["runs"].size(), 1u);
  EXPECT_EQ(j["runs"][0]["run_id"], 2);
  r = RunCli("trend --db " + db + " --metric no_such_metric");
  EXPECT_EQ(r.status, 2);
}

TEST(StoreCli, NotAStoreIsABadInput) {
  const std::string dir = testing_support::TempDir("store_bad");
  testing_support::WriteTestFile(dir + "/x.db", "not a database at all, just text");
  CliResult r = RunCli("sql --db " + Quote(dir + "/x.db") + " -q 'select 1'");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("x.db"), std::string::npos) << r.err;
}

// A SQLite file of another kind (an exported run): the error says how to
// make a store.
TEST(StoreCli, ADatabaseThatIsNoStoreSaysHowToMakeOne) {
  const std::string run = Quote(OneOpRun("store_export", "conv", 150));
  const std::string db = testing_support::TempDir("store_export_db") + "/run.db";
  CliResult r = RunCli("export " + run + " --sqlite " + Quote(db));
  ASSERT_EQ(r.status, 0) << r.err;
  r = RunCli("trend --db " + Quote(db) + " --metric graph_wall_cycles");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "htpscope: error: " + db +
                       ": not an htpscope store of runs (no store_info table); create one with "
                       "`htpscope ingest RUN --db FILE`\n");
}

}  // namespace
}  // namespace htpscope::store_cli_test
