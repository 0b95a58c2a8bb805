#include "report/module_report.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>

#include "analysis/summary.h"
#include "base/test_paths.h"
#include "formats/linting_example_test_util.h"
#include "report/html_report.h"
#include "report/run_tables.h"
#include "report/summary_report.h"

namespace htpscope::module_report_test {
namespace {

using nlohmann::json;

// ort_qnn_ep_resnet_modules.csv (module_run_test.cc has its figures).
htpscope::Run ResnetRun() {
  return LoadRun({testing_support::ProfileTestdata("ort_qnn_ep_resnet_modules.csv")});
}

TEST(ModuleReport, TextShowsTheTreeTheBasisAndTheSlowLayer) {
  htpscope::Run run = ResnetRun();
  RunModules m = ComputeRunModules(run);
  std::string text = RenderModulesText(m, 3, 10);
  EXPECT_NE(text.find("time: steady-state median cycles per op (executions 2..N), summed (4 "
                      "steady executions); from the profile"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("54 ops: 52 with an ONNX scope, 2 without a module"), std::string::npos);
  // Depth 3: stages shown (with "/…": they have children), layers not.
  EXPECT_NE(text.find("      stages.2/…"), std::string::npos) << text;
  EXPECT_NE(text.find("9,232,688.50"), std::string::npos);
  EXPECT_EQ(text.find("layers.0/…    "), std::string::npos);
  EXPECT_NE(text.find("  (no module)"), std::string::npos);
  EXPECT_NE(text.find("resnet/encoder/stages.2/layers.N: 4 blocks, median 2,028,653.50 cycles"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("resnet/encoder/stages.N: 4 blocks"), std::string::npos);
  EXPECT_NE(text.find("not judged: no structure most of them share"), std::string::npos);
  EXPECT_NE(
      text.find(
          "resnet/encoder/stages.2/layers.1 is 1.63 × the median of the 4 blocks of its family "
          "(slow)"),
      std::string::npos)
      << text;
  // Deeper: the layers show.
  EXPECT_NE(RenderModulesText(m, 4, 10).find("        layers.1/…"), std::string::npos);
}

TEST(ModuleReport, TextWithoutPerOpTime) {
  RunModules m = ComputeRunModules(htpscope::Run{});
  std::string text = RenderModulesText(m, 3, 10);
  EXPECT_NE(text.find("no per-op time"), std::string::npos) << text;
}

TEST(ModuleReport, JsonSectionOfTheSummary) {
  htpscope::Run run = ResnetRun();
  Summary s = Summarize(run);
  json j = SummaryToJson(s)["modules"];
  EXPECT_EQ(j["available"], true);
  EXPECT_EQ(j["basis"], "steady_median_cycles");
  EXPECT_EQ(j["time_unit"], "cycles");
  EXPECT_EQ(j["steady_executions"], 4);
  EXPECT_EQ(j["total"].get<double>(), 22163871.5);
  EXPECT_EQ(j["ops_by_spelling"]["onnx_scope"], 52);
  EXPECT_EQ(j["ops_by_spelling"]["none"], 2);
  const json& root = j["nodes"][0];
  EXPECT_EQ(root["path"], "");
  EXPECT_TRUE(root["parent"].is_null());
  bool found = false;
  for (const auto& n : j["nodes"])
    if (n["path"] == "resnet/encoder/stages.2") {
      found = true;
      EXPECT_EQ(n["time"].get<double>(), 9232688.5);
      EXPECT_EQ(n["parent"], "resnet/encoder");
      EXPECT_EQ(n["ops"], 17);
      EXPECT_EQ(n["block"]["keyword"], "stages");
      EXPECT_EQ(n["block"]["index"], 2);
      EXPECT_EQ(n["top_ops"].size(), 5u);
    }
  EXPECT_TRUE(found);
  ASSERT_EQ(j["findings"].size(), 1u);
  EXPECT_EQ(j["findings"][0]["path"], "resnet/encoder/stages.2/layers.1");
  EXPECT_EQ(j["findings"][0]["finding"], "slow");
  EXPECT_EQ(j["findings"][0]["family_median"].get<double>(), 2028653.5);

  // The HTML report has the section, the overview keeps the summary's copy.
  json model = BuildReportModel(s);
  EXPECT_EQ(model["modules"], j);
  EXPECT_EQ(model["overview"]["modules"], j);
}

TEST(ModuleReport, HtmlReportHasNoModulesSectionWhenNoNameCarriesOne) {
  htpscope::Run run = LoadRun({std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run"});
  json model = BuildReportModel(Summarize(run));
  EXPECT_FALSE(model.contains("modules"));
  EXPECT_EQ(model["overview"]["modules"]["available"], true);
}

// A cell sink that keeps one row's cells as text.
class RowSink : public CellSink {
 public:
  std::vector<std::string> cells;
  void Null() override { cells.push_back("null"); }
  void Int(int64_t v) override { cells.push_back(std::to_string(v)); }
  void Real(double v) override { cells.push_back(fmt::format("{}", v)); }
  void Text(std::string_view v) override { cells.emplace_back(v); }
};

TEST(ModuleReport, ModulesTableOneRowPerNode) {
  htpscope::Run run = ResnetRun();
  const RunTable* t = FindRunTable("modules");
  ASSERT_TRUE(t);
  RunModules m = ComputeRunModules(run);
  ASSERT_EQ(t->rows(run), m.tree.nodes.size());
  size_t row = 0;
  while (row < m.tree.nodes.size() && m.tree.nodes[row].path != "resnet/encoder/stages.2/layers.1")
    ++row;
  ASSERT_LT(row, m.tree.nodes.size());
  RowSink sink;
  for (const auto& c : t->columns) c.cell(run, row, sink);
  std::map<std::string, std::string> cell;
  for (size_t i = 0; i < t->columns.size(); ++i) cell[t->columns[i].name] = sink.cells[i];
  EXPECT_EQ(cell["name"], "layers.1");
  EXPECT_EQ(cell["parent"], "resnet/encoder/stages.2");
  EXPECT_EQ(cell["time_cycles"], "3307168");
  EXPECT_EQ(cell["time_us"], "null");
  EXPECT_EQ(cell["time_unit"], "cycles");
  EXPECT_EQ(cell["basis"], "steady_median_cycles");
  EXPECT_EQ(cell["ops"], "4");
  EXPECT_EQ(cell["block_finding"], "slow");
  // A run without per-op time has no rows.
  htpscope::Run empty;
  EXPECT_EQ(t->rows(empty), 0u);
}

}  // namespace
}  // namespace htpscope::module_report_test
