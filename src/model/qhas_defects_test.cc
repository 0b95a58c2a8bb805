// QHAS's known defects and several HTP cores, on QHAS files written here.
#include <gtest/gtest.h>

#include "formats/qhas.h"
#include "model/fake_qhas_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::qhas_defects_test {
namespace {

namespace ts = testing_support;

const WarningRow* FindWarning(const Run& run, const std::string& code) {
  for (const auto& w : run.warnings)
    if (WarningName(w.code) == code) return &w;
  return nullptr;
}

const UnitRow* FindUnit(const Run& run, uint32_t tid) {
  for (const auto& u : run.units)
    if (u.tid == tid) return &u;
  return nullptr;
}

// `events` (JSON objects, comma-separated) put first in an optrace's events.
std::string WithEvents(std::string optrace, const std::string& events) {
  const std::string at = "\"traceEvents\": [\n";
  optrace.insert(optrace.find(at) + at.size(), events + ",\n");
  return optrace;
}

TEST(QhasDefects, UnknownUnitTypeTakenFromTheTid) {
  ts::FakeQhasCore core{0, 1000, 0, {{"UNK", 256, 700}, {"HVX", 512, 200}}, {}};
  htpscope::Run run = ts::FakeRun(
      "", "", ts::FakeQhasJson({core}, {{0x11, "q::MatMul", "mm", "hmx", 256, 0, 700, 700}}));
  const WarningRow* w = FindWarning(run, "qhas_unit_type_unknown");
  ASSERT_TRUE(w);
  EXPECT_NE(w->message.find("tid 256 type \"UNK\" taken as HMX (tid 256 is the main/HMX thread)"),
            std::string::npos)
      << w->message;
  EXPECT_NE(w->message.find("core 0 name no unit for 1 thread "), std::string::npos) << w->message;
  const UnitRow* u = FindUnit(run, 256);
  ASSERT_TRUE(u);
  EXPECT_EQ(u->kind, UnitKind::kHmx);
  EXPECT_EQ(u->qhas_type, "UNK");
}

// Two HMX tiles on one tid: the second row is "UNK"; the optrace's thread
// names say which unit a tid outside the convention is.
TEST(QhasDefects, UnknownUnitTypeTakenFromTheOptraceThreadName) {
  std::string trace =
      WithEvents(ts::OptraceJson({{0x100000000001, "mm", "q::MatMul", "uses_hmx", 256, 0, 100},
                                  {0x100100000001, "mm", "q::MatMul", "uses_hmx", 257, 0, 90}}),
                 R"({"cat": "__metadata", "pid": 0, "tid": 257, "ph": "M", "name": "thread_name", )"
                 R"("args": {"name": "Type: HMX"}})");
  ts::FakeQhasCore core{0, 100, 0, {{"HMX", 256, 100}, {"UNK", 256, 90}, {"UNK", 257, 90}}, {}};
  std::vector<ts::FakeQhasInstance> rows = {
      {0x100000000001, "q::MatMul", "mm", "hmx", 256, 1000, 100, 100},
      {0x100100000001, "q::MatMul", "mm", "hmx", 257, 1000, 90, 0}};
  htpscope::Run run = ts::FakeRun(trace, "", ts::FakeQhasJson({core}, rows));
  const WarningRow* w = FindWarning(run, "qhas_unit_type_unknown");
  ASSERT_TRUE(w);
  EXPECT_NE(w->message.find("tid 256 type \"UNK\" taken as HMX (tid 256 is the main/HMX thread); "
                            "2 rows share this tid"),
            std::string::npos)
      << w->message;
  EXPECT_NE(w->message.find(
                "tid 257 type \"UNK\" taken as HMX (the optrace names the thread \"Type: HMX\")"),
            std::string::npos)
      << w->message;
  const UnitRow* u = FindUnit(run, 257);
  ASSERT_TRUE(u);
  EXPECT_EQ(u->kind, UnitKind::kHmx);  // tid 257 alone would say nothing
}

// An HTP graph whose node 0x100000000001 (conv) moved 4096 DRAM and 8192
// VTCM bytes, and whose node 0x100100000002 moved none.
std::string GraphWithTraffic() {
  std::string graph = testing_support::HtpGraphJson(
      {{0x100000000001, "q::Conv", "conv", {}}, {0x100100000002, "q::Relu", "relu", {}}}, {});
  auto mem = [](int dram, int vtcm) {
    return fmt::format(R"("mem_dram_read": {{"100": {}}}, "mem_dram_write": {{"100": 0}}, )"
                       R"("mem_vtcm_read": {{"100": {}}}, "mem_vtcm_write": {{"100": 0}}, )",
                       dram, vtcm);
  };
  for (auto [name, text] :
       {std::pair<const char*, std::string>{"conv", mem(4096, 8192)}, {"relu", mem(0, 0)}}) {
    std::string at = fmt::format(R"("scalar_params": {{"qnn_op_name": {{"1544": "{}"}})", name);
    size_t pos = graph.find(at);
    graph.insert(pos + std::string(R"("scalar_params": {)").size(), text);
  }
  return graph;
}

std::vector<ts::FakeSlice> TwoOps() {
  return {{0x100000000001, "conv", "q::Conv", "uses_hmx", 256, 0, 100},
          {0x100100000002, "relu", "q::Relu", "uses_hvx", 512, 100, 50}};
}

std::string ZeroTrafficQhas() {
  ts::FakeQhasCore core{0, 150, 0, {{"HMX", 256, 100}, {"HVX", 512, 50}}, {}};
  return ts::FakeQhasJson({core}, {{0x100000000001, "q::Conv", "conv", "hmx", 256, 1000, 100, 100},
                                   {0x100100000002, "q::Relu", "relu", "hvx", 512, 1100, 50, 50}});
}

TEST(QhasDefects, ZeroTrafficReplacedByTheHtpGraphs) {
  htpscope::Run run = ts::FakeRun(ts::OptraceJson(TwoOps()), GraphWithTraffic(), ZeroTrafficQhas());
  const WarningRow* w = FindWarning(run, "qhas_zero_traffic");
  ASSERT_TRUE(w);
  EXPECT_NE(w->message.find("the HTP graph's mem_* node params are not 0"), std::string::npos)
      << w->message;
  EXPECT_NE(w->message.find("comes from the HTP graph (source htp_graph)"), std::string::npos);
  EXPECT_EQ(run.traffic_source, Source::kHtpGraph);
  ASSERT_EQ(run.traffic.size(), 2u);
  EXPECT_EQ(run.traffic[0].op_id, 0x100000000001u);
  EXPECT_EQ(run.traffic[0].dram_read_bytes, 4096);
  EXPECT_EQ(run.traffic[0].vtcm_read_bytes, 8192);
  EXPECT_EQ(run.traffic[0].source, Source::kHtpGraph);
}

TEST(QhasDefects, ZeroTrafficWithheldWhenOnlyTheOptraceCountersSawTraffic) {
  std::string trace = WithEvents(
      ts::OptraceJson(TwoOps()),
      R"({"name": "DRAM read", "ph": "C", "tid": 0, "pid": 0, "ts": 0, "args": {"": 4096}})");
  htpscope::Run run = ts::FakeRun(trace, "", ZeroTrafficQhas());
  const WarningRow* w = FindWarning(run, "qhas_zero_traffic");
  ASSERT_TRUE(w);
  EXPECT_NE(w->message.find("the optrace's DRAM/VTCM counters are not 0"), std::string::npos)
      << w->message;
  EXPECT_NE(w->message.find("is withheld"), std::string::npos);
  EXPECT_EQ(run.traffic_source, Source::kNone);
  EXPECT_TRUE(run.traffic.empty());
}

TEST(QhasDefects, ZeroTrafficStandsWhenNothingContradictsIt) {
  htpscope::Run run = ts::FakeRun(ts::OptraceJson(TwoOps()), "", ZeroTrafficQhas());
  EXPECT_FALSE(FindWarning(run, "qhas_zero_traffic"));
  EXPECT_EQ(run.traffic_source, Source::kQhas);
  EXPECT_EQ(run.traffic.size(), 2u);
}

// Two cores: core 0 ran 1000 cycles (path 900 + idle 100), core 1 ran 600
// (path 450 + idle 150); core 1's HMX thread used 300, its HVX threads 450
// and 200.
std::string TwoCoreQhas() {
  ts::FakeQhasCore c0{0, 1000, 10.0, {{"HMX", 256, 900}, {"HVX", 512, 100}}, {}};
  c0.path = {{0x11, 0, 900}, {0, 900, 1000}};
  ts::FakeQhasCore c1{1, 600, 25.0, {{"HMX", 256, 300}, {"HVX", 512, 450}, {"HVX", 513, 200}}, {}};
  c1.path = {{0x21, 5000, 5300}, {0x22, 5300, 5450}, {0, 5450, 5600}};
  std::vector<ts::FakeQhasInstance> rows = {{0x11, "q::MatMul", "a", "hmx", 256, 0, 900, 900},
                                            {0x21, "q::MatMul", "b", "hmx", 256, 5000, 300, 300},
                                            {0x22, "q::Add", "b", "hvx", 512, 5300, 450, 150}};
  rows[1].htp = 1;
  rows[2].htp = 1;
  return ts::FakeQhasJson({c0, c1}, rows);
}

TEST(QhasCores, TwoCoresEachWithItsPathAndUtilisation) {
  htpscope::Run run = ts::FakeRun("", "", TwoCoreQhas());
  ASSERT_EQ(run.qhas_cores.size(), 2u);
  const QhasCoreRow& c1 = run.qhas_cores[1];
  EXPECT_EQ(c1.core, 1);
  EXPECT_EQ(c1.timeline_cycles, 600);
  EXPECT_EQ(c1.path_op_cycles, 450);
  EXPECT_EQ(c1.path_idle_cycles, 150);
  EXPECT_EQ(c1.hmx_cycles_used, 300);
  EXPECT_EQ(c1.busiest_hvx_cycles_used, 450);
  EXPECT_EQ(c1.hvx_threads, 2);
  EXPECT_DOUBLE_EQ(c1.percent_utilization, 75.0);
  EXPECT_EQ(run.qhas_cores[0].path_op_cycles, 900);
  EXPECT_EQ(run.qhas_cores[0].path_idle_cycles, 100);
  ASSERT_TRUE(FindWarning(run, "multi_core_qhas"));
  // The wall is core 0's and the ops are both cores': no idle figure from them.
  EXPECT_EQ(run.figures.graph_wall_cycles, 1000);
  EXPECT_FALSE(run.figures.idle_cycles);
}

// QHAS's fmt_change marks the optrace's instance of its op ID, from any of
// the op's rows; a marked row of an op the optrace lacks marks nothing.
TEST(QhasStaging, FormatChangeFromAnyRowOfTheOp) {
  const std::string trace = ts::OptraceJson({{0x10, "cast_a", "q::Cast", "uses_hvx", 512, 0, 100},
                                             {0x10, "cast_a", "q::Cast", "uses_hvx", 513, 0, 90},
                                             {0x20, "add_b", "q::Add", "uses_hvx", 512, 100, 50}});
  std::vector<ts::FakeQhasInstance> rows = {{0x10, "q::Cast", "cast_a", "hvx", 512, 1000, 100, 100},
                                            {0x10, "q::Cast", "cast_a", "hvx", 513, 1000, 90, 0},
                                            {0x20, "q::Add", "add_b", "hvx", 512, 1100, 50, 50},
                                            {0x99, "q::Cast", "gone", "hvx", 512, 1100, 1, 0}};
  rows[1].fmt_change = true;  // the op's second row only
  rows[3].fmt_change = true;
  LoadOptions options;
  options.allow_mismatch = true;
  htpscope::Run run = ts::FakeRun(
      trace, "", ts::FakeQhasJson({{0, 200, 0, {{"HVX", 512, 150}, {"HVX", 513, 90}}, {}}}, rows),
      options);
  ASSERT_EQ(run.op_instances.size(), 2u);
  for (const auto& op : run.op_instances) {
    EXPECT_EQ(op.format_change, op.op_id == 0x10) << op.op_id;
    EXPECT_FALSE(op.reference_op);
  }
}

// num_dominant_path_cycles_htp_<N>: one column per core, summed per op.
TEST(QhasCores, PerCoreDpcColumnsAreSummed) {
  Qhas q = ParseQhas("two_core.json", R"({"header": {"artifact_type": "QHAS"}, "data": {
    "qnn_op_instances_nodes": {"data": [{"qnn_op": "b", "cycles": 750,
      "num_dominant_path_cycles_htp_0": 0, "num_dominant_path_cycles_htp_1": 450}]}}})");
  ASSERT_EQ(q.qnn_op_instances.size(), 1u);
  EXPECT_EQ(q.qnn_op_instances[0].dominant_path_cycles, 450);
}

}  // namespace
}  // namespace htpscope::qhas_defects_test
