// An ONNX Runtime QNN EP CSV of three sessions with "ONNX Source Ops"
// (src/formats/testdata/ort_qnn_ep_sessions.csv, described in
// profile_csv_sessions_test.cc) through the built binary: each session a
// graph of its own in `summary --json`, the source ops in op_steady_state
// and in the profile_nodes table, `--graph` selecting one session.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli_test_util.h"

namespace htpscope::ort_sessions_cli_test {
namespace {

using nlohmann::json;
using testing_support::RunCli;

const std::string kSessions =
    std::string(HTPSCOPE_SOURCE_DIR) + "/src/formats/testdata/ort_qnn_ep_sessions.csv";

const json* SteadyRow(const json& doc, const std::string& graph, const std::string& name) {
  for (const json& row : doc["op_steady_state"])
    if (row["graph"] == graph && row["name"] == name) return &row;
  ADD_FAILURE() << graph << " / " << name << " not in op_steady_state";
  return nullptr;
}

TEST(OrtSessionsCli, SummaryJsonKeepsSessionsAndSourceOps) {
  auto r = RunCli("summary --json '" + kSessions + "'", "ort_sessions_json");
  ASSERT_EQ(r.status, 0) << r.err;
  const json doc = json::parse(r.out);
  // Executions per session (graphs[]), each session's first cold.
  std::map<std::string, std::vector<int>> executions;
  for (const json& g : doc["graphs"])
    for (const json& e : g["executions"]) {
      EXPECT_EQ(e["graph"], g["name"]);
      executions[e["graph"].get<std::string>()].push_back(e["index"].get<int>());
      EXPECT_EQ(e["cold"].get<bool>(), e["index"].get<int>() == 1) << e.dump();
    }
  EXPECT_EQ(executions["session 1"], (std::vector<int>{1, 2}));
  EXPECT_EQ(executions["session 2"], (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(executions["session 3"], (std::vector<int>{1, 2}));
  EXPECT_EQ(executions.size(), 3u);
  // Session 2's steady state: executions 2..3, work 140,000 and 146,000 cycles.
  EXPECT_EQ(doc["graphs"][1]["steady_state"]["accelerator_cycles"]["median"], 143000.0);

  // Session 2's stem Conv: cycles 60,000 cold, then 41,000 and 43,000.
  const json* stem = SteadyRow(doc, "session 2", "/stem/conv/Conv_token_1");
  ASSERT_TRUE(stem);
  EXPECT_EQ((*stem)["cold_cycles"], 60000);
  EXPECT_EQ((*stem)["steady_median_cycles"], 42000.0);
  EXPECT_EQ((*stem)["source_ops"], "/stem/conv/Conv;/stem/relu/Relu");
  const json* input = SteadyRow(doc, "session 1", "Input");
  ASSERT_TRUE(input);
  EXPECT_EQ((*input)["source_ops"], "");  // the column is there, the cell empty
  // Session 3 came from a file without the column: no key.
  const json* stem3 = SteadyRow(doc, "session 3", "/stem/conv/Conv_token_1");
  ASSERT_TRUE(stem3);
  EXPECT_FALSE(stem3->contains("source_ops")) << stem3->dump();
  EXPECT_EQ((*stem3)["steady_median_cycles"], 39000.0);
}

TEST(OrtSessionsCli, SqlProfileNodesHaveTheSourceOps) {
  auto r = RunCli("sql '" + kSessions +
                      "' --format csv -q \"SELECT count(*), count(source_ops), "
                      "sum(source_ops = '/head/fc/MatMul;/head/fc/Add'), "
                      "sum(source_ops IS NULL) FROM profile_nodes\"",
                  "ort_sessions_sql");
  ASSERT_EQ(r.status, 0) << r.err;
  // 7 executions × 7 nodes; sessions 1 and 2 (5 executions) carry the
  // column, the head's Gemm once per execution there; session 3 (2
  // executions) has none.
  EXPECT_NE(r.out.find("\n49,35,5,14"), std::string::npos) << r.out;
}

TEST(OrtSessionsCli, GraphSelectsOneSession) {
  auto r = RunCli("summary --json '" + kSessions + "' --graph 'session 2'", "ort_sessions_graph");
  ASSERT_EQ(r.status, 0) << r.err;
  const json doc = json::parse(r.out);
  ASSERT_EQ(doc["graphs"].size(), 1u);
  EXPECT_EQ(doc["graphs"][0]["name"], "session 2");
  ASSERT_EQ(doc["executions"].size(), 3u);
  for (const json& e : doc["executions"]) EXPECT_EQ(e["graph"], "session 2");
  EXPECT_EQ(doc["executions"][2]["accelerator_cycles"], 146000);
}

}  // namespace
}  // namespace htpscope::ort_sessions_cli_test
