// Profiles as qnn-net-run writes them, through the CLI: phases and per-op
// steady state in summary (one graph of several with --graph), the tables in
// sql, and diff op by op.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_test_util.h"
#include "formats/qnn_net_run_test_util.h"

namespace htpscope::profile_phases_cli_test {
namespace {

using testing_support::RunCli;

std::string Quoted(const std::string& path) { return "'" + path + "'"; }

// netrun_two_graphs.csv with --graph d: d's finalize (50 µs) and cold
// execute (15 µs); INIT spans compose and both finalizes, so 1000 + 15 =
// 1015 µs to its first inference, and init alone is not known (p's finalize
// is left out); d's ops x (steady 6, 8: median 7) and z (3).
TEST(ProfilePhasesCli, SummaryOfOneGraphOfTwo) {
  auto r = RunCli("summary --json --graph d " +
                      Quoted(testing_support::ProfileTestdata("netrun_two_graphs.csv")),
                  "profile_phases_graph");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["graphs"].size(), 1u);
  EXPECT_EQ(j["graphs"][0]["name"], "d");
  EXPECT_EQ(j["executions"].size(), 3u);
  const auto& fi = j["first_inference"];
  ASSERT_EQ(fi["graphs"].size(), 1u);
  EXPECT_EQ(fi["graphs"][0]["finalize"]["us"], 50);
  EXPECT_EQ(fi["graphs"][0]["cold_execute"]["us"], 15);
  EXPECT_EQ(fi["total_us"], 1015);
  EXPECT_EQ(fi["init_spans_compose_and_finalize"], true);
  EXPECT_TRUE(fi["init_alone_us"].is_null());
  ASSERT_EQ(j["op_steady_state"].size(), 2u);
  EXPECT_EQ(j["op_steady_state"][0]["name"], "x");
  EXPECT_EQ(j["op_steady_state"][0]["steady_median_cycles"], 7);
  EXPECT_EQ(j["op_steady_state"][1]["name"], "z");
}

// The tables in SQL: the finalize stages with their parent.
TEST(ProfilePhasesCli, SqlTables) {
  auto r = RunCli("sql " + Quoted(testing_support::ProfileTestdata("netrun_phases.csv")) +
                      " -q \"SELECT stage, value FROM profile_phases WHERE parent_stage = 'QNN "
                      "(finalize) time' ORDER BY value DESC\" --format csv",
                  "profile_phases_sql");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Graph Optimizations,600"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("VTCM Allocation,50"), std::string::npos) << r.out;
  auto ops = RunCli("sql " + Quoted(testing_support::ProfileTestdata("netrun_phases.csv")) +
                        " -q \"SELECT name, steady_median_cycles, steady_share_pct FROM "
                        "op_steady_state\" --format csv",
                    "profile_phases_sql_ops");
  ASSERT_EQ(ops.status, 0) << ops.err;
  // Rows end in CRLF (RFC 4180).
  EXPECT_NE(ops.out.find("\na,100,50\r\n"), std::string::npos) << ops.out;
}

// The real pair: diff compares the profile ops, prefill against decode.
TEST(ProfilePhasesCli, CorpusDiffPrefillDecodeOpByOpSkipsWithoutCorpus) {
  HTPSCOPE_REQUIRE_QNN_NET_RUN_CORPUS();
  auto r = RunCli("diff " + Quoted(testing_support::QnnNetRunCsv("prefill")) + " " +
                      Quoted(testing_support::QnnNetRunCsv("decode")) + " --format json",
                  "profile_phases_diff");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["profile_ops"].size(), 75u);  // 61 matched, 9 removed, 5 added
  EXPECT_EQ(j["profile_ops"][1]["name"], "_MatMul_3");
  EXPECT_EQ(j["profile_ops"][1]["steady_cycles"]["a"], 60482);
  EXPECT_EQ(j["profile_ops"][1]["steady_cycles"]["b"], 7492);
  EXPECT_EQ(j["profile_ops"][1]["steady_cycles"]["within_noise"], false);
  EXPECT_EQ(j["a"]["steady_executions"], 9);
  EXPECT_EQ(j["a"]["cold_executions"], 1);
}

}  // namespace
}  // namespace htpscope::profile_phases_cli_test
