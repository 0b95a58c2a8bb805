// diff on profiles of several graphs: each graph compared in turn, or one
// with --graph.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli_test_util.h"
#include "formats/linting_example_test_util.h"

namespace htpscope::diff_graphs_cli_test {
namespace {

using testing_support::RunCli;

// Side A: the two-graph QAIRT 2.47 CSV (decode's graph wall 3150, 2750, 2700
// µs: steady median 2725).  Side B: the same with decode's executions 2 and 3
// at 3000 µs (steady median 3000, +10.1 %); prefill unchanged.
std::string SlowerDecode() {
  std::string text =
      testing_support::Slurp(testing_support::ProfileTestdata("qairt247_linting_two_graphs.csv"));
  for (const char* old :
       {"2750,US,BACKEND,ROOT,QNN accelerator", "2700,US,BACKEND,ROOT,QNN accelerator"}) {
    size_t at = text.find(old);
    EXPECT_NE(at, std::string::npos);
    text.replace(at, 4, "3000");
  }
  std::string path = testing_support::TempDir("diff_graphs_b") + "/slower_decode.csv";
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string SideA() {
  return "'" + testing_support::ProfileTestdata("qairt247_linting_two_graphs.csv") + "'";
}

TEST(DiffGraphs, TextComparesEachGraphAndGatesOnTheWorst) {
  std::string b = SlowerDecode();
  auto r = RunCli("diff " + SideA() + " '" + b + "' --fail-on 'wall_us>+5%'", "diff_graphs_text");
  EXPECT_EQ(r.status, 1) << r.out << r.err;  // decode regressed by 10.1 %
  size_t prefill = r.out.find("=== Graph model.prefill ===");
  size_t decode = r.out.find("=== Graph model.decode ===");
  ASSERT_NE(prefill, std::string::npos) << r.out;
  ASSERT_NE(decode, std::string::npos) << r.out;
  EXPECT_LT(prefill, decode);  // file order
  auto only_prefill =
      RunCli("diff " + SideA() + " '" + b + "' --graph model.prefill --fail-on 'wall_us>+5%'",
             "diff_graphs_prefill");
  EXPECT_EQ(only_prefill.status, 0) << only_prefill.out << only_prefill.err;
  EXPECT_EQ(only_prefill.out.find("=== Graph"), std::string::npos);
}

TEST(DiffGraphs, JsonOfOneGraphWithGraph) {
  std::string b = SlowerDecode();
  auto r = RunCli("diff " + SideA() + " '" + b + "' --graph model.decode --format json",
                  "diff_graphs_json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["wall_us"]["a"].get<double>(), 2725.0);
  EXPECT_DOUBLE_EQ(j["wall_us"]["b"].get<double>(), 3000.0);
}

TEST(DiffGraphs, JsonOfSeveralGraphsNeedsGraph) {
  auto r = RunCli("diff " + SideA() + " " + SideA() + " --format json", "diff_graphs_usage");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("model.prefill, model.decode"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--graph NAME"), std::string::npos) << r.err;
  auto bad = RunCli("diff " + SideA() + " " + SideA() + " --graph nope", "diff_graphs_bad");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("no graph named \"nope\""), std::string::npos) << bad.err;
  // Every command names the option the graph name came from.
  const std::string said =
      "htpscope: error: --graph nope: no graph named \"nope\" in the profile (graphs: "
      "model.prefill, model.decode)\n";
  EXPECT_EQ(bad.err, said);
  for (const std::string& command : std::vector<std::string>{"summary", "lint", "timeline"}) {
    auto one = RunCli(command + " " + SideA() + " --graph nope", "diff_graphs_bad_" + command);
    EXPECT_EQ(one.status, 2) << command;
    EXPECT_EQ(one.err, said) << command;
  }
}

}  // namespace
}  // namespace htpscope::diff_graphs_cli_test
