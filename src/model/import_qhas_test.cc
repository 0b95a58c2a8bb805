// QHAS's rows converted into the run's QhasTables by ImportQhas, and the op
// instances made from them when there is no optrace.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/qhas.h"
#include "model/import.h"

namespace htpscope::import_qhas_test {
namespace {

// Two cores (2 and 3 htp_resources rows); op 0x11's slices on tids 256 and
// 512 of core 0, op 0x5 on core 0, and 0x11 again on core 1; two QNN op
// rows and one HTP op type row.
constexpr const char* kTwoCores = R"json({"header": {"artifact_type": "QHAS"}, "data": {
  "htp_overall_summary": {"data": [
    {"htp": 0, "timeline_cycles": 1000, "htp_nodes": 3, "htp_resources": {"data": [
      {"type": "HMX", "tid": 256, "start_cycle": 10, "end_cycle": 900, "cycles_used": 700},
      {"type": "UNK", "tid": 512, "start_cycle": 20, "end_cycle": 800, "cycles_used": 300}]}},
    {"htp": 1, "timeline_cycles": 600, "htp_nodes": 1, "htp_resources": {"data": [
      {"type": "HMX", "tid": 256, "cycles_used": 100},
      {"type": "HVX", "tid": 512, "cycles_used": 50},
      {"type": "HVX", "tid": 513, "cycles_used": 40}]}}]},
  "qnn_op_instances_nodes": {"data": [
    {"qnn_op": "conv_1", "qnn_op_type": "Conv2d", "cycles": 900, "num_dominant_path_cycles": 600,
     "instances": 2},
    {"qnn_op": "relu_2", "qnn_op_type": "Relu", "cycles": 80, "num_dominant_path_cycles": 0,
     "instances": 1}]},
  "htp_op_types": {"data": [{"op": "ConvLayer.hmx", "cycles": 980, "num_dominant_path_cycles": 600,
     "num_htp_ops": 3}]},
  "htp_op_instances": {"data": [
    {"htp": 0, "tid": 256, "op_id": "0x11", "htp_op": "ConvLayer.hmx", "qnn_op": "conv_1",
     "qnn_op_type": "Conv2d", "dtype": "QNN_DATATYPE_UFIXED_POINT_8", "dims": [1, 8, 8, 32],
     "input_nodes": ["0x3", "0x4"], "start_cycle": 100, "cycles": 400,
     "num_dominant_path_cycles": 300, "hmx": true, "fmt_change": true, "cycles_per_packet": 2.5,
     "dram_read": 64, "dram_write": 0, "vtcm_read": 128, "vtcm_write": 32},
    {"htp": 0, "tid": 512, "op_id": "0x11", "htp_op": "ConvLayer.hmx", "qnn_op": "conv_1",
     "qnn_op_type": "Conv2d", "dtype": "QNN_DATATYPE_UFIXED_POINT_8", "dims": [1, 8, 8, 32],
     "start_cycle": 150, "cycles": 300, "num_dominant_path_cycles": 100, "hvx": true,
     "dram_read": 16, "dram_write": 8, "vtcm_read": 0, "vtcm_write": 0},
    {"htp": 0, "tid": 512, "op_id": "0x5", "htp_op": "Relu.hvx", "qnn_op": "relu_2",
     "qnn_op_type": "Relu", "start_cycle": 600, "cycles": 80, "num_dominant_path_cycles": 0,
     "hvx": true, "dma_wait": true, "ref_op": true},
    {"htp": 1, "tid": 256, "op_id": "0x11", "htp_op": "ConvLayer.hmx", "qnn_op": "conv_1",
     "qnn_op_type": "Conv2d", "start_cycle": 50, "cycles": 200, "num_dominant_path_cycles": 200,
     "hmx": true, "dram_read": 1, "dram_write": 2, "vtcm_read": 3, "vtcm_write": 4}]}}})json";

TEST(ImportQhas, RowsBecomeTheModelsRowsAndTheReadersAreFreed) {
  Qhas qhas = ParseQhas("two_cores.json", kTwoCores);
  ASSERT_EQ(qhas.htp_op_instances.size(), 4u);
  QhasTables t;
  std::vector<WarningRow> warnings;
  model_import::ImportQhas(std::move(qhas), t, warnings);
  EXPECT_TRUE(qhas.htp_op_instances.empty());  // NOLINT(bugprone-use-after-move): freed
  EXPECT_EQ(qhas.htp_op_instances.capacity(), 0u);
  EXPECT_EQ(qhas.store.dims.capacity(), 0u);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(qhas.store.input_ids.capacity(), 0u);
  EXPECT_TRUE(qhas.qnn_op_instances.empty());  // NOLINT(bugprone-use-after-move)
  // The reader's warnings, under the file's name.
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].message, "two_cores.json: QHAS section \"qnn_op_types\" is missing");
  EXPECT_EQ(warnings[1].message, "two_cores.json: QHAS section \"dominant_path_htp_0\" is missing");
  EXPECT_EQ(warnings[1].code, WarningCode::reader);

  ASSERT_EQ(t.qhas_op_instances.size(), 4u);
  const QhasOpInstanceRow& first = t.qhas_op_instances[0];
  EXPECT_EQ(first.op_id, 0x11u);
  EXPECT_EQ(first.htp_core, 0);
  EXPECT_EQ(first.tid, 256u);
  EXPECT_EQ(t.QhasStr(first.htp_op_type), "ConvLayer.hmx");
  EXPECT_EQ(t.QhasStr(first.qnn_op_name), "conv_1");
  EXPECT_EQ(t.QhasStr(first.qnn_op_type), "Conv2d");
  EXPECT_EQ(t.QhasStr(first.data_type), "QNN_DATATYPE_UFIXED_POINT_8");
  EXPECT_EQ(first.start_cycle, 100);
  EXPECT_EQ(first.cycles, 400);
  EXPECT_EQ(first.dominant_path_cycles, 300);
  EXPECT_EQ(first.dram_read_bytes, 64);
  EXPECT_EQ(first.vtcm_read_bytes, 128);
  EXPECT_EQ(first.vtcm_write_bytes, 32);
  EXPECT_DOUBLE_EQ(first.cycles_per_packet, 2.5);
  EXPECT_EQ(first.flags, kFlagUsesHmx);
  EXPECT_TRUE(first.format_change);
  EXPECT_FALSE(first.reference_op);
  EXPECT_EQ(std::vector<int32_t>(t.qhas_dims.begin() + first.dims_begin,
                                 t.qhas_dims.begin() + first.dims_begin + first.dims_count),
            (std::vector<int32_t>{1, 8, 8, 32}));
  EXPECT_EQ(
      std::vector<uint64_t>(t.qhas_input_ids.begin() + first.inputs_begin,
                            t.qhas_input_ids.begin() + first.inputs_begin + first.inputs_count),
      (std::vector<uint64_t>{0x3, 0x4}));
  const QhasOpInstanceRow& relu = t.qhas_op_instances[2];
  EXPECT_EQ(relu.flags, kFlagUsesHvx | kFlagDmaWait);
  EXPECT_TRUE(relu.reference_op);
  EXPECT_EQ(relu.dims_count, 0u);
  EXPECT_EQ(relu.data_type, StringPool::kEmpty);
  // The second slice's dims follow the first's; the names are shared.
  EXPECT_EQ(t.qhas_op_instances[1].dims_begin, 4u);
  EXPECT_EQ(t.qhas_op_instances[1].qnn_op_name, first.qnn_op_name);
  EXPECT_EQ(t.qhas_op_instances[3].htp_core, 1);
  EXPECT_EQ(t.qhas_dims.size(), 8u);
  EXPECT_EQ(t.qhas_input_ids.size(), 2u);

  // Per op ID, in order of its first row: 0x11's three rows (both cores) summed.
  ASSERT_EQ(t.qhas_op_totals.size(), 2u);
  EXPECT_EQ(t.qhas_op_totals[0].op_id, 0x11u);
  EXPECT_EQ(t.qhas_op_totals[0].first_row, 0u);
  EXPECT_EQ(t.qhas_op_totals[0].cycles, 900);
  EXPECT_EQ(t.qhas_op_totals[0].dominant_path_cycles, 600);
  EXPECT_EQ(t.qhas_op_totals[0].dram_read_bytes, 81);
  EXPECT_EQ(t.qhas_op_totals[0].dram_write_bytes, 10);
  EXPECT_EQ(t.qhas_op_totals[0].vtcm_read_bytes, 131);
  EXPECT_EQ(t.qhas_op_totals[0].vtcm_write_bytes, 36);
  EXPECT_EQ(t.qhas_op_totals[1].op_id, 0x5u);
  EXPECT_EQ(t.qhas_op_totals[1].first_row, 2u);
  EXPECT_EQ(t.qhas_op_index.at(0x11), 0u);
  EXPECT_EQ(t.qhas_op_index.at(0x5), 1u);
  EXPECT_EQ(t.qhas_op_ids, (std::vector<uint64_t>{0x5, 0x11}));

  ASSERT_EQ(t.qhas_qnn_op_rows.size(), 2u);
  EXPECT_EQ(t.QhasStr(t.qhas_qnn_op_rows[0].name), "conv_1");
  EXPECT_EQ(t.QhasStr(t.qhas_qnn_op_rows[0].qnn_op_type), "Conv2d");
  EXPECT_EQ(t.qhas_qnn_op_rows[0].cycles, 900);
  EXPECT_EQ(t.qhas_qnn_op_rows[0].dominant_path_cycles, 600);
  EXPECT_EQ(t.qhas_qnn_op_rows[0].count, 2);
  ASSERT_EQ(t.qhas_htp_op_type_rows.size(), 1u);
  EXPECT_EQ(t.QhasStr(t.qhas_htp_op_type_rows[0].name), "ConvLayer.hmx");
  EXPECT_EQ(t.qhas_htp_op_type_rows[0].count, 3);

  // Each core's htp_resources rows, by the row of qhas_cores.
  ASSERT_EQ(t.qhas_cores.size(), 2u);
  ASSERT_EQ(t.QhasResourcesOf(0).size(), 2u);
  EXPECT_EQ(t.QhasStr(t.QhasResourcesOf(0)[1].type), "UNK");
  EXPECT_EQ(t.QhasResourcesOf(0)[0].start_cycle, 10);
  EXPECT_EQ(t.QhasResourcesOf(0)[0].end_cycle, 900);
  EXPECT_EQ(t.QhasResourcesOf(0)[0].cycles_used, 700);
  ASSERT_EQ(t.QhasResourcesOf(1).size(), 3u);
  EXPECT_EQ(t.QhasResourcesOf(1)[2].tid, 513u);
  EXPECT_EQ(t.QhasResourcesOf(1)[2].cycles_used, 40);
  EXPECT_TRUE(t.QhasResourcesOf(2).empty());
  EXPECT_EQ(t.qhas_cores[0].listed_htp_nodes, 3);
  EXPECT_EQ(t.qhas_cores[1].listed_htp_nodes, 1);
}

// Without an optrace: one instance per op ID and core, its slices' figures
// summed, its names in the run's pool.
TEST(ImportQhas, InstancesOfARunWithoutAnOptrace) {
  QhasTables qhas;
  std::vector<WarningRow> warnings;
  model_import::ImportQhas(ParseQhas("two_cores.json", kTwoCores), qhas, warnings);
  TraceTables trace;
  const StringId before = trace.strings.Intern("already here");
  model_import::ImportQhasInstances(qhas, trace);
  ASSERT_EQ(trace.op_instances.size(), 3u);  // by first start: 0x11 core 1, 0x11 core 0, 0x5
  const OpInstanceRow& core1 = trace.op_instances[0];
  EXPECT_EQ(core1.htp_core, 1);
  EXPECT_EQ(core1.slice_count, 1u);
  const OpInstanceRow& conv = trace.op_instances[1];
  EXPECT_EQ(conv.op_id, 0x11u);
  EXPECT_EQ(conv.htp_core, 0);
  EXPECT_EQ(conv.slice_count, 2u);
  EXPECT_EQ(conv.work_cycles, 700);
  EXPECT_EQ(conv.dpc_cycles, 400);
  EXPECT_EQ(conv.first_start_cycle, 100);
  EXPECT_EQ(conv.last_end_cycle, 500);
  EXPECT_EQ(conv.flags, kFlagUsesHmx | kFlagUsesHvx);
  EXPECT_TRUE(conv.format_change);
  EXPECT_TRUE(conv.on_hmx_thread && conv.on_hvx_thread);
  EXPECT_EQ(trace.strings.View(conv.qnn_op_name), "conv_1");
  EXPECT_EQ(trace.strings.View(conv.data_type), "QNN_DATATYPE_UFIXED_POINT_8");
  EXPECT_EQ(std::vector<int32_t>(trace.dims.begin() + conv.dims_begin,
                                 trace.dims.begin() + conv.dims_begin + conv.dims_count),
            (std::vector<int32_t>{1, 8, 8, 32}));
  EXPECT_EQ(conv.inputs_count, 2u);
  EXPECT_EQ(trace.input_ids[conv.inputs_begin + 1], 0x4u);
  EXPECT_TRUE(trace.op_instances[2].reference_op);
  EXPECT_EQ(trace.slices.size(), 4u);
  // Interned after what the pool held, in use order: instances by op ID
  // then core, each's HTP op type, QNN op name, QNN op type and data type
  // (0x5's is "", which every pool holds).
  EXPECT_EQ(trace.strings.View(before + 1), "Relu.hvx");
  EXPECT_EQ(trace.strings.View(before + 2), "relu_2");
  EXPECT_EQ(trace.strings.View(before + 3), "Relu");
  EXPECT_EQ(trace.strings.View(before + 4), "ConvLayer.hmx");
  EXPECT_EQ(trace.strings.View(before + 5), "conv_1");
}

}  // namespace
}  // namespace htpscope::import_qhas_test
