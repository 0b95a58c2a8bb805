#include "formats/etdump_profile.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "base/corpus_test_util.h"
#include "formats/etdump_test_util.h"

namespace htpscope::etdump_profile_test {
namespace {

using testing_support::QnnDelegateEtdumpJson;
using testing_support::TempDir;
using testing_support::WriteEtdump;

// Three executions of Input (0 cycles), conv (OpId_7) and relu (OpId_9):
// conv 500, 200, 220; relu 100, 40, 60.
std::vector<std::vector<std::pair<std::string, int64_t>>> ThreeExecutions() {
  std::vector<std::vector<std::pair<std::string, int64_t>>> out;
  for (auto [conv, relu] : {std::pair{500, 100}, {200, 40}, {220, 60}})
    out.push_back({{"Input OpId_2 (cycles)", 0},
                   {"conv:OpId_7 (cycles)", conv},
                   {"relu:OpId_9 (cycles)", relu}});
  return out;
}

ProfileReport Profile(const std::string& name, const std::string& json) {
  const std::string dir = TempDir("etdump_profile_" + name);
  const std::string path = WriteEtdump(dir, name, json);
  EXPECT_FALSE(path.empty());
  ProfileReport report = ReadEtdumpProfile(path);
  std::filesystem::remove_all(dir);
  return report;
}

TEST(EtdumpProfile, EachExecuteBlockWithQnnNodeEventsIsAnExecution) {
  const ProfileReport report = Profile("three", QnnDelegateEtdumpJson(ThreeExecutions()));
  EXPECT_EQ(report.format, ProfileFormat::kEtdump);
  EXPECT_TRUE(report.warnings.empty());
  ASSERT_EQ(report.raw.size(), 3u);  // the Default block holds no node event
  const auto graphs = report.Graphs();
  ASSERT_EQ(graphs.size(), 1u);
  EXPECT_EQ(graphs[0].name, "");  // one delegate call: the graph is not named
  EXPECT_EQ(graphs[0].executions.size(), 3u);
  const ProfileBlock& first = report.raw[0];
  EXPECT_EQ(first.execution, 1);
  EXPECT_EQ(first.graph_execution, 1);
  EXPECT_EQ(first.phase, ProfilePhase::kExecute);
  ASSERT_EQ(first.nodes.size(), 3u);
  EXPECT_EQ(first.nodes[0].qnn_op_name, "Input");
  EXPECT_EQ(first.nodes[0].op_id, 2u);
  EXPECT_EQ(first.nodes[1].label, "conv:OpId_7");
  EXPECT_EQ(first.nodes[1].qnn_op_name, "conv");
  EXPECT_EQ(first.nodes[1].op_id, 7u);
  EXPECT_EQ(first.nodes[1].cycles, 500);
  EXPECT_EQ(report.raw[2].nodes[2].cycles, 60);
  // Method::execute of execution 1 lasts 1000 ticks, of execution 3 3000.
  ASSERT_TRUE(first.Find("Method::execute"));
  EXPECT_EQ(first.Find("Method::execute")->value, 1000);
  EXPECT_EQ(first.Find("Method::execute")->unit, "ticks");
  EXPECT_EQ(report.raw[2].Find("Method::execute")->value, 3000);
}

// The top-level events ExecuTorch's delegate writes since 2025, unit
// appended to the identifier, are metrics of their execution in that unit.
TEST(EtdumpProfile, TopLevelQnnEventsAreMetricsInTheUnitTheirSuffixNames) {
  const ProfileReport report =
      Profile("top_level", QnnDelegateEtdumpJson(ThreeExecutions(), 3, /*top_level=*/true));
  EXPECT_TRUE(report.warnings.empty()) << report.warnings.front();
  ASSERT_EQ(report.raw.size(), 3u);
  const ProfileBlock& second = report.raw[1];
  ASSERT_EQ(second.nodes.size(), 3u);
  const ProfileMetric* wall = second.Find("QNN accelerator (execute) time");
  ASSERT_TRUE(wall);
  EXPECT_EQ(wall->value, 51);  // 50 + k, k = 1
  EXPECT_EQ(wall->unit, "us");
  EXPECT_EQ(wall->source, "Backend");
  const ProfileMetric* work = second.Find("Accelerator (execute) time (cycles)");
  ASSERT_TRUE(work);
  EXPECT_EQ(work->value, 240);  // 0 + 200 + 40
  EXPECT_EQ(work->unit, "cycles");
  EXPECT_EQ(second.Find("Number of HVX threads used")->unit, "count");
  EXPECT_EQ(second.nodes_parent, "Accelerator (execute) time (cycles)");
}

TEST(EtdumpProfile, EachDelegateCallIsAGraph) {
  // Calls at instructions 3 and 5 in every execution: two graphs of two
  // executions each.
  std::string json =
      QnnDelegateEtdumpJson({{{"a:OpId_1 (cycles)", 10}}, {{"a:OpId_1 (cycles)", 8}}});
  const std::string second_call =
      R"j({"profile_event": {"delegate_debug_id_str": "b:OpId_4 (cycles)", )j"
      R"j("instruction_id": 5, "start_time": 0, "end_time": 70}}, )j";
  for (size_t at = json.find(R"({"profile_event": {"name": "DELEGATE_CALL")");
       at != std::string::npos;
       at = json.find(R"({"profile_event": {"name": "DELEGATE_CALL")", at + second_call.size() + 1))
    json.insert(at, second_call);
  const ProfileReport report = Profile("two_calls", json);
  const auto graphs = report.Graphs();
  ASSERT_EQ(graphs.size(), 2u);
  EXPECT_EQ(graphs[0].name, "instruction 3");
  EXPECT_EQ(graphs[1].name, "instruction 5");
  ASSERT_EQ(graphs[1].executions.size(), 2u);
  EXPECT_EQ(graphs[1].executions[1]->graph_execution, 2);
  EXPECT_EQ(graphs[1].executions[1]->nodes[0].qnn_op_name, "b");
  EXPECT_EQ(graphs[1].executions[1]->nodes[0].cycles, 70);
  // Method::execute spans both calls: not given to either graph.
  EXPECT_FALSE(graphs[0].executions[0]->Find("Method::execute"));
}

TEST(EtdumpProfile, OtherDelegateEventsAreCountedAndLeftOut) {
  std::string json = QnnDelegateEtdumpJson({{{"conv:OpId_7 (cycles)", 5}}});
  const std::string others = R"({"profile_event": {"delegate_debug_id_str": "QNN (execute) time", )"
                             R"("start_time": 0, "end_time": 9}}, )"
                             R"({"profile_event": {"delegate_debug_id_int": 12, )"
                             R"("start_time": 0, "end_time": 4}}, )";
  json.insert(json.find(R"({"profile_event": {"name": "DELEGATE_CALL")"), others);
  const ProfileReport report = Profile("others", json);
  ASSERT_EQ(report.raw.size(), 1u);
  ASSERT_EQ(report.raw[0].nodes.size(), 1u);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("2 delegate events are neither QNN per-node cycles"),
            std::string::npos)
      << report.warnings[0];
}

TEST(EtdumpProfile, ADumpWithoutQnnNodeEventsGivesNoExecutionsAndSaysSo) {
  const ProfileReport report =
      Profile("cpu", R"({"run_data": [{"name": "Execute", "events": [{"profile_event": )"
                     R"({"name": "native_call_relu.out", "start_time": 5, "end_time": 9}}]}]})");
  EXPECT_TRUE(report.raw.empty());
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("no QNN delegate per-node events"), std::string::npos);
}

}  // namespace
}  // namespace htpscope::etdump_profile_test
