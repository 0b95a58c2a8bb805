#include "formats/htp_graph.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "formats/json_layout_test_util.h"

namespace htpscope::htp_graph_test {
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

// A writer may print an integer param as a number with a fraction part or
// an exponent: read as the integer it is, as every other integer field is.
TEST(HtpGraphParams, IntegralNumbersReadAsIntegers) {
  const std::string json = R"json({"header": {"artifact_type": "HTP_GRAPH"}, "graph": {"nodes": {
    "0x0000000000000001": {"type": "t", "grouping": "g", "input_names": [], "output_names": [],
      "scalar_params": {"cycles_start": {"100": 1668827862868.0}, "mem_dram_read": {"100": 1.5e3},
                        "cycles_per_packet": {"100": 4.5}, "huge": {"100": 1e19}}}},
    "tensors": {}}})json";
  const HtpGraph g = ParseHtpGraph("integral.json", json);
  const HtpNode& n = g.nodes.at(1);
  EXPECT_EQ(n.IntParam("cycles_start"), 1668827862868);
  EXPECT_EQ(n.IntParam("mem_dram_read"), 1500);
  EXPECT_EQ(n.IntParam("cycles_per_packet"), std::nullopt);
  EXPECT_EQ(n.IntParam("huge"), std::nullopt);
}

// Params come in any key order (real files are not sorted), a node may
// have more or fewer than the node before it, and a repeated key keeps its
// last value: each node's params are found by key and listed in key order.
TEST(HtpGraphParams, AnyKeyOrderAnyCountRepeatsKeepTheLast) {
  std::string json = R"json({"header": {"artifact_type": "HTP_GRAPH"}, "graph": {"nodes": {
    "0x1": {"type": "t", "scalar_params": {"b": {"100": 2}, "a": {"100": 1}, "c": {"100": 3}}},
    "0x2": {"type": "t", "scalar_params": {"z": {"100": 9}, "m": {"1544": "mid"}, "a": {"100": 4},
                                           "y": {"100": 8}, "m": {"100": 5}}},
    "0x3": {"type": "t", "scalar_params": {"k": {"100": 7}}}}, "tensors": {}}})json";
  HtpGraph g = ParseHtpGraph("g.json", json);
  auto keys = [](const HtpNode& n) {
    std::string out;
    for (const auto& [key, param] : n.scalar_params)
      out += fmt::format("{}={} ", key, *param.AsInt());
    return out;
  };
  ASSERT_EQ(g.nodes.size(), 3u);
  EXPECT_EQ(keys(g.nodes.at(1)), "a=1 b=2 c=3 ");
  EXPECT_EQ(keys(g.nodes.at(2)), "a=4 m=5 y=8 z=9 ");
  EXPECT_EQ(keys(g.nodes.at(3)), "k=7 ");
  EXPECT_EQ(g.nodes.at(2).IntParam("m"), 5);
  EXPECT_FALSE(g.nodes.at(3).IntParam("a"));
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

// Every field of `g`, as text.
std::string Describe(const HtpGraph& g) {
  std::string out = fmt::format("{}|{}\n", g.version, fmt::join(g.op_types, ","));
  for (const auto& [id, n] : g.nodes) {
    out += fmt::format("node {} {} {} {} [{}] [{}]", id, n.id, n.type, n.grouping,
                       fmt::join(n.input_ids, ","), fmt::join(n.output_ids, ","));
    for (const auto& [key, p] : n.scalar_params) {
      out += fmt::format(" {}:{}:{}:", key, p.type_code, p.value.index());
      if (const std::string* text = p.AsString())
        out += *text;
      else if (auto integer = p.AsInt())  // an integer or a boolean
        out += fmt::format("{}", *integer);
      else
        out += fmt::format("{}", p.AsDouble().value_or(-1));
    }
    out += "\n";
  }
  for (const auto& [id, t] : g.tensors)
    out += fmt::format("tensor {} {} {} {} {} [{}]\n", id, t.id, t.index, t.type, t.data_type,
                       fmt::join(t.dims, ","));
  return out;
}

// Two threads parsing chunks of about `chunk_bytes`, keeping the params `kept` names.
ReadHtpGraphOptions InChunks(size_t chunk_bytes, std::vector<std::string> kept = {}) {
  ReadHtpGraphOptions options;
  options.threads = 2;
  options.chunk_bytes = chunk_bytes;
  options.kept_params = std::move(kept);
  return options;
}

std::string SyntheticGraph(int nodes) {
  std::string text = R"({"header": {"artifact_type": "HTP_GRAPH"}, "model.cpp": "htp_graph",
  "graph": {"tensors": {)";
  for (int i = 0; i < nodes; ++i)
    text += fmt::format(
        R"({}"0x{:016x}": {{"id": {}, "type": 3, "data_type": 1032, "dims": [1, {}, 8]}})",
        i ? ",\n" : "\n", 0x1000 + i, i, i % 9);
  text += "},\n\"nodes\": {";
  for (int i = 0; i < nodes; ++i)
    text += fmt::format(
        R"({}"0x{:016x}": {{"type": "q::Conv{{\"[,]\"}}", "grouping": "g{}", "tensor_params": {{}},)"
        R"( "scalar_params": {{"cycles_start": {{"100": {}}}, "cycles_per_packet": {{"100": 4.5}},)"
        R"( "op_flags": {{"1544": "uses_hvx"}}, "qnn_op_type": {{"1544": "Conv2d"}}}},)"
        R"( "input_names": ["0x{:016x}"], "output_names": ["0x{:016x}"]}})",
        i ? ",\n" : "\n", 0x1000 + i, i / 2, 5000 + i, 0x1000 + i - 1, 0x1000 + i);
  return text + "}}, \"op_types\": [\"q::Conv\"]}\n";
}

void ExpectEveryLayoutReadsAlike(const std::string& name, const std::string& text,
                                 size_t chunk_bytes) {
  const std::string whole = Describe(ParseHtpGraph(name, text));
  for (auto layout : testing_support::kAllJsonLayouts) {
    const std::string laid_out = testing_support::Relayout(text, layout, 3);
    for (bool gzip : {false, true}) {
      SCOPED_TRACE(::testing::Message() << name << " " << testing_support::JsonLayoutName(layout)
                                        << (gzip ? " gz" : " plain"));
      const HtpGraph g = ReadHtpGraph(
          testing_support::WriteTestFile("graph_" + name, laid_out, gzip), InChunks(chunk_bytes));
      EXPECT_GT(g.chunks_parsed, 1u);
      EXPECT_EQ(Describe(g), whole);
    }
  }
}

TEST(HtpGraphStreaming, EveryLayoutPlainAndGzipGivesTheWholeParsesGraph) {
  ExpectEveryLayoutReadsAlike("synthetic", SyntheticGraph(120), 2048);
  ExpectEveryLayoutReadsAlike("tiny_chunks", SyntheticGraph(4), 1);
}

TEST(HtpGraphStreaming, DuplicateIdsAcrossChunksAreTheWholeParsesError) {
  std::string text = SyntheticGraph(100);
  // Node 0x1050's key given to the 90th node too.
  const std::string key = fmt::format("\"0x{:016x}\": {{\"type\"", 0x1000 + 90);
  const size_t at = text.find(key);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, key.size(), fmt::format("\"0x{:016x}\": {{\"type\"", 0x1000 + 10));
  std::string whole_error;
  try {
    ParseHtpGraph("g.json", text);
  } catch (const InputError& e) {
    whole_error = e.what();
  }
  EXPECT_NE(whole_error.find("duplicate node id"), std::string::npos) << whole_error;
  // Without the duplicate, the same file is really cut into chunks.
  EXPECT_GT(ReadHtpGraph(testing_support::WriteTestFile("graph_mended", SyntheticGraph(100), false),
                         InChunks(1024))
                .chunks_parsed,
            1u);
  const std::string path = testing_support::WriteTestFile("graph_duplicate", text, false);
  try {
    ReadHtpGraph(path, InChunks(1024));
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), std::string(whole_error).replace(0, 6, path));
  }
}

// A reader that keeps some params gets the graph a full read gives, less
// the other params, whether the file is cut into chunks or parsed whole.
TEST(HtpGraphKeptParams, NodesKeepOnlyTheGivenParamsChunkedOrWhole) {
  const std::string text = SyntheticGraph(120);
  HtpGraph expected = ParseHtpGraph("g.json", text);
  for (auto& [id, node] : expected.nodes) {
    ScalarParams kept;
    for (const auto& [key, param] : node.scalar_params)
      if (key == "qnn_op_type")
        kept.SetString(key, param.type_code, *param.AsString());  // pooled in `kept`
      else if (key == "cycles_start")
        kept[key] = param;
    node.scalar_params = kept;
  }
  ASSERT_EQ(expected.nodes.at(0x1000 + 7).IntParam("cycles_start"), 5007);
  const std::string path = testing_support::WriteTestFile("graph_kept", text, false);
  for (size_t chunk_bytes : {size_t{1024}, size_t{1} << 30}) {
    SCOPED_TRACE(chunk_bytes);
    const HtpGraph g = ReadHtpGraph(path, InChunks(chunk_bytes, {"qnn_op_type", "cycles_start"}));
    EXPECT_EQ(g.chunks_parsed > 0, chunk_bytes == 1024);
    EXPECT_EQ(Describe(g), Describe(expected));
    const HtpNode& node = g.nodes.at(0x1000 + 7);
    EXPECT_EQ(node.scalar_params.size(), 2u);
    EXPECT_EQ(node.IntParam("cycles_start"), 5007);
    EXPECT_EQ(*node.scalar_params.at("qnn_op_type").AsString(), "Conv2d");
    EXPECT_FALSE(node.scalar_params.count("cycles_per_packet"));
  }
}

// A param that is not kept is still read: a malformed one is the same error.
TEST(HtpGraphKeptParams, AMalformedParamThatIsNotKeptIsStillAnError) {
  std::string text = SyntheticGraph(100);
  const std::string good = R"("cycles_per_packet": {"100": 4.5})";
  const size_t at = text.find(good, text.size() / 2);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, good.size(), R"("cycles_per_packet": {"100": 4.5, "50": 1})");
  const std::string path = testing_support::WriteTestFile("graph_bad_param", text, false);
  std::string full_error;
  try {
    ReadHtpGraph(path);
  } catch (const InputError& e) {
    full_error = e.what();
  }
  EXPECT_NE(full_error.find("scalar_params.cycles_per_packet: expected exactly one"),
            std::string::npos)
      << full_error;
  for (size_t chunk_bytes : {size_t{1024}, size_t{1} << 30}) {
    SCOPED_TRACE(chunk_bytes);
    try {
      ReadHtpGraph(path, InChunks(chunk_bytes, {"cycles_start"}));
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), full_error);
    }
  }
}

class HtpGraphLayoutsCorpus : public ::testing::TestWithParam<const char*> {};

TEST_P(HtpGraphLayoutsCorpus, EveryLayoutPlainAndGzipGivesTheWholeParsesGraphNeedsCorpus) {
  HTPSCOPE_REQUIRE_CORPUS(GetParam());
  ExpectEveryLayoutReadsAlike(GetParam(),
                              testing_support::ReadTestFile(
                                  testing_support::CorpusFile(GetParam(), "chrometrace_htp.json")),
                              4096);
}

INSTANTIATE_TEST_SUITE_P(Corpus, HtpGraphLayoutsCorpus,
                         ::testing::Values("v8c8_256", "native_256", "chain8_archive"));

}  // namespace
}  // namespace htpscope::htp_graph_test
