#include "formats/qhas.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "formats/json_layout_test_util.h"

namespace htpscope::qhas_test {
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
  EXPECT_EQ(q.Text(q.qnn_op_instances[0].name), "Input");
  EXPECT_EQ(q.qnn_op_instances[0].cycles, 130179);
  EXPECT_EQ(q.qnn_op_instances[0].dominant_path_cycles, 23560);
  EXPECT_EQ(q.qnn_op_instances[0].count, 32);
  EXPECT_EQ(q.htp_op_types[0].count, 8);
  EXPECT_FALSE(q.htp_op_types[0].format_change);
  ASSERT_EQ(q.htp_op_instances.size(), 53u);
  const QhasOpInstance& i = q.htp_op_instances[0];
  EXPECT_EQ(i.op_id, 0x0000104900000002u);  // written unpadded: "0x104900000002"
  EXPECT_EQ(q.InputIdsOf(i)[0], 0x0000100382d28377u);
  EXPECT_EQ(std::vector<int64_t>(q.DimsOf(i).begin(), q.DimsOf(i).end()),
            (std::vector<int64_t>{1, 8, 32, 256}));
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
  // An instance's arrays: the member's path, composed only for the message.
  e = error_of(
      R"json({"header": {"artifact_type": "QHAS"}, "data": {"htp_op_instances": {"data": [{"dims": [1]}, {"dims": 5}]}}})json");
  EXPECT_NE(e.find("htp_op_instances.data[1].dims: expected an array"), std::string::npos) << e;
  e = error_of(
      R"json({"header": {"artifact_type": "QHAS"}, "data": {"htp_op_instances": {"data": [{"input_nodes": ["0x1", 2]}]}}})json");
  EXPECT_NE(e.find("htp_op_instances.data[0].input_nodes: expected a string"), std::string::npos)
      << e;
}

TEST(QhasParse, MissingSectionsAreWarnedNotGuessed) {
  Qhas q = ParseQhas(
      "q.json", R"json({"header": {"artifact_type": "QHAS"}, "model_id": "m", "data": {}})json");
  EXPECT_EQ(q.warnings.size(), 6u);
  EXPECT_TRUE(q.overall.empty());
}

// Every field of `q`, as text: two reads are the same exactly when their
// descriptions are.
std::string Describe(const Qhas& q) {
  std::string out =
      fmt::format("{}|{}|{}|{}|{}\n", q.version, q.model_id, fmt::join(q.sections, ","),
                  fmt::join(q.warnings, ";"), q.overall.size());
  for (const QhasOverall& o : q.overall) {
    out += fmt::format("overall {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {}\n", o.htp,
                       o.percent_idle, o.percent_utilization, o.time_us, o.graph_execute_us,
                       o.inf_per_s, o.timeline_cycles, o.total_dram_read_bytes,
                       o.total_dram_write_bytes, o.total_dram_bytes, o.total_vtcm_read_bytes,
                       o.total_vtcm_write_bytes, o.total_vtcm_bytes, o.peak_vtcm_alloc_bytes,
                       o.unique_qnn_ops, o.qnn_nodes, o.unique_htp_ops, o.htp_nodes,
                       o.resources.size());
    for (const QhasResource& r : o.resources)
      out +=
          fmt::format("  {} {} {} {} {} {} {} {} {} {} {}\n", r.type, r.tid, r.start_cycle,
                      r.end_cycle, r.timeline_cycles, r.cycles_used, r.utilization_pct,
                      r.dram_read_bytes, r.dram_write_bytes, r.vtcm_read_bytes, r.vtcm_write_bytes);
  }
  for (const auto* rows : {&q.qnn_op_types, &q.qnn_op_instances, &q.htp_op_types})
    for (const QhasOpAggregate& a : *rows)
      out += fmt::format("agg {} {} {} {} {} {} {} {} {} {} {} {} {}\n", q.Text(a.name),
                         q.Text(a.qnn_op_type), a.cycles, a.percent_active_cycles,
                         a.dominant_path_cycles, a.percent_dominant_path, a.count,
                         a.dram_read_bytes, a.dram_write_bytes, a.vtcm_read_bytes,
                         a.vtcm_write_bytes, a.format_change, a.reference_op);
  for (const QhasOpInstance& i : q.htp_op_instances)
    out += fmt::format(
        "inst {} {} {} {} {} {} {} {} {} {} [{}] [{}] {} {} {} {} {} {}{}{}{}{}{}{}{} {} {} {} "
        "{}\n",
        i.htp, i.tid, i.op_id, q.Text(i.htp_op), q.Text(i.qnn_op), q.Text(i.qnn_op_type),
        q.Text(i.dtype), i.rank, i.step_size, i.zero_offset, fmt::join(q.DimsOf(i), ","),
        fmt::join(q.InputIdsOf(i), ","), i.start_cycle, i.cycles, i.dominant_path_cycles,
        i.percent_dominant_path, i.cycles_per_packet, i.fmt_change, i.ref_op, i.hmx, i.hvx,
        i.dma_wait, i.dma_set, i.dma, i.sync, i.dram_read_bytes, i.dram_write_bytes,
        i.vtcm_read_bytes, i.vtcm_write_bytes);
  for (const auto& [core, segments] : q.dominant_path)
    for (const QhasPathSegment& p : segments)
      out += fmt::format("path {} {} {} {} {} {} {} {} {} {}\n", core, p.op_id, q.Text(p.htp_op),
                         q.Text(p.qnn_op), p.start_cycle, p.end_cycle, p.dp_cycles, p.cycles,
                         p.partial, p.idle);
  return out;
}

// A QHAS with `rows` rows in each big section, by hand.
std::string SyntheticQhas(int rows) {
  std::string text = R"({"header": {"version": {"major": 1, "minor": 0, "patch": 0},
    "artifact_type": "QHAS"}, "model_id": "m", "data": {
  "htp_overall_summary": {"data": [{"htp_resources": {"data": [{"type": "HMX", "tid": 256,
    "start_cycle": 10, "end_cycle": 90, "cycles_used": 50}]}, "htp": 0, "timeline_cycles": 80,
    "percent_idle": 1.5, "qnn_nodes": 7}]},)";
  auto section = [&](const std::string& name, auto row) {
    text += "\n  \"" + name + "\": {\"data\": [";
    for (int i = 0; i < rows; ++i) text += (i ? ",\n    " : "\n    ") + row(i);
    text += "]},";
  };
  auto aggregate = [](int i) {
    return fmt::format(
        R"({{"op": "op{{[,\"{}\"]}}", "cycles": {}, "percent_active_cycles": {}.25,)"
        R"( "num_dominant_path_cycles_htp_0": {}, "num_htp_ops": 2, "dram_read": {}}})",
        i, 1000 + i, i % 100, 10 * i, 4096 * i);
  };
  section("qnn_op_types", aggregate);
  section("qnn_op_instances_nodes", aggregate);
  section("htp_op_types", aggregate);
  section("htp_op_instances", [](int i) {
    return fmt::format(
        R"({{"htp": 0, "tid": {}, "op_id": "0x{:x}", "htp_op": "q::Conv", "qnn_op": "c{}",)"
        R"( "dtype": "int8", "rank": 4, "step_size": 1.0, "zero_offset": -3, "dims": [1, {}, 8, 8],)"
        R"( "input_nodes": ["0x{:x}"], "start_cycle": {}, "cycles": 40, "num_dominant_path_cycles": 7,)"
        R"( "cycles_per_packet": 4.4538163114075239, "hmx": {}, "hvx": true, "vtcm_write": {}}})",
        i % 2 ? 256 : 512, 0x100000000 + i, i / 3, i % 5 + 1, 0x100000000 + i - 1, 1000 + i,
        i % 2 ? "true" : "false", 1024 * i);
  });
  section("dominant_path_htp_0", [](int i) {
    return fmt::format(
        R"({{"op_id": "0x{:x}", "htp_op": "q::Conv", "qnn_op": "c{}", "start_cycle": {}, "end_cycle": {},)"
        R"( "partial": false, "dp_cycles": 10, "cycles": 40}})",
        0x100000000 + i, i / 3, 100 * i, 100 * i + 10);
  });
  text.pop_back();  // the last section's comma
  return text + "\n}}\n";
}

// Every layout of `text`, plain and gzip, read in chunks of `chunk_bytes`
// on two threads, equals the whole parse.
void ExpectEveryLayoutReadsAlike(const std::string& name, const std::string& text,
                                 size_t chunk_bytes) {
  const std::string whole = Describe(ParseQhas(name, text));
  for (auto layout : testing_support::kAllJsonLayouts) {
    const std::string laid_out = testing_support::Relayout(text, layout, 4);
    for (bool gzip : {false, true}) {
      SCOPED_TRACE(::testing::Message() << name << " " << testing_support::JsonLayoutName(layout)
                                        << (gzip ? " gz" : " plain"));
      const Qhas q = ReadQhas(testing_support::WriteTestFile("qhas_" + name, laid_out, gzip),
                              {2, chunk_bytes});
      EXPECT_GT(q.chunks_parsed, 1u);
      EXPECT_EQ(Describe(q), whole);
    }
  }
}

TEST(QhasStreaming, EveryLayoutPlainAndGzipGivesTheWholeParsesRows) {
  ExpectEveryLayoutReadsAlike("synthetic", SyntheticQhas(150), 2048);
  ExpectEveryLayoutReadsAlike("tiny_chunks", SyntheticQhas(5), 1);
}

TEST(QhasStreaming, ErrorsAreTheWholeParsesErrors) {
  std::string text = SyntheticQhas(100);
  const size_t at = text.find("\"cycles\": 40", text.find("\"op_id\": \"0x100000050\""));
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 13, "\"cycles\": -40");
  std::string whole_error;
  try {
    ParseQhas("q.json", text);
  } catch (const InputError& e) {
    whole_error = e.what();
  }
  EXPECT_NE(whole_error.find("htp_op_instances.data[80].cycles: -40 is negative"),
            std::string::npos)
      << whole_error;
  for (bool gzip : {false, true}) {
    // Without the error, the same file is really cut into chunks.
    EXPECT_GT(
        ReadQhas(testing_support::WriteTestFile("qhas_mended", SyntheticQhas(100), gzip), {2, 1024})
            .chunks_parsed,
        1u);
    const std::string path = testing_support::WriteTestFile("qhas_error", text, gzip);
    try {
      ReadQhas(path, {2, 1024});
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      // The same message, offset included, naming the file read.
      EXPECT_EQ(std::string(e.what()), std::string(whole_error).replace(0, 6, path));
    }
  }
}

class QhasLayoutsCorpus : public ::testing::TestWithParam<const char*> {};

TEST_P(QhasLayoutsCorpus, EveryLayoutPlainAndGzipGivesTheWholeParsesRowsNeedsCorpus) {
  HTPSCOPE_REQUIRE_CORPUS(GetParam());
  ExpectEveryLayoutReadsAlike(GetParam(),
                              testing_support::ReadTestFile(testing_support::CorpusFile(
                                  GetParam(), "chrometrace_qnn_htp_analysis_summary.json")),
                              4096);
}

INSTANTIATE_TEST_SUITE_P(Corpus, QhasLayoutsCorpus,
                         ::testing::Values("v8c8_256", "native_256", "gdn_hvx_int16",
                                           "chain8_archive"));

}  // namespace
}  // namespace htpscope::qhas_test
