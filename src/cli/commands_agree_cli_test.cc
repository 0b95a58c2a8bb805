// Every command reads the same joined model, so every figure two commands
// share is the same in both: checked through the binary, on every corpus run,
// for summary, timeline, graph, memory, report and diff.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_test_util.h"

namespace htpscope::commands_agree_cli_test {
namespace {

using nlohmann::json;
using testing_support::CliResult;
using testing_support::RunCli;

json JsonOf(const std::string& args) {
  CliResult r = RunCli(args, "agree");
  EXPECT_EQ(r.status, 0) << args << ": " << r.err;
  return r.status == 0 ? json::parse(r.out) : json::object();
}

// The data model embedded in a report page.
json ReportModel(const std::string& run) {
  std::string page_path = testing_support::TempDir("agree_report") + "/report.html";
  CliResult r = RunCli("report '" + run + "' -o '" + page_path + "'", "agree");
  EXPECT_EQ(r.status, 0) << r.err;
  std::string page = testing_support::Slurp(page_path);
  const std::string open = "<script type=\"application/json\" id=\"data\">";
  size_t begin = page.find(open);
  if (begin == std::string::npos) {
    ADD_FAILURE() << "no report data in the page";
    return json::object();
  }
  begin += open.size();
  return json::parse(page.substr(begin, page.find("</script>", begin) - begin));
}

class CommandsAgreeCorpus : public ::testing::TestWithParam<const char*> {};

TEST_P(CommandsAgreeCorpus, OnEverySharedFigure) {
  HTPSCOPE_REQUIRE_CORPUS(GetParam());
  const std::string run = testing_support::CorpusRun(GetParam());
  const std::string quoted = "'" + run + "'";
  json summary = JsonOf("summary --json " + quoted);
  json timeline = JsonOf("timeline --json " + quoted);
  json graph = JsonOf("graph --json " + quoted);
  json memory = JsonOf("memory --json " + quoted);
  json diff = JsonOf("diff --format json " + quoted + " " + quoted);
  json report = ReportModel(run)["overview"];

  // Graph wall cycles.
  const int64_t wall = summary["graph_wall_cycles"];
  EXPECT_EQ(timeline["window"]["cycles"], wall);
  EXPECT_EQ(graph["wall_cycles"], wall);
  EXPECT_EQ(report["graph_wall_cycles"], wall);
  EXPECT_EQ(diff["graph_wall_cycles"]["a"], wall);
  // Work and the dominant path.
  EXPECT_EQ(timeline["all"]["busy_cycles"], summary["work_cycles"]);
  EXPECT_EQ(diff["traced_work_cycles"]["a"], summary["work_cycles"]);
  EXPECT_EQ(report["work_cycles"], summary["work_cycles"]);
  const int64_t dpc_sum = summary["dpc_sum_cycles"];
  EXPECT_EQ(diff["dpc_sum_cycles"]["a"], dpc_sum);
  EXPECT_EQ(graph["dominant_path"]["wall_cycles"].get<int64_t>() -
                graph["dominant_path"]["idle_cycles"].get<int64_t>(),
            dpc_sum);
  EXPECT_EQ(summary["idle_cycles"], graph["dominant_path"]["idle_cycles"]);
  // Per unit: cycles_used.
  std::map<int64_t, int64_t> used;
  for (const auto& u : summary["units"]) used[u["tid"]] = u["cycles_used"];
  ASSERT_FALSE(used.empty());
  for (const auto& row : timeline["rows"]) EXPECT_EQ(row["active_cycles"], used[row["tid"]]);
  for (const auto& u : diff["units"]) EXPECT_EQ(u["a_cycles_used"], used[u["tid"]]);
  for (const auto& u : report["units"]) EXPECT_EQ(u["cycles_used"], used[u["tid"]]);
  // Per QNN op: DPC and work.
  std::map<std::string, int64_t> dpc;
  for (const auto& op : summary["ops"]) dpc[op["name"]] = op["dpc_cycles"];
  for (const auto& op : diff["ops"]) EXPECT_EQ(op["a_dpc_cycles"], dpc[op["name"]]) << op["name"];
  std::map<std::string, int64_t> from_path;
  for (const auto& op : graph["dominant_path"]["per_op"])
    from_path[op["name"]] += op["dp_cycles"].get<int64_t>();
  for (const auto& [name, cycles] : from_path) EXPECT_EQ(cycles, dpc[name]) << name;
  // Peak VTCM.
  EXPECT_EQ(memory["peak_vtcm"]["peak_bytes"], summary["peak_vtcm_bytes"]);
  EXPECT_EQ(diff["peak_vtcm_bytes"]["a"], summary["peak_vtcm_bytes"]);
  EXPECT_EQ(report["peak_vtcm_bytes"], summary["peak_vtcm_bytes"]);
  // Steady-state wall, where the run has a profile.
  if (!summary["steady_state"].is_null()) {
    EXPECT_EQ(diff["wall_us"]["a"], summary["steady_state"]["qnn_accelerator_us"]["median"]);
  }
}

INSTANTIATE_TEST_SUITE_P(AllRuns, CommandsAgreeCorpus,
                         ::testing::Values("v8c8_256", "native_256", "gdn_hvx_int16",
                                           "chain8_archive"));

}  // namespace
}  // namespace htpscope::commands_agree_cli_test
