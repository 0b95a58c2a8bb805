#include "report/diff_report.h"

#include <gtest/gtest.h>

#include <array>

#include "base/corpus_test_util.h"

namespace htpscope::diff_report_test {
namespace {

using testing_support::CorpusRun;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

size_t Count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t pos = text.find(part); pos != std::string::npos; pos = text.find(part, pos + 1)) ++n;
  return n;
}

// A run given by its coarse executions (µs, work cycles) and QNN ops (name,
// DPC; type "MatMul" for names starting "mm", else "Fused"): the model's
// tables filled by hand, as loading would fill them.  No ops: no fine view.
RunFacts Facts(const std::string& label, std::vector<std::array<double, 3>> executions,
               std::vector<std::pair<std::string, int64_t>> ops, int64_t graph_wall_cycles) {
  htpscope::Run run;
  run.label = label;
  run.graphs.push_back({"", Source::kProfile, static_cast<uint32_t>(executions.size())});
  int index = 1;
  for (const auto& [wall, busy, work] : executions) {
    ExecutionRow e;
    e.index = index++;
    e.cold = e.index == 1;
    e.qnn_accelerator_us = wall;
    e.accelerator_us = busy;
    e.accelerator_cycles = static_cast<int64_t>(work);
    run.executions.push_back(e);
  }
  if (!ops.empty()) {
    run.figures.fine_source = Source::kOptrace;
    run.figures.graph_wall_cycles = graph_wall_cycles;
  }
  for (const auto& [name, dpc] : ops) {
    OpGroupRow g;
    g.name = run.strings.Intern(name);
    g.type = run.strings.Intern(name.rfind("mm", 0) == 0 ? "MatMul" : "Fused");
    g.dpc_cycles = dpc;
    g.dpc_basis = DpcBasis::kOptrace;
    g.work_cycles = dpc;
    g.instances = 1;
    run.qnn_ops.push_back(g);
  }
  return CollectRunFacts(std::move(run));
}

// The primer's case: many small ops vs one fused op that computes more but
// loses the per-op dispatch overhead.
RunDiff PrimerCase() {
  RunFacts a = Facts("many_ops", {{70000, 3300, 1.1e6}, {66000, 3200, 1e6}, {66000, 3200, 1e6}},
                     {{"mm_1", 900}, {"mm_2", 800}}, 2000);
  RunFacts b = Facts("fused", {{15000, 4800, 1.5e6}, {12000, 4700, 1.4e6}, {12000, 4700, 1.4e6}},
                     {{"mm_1", 1200}, {"fused", 250}}, 1500);
  return DiffRuns({a}, {b});
}

TEST(DiffVerdict, WallGainFromOverheadWhileDoingMoreWork) {
  RunDiff d = PrimerCase();
  std::string v = DiffVerdict(d);
  EXPECT_TRUE(
      Contains(v,
               "B is 5.50× faster in steady-state graph wall (66,000.0 → 12,000.0 µs, "
               "-81.8 %) while doing 1.40× more compute work (1,000,000 → 1,400,000 "
               "cycles, thread-aggregate, steady state): the gain is dispatch overhead "
               "removed (overhead 62,800.0 → 7,300.0 µs; compute-busy 3,200.0 → 4,700.0 µs)."))
      << v;
  EXPECT_TRUE(Contains(v, "Cold first execution, kept apart: graph wall 70,000.0 → 15,000.0 µs"))
      << v;
  // Wall change −500 cycles: mm_2 removed (−800 = 160 %), mm_1 +300 offsets 60 %.
  EXPECT_TRUE(Contains(v,
                       "the DPC changed most in mm_2 -800 DPC cycles (removed, 160 % of the "
                       "wall change), mm_1 +300 DPC cycles (matched, offsetting 60 % of it)"))
      << v;
  EXPECT_TRUE(Contains(v,
                       "Noise not assessed: fewer than 3 steady-state executions on each side "
                       "(A 2, B 2)"))
      << v;
}

TEST(DiffVerdict, WithinNoiseIsSaidAndNoCauseClaimed) {
  RunFacts a = Facts("a", {{500, 60, 900}, {100, 60, 900}, {102, 60, 900}, {98, 60, 900}}, {}, 0);
  RunFacts b = Facts("b", {{500, 60, 900}, {101, 60, 900}, {103, 60, 900}, {99, 60, 900}}, {}, 0);
  std::string v = DiffVerdict(DiffRuns({a}, {b}));
  // +1 µs against a bound of 3 × √2 × 1.4826 × 2 = 12.58 µs.
  EXPECT_TRUE(Contains(v,
                       "B's steady-state graph wall is unchanged within noise (100.0 → 101.0 "
                       "µs, +1.0 %, noise ±12.6)"))
      << v;
  EXPECT_TRUE(Contains(v, "while doing the same compute work")) << v;
  EXPECT_FALSE(Contains(v, "the loss is")) << v;
  EXPECT_TRUE(Contains(v, "Noise bound for the wall: ±12.6 µs")) << v;
}

TEST(DiffVerdict, TracedCyclesFallbackIsNamed) {
  RunFacts a = Facts("a", {{500, 60, 900}}, {{"x", 10}}, 1000);
  RunFacts b = Facts("b", {}, {{"x", 20}}, 1250);
  RunDiff d = DiffRuns({a}, {b});
  std::string v = DiffVerdict(d);
  EXPECT_TRUE(Contains(v,
                       "B is 1.25× slower in traced graph wall (cycles of the one execution "
                       "each trace covers; no steady-state µs on both sides) (1,000 → 1,250 "
                       "cycles, +25.0 %)"))
      << v;
  EXPECT_FALSE(Contains(v, "µs, ")) << v;
}

TEST(DiffJson, KeepsTheDocumentedFields) {
  RunDiff d = PrimerCase();
  std::vector<GateResult> gates = {EvaluateGate(ParseGate("wall_us>+5%"), GateSubjects(d)),
                                   EvaluateGate(ParseGate("work_cycles>+10%"), GateSubjects(d))};
  nlohmann::json j = RunDiffToJson(d, gates);
  EXPECT_EQ(j["schema"], "htpscope.diff/1");
  EXPECT_EQ(j["wall_us"]["a"], 66000.0);
  EXPECT_EQ(j["wall_us"]["b"], 12000.0);
  EXPECT_NEAR(j["wall_us"]["change_pct"].get<double>(), -81.818, 1e-3);
  EXPECT_EQ(j["wall_basis"], "wall_us");
  EXPECT_EQ(j["wall_cause"], "overhead");
  ASSERT_EQ(j["ops"].size(), 3u);
  EXPECT_EQ(j["ops"][0]["name"], "mm_2");
  EXPECT_EQ(j["ops"][0]["status"], "removed");
  EXPECT_EQ(j["ops"][0]["a_dpc_cycles"], 800.0);
  EXPECT_TRUE(j["ops"][0]["b_dpc_cycles"].is_null());
  EXPECT_EQ(j["ops"][1]["name"], "mm_1");
  EXPECT_EQ(j["ops"][1]["status"], "matched");
  EXPECT_NEAR(j["ops"][1]["change_pct"].get<double>(), 33.333, 1e-3);
  EXPECT_EQ(j["ops"][2]["status"], "added");
  ASSERT_EQ(j["gates"].size(), 2u);
  EXPECT_EQ(j["gates"][0]["expr"], "wall_us>+5%");
  EXPECT_EQ(j["gates"][0]["passed"], true);
  EXPECT_EQ(j["gates"][0]["within_noise"], false);
  EXPECT_EQ(j["gates"][1]["passed"], false);  // 1.4× the work: +40 %
  EXPECT_EQ(j["exit_status"], 1);
  EXPECT_TRUE(j["verdict"].get<std::string>().rfind("B is 5.50× faster", 0) == 0);
}

TEST(DiffJunit, OneTestcasePerGateWithFailuresAndErrors) {
  RunDiff d = PrimerCase();
  auto subjects = GateSubjects(d);
  std::vector<GateResult> gates = {EvaluateGate(ParseGate("wall_us>+5%"), subjects),
                                   EvaluateGate(ParseGate("work_cycles>+10%"), subjects),
                                   EvaluateGate(ParseGate("dram_bytes>+0"), subjects)};
  std::string xml = RenderRunDiff(d, gates, DiffFormat::kJunit, 10);
  EXPECT_EQ(Count(xml, "<testcase "), 3u);
  EXPECT_TRUE(Contains(xml,
                       "<testsuite name=\"htpscope diff\" tests=\"3\" failures=\"1\" "
                       "errors=\"1\""))
      << xml;
  EXPECT_TRUE(Contains(xml, "name=\"wall_us&gt;+5%\"/>")) << xml;  // passed: empty testcase
  EXPECT_TRUE(Contains(xml, "name=\"work_cycles&gt;+10%\">\n      <failure type=\"regression\""))
      << xml;
  EXPECT_TRUE(Contains(xml, "name=\"dram_bytes&gt;+0\">\n      <error type=\"input\"")) << xml;
  EXPECT_TRUE(Contains(xml, "<system-out>B is 5.50× faster")) << xml;
}

TEST(DiffMarkdown, CompactTableForPrComments) {
  RunDiff d = PrimerCase();
  std::vector<GateResult> gates = {EvaluateGate(ParseGate("wall_us>+5%"), GateSubjects(d))};
  std::string md = RenderRunDiff(d, gates, DiffFormat::kMarkdown, 10);
  EXPECT_TRUE(Contains(md, "**Gates: passed**")) << md;
  EXPECT_TRUE(Contains(md,
                       "| graph wall µs | 66,000.0 | 12,000.0 | -54,000.0 (-81.8 %) | not "
                       "assessed (n 2/2) |"))
      << md;
  EXPECT_TRUE(Contains(md, "| `wall_us>+5%` | PASS |")) << md;
  EXPECT_TRUE(Contains(md, "| removed | mm\\_2 | 800 | - | -800 | 1/- |")) << md;
}

TEST(DiffStages, PrimerExampleTable) {
  StageDiff d =
      DiffStages(ParseStageTimings("a.csv", "stage,seconds\nquantize,548\ncompile,929\n"),
                 ParseStageTimings("b.csv", "stage,seconds\nquantize,469\ncompile,803\n"));
  std::string text = RenderStageDiff(d, {}, DiffFormat::kText);
  EXPECT_TRUE(Contains(text, "  quantize        548        469         -79       14.4 %\n"))
      << text;
  EXPECT_TRUE(Contains(text, "  compile         929        803        -126       13.6 %\n"))
      << text;
  EXPECT_TRUE(Contains(text, "  total         1,477      1,272        -205       13.9 %\n"))
      << text;
  EXPECT_TRUE(Contains(text,
                       "B lowers 13.9 % faster in total (1,477 → 1,272 s); improvement per "
                       "stage: quantize 14.4 %, compile 13.6 %."))
      << text;
  std::string md = RenderStageDiff(d, {}, DiffFormat::kMarkdown);
  EXPECT_TRUE(Contains(md, "| **total** | 1,477 | 1,272 | -205 | 13.9 % |")) << md;
  nlohmann::json j = StageDiffToJson(d, {});
  EXPECT_EQ(j["stages"][0]["a_seconds"], 548.0);
  EXPECT_EQ(j["stages"][0]["b_seconds"], 469.0);
  EXPECT_NEAR(j["total"]["improvement_pct"].get<double>(), 13.8795, 1e-4);
}

TEST(DiffReportCorpus, VerdictForCustomOpPackageVersusNative) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  RunDiff d = DiffRuns({CollectRunFacts(LoadRun({CorpusRun("v8c8_256")}))},
                       {CollectRunFacts(LoadRun({CorpusRun("native_256")}))});
  std::string v = DiffVerdict(d);
  EXPECT_TRUE(Contains(v,
                       "B is 1.15× faster in steady-state graph wall (215.5 → 188.0 µs, -12.8 %) "
                       "while doing 1.41× less compute work (160,563 → 113,704 cycles, "
                       "thread-aggregate, steady state): the gain is mostly less compute-busy "
                       "time (overhead 147.0 → 140.0 µs; compute-busy 68.5 → 48.0 µs)."))
      << v;
  EXPECT_TRUE(Contains(v, "bbb_indep0 -87,938 DPC cycles (removed, 107 % of the wall change)"))
      << v;
  EXPECT_TRUE(Contains(v, "The busiest thread moved from HMX tid 256 to HVX tid 513")) << v;
  EXPECT_TRUE(Contains(v,
                       "QNN ops: 2 matched by name, 1 by QNN op type + dims (renamed), 8 "
                       "added, 10 removed"))
      << v;
}

}  // namespace
}  // namespace htpscope::diff_report_test
