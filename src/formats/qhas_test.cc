#include "formats/qhas.h"

#include <gtest/gtest.h>

#include "base/corpus_test_util.h"
#include "base/errors.h"

namespace htpscope {
namespace {

TEST(QhasCorpus, V8c8AllSixSections) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  Qhas q = ReadQhas(
      testing_support::CorpusFile("v8c8_256", "chrometrace_qnn_htp_analysis_summary.json"));
  EXPECT_EQ(q.model_id, "v8c8");
  EXPECT_EQ(q.sections, (std::vector<std::string>{"htp_overall_summary", "qnn_op_types",
                                                  "qnn_op_instances_nodes", "htp_op_types",
                                                  "htp_op_instances", "dominant_path_htp_0"}));
  EXPECT_TRUE(q.warnings.empty());
  ASSERT_EQ(q.overall.size(), 1u);
  const QhasOverall& o = q.overall[0];
  EXPECT_EQ(o.timeline_cycles, 186647);
  EXPECT_EQ(o.peak_vtcm_alloc_bytes, 919552);
  EXPECT_DOUBLE_EQ(o.time_us, 1004);
  EXPECT_DOUBLE_EQ(o.graph_execute_us, 99);
  ASSERT_EQ(o.resources.size(), 5u);
  EXPECT_EQ(o.resources[0].type, "HMX");
  EXPECT_EQ(o.resources[0].tid, 256u);
  EXPECT_EQ(o.resources[0].cycles_used, 169635);
  EXPECT_EQ(o.resources[0].start_cycle, 1668827862868);
  EXPECT_EQ(o.resources[1].cycles_used, 52067);
  EXPECT_EQ(q.qnn_op_types.size(), 5u);
  EXPECT_EQ(q.qnn_op_instances.size(), 13u);
  EXPECT_EQ(q.htp_op_types.size(), 7u);
  EXPECT_EQ(q.qnn_op_instances[0].name, "Input");
  EXPECT_EQ(q.qnn_op_instances[0].cycles, 130179);
  EXPECT_EQ(q.qnn_op_instances[0].dominant_path_cycles, 23560);
  EXPECT_EQ(q.qnn_op_instances[0].count, 32);
  EXPECT_EQ(q.htp_op_types[0].count, 8);
  EXPECT_FALSE(q.htp_op_types[0].format_change);
  ASSERT_EQ(q.htp_op_instances.size(), 53u);
  const QhasOpInstance& i = q.htp_op_instances[0];
  EXPECT_EQ(i.op_id, 0x0000104900000002u);  // written unpadded: "0x104900000002"
  EXPECT_EQ(i.input_ids[0], 0x0000100382d28377u);
  EXPECT_EQ(i.dims, (std::vector<int64_t>{1, 8, 32, 256}));
  EXPECT_EQ(i.cycles, 3030);
  EXPECT_TRUE(i.dma);
  EXPECT_FALSE(i.hmx);
  EXPECT_DOUBLE_EQ(i.cycles_per_packet, 58.269229888916016);
  ASSERT_EQ(q.dominant_path.count(0), 1u);
  const auto& path = q.dominant_path.at(0);
  EXPECT_EQ(path.size(), 62u);
  int idle_rows = 0;
  int64_t total = 0, idle = 0;
  for (const auto& seg : path) {
    total += seg.dp_cycles;
    if (seg.is_idle()) {
      ++idle_rows;
      idle += seg.dp_cycles;
      EXPECT_EQ(seg.op_id, 0u);
    }
  }
  EXPECT_EQ(idle_rows, 29);
  EXPECT_EQ(total, 186647);  // Σ dp_cycles == timeline_cycles
  EXPECT_EQ(idle, 3119);
}

TEST(QhasCorpus, GdnCountsEverySliceAsAnInstance) {
  HTPSCOPE_REQUIRE_CORPUS("gdn_hvx_int16");
  Qhas q = ReadQhas(
      testing_support::CorpusFile("gdn_hvx_int16", "chrometrace_qnn_htp_analysis_summary.json"));
  EXPECT_EQ(q.model_id, "solve");
  EXPECT_EQ(q.htp_op_instances.size(), 44u);
  EXPECT_EQ(q.overall[0].timeline_cycles, 6038358);
}

TEST(QhasErrors, BadIdAndWrongType) {
  auto error_of = [](std::string json) -> std::string {
    try {
      ParseQhas("q.json", json);
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  };
  std::string e = error_of(
      R"json({"header": {"artifact_type": "QHAS"}, "data": {"htp_op_instances": {"data": [{"op_id": "0xnothex"}]}}})json");
  EXPECT_NE(e.find("htp_op_instances.data[0].op_id"), std::string::npos) << e;
  EXPECT_NE(e.find("not a hex id"), std::string::npos) << e;
  e = error_of(
      R"json({"header": {"artifact_type": "QHAS"}, "data": {"htp_overall_summary": {"data": [{"timeline_cycles": "12"}]}}})json");
  EXPECT_NE(e.find("htp_overall_summary.data[0].timeline_cycles: expected an integer"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("q.json: at byte"), std::string::npos) << e;
}

TEST(QhasParse, MissingSectionsAreWarnedNotGuessed) {
  Qhas q = ParseQhas(
      "q.json", R"json({"header": {"artifact_type": "QHAS"}, "model_id": "m", "data": {}})json");
  EXPECT_EQ(q.warnings.size(), 6u);
  EXPECT_TRUE(q.overall.empty());
}

}  // namespace
}  // namespace htpscope
