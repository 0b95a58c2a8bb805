#include "analysis/summary.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "base/corpus_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::summary_test {
namespace {

using testing_support::CorpusRun;

bool HasWarning(const Summary& s, const std::string& code) {
  return std::any_of(s.warnings.begin(), s.warnings.end(),
                     [&](const WarningRow& f) { return WarningName(f.code) == code; });
}

std::vector<int64_t> CyclesUsed(const Run& run) {
  std::vector<int64_t> out;
  for (const auto& u : run.units) out.push_back(u.cycles_used);
  return out;
}

const OpGroupRow* FindOp(const Run& run, const std::string& name) {
  for (const auto& g : run.qnn_ops)
    if (run.Str(g.name) == name) return &g;
  return nullptr;
}

void ExpectAllCrossChecksAgree(const Summary& s) {
  for (const auto& c : s.run->cross_checks)
    EXPECT_TRUE(c.agree) << c.name << ": " << c.a << " vs " << c.b << " " << c.note;
  EXPECT_FALSE(HasWarning(s, "cross_check_mismatch"));
}

// The first graph's executions.
const std::vector<CoarseExecution>& Executions(const Summary& s) {
  static const std::vector<CoarseExecution> kNone;
  return s.graphs.empty() ? kNone : s.graphs.front().executions;
}

const std::optional<SteadyState>& Steady(const Summary& s) {
  static const std::optional<SteadyState> kNone;
  return s.graphs.empty() ? kNone : s.graphs.front().steady_state;
}

Run LoadHand(const std::string& text) { return testing_support::FakeRun(text, ""); }

TEST(SummaryCorpus, V8c8CoarseFineUnitsAndCrossChecks) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({CorpusRun("v8c8_256")});
  Summary s = Summarize(run);
  const RunFigures& f = run.figures;
  // Coarse view: the three Execute Stat blocks of profile_text.txt.
  ASSERT_EQ(Executions(s).size(), 3u);
  EXPECT_EQ(Executions(s)[0].graph_wall_us, 1409);
  EXPECT_EQ(Executions(s)[0].compute_busy_us, 1037);
  EXPECT_EQ(Executions(s)[0].overhead_us, 372);
  EXPECT_EQ(Executions(s)[0].work_cycles, 317465);
  EXPECT_EQ(Executions(s)[1].graph_wall_us, 223);
  EXPECT_EQ(Executions(s)[2].graph_wall_us, 208);
  EXPECT_EQ(Executions(s)[2].work_cycles, 170176);
  // Steady state = executions 2..3 only: median(223, 208).
  ASSERT_TRUE(Steady(s) && Steady(s)->graph_wall_us);
  EXPECT_EQ(Steady(s)->first_index, 2);
  EXPECT_EQ(Steady(s)->graph_wall_us->median, 215.5);
  EXPECT_EQ(Steady(s)->graph_wall_us->min, 208);
  EXPECT_EQ(Steady(s)->graph_wall_us->max, 223);
  EXPECT_EQ(Steady(s)->graph_wall_us->n, 2);
  EXPECT_EQ(Steady(s)->compute_busy_us->median, 68.5);
  // Clock: the highest runtrace phase clock, 190027 cycles over 1847 ticks.
  EXPECT_EQ(s.clock.source, "runtrace");
  EXPECT_NEAR(s.clock.plausible_ghz, 1.9792, 1e-4);
  // 150950 cycles / 73 µs = 2.07 GHz and 170176 / 66 µs = 2.58 GHz exceed it;
  // 317465 cycles / 1038 µs = 0.31 GHz does not.
  EXPECT_FALSE(Executions(s)[0].aggregate_cycles);
  EXPECT_TRUE(Executions(s)[1].aggregate_cycles);
  EXPECT_TRUE(Executions(s)[2].aggregate_cycles);
  EXPECT_TRUE(HasWarning(s, "aggregate_cycles"));
  // Fine view from the optrace.
  EXPECT_EQ(f.fine_source, Source::kOptrace);
  EXPECT_EQ(f.graph_wall_cycles, 186647);
  EXPECT_EQ(f.work_cycles, 317483);
  EXPECT_EQ(f.domain_cycles, 169635);
  EXPECT_EQ(f.domain_tid, 256u);
  EXPECT_EQ(f.dpc_sum_cycles, 183528);
  EXPECT_EQ(CyclesUsed(run), (std::vector<int64_t>{169635, 52067, 27730, 21089, 46962}));
  ASSERT_GE(run.qnn_ops.size(), 2u);
  EXPECT_EQ(run.Str(run.qnn_ops[0].name), "bbb_indep0");
  EXPECT_EQ(run.qnn_ops[0].dpc_cycles, 87938);
  EXPECT_EQ(run.Str(run.qnn_ops[1].name), "Input");
  EXPECT_EQ(run.qnn_ops[1].dpc_cycles, 23560);
  EXPECT_EQ(run.qnn_ops[1].work_cycles, 130179);
  EXPECT_EQ(run.qnn_ops[1].instances, 32);
  EXPECT_EQ(run.Str(run.htp_op_types[0].name), "HmxMatMulPhase3Package::BbbKMajor");
  EXPECT_EQ(run.htp_op_types[0].dpc_cycles, 145106);
  EXPECT_EQ(f.peak_vtcm_bytes, 919552);
  EXPECT_EQ(f.traced_execution, 1);
  EXPECT_TRUE(HasWarning(s, "single_execution_trace"));
  EXPECT_FALSE(HasWarning(s, "multi_slice_dpc"));
  ExpectAllCrossChecksAgree(s);
  EXPECT_GE(run.cross_checks.size(), 12u);
  EXPECT_TRUE(run.missing.empty());
  ASSERT_EQ(run.phases.size(), 12u);
  EXPECT_EQ(run.phases[3].phase, "Graph Execute");
  EXPECT_EQ(run.phases[3].wall_cycles(), 192743);
}

TEST(SummaryCorpus, NativeIsHvxDomainBound) {
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  htpscope::Run run = LoadRun({CorpusRun("native_256")});
  Summary s = Summarize(run);
  const RunFigures& f = run.figures;
  EXPECT_EQ(f.graph_wall_cycles, 104608);
  EXPECT_EQ(f.work_cycles, 252465);
  // The busiest thread is an HVX thread, not the HMX/main thread.
  EXPECT_EQ(f.domain_cycles, 72565);
  EXPECT_EQ(f.domain_tid, 513u);
  EXPECT_EQ(CyclesUsed(run), (std::vector<int64_t>{62633, 40395, 72565, 36591, 40281}));
  const OpGroupRow* top = &run.qnn_ops[0];
  EXPECT_EQ(run.Str(top->name), "MatMul_2");
  EXPECT_EQ(top->dpc_cycles, 35174);
  EXPECT_EQ(top->work_cycles, 67827);
  EXPECT_EQ(top->instances, 6);
  ASSERT_EQ(Executions(s).size(), 3u);
  EXPECT_EQ(Executions(s)[0].graph_wall_us, 825);
  EXPECT_EQ(Steady(s)->graph_wall_us->median, 188);  // median(201, 175)
  EXPECT_EQ(f.peak_vtcm_bytes, 1126400);
  EXPECT_TRUE(Executions(s)[1].aggregate_cycles);  // 118273 cycles / 56 µs = 2.11 GHz > 1.946
  ExpectAllCrossChecksAgree(s);
}

TEST(SummaryCorpus, Chain8ColdRunAtLowClockRaisesNoAggregateWarning) {
  HTPSCOPE_REQUIRE_CORPUS("chain8_archive");
  htpscope::Run run = LoadRun({CorpusRun("chain8_archive")});
  Summary s = Summarize(run);
  const RunFigures& f = run.figures;
  EXPECT_EQ(f.graph_wall_cycles, 64829);
  EXPECT_EQ(f.work_cycles, 68626);
  EXPECT_EQ(CyclesUsed(run), (std::vector<int64_t>{38764, 24061, 5801}));
  EXPECT_EQ(run.Str(run.qnn_ops[0].name), "MatMul_0");
  EXPECT_EQ(run.qnn_ops[0].dpc_cycles, 32707);
  EXPECT_EQ(Executions(s)[0].work_cycles, 68365);
  EXPECT_EQ(Steady(s)->graph_wall_us->median, 140);  // median(157, 123)
  EXPECT_NEAR(s.clock.plausible_ghz, 2.00747, 1e-5);
  EXPECT_FALSE(HasWarning(s, "aggregate_cycles"));  // 47827 / 47 µs = 1.02 GHz
  EXPECT_EQ(f.peak_vtcm_bytes, 671744);
  ExpectAllCrossChecksAgree(s);
}

// The diff's coarse view alone is Summarize's, row for row, and judges the
// cycles ÷ µs clock against the same plausible clock (the option's when given).
TEST(SummaryCorpus, Chain8CoarseViewAloneEqualsSummarizes) {
  HTPSCOPE_REQUIRE_CORPUS("chain8_archive");
  htpscope::Run run = LoadRun({CorpusRun("chain8_archive")});
  for (std::optional<double> clock_ghz : {std::optional<double>(), std::optional<double>(0.5)}) {
    SummaryOptions options;
    options.clock_ghz = clock_ghz;
    const Summary whole = Summarize(run, options);
    const std::vector<GraphCoarse> coarse = SummarizeCoarse(run, options);
    ASSERT_EQ(coarse.size(), whole.graphs.size());
    ASSERT_EQ(coarse.size(), 1u);
    const auto& got = coarse.front().executions;
    const auto& want = whole.graphs.front().executions;
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].index, want[i].index);
      EXPECT_EQ(got[i].graph_wall_us, want[i].graph_wall_us);
      EXPECT_EQ(got[i].compute_busy_us, want[i].compute_busy_us);
      EXPECT_EQ(got[i].overhead_us, want[i].overhead_us);
      EXPECT_EQ(got[i].work_cycles, want[i].work_cycles);
      EXPECT_EQ(got[i].implied_ghz, want[i].implied_ghz);
      EXPECT_EQ(got[i].aggregate_cycles, want[i].aggregate_cycles);
    }
    EXPECT_EQ(got[0].work_cycles, 68365);
    // 47827 cycles in 47 µs = 1.02 GHz: aggregate only against a 0.5 GHz clock.
    EXPECT_EQ(got[1].aggregate_cycles, clock_ghz.has_value());
    ASSERT_TRUE(coarse.front().steady_state);
    EXPECT_EQ(coarse.front().steady_state->graph_wall_us->median, 140);  // median(157, 123)
  }
}

// GdnSolve_0 ran as multi-slice HVX ops: the optrace repeats one slice's DPC
// on every slice (2,808,599 summed once per op ID, a lower bound).  The true
// figure is each slice's share of the dominant path: QHAS gives it
// (5,873,609), and so does the path reconstructed from the optrace alone.
TEST(SummaryCorpus, GdnMultiSliceDpcIsEachSlicesShareOfTheDominantPath) {
  HTPSCOPE_REQUIRE_CORPUS("gdn_hvx_int16");
  htpscope::Run run = LoadRun({CorpusRun("gdn_hvx_int16")});
  Summary s = Summarize(run);
  const RunFigures& f = run.figures;
  EXPECT_TRUE(Executions(s).empty());
  EXPECT_EQ(f.graph_wall_cycles, 6038358);
  EXPECT_EQ(f.work_cycles, 16666250);
  EXPECT_EQ(f.domain_cycles, 4932549);
  EXPECT_EQ(f.domain_tid, 512u);
  // Σ DPC = wall − idle: 6,038,358 − 4,065 (QHAS percent_idle 0.067 %).
  EXPECT_EQ(f.dpc_sum_cycles, 6034293);
  EXPECT_EQ(f.idle_cycles, 4065);
  const OpGroupRow* solve = FindOp(run, "GdnSolve_0");
  ASSERT_NE(solve, nullptr);
  EXPECT_EQ(solve->dpc_cycles, 5873609);
  EXPECT_EQ(solve->dpc_basis, DpcBasis::kQhas);
  EXPECT_FALSE(solve->dpc_lower_bound());
  EXPECT_EQ(solve->work_cycles, 16505566);  // = QHAS cycles: Σ slice durations
  EXPECT_EQ(solve->instances, 5);
  EXPECT_TRUE(HasWarning(s, "multi_slice_dpc"));
  ExpectAllCrossChecksAgree(s);
  EXPECT_EQ(run.missing.size(), 3u);  // profile, runtrace, HTP graph
}

TEST(SummaryCorpus, GdnOptraceAloneReconstructsTheSameDominantPath) {
  HTPSCOPE_REQUIRE_CORPUS("gdn_hvx_int16");
  htpscope::Run run = LoadRun({testing_support::CorpusFile("gdn_hvx_int16", "chrometrace.json")});
  const OpGroupRow* solve = FindOp(run, "GdnSolve_0");
  ASSERT_NE(solve, nullptr);
  EXPECT_EQ(solve->dpc_cycles, 5873609);
  EXPECT_EQ(solve->dpc_basis, DpcBasis::kReconstructed);
  EXPECT_EQ(run.figures.dpc_sum_cycles, 6034293);
  EXPECT_EQ(run.figures.idle_cycles, 4065);
  // The op-level figure the optrace wrote stays available for comparison.
  int64_t written = 0;
  for (const auto& op : run.op_instances)
    if (run.Str(op.qnn_op_name) == "GdnSolve_0") written += op.trace_dpc_cycles;
  EXPECT_EQ(written, 2808599);
}

TEST(SummaryPartial, CorpusQhasAloneStillGivesTheFineView) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun(
      {testing_support::CorpusFile("v8c8_256", "chrometrace_qnn_htp_analysis_summary.json")});
  Summary s = Summarize(run);
  const RunFigures& f = run.figures;
  EXPECT_EQ(f.fine_source, Source::kQhas);
  EXPECT_EQ(f.graph_wall_cycles, 186647);
  EXPECT_EQ(f.domain_cycles, 169635);
  EXPECT_EQ(f.work_cycles, 317483);
  EXPECT_EQ(run.Str(run.qnn_ops[0].name), "bbb_indep0");
  EXPECT_EQ(f.peak_vtcm_bytes, 919552);
  EXPECT_EQ(run.missing.size(), 4u);
  // No runtrace: the clock QHAS implies, 186,647 cycles ÷ 99 µs.
  EXPECT_EQ(s.clock.source, "qhas");
  EXPECT_NEAR(s.clock.plausible_ghz, 1.885323, 1e-6);
  // The QHAS lists cover the graph: op instances come from its rows.
  EXPECT_EQ(f.op_instances, 53);
  EXPECT_EQ(f.dpc_sum_cycles, 183528);
}

// Three ops on two threads whose answers are worked out by hand:
//   HMX tid 256: A [1000,1100) and C [1150,1200)  -> cycles_used 150
//   HVX tid 512: B [1050,1250) and B2 [1060,1100) overlapping on one thread
//                -> union 200, busy 240
// wall = 1250 - 1000 = 250; work = 100 + 50 + 200 + 40 = 390; domain = 200 (tid 512).
constexpr char kTrace[] = R"json({"header": {"artifact_type": "OP_TRACE"}, "traceEvents": [
{"name": "A", "ph": "X", "tid": 256, "pid": 0, "ts": 0, "dur": 100, "args": {"ID": "0x0000000100000002", "Start Cycle": 1000, "Duration (cycles)": 100, "Dominant Path Cycles": 60, "QNN Op Name": "a", "QNN Op Type": "Conv2d", "HTP Op Type": "q::Conv", "Flags": ["uses_hmx"]}},
{"name": "C", "ph": "X", "tid": 256, "pid": 0, "ts": 150, "dur": 50, "args": {"ID": "0x0000000300000004", "Start Cycle": 1150, "Duration (cycles)": 50, "Dominant Path Cycles": 0, "QNN Op Name": "c", "HTP Op Type": "SyncOp", "Flags": ["sync"]}},
{"name": "B", "ph": "X", "tid": 512, "pid": 0, "ts": 50, "dur": 200, "args": {"ID": "0x0000000200000003", "Start Cycle": 1050, "Duration (cycles)": 200, "Dominant Path Cycles": 150, "QNN Op Name": "b", "HTP Op Type": "q::Add", "Flags": ["uses_hvx"]}},
{"name": "B", "ph": "X", "tid": 512, "pid": 0, "ts": 60, "dur": 40, "args": {"ID": "0x0000000500000003", "Start Cycle": 1060, "Duration (cycles)": 40, "Dominant Path Cycles": 10, "QNN Op Name": "b", "HTP Op Type": "q::Add", "Flags": ["uses_hvx"]}}
]})json";

TEST(SummaryConstructed, HandComputedWallWorkDomain) {
  htpscope::Run run = LoadHand(kTrace);
  Summary s = Summarize(run);
  const RunFigures& f = run.figures;
  EXPECT_EQ(f.graph_wall_cycles, 250);
  EXPECT_EQ(f.work_cycles, 390);
  EXPECT_EQ(f.domain_cycles, 200);
  EXPECT_EQ(f.domain_tid, 512u);
  ASSERT_EQ(run.units.size(), 2u);
  EXPECT_EQ(run.units[0].cycles_used, 150);
  EXPECT_EQ(run.units[1].cycles_used, 200);
  EXPECT_EQ(run.units[1].busy_cycles, 240);
  EXPECT_DOUBLE_EQ(*SharePct(run.units[1].cycles_used, f.graph_wall_cycles), 80.0);
  ASSERT_EQ(run.qnn_ops.size(), 3u);
  EXPECT_EQ(run.Str(run.qnn_ops[0].name), "b");
  EXPECT_EQ(run.qnn_ops[0].dpc_cycles, 160);
  EXPECT_EQ(run.qnn_ops[0].instances, 2);
  EXPECT_DOUBLE_EQ(*SharePct(run.qnn_ops[0].dpc_cycles, f.graph_wall_cycles), 64.0);
  EXPECT_EQ(run.Str(run.qnn_ops[2].name), "c");
  EXPECT_EQ(run.qnn_ops[2].category, OpCategory::kSystemService);
  EXPECT_EQ(f.dpc_sum_cycles, 220);
  EXPECT_EQ(run.missing.size(), 4u);
}

// Groups are listed by DPC, then work, both descending, then by name.
// QNN ops: top (DPC 70) first; big, alpha, mid and zeta share DPC 50, big
// has the most work (40 against 30), the other three tie and go by name.
// HTP types: q::T1 = alpha + mid + zeta (DPC 150, work 90), q::T2 = big + top
// (DPC 120, work 50).  Work = 3 * 30 + 40 + 10 = 140.
TEST(SummaryConstructed, GroupsTiedOnDpcAndWorkAreListedByName) {
  std::string text = R"({"header": {"artifact_type": "OP_TRACE"}, "traceEvents": [)";
  const struct {
    const char* name;
    const char* htp_type;
    int dpc, dur;
  } ops[] = {{"zeta", "q::T1", 50, 30},
             {"alpha", "q::T1", 50, 30},
             {"top", "q::T2", 70, 10},
             {"mid", "q::T1", 50, 30},
             {"big", "q::T2", 50, 40}};
  int ts = 0, id = 1;
  for (const auto& op : ops) {
    if (id > 1) text += ",";
    text += fmt::format(
        R"j({{"name": "{1}", "ph": "X", "tid": 256, "pid": 0, "ts": {2}, "dur": {3}, "args": )j"
        R"j({{"ID": "0x{0:x}", "Start Cycle": {4}, "Duration (cycles)": {3}, )j"
        R"j("Dominant Path Cycles": {5}, "QNN Op Name": "{1}", "QNN Op Type": "Conv2d", )j"
        R"j("HTP Op Type": "{6}"}}}})j",
        id, op.name, ts, op.dur, 1000 + ts, op.dpc, op.htp_type);
    ts += op.dur;
    ++id;
  }
  text += "]}";
  htpscope::Run run = LoadHand(text);
  Summary s = Summarize(run);
  const RunFigures& f = run.figures;
  EXPECT_EQ(f.work_cycles, 140);
  std::vector<std::string> names;
  for (const OpGroupRow& g : run.qnn_ops) names.emplace_back(run.Str(g.name));
  EXPECT_EQ(names, (std::vector<std::string>{"top", "big", "alpha", "mid", "zeta"}));
  const OpGroupRow& big = run.qnn_ops[1];
  EXPECT_EQ(run.Str(big.type), "Conv2d");
  EXPECT_EQ(big.dpc_cycles, 50);
  EXPECT_EQ(big.work_cycles, 40);
  EXPECT_EQ(big.instances, 1);
  EXPECT_DOUBLE_EQ(*SharePct(big.work_cycles, f.work_cycles), 40.0 / 140 * 100);
  EXPECT_DOUBLE_EQ(*SharePct(big.dpc_cycles, f.graph_wall_cycles),
                   50.0 / 140 * 100);  // wall = 140: back to back
  ASSERT_EQ(run.htp_op_types.size(), 2u);
  EXPECT_EQ(run.Str(run.htp_op_types[0].name), "q::T1");
  EXPECT_EQ(run.Str(run.htp_op_types[0].type), "");
  EXPECT_EQ(run.htp_op_types[0].dpc_cycles, 150);
  EXPECT_EQ(run.htp_op_types[0].work_cycles, 90);
  EXPECT_EQ(run.htp_op_types[0].instances, 3);
  EXPECT_EQ(run.Str(run.htp_op_types[1].name), "q::T2");
  EXPECT_EQ(run.htp_op_types[1].dpc_cycles, 120);
  EXPECT_EQ(run.htp_op_types[1].work_cycles, 50);
}

}  // namespace
}  // namespace htpscope::summary_test
