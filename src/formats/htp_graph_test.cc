#include "formats/htp_graph.h"

#include <gtest/gtest.h>

#include "base/corpus_test_util.h"
#include "base/errors.h"

namespace htpscope {
namespace {

TEST(HtpGraphCorpus, V8c8NodesTensorsAndTypedParams) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  HtpGraph g = ReadHtpGraph(testing_support::CorpusFile("v8c8_256", "chrometrace_htp.json"));
  EXPECT_EQ(g.nodes.size(), 26u);
  EXPECT_EQ(g.tensors.size(), 46u);
  EXPECT_EQ(g.op_types.size(), 4u);
  int edges = 0;
  for (const auto& [id, node] : g.nodes) {
    ASSERT_EQ(node.output_ids.size(), 1u);
    EXPECT_EQ(node.output_ids[0], id);  // a node's id is its output tensor's id
    for (uint64_t in : node.input_ids) edges += g.nodes.count(in) ? 1 : 0;
  }
  EXPECT_EQ(edges, 32);
  const HtpNode& n = g.nodes.at(0x1c);
  EXPECT_EQ(n.type, "HmxMatMulPhase3Package::BbbKMajor");
  EXPECT_EQ(n.grouping, "bbb_indep3");
  EXPECT_EQ(n.IntParam("cycles_start"), 1668828005414);
  EXPECT_EQ(n.IntParam("cycles_duration"), 8020);
  EXPECT_EQ(n.IntParam("mem_vtcm_read"), 133120);
  // Code 100 (INT_64) with a fractional value: typed by the JSON, not the code.
  const ScalarParam& cpp = n.scalar_params.at("cycles_per_packet");
  EXPECT_EQ(cpp.type_code, 100);
  EXPECT_DOUBLE_EQ(cpp.AsDouble().value(), 4.09393);
  EXPECT_FALSE(cpp.AsInt().has_value());
  ASSERT_NE(n.scalar_params.at("op_flags").AsString(), nullptr);
  EXPECT_EQ(*n.scalar_params.at("op_flags").AsString(), "uses_hmx");
  const HtpTensor& t = g.tensors.at(0x11);
  EXPECT_EQ(t.index, 0);
  EXPECT_TRUE(t.is_static());
  EXPECT_EQ(t.data_type, 1032);
  EXPECT_EQ(t.dims, (std::vector<int64_t>{1, 1, 256, 256}));
}

TEST(HtpGraphErrors, ScalarParamMustHaveOneTypedMember) {
  std::string json =
      R"json({"header": {"artifact_type": "HTP_GRAPH"}, "graph": {"nodes": {"0x1": {"type": "t",
    "scalar_params": {"x": {"50": 1, "100": 2}}}}, "tensors": {}}})json";
  try {
    ParseHtpGraph("g.json", json);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("graph.nodes[\"0x1\"].scalar_params.x"), std::string::npos)
        << e.what();
  }
  std::string duplicate =
      R"json({"header": {"artifact_type": "HTP_GRAPH"}, "graph": {"nodes": {"0x1": {}, "0x0001": {}}}})json";
  EXPECT_THROW(ParseHtpGraph("g.json", duplicate), InputError);
}

}  // namespace
}  // namespace htpscope
