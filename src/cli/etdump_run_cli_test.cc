// An ETDump of ExecuTorch's QNN delegate as a run's profile, through the
// CLI: alone (its executions and per-op steady state), in a run directory
// beside the optrace of the same ops (joined by QNN op id), and beside a
// second profile (refused: which one is meant is ambiguous).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cli/cli_test_util.h"
#include "formats/etdump_test_util.h"

namespace htpscope::etdump_run_cli_test {
namespace {

using nlohmann::json;
using testing_support::QnnDelegateEtdumpJson;
using testing_support::RunCli;
using testing_support::TempDir;
using testing_support::WriteEtdump;

using Execution = std::vector<std::pair<std::string, int64_t>>;

std::string Quoted(const std::string& path) { return "'" + path + "'"; }

const json* FindOp(const json& ops, const std::string& name) {
  for (const json& op : ops)
    if (op["name"] == name) return &op;
  return nullptr;
}

// conv (OpId_7): 500, 200, 220, 260 cycles; relu (OpId_9): 100, 40, 60, 50.
TEST(EtdumpRunCli, ALoneQnnEtdumpIsSummarisedAsARun) {
  std::vector<Execution> executions;
  for (auto [conv, relu] : {std::pair{500, 100}, {200, 40}, {220, 60}, {260, 50}})
    executions.push_back({{"conv:OpId_7 (cycles)", conv}, {"relu:OpId_9 (cycles)", relu}});
  const std::string dir = TempDir("etdump_run_alone");
  const std::string etdump = WriteEtdump(dir, "qnn", QnnDelegateEtdumpJson(executions));
  ASSERT_FALSE(etdump.empty());
  auto r = RunCli("summary --json " + Quoted(etdump), "etdump_run_alone_out");
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["artifacts"].size(), 1u);
  EXPECT_EQ(j["artifacts"][0]["kind"], "ExecuTorch ETDump");
  EXPECT_EQ(j["executions"].size(), 4u);
  const json* conv = FindOp(j["op_steady_state"], "conv");
  ASSERT_TRUE(conv);
  EXPECT_EQ((*conv)["cold_cycles"], 500);
  EXPECT_EQ((*conv)["steady_median_cycles"], 220);  // median of 200, 220, 260
  EXPECT_EQ((*conv)["steady_min_cycles"], 200);
  EXPECT_EQ((*conv)["steady_max_cycles"], 260);
  EXPECT_EQ((*conv)["steady_executions"], 3);
  const json* relu = FindOp(j["op_steady_state"], "relu");
  ASSERT_TRUE(relu);
  EXPECT_EQ((*relu)["steady_median_cycles"], 50);  // median of 40, 60, 50
  // The ETDump's own events come after the run's figures: Method::execute
  // over the four executions, 1000 + 2000 + 3000 + 4000 ticks.
  ASSERT_TRUE(j.contains("etdump"));
  bool method_execute = false;
  for (const json& t : j["etdump"]["op_totals"])
    if (t["name"] == "Method::execute") {
      method_execute = true;
      EXPECT_EQ(t["count"], 4);
      EXPECT_EQ(t["total_ticks"], 10000);
    }
  EXPECT_TRUE(method_execute) << j["etdump"].dump();
  // The text names where the executions come from and their ticks.
  auto text = RunCli("summary " + Quoted(etdump), "etdump_run_alone_text");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("Coarse view: executions (ExecuTorch ETDump)"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("execution    4   Method::execute          4,000 ticks"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("All runs: calls and total ticks per event name"), std::string::npos)
      << text.out;
  std::filesystem::remove_all(dir);
}

// The layout of ExecuTorch's delegate since 2025: each execution's top-level
// QNN events too (QNN accelerator (execute) time 50 + k µs, Σ cycles), so
// the coarse view and the Σ-nodes cross-check come out as from a CSV.
TEST(EtdumpRunCli, TopLevelEventsGiveTheCoarseView) {
  std::vector<Execution> executions;
  for (auto [conv, relu] : {std::pair{500, 100}, {200, 40}, {220, 60}})
    executions.push_back({{"conv:OpId_7 (cycles)", conv}, {"relu:OpId_9 (cycles)", relu}});
  const std::string dir = TempDir("etdump_run_top_level");
  const std::string etdump =
      WriteEtdump(dir, "qnn", QnnDelegateEtdumpJson(executions, 3, /*top_level=*/true));
  ASSERT_FALSE(etdump.empty());
  auto r = RunCli("summary --json " + Quoted(etdump), "etdump_run_top_level_out");
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["executions"].size(), 3u);
  EXPECT_EQ(j["executions"][0]["qnn_accelerator_us"], 50);
  EXPECT_EQ(j["executions"][2]["accelerator_cycles"], 280);            // 220 + 60
  EXPECT_EQ(j["steady_state"]["qnn_accelerator_us"]["median"], 51.5);  // of 51, 52
  EXPECT_EQ(j["steady_state"]["accelerator_us"]["median"], 41.5);      // of 41, 42
  bool sum_checked = false;
  for (const json& c : j["cross_checks"])
    if (c["name"].get<std::string>().find("per-node cycles") != std::string::npos) {
      sum_checked = true;
      EXPECT_EQ(c["agree"], true) << c.dump();
      EXPECT_EQ(c["a"], 3);  // all three executions
    }
  EXPECT_TRUE(sum_checked) << j["cross_checks"].dump();
  auto text = RunCli("summary " + Quoted(etdump), "etdump_run_top_level_text");
  EXPECT_NE(text.out.find("Coarse view: time per execution (ETDump's QNN figures, µs as logged)"),
            std::string::npos)
      << text.out;
  std::filesystem::remove_all(dir);
}

// The example run's per-node cycles, execution by execution, as its profile
// text prints them ("    fc_0:OpId_16 (cycles) : 13310  cycles").
std::vector<Execution> ExampleProfileExecutions() {
  std::ifstream in(std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run/profile_text.txt");
  std::vector<Execution> out;
  const std::regex node(R"(^\s+(.*OpId_\d+) \(cycles\) : (\d+)\s+cycles\s*$)");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Execute Stat ", 0) == 0 && line != "Execute Stats: ") out.emplace_back();
    std::smatch m;
    if (!out.empty() && std::regex_match(line, m, node))
      out.back().emplace_back(m[1].str() + " (cycles)", std::stoll(m[2].str()));
  }
  return out;
}

// The example's optrace and an ETDump of the same QNN ops: the ETDump is the
// run's profile (its OpId_n are the optrace's QNN op ids, so the two belong
// to one run), and its per-op steady state is the example profile's.
TEST(EtdumpRunCli, AnEtdumpJoinsTheOptraceOfItsRun) {
  const std::vector<Execution> executions = ExampleProfileExecutions();
  ASSERT_GE(executions.size(), 3u);
  const std::string dir = TempDir("etdump_run_joined");
  std::filesystem::copy_file(
      std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run/chrometrace.json",
      dir + "/chrometrace.json", std::filesystem::copy_options::overwrite_existing);
  ASSERT_FALSE(WriteEtdump(dir, "etdump", QnnDelegateEtdumpJson(executions)).empty());
  std::filesystem::remove(dir + "/etdump.json");  // flatc's input: not part of the run
  std::filesystem::remove(dir + "/flatc.err");
  auto r = RunCli("summary --json " + Quoted(dir), "etdump_run_joined_out");
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["artifacts"].size(), 2u);
  EXPECT_EQ(j["fine_source"], "optrace");
  EXPECT_EQ(j["executions"].size(), executions.size());
  EXPECT_TRUE(j["skipped"].empty()) << j["skipped"].dump();
  // fc_0's steady median over executions 2..N, computed here.
  std::vector<int64_t> fc0;
  for (size_t k = 1; k < executions.size(); ++k)
    for (const auto& [id, cycles] : executions[k])
      if (id == "fc_0:OpId_16 (cycles)") fc0.push_back(cycles);
  ASSERT_EQ(fc0.size(), executions.size() - 1);
  std::sort(fc0.begin(), fc0.end());
  const double median = fc0.size() % 2 ? static_cast<double>(fc0[fc0.size() / 2])
                                       : (fc0[fc0.size() / 2 - 1] + fc0[fc0.size() / 2]) / 2.0;
  const json* op = FindOp(j["op_steady_state"], "fc_0");
  ASSERT_TRUE(op);
  EXPECT_EQ((*op)["steady_median_cycles"].get<double>(), median);
  EXPECT_EQ((*op)["cold_cycles"], executions[0][1].second);  // fc_0 is listed second
  std::filesystem::remove_all(dir);
}

TEST(EtdumpRunCli, AnEtdumpBesideAnotherProfileIsRefusedNamingBoth) {
  const std::string dir = TempDir("etdump_run_two_profiles");
  ASSERT_FALSE(
      WriteEtdump(dir, "etdump", QnnDelegateEtdumpJson({{{"conv:OpId_7 (cycles)", 5}}})).empty());
  std::filesystem::remove(dir + "/etdump.json");
  std::filesystem::remove(dir + "/flatc.err");
  std::filesystem::copy_file(
      std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run/profile_text.txt",
      dir + "/profile_text.txt", std::filesystem::copy_options::overwrite_existing);
  auto r = RunCli("summary " + Quoted(dir), "etdump_run_two_profiles_out");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("a second profile (viewer output, binary log or ETDump)"), std::string::npos)
      << r.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace htpscope::etdump_run_cli_test
