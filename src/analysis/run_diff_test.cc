#include "analysis/run_diff.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "base/corpus_test_util.h"

namespace htpscope::run_diff_test {
namespace {

using testing_support::CorpusRun;
using testing_support::TempDir;

// ---- Constructed runs: a hand-written optrace + profile text per run --------

struct Ev {
  std::string qnn, qnn_type, htp;
  uint64_t id = 0;
  int64_t start = 0, dur = 0, dpc = 0;
  std::vector<int> dims;
  uint32_t tid = 256;
};

std::string Trace(const std::vector<Ev>& events) {
  std::string out = R"({"header": {"artifact_type": "OP_TRACE"}, "traceEvents": [)";
  const int64_t origin = 1000;
  for (size_t i = 0; i < events.size(); ++i) {
    const Ev& e = events[i];
    std::string dims =
        e.dims.empty() ? "" : fmt::format(", \"Dims\": [{}]", fmt::join(e.dims, ","));
    out += fmt::format(
        "{}\n{{\"name\": \"{}\", \"ph\": \"X\", \"tid\": {}, \"pid\": 0, \"ts\": {}, \"dur\": {}, "
        "\"args\": {{\"ID\": \"0x{:016x}\", \"Start Cycle\": {}, \"Duration (cycles)\": {}, "
        "\"Dominant Path Cycles\": {}, \"QNN Op Name\": \"{}\", \"QNN Op Type\": \"{}\", "
        "\"HTP Op Type\": \"{}\"{}}}}}",
        i ? "," : "", e.htp, e.tid, e.start - origin, e.dur, e.id, e.start, e.dur, e.dpc, e.qnn,
        e.qnn_type, e.htp, dims);
  }
  return out + "\n]}\n";
}

struct Exec {
  int wall_us = 0, busy_us = 0;
  int64_t work_cycles = 0;
};

std::string Profile(const std::vector<Exec>& executions) {
  std::string out = "Execute Stats: \n";
  for (size_t i = 0; i < executions.size(); ++i) {
    const Exec& e = executions[i];
    out += fmt::format(
        "\nExecute Stat {}\n\nQNN accelerator (execute) time : {}  us\n"
        "Accelerator (execute) time (cycles) : {}  cycles\nAccelerator (execute) time : {}  us\n",
        i + 1, e.wall_us, e.work_cycles, e.busy_us);
  }
  return out;
}

void Write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Writes a run directory under `root` and returns its facts.
RunFacts MakeRun(const std::string& root, const std::string& name, const std::vector<Ev>& events,
                 const std::vector<Exec>& executions) {
  std::string dir = root + "/" + name;
  std::filesystem::create_directories(dir);
  if (!events.empty()) Write(dir + "/chrometrace.json", Trace(events));
  if (!executions.empty()) Write(dir + "/profile_text.txt", Profile(executions));
  return CollectRunFacts(LoadRun({dir}));
}

// Side A, laid out one after another on tid 256 from cycle 1000:
//   conv_a  Conv2d [1,8,8,16]  1000-1100 DPC 100
//   mm      MatMul [1,1,64,64] 2 tiles: 1100-1150, 1150-1200, DPC 50 each
//   add_x   Add    [1,4]       1200-1210 DPC 10
//   add_y   Add    [1,4]       1210-1220 DPC 10
// graph wall 220 cycles, Σ DPC 220.
std::vector<Ev> SideA() {
  return {{"conv_a", "Conv2d", "q::Conv", 0x101, 1000, 100, 100, {1, 8, 8, 16}},
          {"mm", "MatMul", "q::MatMul", 0x102, 1100, 50, 50, {1, 1, 64, 64}},
          {"mm", "MatMul", "q::MatMul", 0x103, 1150, 50, 50, {1, 1, 64, 64}},
          {"add_x", "Add", "q::Add", 0x104, 1200, 10, 10, {1, 4}},
          {"add_y", "Add", "q::Add", 0x105, 1210, 10, 10, {1, 4}}};
}

// Side B: conv renamed (conv_b, same type and dims, DPC 80), mm re-tiled into
// 4 tiles of 30 (DPC 120), the two Adds renamed to add_p/add_q (ambiguous:
// two candidates), and a new Relu (DPC 40).  graph wall 1000..1260 = 260.
std::vector<Ev> SideB() {
  return {{"conv_b", "Conv2d", "q::Conv", 0x201, 1000, 80, 80, {1, 8, 8, 16}},
          {"mm", "MatMul", "q::MatMul", 0x202, 1080, 30, 30, {1, 1, 64, 64}},
          {"mm", "MatMul", "q::MatMul", 0x203, 1110, 30, 30, {1, 1, 64, 64}},
          {"mm", "MatMul", "q::MatMul", 0x204, 1140, 30, 30, {1, 1, 64, 64}},
          {"mm", "MatMul", "q::MatMul", 0x205, 1170, 30, 30, {1, 1, 64, 64}},
          {"add_p", "Add", "q::Add", 0x206, 1200, 10, 10, {1, 4}},
          {"add_q", "Add", "q::Add", 0x207, 1210, 10, 10, {1, 4}},
          {"relu_new", "Relu", "q::Relu", 0x208, 1220, 40, 40, {1, 4}}};
}

const OpDelta* FindOp(const std::vector<OpDelta>& ops, const std::string& name) {
  for (const auto& op : ops)
    if (op.name == name) return &op;
  return nullptr;
}

double Metric(const RunDiff& d, const std::string& name, bool a) {
  const NamedDelta* m = d.Find(name);
  EXPECT_NE(m, nullptr) << name;
  const auto& v = a ? m->delta.a : m->delta.b;
  EXPECT_TRUE(v.has_value()) << name;
  return v ? v->median : -1;
}

TEST(RunDiffConstructed, RenamedRetiledAddedAndAmbiguousOps) {
  std::string root = TempDir("diff_ops");
  RunFacts a = MakeRun(root, "a", SideA(), {});
  RunFacts b = MakeRun(root, "b", SideB(), {});
  EXPECT_EQ(a.QnnOpDims("conv_a"), (std::vector<int64_t>{1, 8, 8, 16}));
  RunDiff d = DiffRuns({a}, {b});

  // Renamed: one Conv2d [1,8,8,16] on each side -> matched by type + dims.
  const OpDelta* conv = FindOp(d.qnn_ops, "conv_b");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->status, OpMatch::kMatched);
  EXPECT_EQ(conv->matched_by, "type+dims");
  EXPECT_EQ(conv->a_name, "conv_a");
  EXPECT_EQ(conv->dpc_cycles.a_value(), 100);
  EXPECT_EQ(conv->dpc_cycles.b_value(), 80);
  EXPECT_EQ(conv->dpc_cycles.change_pct, -20);
  EXPECT_EQ(FindOp(d.qnn_ops, "conv_a"), nullptr);

  // Re-tiled: same name, 2 tiles of 50 -> 4 tiles of 30.
  const OpDelta* mm = FindOp(d.qnn_ops, "mm");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->matched_by, "name");
  EXPECT_EQ(mm->instances.a_value(), 2);
  EXPECT_EQ(mm->instances.b_value(), 4);
  EXPECT_EQ(mm->dpc_cycles.change, 20);
  EXPECT_EQ(mm->dpc_cycles.change_pct, 20);
  EXPECT_EQ(mm->work_cycles.a_value(), 100);
  EXPECT_EQ(mm->work_cycles.b_value(), 120);

  // Two Adds of equal type and dims renamed on both sides: ambiguous, so
  // listed as removed and added rather than guessed.
  for (const char* name : {"add_x", "add_y"}) {
    const OpDelta* op = FindOp(d.qnn_ops, name);
    ASSERT_NE(op, nullptr) << name;
    EXPECT_EQ(op->status, OpMatch::kRemoved) << name;
    EXPECT_EQ(op->dpc_change_cycles(), -10) << name;
  }
  for (const char* name : {"add_p", "add_q", "relu_new"}) {
    const OpDelta* op = FindOp(d.qnn_ops, name);
    ASSERT_NE(op, nullptr) << name;
    EXPECT_EQ(op->status, OpMatch::kAdded) << name;
  }
  EXPECT_EQ(FindOp(d.qnn_ops, "relu_new")->dpc_change_cycles(), 40);
  EXPECT_FALSE(FindOp(d.qnn_ops, "relu_new")->dpc_cycles.a.has_value());

  // Order: |ΔDPC| desc, then |Δwork| desc, then name.
  std::vector<std::string> order;
  for (const auto& op : d.qnn_ops) order.push_back(op.name);
  EXPECT_EQ(order, (std::vector<std::string>{"relu_new", "conv_b", "mm", "add_p", "add_q", "add_x",
                                             "add_y"}));

  // Traced figures and the attribution of the +40-cycle wall change.
  EXPECT_EQ(Metric(d, "graph_wall_cycles", true), 220);
  EXPECT_EQ(Metric(d, "graph_wall_cycles", false), 260);
  EXPECT_EQ(Metric(d, "dpc_sum_cycles", false), 260);
  EXPECT_EQ(Metric(d, "op_instances", true), 5);
  EXPECT_EQ(Metric(d, "op_instances", false), 8);
  ASSERT_EQ(d.attribution.size(), 7u);
  EXPECT_EQ(d.attribution[0].name, "relu_new");
  EXPECT_EQ(d.attribution[0].share_of_wall_change_pct, 100);
  EXPECT_EQ(d.attribution[1].name, "conv_b");
  EXPECT_EQ(d.attribution[1].share_of_wall_change_pct, -50);
  EXPECT_EQ(d.attribution[2].share_of_wall_change_pct, 50);

  // HTP op types match by name only.
  const OpDelta* conv_type = FindOp(d.htp_op_types, "q::Conv");
  ASSERT_NE(conv_type, nullptr);
  EXPECT_EQ(conv_type->matched_by, "name");
  EXPECT_EQ(conv_type->dpc_cycles.change, -20);
  EXPECT_EQ(FindOp(d.htp_op_types, "q::Relu")->status, OpMatch::kAdded);

  // No profile on either side: no µs, the wall falls back to traced cycles.
  EXPECT_EQ(d.wall_metric, "graph_wall_cycles");
  EXPECT_FALSE(d.Find("wall_us")->delta.a.has_value());
  EXPECT_EQ(d.wall_cause, WallCause::kUnknown);
}

TEST(RunDiffConstructed, OpsWithoutDimsMatchOnTypeAlone) {
  std::string root = TempDir("diff_nodims");
  RunFacts a =
      MakeRun(root, "a", {{"svc_1098", "SystemService_X", "SyncOp", 0x1, 1000, 5, 5, {}}}, {});
  RunFacts b =
      MakeRun(root, "b", {{"svc_12b6", "SystemService_X", "SyncOp", 0x2, 1000, 9, 9, {}}}, {});
  RunDiff d = DiffRuns({a}, {b});
  ASSERT_EQ(d.qnn_ops.size(), 1u);
  EXPECT_EQ(d.qnn_ops[0].name, "svc_12b6");
  EXPECT_EQ(d.qnn_ops[0].a_name, "svc_1098");
  EXPECT_EQ(d.qnn_ops[0].matched_by, "type+dims");
  EXPECT_EQ(d.qnn_ops[0].dpc_cycles.change, 4);
}

// Steady-state samples (executions 2..6) of side A: 100 102 98 101 99
// -> median 100, MAD 1.  B within noise: 103 105 101 104 102 -> median 103,
// MAD 1.  Bound = 3 × √(2 × (1.4826 × 1)²) = 6.29014 µs ≥ |+3|.
// B outside noise: 110 112 108 111 109 -> median 110, +10 > 6.29.
std::vector<Exec> Executions(int cold, std::vector<int> steady, int busy) {
  std::vector<Exec> out = {{cold, 300, 5000}};
  for (int w : steady) out.push_back({w, busy, 1000});
  return out;
}

TEST(RunDiffConstructed, NoiseWithinAndOutsideTheSpread) {
  std::string root = TempDir("diff_noise");
  RunFacts a = MakeRun(root, "a", SideA(), Executions(500, {100, 102, 98, 101, 99}, 60));
  RunFacts within =
      MakeRun(root, "within", SideA(), Executions(480, {103, 105, 101, 104, 102}, 60));
  RunFacts outside =
      MakeRun(root, "outside", SideA(), Executions(480, {110, 112, 108, 111, 109}, 60));

  RunDiff d = DiffRuns({a}, {within});
  EXPECT_EQ(d.wall_metric, "wall_us");
  const MetricDelta& w = d.Find("wall_us")->delta;
  EXPECT_EQ(w.a->median, 100);
  EXPECT_EQ(w.a->mad, 1);
  EXPECT_EQ(w.a->n, 5);
  EXPECT_EQ(w.b->median, 103);
  EXPECT_EQ(w.change, 3);
  EXPECT_DOUBLE_EQ(*w.change_pct, 3.0);
  ASSERT_TRUE(w.noise_bound);
  EXPECT_NEAR(*w.noise_bound, 6.29014, 1e-5);
  EXPECT_TRUE(w.within_noise);
  // Cold first executions are kept apart: 500 -> 480.
  EXPECT_EQ(d.Find("cold_wall_us")->delta.change, -20);
  // Same busy time: the +3 µs are overhead.
  EXPECT_EQ(d.wall_cause, WallCause::kOverhead);

  RunDiff d2 = DiffRuns({a}, {outside});
  const MetricDelta& w2 = d2.Find("wall_us")->delta;
  EXPECT_EQ(w2.change, 10);
  EXPECT_FALSE(w2.within_noise);

  // The gate forgives the first (within noise) and fails the second.
  Gate gate = ParseGate("wall_us>+2%");
  GateResult r1 = EvaluateGate(gate, GateSubjects(d));
  EXPECT_TRUE(r1.passed);
  EXPECT_TRUE(r1.within_noise);
  EXPECT_EQ(GateExitStatus({r1}), 0);
  GateResult r2 = EvaluateGate(gate, GateSubjects(d2));
  EXPECT_FALSE(r2.passed);
  EXPECT_FALSE(r2.within_noise);
  EXPECT_EQ(GateExitStatus({r2}), 1);
}

// Every run-level figure of the registry, in its order, with its unit and
// label; the gate subjects of ops, units and profile ops use the registry's
// item figure names.
TEST(RunDiffConstructed, MetricsAndGateFieldsFollowTheFigureRegistry) {
  std::string root = TempDir("diff_registry");
  RunFacts a = MakeRun(root, "a", SideA(), Executions(500, {100, 102, 98}, 60));
  RunFacts b = MakeRun(root, "b", SideB(), Executions(480, {103, 105, 101}, 60));
  RunDiff d = DiffRuns({a}, {b});
  ASSERT_EQ(d.metrics.size(), kFigureCount);
  for (size_t i = 0; i < kFigureCount; ++i) {
    const FigureInfo& f = Figures()[i];
    EXPECT_EQ(d.metrics[i].name, f.name);
    EXPECT_EQ(d.metrics[i].label, f.label);
    EXPECT_EQ(d.metrics[i].delta.unit, f.unit) << f.name;
    EXPECT_EQ(d.Find(f.figure), &d.metrics[i]);
  }
  EXPECT_EQ(d.Find(Figure::kDpcSumCycles)->delta.a->median, 220);
  EXPECT_EQ(d.Find(Figure::kDpcSumCycles)->delta.b->median, 260);
  std::set<std::string> op_fields, unit_fields;
  for (const GateSubject& s : GateSubjects(d)) {
    if (s.family == "op" || s.family == "htp") op_fields.insert(s.field);
    if (s.family == "unit") unit_fields.insert(s.field);
  }
  EXPECT_EQ(op_fields, (std::set<std::string>{"dpc_cycles", "work_cycles", "instances"}));
  EXPECT_EQ(unit_fields, (std::set<std::string>{"cycles_used", "utilization_pct"}));
}

TEST(RunDiffConstructed, FewerThanThreeExecutionsMeansNoiseNotAssessed) {
  std::string root = TempDir("diff_fewer");
  RunFacts a = MakeRun(root, "a", SideA(), Executions(500, {100, 101}, 60));
  RunFacts b = MakeRun(root, "b", SideA(), Executions(500, {103, 104}, 60));
  RunDiff d = DiffRuns({a}, {b});
  const MetricDelta& w = d.Find("wall_us")->delta;
  EXPECT_EQ(w.change, 3);  // 103.5 − 100.5
  EXPECT_FALSE(w.noise_bound.has_value());
  EXPECT_FALSE(w.within_noise);
  EXPECT_FALSE(EvaluateGate(ParseGate("wall_us>+2%"), GateSubjects(d)).passed);
}

TEST(RunDiffConstructed, ColdOnlySideFallsBackToTracedCyclesOnBothSides) {
  std::string root = TempDir("diff_cold");
  RunFacts a = MakeRun(root, "a", SideA(), Executions(500, {100, 101}, 60));
  RunFacts b = MakeRun(root, "b", SideB(), {{450, 300, 5000}});  // one execution only
  RunDiff d = DiffRuns({a}, {b});
  EXPECT_EQ(d.wall_metric, "graph_wall_cycles");
  EXPECT_FALSE(d.Find("wall_us")->delta.change.has_value());  // µs never mixed with cycles
  EXPECT_EQ(d.Find("cold_wall_us")->delta.change, -50);
  bool noted = false;
  for (const auto& n : d.notes)
    noted = noted || n.find("side B has no profile") != std::string::npos;
  EXPECT_TRUE(noted);
  // Work: B has no steady work, so both sides use the traced Σ slice durations.
  EXPECT_EQ(d.Find("work_cycles")->delta.a_value(), 220);
  EXPECT_EQ(d.Find("work_cycles")->delta.b_value(), 260);
  // A wall_us gate cannot be judged: input error, not a silent pass.
  GateResult r = EvaluateGate(ParseGate("wall_us>+5%"), GateSubjects(d));
  EXPECT_FALSE(r.evaluated);
  EXPECT_EQ(GateExitStatus({r}), 2);
}

TEST(RunDiffConstructed, RepeatedRunsPoolStepsAndGivePerOpNoise) {
  std::string root = TempDir("diff_repeat");
  // Three A runs whose conv DPC is 100, 104, 96 (median 100, MAD 4) and one B
  // run at 110: bound = 3 × 1.4826 × 4 = 17.79 ≥ 10, so within noise.
  auto with_conv = [](int64_t dpc) {
    std::vector<Ev> events = SideA();
    events[0].dpc = dpc;
    return events;
  };
  std::vector<RunFacts> a = {MakeRun(root, "a1", with_conv(100), Executions(500, {100, 101}, 60)),
                             MakeRun(root, "a2", with_conv(104), Executions(510, {99, 102}, 60)),
                             MakeRun(root, "a3", with_conv(96), Executions(490, {100, 98}, 60))};
  std::vector<RunFacts> b = {MakeRun(root, "b1", with_conv(110), Executions(500, {120, 121}, 60))};
  RunDiff d = DiffRuns(a, b);
  EXPECT_EQ(d.a.labels.size(), 3u);
  EXPECT_EQ(d.a.steady_executions, 6);
  EXPECT_EQ(d.a.cold_executions, 3);
  // Pooled steady wall of A: 98 99 100 100 101 102 -> median 100, MAD 1.
  const MetricDelta& w = d.Find("wall_us")->delta;
  EXPECT_EQ(w.a->median, 100);
  EXPECT_EQ(w.a->n, 6);
  EXPECT_EQ(w.a->mad, 1);
  EXPECT_EQ(d.Find("cold_wall_us")->delta.a->median, 500);
  const OpDelta* conv = FindOp(d.qnn_ops, "conv_a");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->dpc_cycles.a->median, 100);
  EXPECT_EQ(conv->dpc_cycles.a->mad, 4);
  EXPECT_EQ(conv->dpc_cycles.change, 10);
  EXPECT_NEAR(*conv->dpc_cycles.noise_bound, 17.7912, 1e-4);
  EXPECT_TRUE(conv->dpc_cycles.within_noise);
  GateResult r = EvaluateGate(ParseGate("op:conv*:dpc_cycles>+5%"), GateSubjects(d));
  EXPECT_TRUE(r.passed);
  EXPECT_TRUE(r.within_noise);
  // The steady wall moved 100 -> 120.5, far outside A's spread.
  EXPECT_FALSE(EvaluateGate(ParseGate("wall_us>+5%"), GateSubjects(d)).passed);
}

TEST(RunDiffCorpus, CustomOpPackageVersusNativeFullyConnected) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  RunFacts a = CollectRunFacts(LoadRun({CorpusRun("v8c8_256")}));
  RunFacts b = CollectRunFacts(LoadRun({CorpusRun("native_256")}));
  RunDiff d = DiffRuns({a}, {b});
  // Steady state (profile_text.txt executions 2..3): v8c8 wall 223, 208;
  // busy 72, 65; work 150950, 170176.  native wall 201, 175; busy 55, 41;
  // work 118273, 109134.
  EXPECT_EQ(d.wall_metric, "wall_us");
  EXPECT_EQ(Metric(d, "wall_us", true), 215.5);
  EXPECT_EQ(Metric(d, "wall_us", false), 188);
  EXPECT_NEAR(*d.Find("wall_us")->delta.change_pct, -12.761, 1e-3);
  EXPECT_EQ(Metric(d, "compute_busy_us", true), 68.5);
  EXPECT_EQ(Metric(d, "compute_busy_us", false), 48);
  EXPECT_EQ(Metric(d, "overhead_us", true), 147);   // median(151, 143)
  EXPECT_EQ(Metric(d, "overhead_us", false), 140);  // median(146, 134)
  EXPECT_EQ(Metric(d, "work_cycles", true), 160563);
  EXPECT_EQ(Metric(d, "work_cycles", false), 113703.5);
  EXPECT_FALSE(d.Find("wall_us")->delta.noise_bound.has_value());  // n = 2 per side
  // Busy fell 20.5 µs, overhead 7 µs: the gain is mostly compute-busy time.
  EXPECT_EQ(d.wall_cause, WallCause::kComputeBusy);
  EXPECT_EQ(Metric(d, "cold_wall_us", true), 1409);
  EXPECT_EQ(Metric(d, "cold_wall_us", false), 825);
  // Traced (cold) execution.
  EXPECT_EQ(Metric(d, "graph_wall_cycles", true), 186647);
  EXPECT_EQ(Metric(d, "graph_wall_cycles", false), 104608);
  EXPECT_EQ(Metric(d, "domain_cycles", true), 169635);
  EXPECT_EQ(Metric(d, "domain_cycles", false), 72565);
  EXPECT_EQ(d.a_domain_tid, 256u);
  EXPECT_EQ(d.b_domain_tid, 513u);
  EXPECT_EQ(Metric(d, "dpc_sum_cycles", true), 183528);
  EXPECT_EQ(Metric(d, "dpc_sum_cycles", false), 101836);
  // Memory: peak VTCM counter and QHAS traffic totals.
  EXPECT_EQ(Metric(d, "peak_vtcm_bytes", true), 919552);
  EXPECT_EQ(Metric(d, "peak_vtcm_bytes", false), 1126400);
  EXPECT_EQ(Metric(d, "dram_bytes", true), 1116160);
  EXPECT_EQ(Metric(d, "dram_bytes", false), 1589248);
  EXPECT_EQ(Metric(d, "vtcm_bytes", true), 3753984);
  EXPECT_EQ(Metric(d, "vtcm_bytes", false), 5275648);
  // Ops: the graphs name their matmuls differently (bbb_indep0..7, a custom
  // op package type, vs MatMul_0..7, FullyConnected): no type + dims match,
  // so they are honestly removed / added.  Input and Output match by name;
  // the chunk-preload service op is renamed (…_1098 -> …_12b6) and matches
  // on its type (no dims on either side).
  int by_name = 0, by_type = 0, added = 0, removed = 0;
  for (const auto& op : d.qnn_ops) {
    by_name += op.matched_by == "name";
    by_type += op.matched_by == "type+dims";
    added += op.status == OpMatch::kAdded;
    removed += op.status == OpMatch::kRemoved;
  }
  EXPECT_EQ(by_name, 2);
  EXPECT_EQ(by_type, 1);
  EXPECT_EQ(added, 8);     // MatMul_0..7
  EXPECT_EQ(removed, 10);  // bbb_indep0..7, $Const_11, $Const_12
  const OpDelta* service = FindOp(d.qnn_ops, "SystemService_ChunkPreload_12b6");
  ASSERT_NE(service, nullptr);
  EXPECT_EQ(service->a_name, "SystemService_ChunkPreload_1098");
  EXPECT_EQ(service->dpc_cycles.change, 491 - 18);
  const OpDelta* input = FindOp(d.qnn_ops, "Input");
  EXPECT_EQ(input->dpc_cycles.a_value(), 23560);
  EXPECT_EQ(input->dpc_cycles.b_value(), 5871);
  EXPECT_EQ(input->instances.a_value(), 32);
  EXPECT_EQ(input->instances.b_value(), 24);
  EXPECT_EQ(FindOp(d.qnn_ops, "bbb_indep0")->status, OpMatch::kRemoved);
  EXPECT_EQ(FindOp(d.qnn_ops, "MatMul_2")->dpc_cycles.b_value(), 35174);
  // Attribution of the −82039-cycle traced wall change.
  ASSERT_GE(d.attribution.size(), 3u);
  EXPECT_EQ(d.attribution[0].name, "bbb_indep0");
  EXPECT_EQ(d.attribution[0].dpc_change_cycles, -87938);
  EXPECT_NEAR(*d.attribution[0].share_of_wall_change_pct, 87938.0 / 82039 * 100, 1e-9);
  EXPECT_EQ(d.attribution[1].name, "MatMul_2");
  EXPECT_EQ(d.attribution[2].name, "MatMul_0");
  // Units: tid 256 cycles_used 169635 -> 62633.
  ASSERT_EQ(d.units.size(), 5u);
  EXPECT_EQ(d.units[0].tid, 256u);
  EXPECT_EQ(d.units[0].cycles_used.a_value(), 169635);
  EXPECT_EQ(d.units[0].cycles_used.b_value(), 62633);
}

}  // namespace
}  // namespace htpscope::run_diff_test
