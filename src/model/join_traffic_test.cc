// Per-op traffic rows joined from QHAS beside an optrace.
#include <gtest/gtest.h>

#include "model/fake_qhas_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::join_traffic_test {
namespace {

namespace ts = testing_support;

const TrafficRow* FindTraffic(const Run& run, uint64_t op_id) {
  for (const auto& t : run.traffic)
    if (t.op_id == op_id) return &t;
  return nullptr;
}

// Each traffic row's QNN op name is QHAS's own text, whether QHAS lists the
// ops in the optrace's order or not, and when it names an op otherwise than
// the optrace does.
TEST(JoinTraffic, NamesAreQhasTextsInAnyOrder) {
  const std::string trace = ts::OptraceJson({{0x10, "conv_a", "q::Conv", "uses_hvx", 512, 0, 100},
                                             {0x20, "add_b", "q::Add", "uses_hvx", 512, 100, 50},
                                             {0x30, "mul_c", "q::Mul", "uses_hvx", 512, 150, 40},
                                             {0x40, "sub_d", "q::Sub", "uses_hvx", 512, 190, 10}});
  // QHAS rows: 0x30 before 0x20, and 0x20 and 0x40 under other names.
  std::vector<ts::FakeQhasInstance> rows = {
      {0x10, "q::Conv", "conv_a", "hvx", 512, 1000, 100, 100, 7, 1},
      {0x30, "q::Mul", "mul_c", "hvx", 512, 1150, 40, 40, 5, 2},
      {0x20, "q::Add", "add_renamed", "hvx", 512, 1100, 50, 50, 3, 3},
      {0x40, "q::Sub", "sub_renamed", "hvx", 512, 1190, 10, 10, 2, 4}};
  LoadOptions options;
  options.allow_mismatch = true;
  htpscope::Run run = ts::FakeRun(
      trace, "", ts::FakeQhasJson({{0, 200, 0, {{"HVX", 512, 200}}, {}}}, rows), options);
  ASSERT_EQ(run.traffic_source, Source::kQhas);
  ASSERT_EQ(run.traffic.size(), 4u);
  // In order of their QHAS rows.
  EXPECT_EQ(run.traffic[0].op_id, 0x10u);
  EXPECT_EQ(run.traffic[1].op_id, 0x30u);
  EXPECT_EQ(run.traffic[2].op_id, 0x20u);
  EXPECT_EQ(run.traffic[3].op_id, 0x40u);
  const char* names[] = {"conv_a", "mul_c", "add_renamed", "sub_renamed"};
  for (size_t k = 0; k < 4; ++k) EXPECT_EQ(run.Str(run.traffic[k].qnn_op_name), names[k]) << k;
  EXPECT_EQ(FindTraffic(run, 0x20)->dram_read_bytes, 3);
  EXPECT_EQ(FindTraffic(run, 0x40)->vtcm_read_bytes, 4);
  // The optrace keeps its own names.
  for (const auto& op : run.op_instances) {
    if (op.op_id == 0x20) {
      EXPECT_EQ(run.Str(op.qnn_op_name), "add_b");
    }
    if (op.op_id == 0x40) {
      EXPECT_EQ(run.Str(op.qnn_op_name), "sub_d");
    }
  }
}

}  // namespace
}  // namespace htpscope::join_traffic_test
