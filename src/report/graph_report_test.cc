#include "report/graph_report.h"

#include <gtest/gtest.h>

#include "base/corpus_test_util.h"
#include "formats/expected_dag.h"
#include "model/fake_run_test_util.h"

namespace htpscope::graph_report_test {
namespace {

using testing_support::FakeRun;
using testing_support::HtpGraphJson;
using testing_support::OptraceJson;

constexpr uint64_t kInput = 0x0000000100000002;
constexpr uint64_t kBranchA = 0x0000000200000010;
constexpr uint64_t kBranchB = 0x0000000300000020;
constexpr uint64_t kZeros = 0x0000100200000008;

// Two branches that share one de-duplicated constant, and branch B ordered
// after branch A by that false dependency.
Run SharedConstantRun(const std::string& name_b = "branch_b") {
  std::string graph = HtpGraphJson({{kInput, "q::*InputSlice", "Input", {}},
                                    {kBranchA, "q::Conv", "branch_a", {kInput, kZeros}},
                                    {kBranchB, "q::Conv", name_b, {kInput, kZeros, kBranchA}}},
                                   {kZeros});
  std::string trace = OptraceJson({{kInput, "Input", "q::*InputSlice", "dma", 256, 0, 100},
                                   {kBranchA, "branch_a", "q::Conv", "uses_hvx", 512, 100, 400},
                                   {kBranchB, name_b, "q::Conv", "uses_hvx", 513, 500, 300}});
  return FakeRun(trace, graph);
}

TEST(GraphReport, SharedConstantWarningWhatIfAndJson) {
  htpscope::Run run = SharedConstantRun();
  GraphViewOptions options;
  options.drop_edges = {{"branch_a", "branch_b"}};
  options.expected = ParseExpectedDag("e", "Input -> branch_a\nInput -> branch_b\n");
  GraphView v = BuildGraphView(run, options);
  ASSERT_FALSE(v.warnings.empty());
  EXPECT_EQ(WarningName(v.warnings[0].code), "shared_constant");
  EXPECT_EQ(v.critical.length_cycles, 800);
  ASSERT_EQ(v.what_if.size(), 1u);
  EXPECT_EQ(v.what_if[0].saving_cycles, 300);
  EXPECT_EQ(v.wall_cycles, 800);
  nlohmann::json j = Materialize(GraphJson(v, run));
  ASSERT_EQ(j["shared_tensors"].size(), 2u);  // the input activation and the constant
  const auto& zeros = j["shared_tensors"][1];
  EXPECT_EQ(zeros["tensor"], "0x0000100200000008");
  EXPECT_EQ(zeros["consumers"], (nlohmann::json{"branch_a", "branch_b"}));
  EXPECT_EQ(zeros["constant"], true);
  ASSERT_EQ(j["critical_path"].size(), 3u);
  EXPECT_EQ(j["critical_path"][1]["name"], "branch_a");
  EXPECT_EQ(j["critical_path"][1]["cycles"], 400);
  EXPECT_EQ(j["critical_path_cycles"], 800);
  EXPECT_EQ(j["what_if"][0]["saving_cycles"], 300);
  EXPECT_EQ(j["what_if"][0]["estimate"], true);
  EXPECT_EQ(j["expect"]["extra"][0]["from"], "branch_a");
  EXPECT_EQ(j["expect"]["extra"][0]["to"], "branch_b");
  EXPECT_TRUE(j["expect"]["missing"].empty());
  std::string text = RenderGraphText(v, run);
  EXPECT_NE(text.find("estimated wall saving 300 cycles (37.5 % of the wall)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("extra:   branch_a -> branch_b"), std::string::npos) << text;

  options.drop_edges = {{"branch_a", "nobody"}};
  EXPECT_THROW(BuildGraphView(run, options), std::invalid_argument);
}

TEST(GraphReport, DotEscapesEveryInputString) {
  EXPECT_EQ(DotEscape(R"(a"b\c)"), R"(a\"b\\c)");
  EXPECT_EQ(DotEscape("x\ny"), "x\\ny");
  htpscope::Run run = SharedConstantRun(R"(evil\" -> \"x)");
  GraphView v = BuildGraphView(run, {});
  std::string dot = RenderGraphDot(v);
  // The name arrives as  evil" -> "x  and must stay inside its quotes.
  EXPECT_NE(dot.find(R"(label="evil\" -> \"x")"), std::string::npos) << dot;
  // Outside quoted strings only our own syntax remains: count the quotes.
  size_t quotes = 0;
  for (size_t i = 0; i < dot.size(); ++i)
    if (dot[i] == '"' && (i == 0 || dot[i - 1] != '\\')) ++quotes;
  EXPECT_EQ(quotes % 2, 0u);
  EXPECT_NE(dot.find("shape=note"), std::string::npos);  // the shared constant
  EXPECT_EQ(dot.rfind("}\n"), dot.size() - 2);
}

TEST(GraphReportCorpus, V8c8DominantPathIdenticalToQhasInText) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("v8c8_256")});
  GraphView v = BuildGraphView(run, {});
  ASSERT_TRUE(v.dominant_vs_qhas);
  EXPECT_TRUE(v.dominant_vs_qhas->identical());
  std::string text = RenderGraphText(v, run);
  EXPECT_NE(text.find("QHAS dominant_path_htp_0: identical, 62 of 62 rows"), std::string::npos);
  // Critical path: Input slice, its Crouton, bbb_indep0, an output slice, the sync.
  EXPECT_EQ(v.critical.length_cycles, 3030 + 16853 + 87938 + 8064 + 18);
  ASSERT_TRUE(v.critical_vs_qhas);
  EXPECT_EQ(v.critical_vs_qhas->both.size(), 4u);
}

}  // namespace
}  // namespace htpscope::graph_report_test
