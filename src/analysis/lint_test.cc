#include "analysis/lint.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "formats/linting_example_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::lint_test {
namespace {

using testing_support::kLintingLayoutExample;

bool Contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

std::vector<std::string> HintRules(const LintOp& op) {
  std::vector<std::string> out;
  for (const auto& h : op.hints) out.push_back(h.rule);
  return out;
}

std::vector<std::string> BottleneckNames(const LintGraph& g) {
  std::vector<std::string> out;
  for (const auto& b : g.bottlenecks) out.push_back(g.ops[b.op_index].label);
  return out;
}

TEST(Lint, LayoutExampleByHand) {
  LintAnalysis a = AnalyzeLint(testing_support::RunOfText("lint.txt", kLintingLayoutExample));
  EXPECT_TRUE(a.path.size() > 9 && a.path.substr(a.path.size() - 9) == "/lint.txt") << a.path;
  ASSERT_EQ(a.graphs.size(), 1u);
  EXPECT_TRUE(a.skipped.empty());
  const LintGraph& g = a.graphs[0];
  EXPECT_EQ(g.Name(), "Execute Stats (Average)");
  EXPECT_EQ(g.critical_path_cycles, 1000000);
  EXPECT_EQ(g.critical_path_source, "Accelerator (critical path execute) time (cycles)");
  EXPECT_EQ(g.share_basis_cycles, 1000000);
  ASSERT_EQ(g.ops.size(), 4u);

  const LintOp& input = g.ops[0];
  EXPECT_EQ(input.label, "Input OpId_2");
  EXPECT_EQ(input.cycles, 0);
  EXPECT_EQ(input.share_pct, 0.0);
  EXPECT_FALSE(input.overlap_pct);  // 0 of 0 cycles: no share
  EXPECT_EQ(input.exposed_cycles, 0);
  EXPECT_TRUE(input.hints.empty());

  const LintOp& conv = g.ops[1];
  EXPECT_EQ(conv.cycles, 300000);
  EXPECT_DOUBLE_EQ(*conv.share_pct, 30.0);  // 300000 / 1000000
  EXPECT_EQ(conv.wait_cycles, 40);
  EXPECT_EQ(conv.overlap_cycles, 150000);
  EXPECT_DOUBLE_EQ(*conv.overlap_pct, 50.0);  // 150000 / 300000
  EXPECT_EQ(conv.overlap_wait_cycles, 40);
  EXPECT_EQ(conv.exposed_cycles, 150000);
  EXPECT_EQ(conv.resources, (std::vector<std::string>{"HVX", "HMX", "DMA"}));
  EXPECT_EQ(conv.overlap_ops, (std::vector<std::string>{"net_mul_mul:OpId_30", "Output OpId_3"}));
  EXPECT_EQ(conv.op_kind, "Conv");
  EXPECT_EQ(conv.op_kind_source, "name");
  EXPECT_TRUE(conv.hints.empty());

  const LintOp& mul = g.ops[2];
  EXPECT_DOUBLE_EQ(*mul.share_pct, 60.0);
  EXPECT_DOUBLE_EQ(*mul.overlap_pct, 10.0);
  EXPECT_EQ(mul.exposed_cycles, 540000);  // 600000 − 60000
  EXPECT_EQ(mul.op_kind, "Mul");
  // 60 % of the path, 10 % overlapped, HVX only: the HVX rule, not the Sub/Div one.
  EXPECT_EQ(HintRules(mul), (std::vector<std::string>{"hvx_only_low_overlap"}));

  const LintOp& output = g.ops[3];
  EXPECT_DOUBLE_EQ(*output.share_pct, 9.996);                  // 99960 / 1000000
  EXPECT_NEAR(*output.overlap_pct, 5.002000800320128, 1e-12);  // 5000 / 99960
  EXPECT_EQ(output.exposed_cycles, 94960);
  EXPECT_TRUE(output.hints.empty());  // HVX only but under 20 % of the path

  // 999960 op cycles + 40 wait cycles = the 1000000 total exactly.
  EXPECT_EQ(g.consistency.op_cycles, 999960);
  EXPECT_EQ(g.consistency.wait_cycles, 40);
  EXPECT_EQ(g.consistency.difference_cycles, 0);
  EXPECT_EQ(g.consistency.difference_pct, 0.0);
  EXPECT_TRUE(g.consistency.agree);

  // Ranked by exposed cycles; Input exposes nothing and is no bottleneck.
  EXPECT_EQ(g.by_exposed, (std::vector<size_t>{2, 1, 3, 0}));
  EXPECT_EQ(BottleneckNames(g),
            (std::vector<std::string>{"net_mul_mul:OpId_30", "net_conv1_Conv2D:OpId_20",
                                      "Output OpId_3"}));
  EXPECT_EQ(g.bottlenecks[0].rank, 1);
  EXPECT_EQ(g.bottlenecks[0].reason, "60.0 % of critical path, 10.0 % overlapped, HVX only");
  EXPECT_EQ(g.bottlenecks[1].reason,
            "30.0 % of critical path, 50.0 % overlapped, HVX + HMX + DMA, waited 40 cycles");
  EXPECT_EQ(g.bottlenecks[2].reason, "10.0 % of critical path, 5.0 % overlapped, HVX only");
  EXPECT_TRUE(g.notes.empty());
}

// The raw per-execution form (libQnnHtpProfilingReader): two executions kept
// apart.  Numbers chosen so every hint rule fires once and execution 1 does
// not add up.
constexpr char kRawTwoExecutions[] = R"(qnn-profile-viewer: v2.45.0.260326154327

Printing All Data Received From Back End

Execute Stats: 

Execute Stat 1

QNN accelerator (execute) time : 825  us
Accelerator (critical path execute) time (cycles) : 1000000  cycles
    Input OpId_2 (cycles) : 10000  cycles
        Wait (Scheduler) time : 0  cycles
        Overlap time : 0  cycles
        Resources: DMA
    model_sub_sub:OpId_57 (cycles) : 500000  cycles
        Wait (Scheduler) time : 0  cycles
        Overlap time : 107500  cycles
            model_act_prelu:OpId_60
        Overlap (wait) time : 0  cycles
        Resources: HVX
    model_act_prelu:OpId_60 (cycles) : 200000  cycles
        Wait (Scheduler) time : 0  cycles
        Overlap time : 150000  cycles
        Resources: HVX, HMX
    model_conv_Conv2D:OpId_21 (cycles) : 180000  cycles
        Wait (Scheduler) time : 0  cycles
        Overlap time : 100000  cycles
        Resources: HVX, HMX, DMA
    model_perm_transpose:OpId_70 (cycles) : 60000  cycles
        Wait (Scheduler) time : 20000  cycles
        Overlap time : 0  cycles
        Resources: HVX
Accelerator (execute) time : 428  us

Execute Stat 2

Accelerator (critical path execute) time (cycles) : 500000  cycles
    Input OpId_2 (cycles) : 5000  cycles
        Wait (Scheduler) time : 0  cycles
        Overlap time : 0  cycles
        Resources: DMA
    model_sub_sub:OpId_57 (cycles) : 250000  cycles
        Wait (Scheduler) time : 0  cycles
        Overlap time : 200000  cycles
        Resources: HVX
    model_act_prelu:OpId_60 (cycles) : 100000  cycles
        Wait (Scheduler) time : 0  cycles
        Overlap time : 90000  cycles
        Resources: HVX, HMX
    model_conv_Conv2D:OpId_21 (cycles) : 90000  cycles
        Wait (Scheduler) time : 30  cycles
        Overlap time : 45000  cycles
        Resources: HVX, HMX, DMA
    model_perm_transpose:OpId_70 (cycles) : 54970  cycles
        Wait (Scheduler) time : 0  cycles
        Overlap time : 54970  cycles
        Resources: HVX
)";

TEST(Lint, RawExecutionsStayApartWithHintsAndInconsistency) {
  LintOptions options;
  options.top_n = 3;
  LintAnalysis a = AnalyzeLint(testing_support::RunOfText("raw.txt", kRawTwoExecutions), options);
  ASSERT_EQ(a.graphs.size(), 2u);
  const LintGraph& e1 = a.graphs[0];
  const LintGraph& e2 = a.graphs[1];
  EXPECT_EQ(e1.execution, 1);
  EXPECT_EQ(e2.execution, 2);
  EXPECT_EQ(e1.critical_path_cycles, 1000000);
  EXPECT_EQ(e2.critical_path_cycles, 500000);

  // Execution 1: 950000 op cycles + 20000 waits = 970000, 30000 short of the total.
  EXPECT_EQ(e1.consistency.op_cycles, 950000);
  EXPECT_EQ(e1.consistency.wait_cycles, 20000);
  EXPECT_EQ(e1.consistency.difference_cycles, 30000);
  EXPECT_DOUBLE_EQ(*e1.consistency.difference_pct, 3.0);
  EXPECT_FALSE(e1.consistency.agree);
  // Exposed: sub 392500, conv 80000, transpose 60000, prelu 50000, Input 10000.
  EXPECT_EQ(BottleneckNames(e1),
            (std::vector<std::string>{"model_sub_sub:OpId_57", "model_conv_Conv2D:OpId_21",
                                      "model_perm_transpose:OpId_70"}));
  EXPECT_EQ(e1.by_exposed, (std::vector<size_t>{1, 3, 4, 2, 0}));
  const LintOp& sub = e1.ops[1];
  EXPECT_EQ(sub.exposed_cycles, 392500);
  EXPECT_DOUBLE_EQ(*sub.overlap_pct, 21.5);
  EXPECT_EQ(sub.op_kind, "Sub");
  EXPECT_EQ(e1.bottlenecks[0].reason, "50.0 % of critical path, 21.5 % overlapped, HVX only");
  EXPECT_EQ(HintRules(sub),
            (std::vector<std::string>{"sub_div_on_critical_path", "hvx_only_low_overlap"}));
  EXPECT_EQ(HintRules(e1.ops[2]), (std::vector<std::string>{"prelu_to_relu"}));
  EXPECT_EQ(e1.ops[2].op_kind, "PReLU");
  EXPECT_NEAR(*e1.ops[3].overlap_pct, 55.5556, 1e-4);  // 100000 / 180000
  EXPECT_TRUE(e1.ops[3].hints.empty());
  // Transpose: 6 % of the path; waited 20000 ≥ 10 % of 60000 and ≥ 1 % of 1000000.
  EXPECT_EQ(HintRules(e1.ops[4]),
            (std::vector<std::string>{"layout_op_on_critical_path", "long_scheduler_wait"}));
  EXPECT_EQ(e1.bottlenecks[2].reason,
            "6.0 % of critical path, 0.0 % overlapped, HVX only, waited 20,000 cycles");
  EXPECT_TRUE(e1.ops[0].hints.empty());

  // Execution 2 adds up exactly: 499970 + 30 = 500000.
  EXPECT_EQ(e2.consistency.difference_cycles, 0);
  EXPECT_TRUE(e2.consistency.agree);
  EXPECT_EQ(BottleneckNames(e2),
            (std::vector<std::string>{"model_sub_sub:OpId_57", "model_conv_Conv2D:OpId_21",
                                      "model_act_prelu:OpId_60"}));
  // Sub is 80 % overlapped here: no Sub/Div or HVX hint.
  EXPECT_TRUE(e2.ops[1].hints.empty());
  EXPECT_EQ(e2.ops[4].exposed_cycles, 0);
}

// formats.md §5.2: the SNPE diagview fixture (abridged upstream: op indices
// jump 2 -> 8, so the layers do not add up to the subnet total).
TEST(Lint, SnpeDiagviewFixture) {
  LintAnalysis a = AnalyzeLint(testing_support::RunOfText("snpe.txt", R"(Per-Graph Execution Times:
---------------
HTP Subnet 0: 4327266 cycles

Layer Times:
---------------
  2: model_convStart_Conv2D:OpId_21 (cycles) : 147075 cycles : DSP
    Wait (Scheduler) time: 32 cycles
    Overlap time: 85292 cycles
      model_sub_sub:OpId_57
      Output OpId_3
    Overlap (wait) time: 32 cycles
      model_convStart_Conv2D:OpId_21
    Resources: HVX, HMX, DMA
)"));
  EXPECT_EQ(a.format, "snpe_diagview");
  ASSERT_EQ(a.graphs.size(), 1u);
  const LintGraph& g = a.graphs[0];
  EXPECT_EQ(g.title, "Layer Times");
  EXPECT_EQ(g.critical_path_cycles, 4327266);
  EXPECT_EQ(g.critical_path_source, "HTP Subnet 0");
  ASSERT_EQ(g.ops.size(), 1u);
  EXPECT_NEAR(*g.ops[0].share_pct, 3.39880, 1e-5);     // 147075 / 4327266
  EXPECT_NEAR(*g.ops[0].overlap_pct, 57.99218, 1e-5);  // 85292 / 147075
  EXPECT_EQ(g.ops[0].exposed_cycles, 61783);
  EXPECT_EQ(g.consistency.difference_cycles, 4180159);  // 4327266 − (147075 + 32)
  EXPECT_FALSE(g.consistency.agree);
}

TEST(Lint, CsvLinting) {
  LintAnalysis a = AnalyzeLint(testing_support::RunOfText(
      "lint.csv",
      "Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event Identifier\n"
      "UNKNOWN,EXECUTE,9120,US,NETRUN,ROOT,NetRun\n"
      "UNKNOWN,BACKEND,1000,CYCLES,BACKEND,ROOT,Accelerator (critical path execute) time "
      "(cycles)\n"
      "UNKNOWN,NODE,600,CYCLES,BACKEND,SUB-EVENT,a_div:OpId_5 (cycles)\n"
      "UNKNOWN,BACKEND,10,CYCLES,BACKEND,SUB-EVENT,Wait (Scheduler) time\n"
      "UNKNOWN,BACKEND,100,CYCLES,BACKEND,SUB-EVENT,Overlap time\n"
      "UNKNOWN,NODE,390,CYCLES,BACKEND,SUB-EVENT,b:OpId_6 (cycles)\n"
      "UNKNOWN,BACKEND,0,CYCLES,BACKEND,SUB-EVENT,Wait (Scheduler) time\n"
      "UNKNOWN,BACKEND,390,CYCLES,BACKEND,SUB-EVENT,Overlap time\n"));
  EXPECT_EQ(a.format, "csv");
  ASSERT_EQ(a.graphs.size(), 1u);
  const LintGraph& g = a.graphs[0];
  EXPECT_EQ(g.critical_path_cycles, 1000);
  EXPECT_EQ(g.consistency.difference_cycles, 0);  // 600 + 390 + 10
  ASSERT_EQ(g.bottlenecks.size(), 1u);            // b is fully overlapped
  EXPECT_EQ(g.ops[0].exposed_cycles, 500);
  EXPECT_EQ(g.bottlenecks[0].reason,
            "60.0 % of critical path, 16.7 % overlapped, no resources listed, waited 10 cycles");
  EXPECT_EQ(HintRules(g.ops[0]), (std::vector<std::string>{"sub_div_on_critical_path"}));
}

TEST(Lint, OpTypesFromARunReplaceGuesses) {
  std::map<std::string, std::string> types = {{"net_mul_mul", "ElementWiseSubtract"}};
  LintOptions options;
  options.op_types = &types;
  LintAnalysis a =
      AnalyzeLint(testing_support::RunOfText("lint.txt", kLintingLayoutExample), options);
  const LintOp& mul = a.graphs[0].ops[2];
  EXPECT_EQ(mul.qnn_op_type, "ElementWiseSubtract");
  EXPECT_EQ(mul.op_kind, "Sub");
  EXPECT_EQ(mul.op_kind_source, "op type");
  EXPECT_EQ(HintRules(mul),
            (std::vector<std::string>{"sub_div_on_critical_path", "hvx_only_low_overlap"}));
  EXPECT_EQ(a.graphs[0].ops[1].op_kind_source, "name");  // not in the map: guessed
}

TEST(Lint, NoTotalPrinted) {
  // Layer lines without a per-graph total: shares of Σ cycles + waits.
  LintAnalysis a = AnalyzeLint(testing_support::RunOfText("snpe.txt", R"(Layer Times:
---------------
  1: a:OpId_1 (cycles) : 300 cycles : DSP
    Wait (Scheduler) time: 100 cycles
    Resources: HVX
  2: b:OpId_2 (cycles) : 600 cycles : DSP
    Wait (Scheduler) time: 0 cycles
    Resources: HMX
)"));
  const LintGraph& g = a.graphs[0];
  EXPECT_FALSE(g.critical_path_cycles);
  EXPECT_EQ(g.share_basis_cycles, 1000);
  EXPECT_DOUBLE_EQ(*g.ops[1].share_pct, 60.0);
  EXPECT_FALSE(g.consistency.difference_cycles);
  EXPECT_FALSE(g.ops[0].overlap_pct);  // no Overlap entry: unknown, not 0
  EXPECT_EQ(g.ops[0].exposed_cycles, 300);
  ASSERT_EQ(g.notes.size(), 1u);
  EXPECT_TRUE(Contains(g.notes[0], "no critical-path total")) << g.notes[0];
  EXPECT_EQ(g.bottlenecks[1].reason,
            "30.0 % of critical path, overlap not reported, HVX only, waited 100 cycles");
}

TEST(Lint, CorpusDetailedProfileIsRejected) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run report = LoadRun({testing_support::CorpusFile("v8c8_256", "profile_text.txt")});
  try {
    AnalyzeLint(report);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_TRUE(Contains(e.problem(), "no linting-level data: 3 block(s)")) << e.what();
    EXPECT_TRUE(Contains(e.problem(), "Accelerator (execute) time (cycles)")) << e.what();
  }
}

TEST(Lint, OpKinds) {
  EXPECT_EQ(LintOpKind("model_sub_sub", true), "Sub");
  EXPECT_EQ(LintOpKind("net_conv1_Conv2D", true), "Conv");
  EXPECT_EQ(LintOpKind("model_act_PReLU_1", true), "PReLU");
  EXPECT_EQ(LintOpKind("a/truediv", true), "Div");
  EXPECT_EQ(LintOpKind("Input", true), "");
  EXPECT_EQ(LintOpKind("subgraph_x", true), "");  // "subgraph" is not "sub"
  EXPECT_EQ(LintOpKind("ElementWiseSubtract", false), "Sub");
  EXPECT_EQ(LintOpKind("ElementWiseDivide", false), "Div");
  EXPECT_EQ(LintOpKind("Prelu", false), "PReLU");
  EXPECT_EQ(LintOpKind("Relu", false), "ReLU");
  EXPECT_EQ(LintOpKind("Transpose", false), "Transpose");
  EXPECT_EQ(LintOpKind("Input", false), "");
}

TEST(Lint, OpTypesFromCorpusRun) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  std::map<std::string, std::string> types =
      OpTypesFromRun(LoadRun({testing_support::CorpusRun("v8c8_256")}));
  EXPECT_EQ(types.size(), 13u);  // the run's QNN ops
  EXPECT_EQ(types.at("bbb_indep0"), "HmxMatMulPhase3Package::BbbKMajor");
  EXPECT_EQ(types.at("$Const_11"), "$Const");
  // From the optrace alone: its "QNN Op Type" args.
  HTPSCOPE_REQUIRE_CORPUS("gdn_hvx_int16");
  htpscope::Run gdn = LoadRun({testing_support::CorpusFile("gdn_hvx_int16", "chrometrace.json")});
  std::map<std::string, std::string> from_trace = OpTypesFromRun(gdn);
  EXPECT_FALSE(from_trace.empty());
  for (const auto& [name, type] : from_trace) EXPECT_FALSE(type.empty()) << name;
}

}  // namespace
}  // namespace htpscope::lint_test
