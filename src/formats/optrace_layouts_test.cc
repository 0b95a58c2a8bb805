// The same optrace value in every byte layout a reader meets — the QAIRT
// writer's (one event a line), one compact event a line, minified on one
// line, pretty-printed with indent=2 — plain and gzip-compressed, must give
// identical results, streamed in chunks (more than one) on two threads, and
// equal to the whole-document parse.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "formats/json_layout_test_util.h"
#include "formats/optrace.h"
#include "formats/optrace_parser.h"
#include "formats/optrace_test_util.h"

namespace htpscope::optrace_layouts_test {
namespace {

using testing_support::JsonLayout;
using testing_support::JsonLayoutName;

// A trace in the writer's layout with every event shape: op events (some
// tiled on several HVX threads) each followed by its copy on a per-QNN-op
// process, tensors, flows, counters, metadata — and strings that hold
// brackets, commas and escapes.
std::string WriterLayoutTrace(int ops) {
  std::string text =
      "{\n  \"header\": {\n    \"version\": {\n      \"major\": 1,\n      \"minor\": 1,\n"
      "      \"patch\": 0\n    },\n    \"artifact_type\": \"OP_TRACE\"\n  },\n\"traceEvents\": [\n";
  auto add = [&](const std::string& line) { text += line + ",\n"; };
  for (int i = 0; i < ops; ++i) {
    const int64_t ts = 100 * i, start = 5000 + ts, pid = 2 + i / 3;
    const int tid = i % 4 == 0 ? 256 : 512 + i % 4;
    const std::string name = i % 5 == 0 ? R"j(q::Conv[\"a,b\"]{})j" : "q::Add";
    const std::string args = fmt::format(
        R"j({{ "ID": "0x{:016x}","HTP Op Type": "{}","Dims": [1,{},8,8],"Data Type": "int8",)j"
        R"j("Rank": 4,"Step Size": 0.5,"Zero Offset": 0,"Inputs Ops": ["0x{:016x}"],)j"
        R"j("Flags": ["uses_hvx"],"Cycles per Packet": 1.25,"QNN Op Type": "Conv2d",)j"
        R"j("QNN Op Name": "conv_{}","Start Cycle": {},"Duration (cycles)": 60,)j"
        R"j("Dominant Path Cycles": {}}})j",
        0x1000 + i, name, i % 7 + 1, 0x1000 + i - 1, i / 3, start, 30 + i % 11);
    for (int copy_pid : {0, static_cast<int>(pid)})
      add(fmt::format(
          R"j({{ "name": "{}", "ph": "X", "tid": {}, "pid": {}, "ts": {}, "dur": 60, "args": {} }})j",
          name, tid, copy_pid, ts, args));
    if (i % 3 == 0)
      add(fmt::format(
          R"j({{ "cat": "__metadata", "pid": {}, "ph": "M", "name": "process_name", "args": {{"name": "QNN::conv_{}", "opid": "0x{:x}"}}}})j",
          pid, i / 3, i / 3));
    add(fmt::format(
        R"j({{ "cat": "input_output", "name": "InputOutputFlowEvents", "tid": {}, "pid": 0, "ts": {}, "ph": "s", "id": {}}})j",
        tid, ts, i));
    add(fmt::format(
        R"j({{ "name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":{}, "args": {{"": {}}}}})j",
        ts, 4096 * (i % 9)));
  }
  add(R"j({ "name": "$Const", "ph": "X", "tid": 1, "pid": 0, "ts": 0, "dur": 0, "args": { "ID": "0x0000000000000001" } })j");
  add(R"j({ "cat": "__metadata", "pid": 0, "tid": 256, "ph": "M", "name": "thread_name", "args": {"name": "Type: HMX"}})j");
  text +=
      R"j({ "cat": "__metadata", "pid": 0, "ph": "M", "name": "process_name", "args": {"name": "Core 0 Overview"}})j";
  return text + "\n]}\n";
}

// Only pretty-printed events are streamed rather than mapped: the writer's
// layout, one compact event a line and a minified file are mapped.
TEST(OptraceLayouts, OnlyPrettyPrintedEventsAreTakenForPrettyPrinted) {
  const std::string writer_text = WriterLayoutTrace(4);
  for (JsonLayout layout : testing_support::kAllJsonLayouts) {
    SCOPED_TRACE(JsonLayoutName(layout));
    const std::string text = testing_support::Relayout(writer_text, layout, 2);
    EXPECT_EQ(optrace_internal::EventsArePrettyPrinted(text), layout == JsonLayout::kIndent2);
  }
  EXPECT_FALSE(optrace_internal::EventsArePrettyPrinted("{\"header\": {}}"));
  EXPECT_FALSE(optrace_internal::EventsArePrettyPrinted("{\"traceEvents\": [\n  ]}"));
}

// Reads every layout of `writer_text` — plain (mapped, and streamed as gzip
// is) and gzip — in chunks of `chunk_bytes` on two threads, fast paths on,
// and compares with the whole document read by the general parser alone.
void ExpectEveryLayoutReadsAlike(const std::string& name, const std::string& writer_text,
                                 size_t chunk_bytes) {
  const Optrace whole =
      ParseOptrace(name, writer_text.data(), writer_text.size(), /*fast_paths=*/false);
  ASSERT_GT(whole.slices.size(), 0u);
  for (JsonLayout layout : testing_support::kAllJsonLayouts) {
    const std::string text = testing_support::Relayout(writer_text, layout, 2);
    for (int form = 0; form < 3; ++form) {  // plain mapped, plain streamed, gzip
      const bool gzip = form == 2;
      SCOPED_TRACE(::testing::Message()
                   << name << " " << JsonLayoutName(layout) << " form " << form);
      ReadOptraceOptions options;
      options.threads = 2;
      options.chunk_bytes = chunk_bytes;
      options.plain_file_read = form == 0 ? ReadOptraceOptions::PlainFileRead::kMapped
                                          : ReadOptraceOptions::PlainFileRead::kStreamed;
      const Optrace streamed =
          ReadOptrace(testing_support::WriteTestFile("layouts_" + name, text, gzip), options);
      EXPECT_GT(streamed.chunks_parsed, 1u);  // streamed, never parsed whole
      testing_support::ExpectSameTrace(streamed, whole);
    }
    // The general parser alone reads every layout alike too.
    testing_support::ExpectSameTrace(
        ParseOptrace(name, text.data(), text.size(), /*fast_paths=*/false), whole);
  }
}

TEST(OptraceLayouts, EveryLayoutPlainAndGzipGivesTheSameResult) {
  ExpectEveryLayoutReadsAlike("synthetic", WriterLayoutTrace(60), 2048);
}

TEST(OptraceLayouts, TinyChunksCutEveryLayoutBetweenEveryEvent) {
  ExpectEveryLayoutReadsAlike("tiny", WriterLayoutTrace(7), 1);
}

// `text` written to a file `name` (gzip-compressed when `gzip`) and read in
// chunks of 2 KB on two threads.
Optrace ReadInSmallChunks(const std::string& name, const std::string& text, bool gzip) {
  ReadOptraceOptions options;
  options.threads = 2;
  options.chunk_bytes = 2048;
  return ReadOptrace(testing_support::WriteTestFile(name, text, gzip), options);
}

TEST(OptraceLayouts, KeysSpelledWithEscapesReadAsTheirLetters) {
  const std::string writer = WriterLayoutTrace(40);
  const Optrace whole = ParseOptrace("plain_keys", writer.data(), writer.size(), false);
  const std::string escaped = testing_support::EscapeFirstLetters(
      writer, {"traceEvents", "name", "ph", "tid", "pid", "ts", "dur", "args", "cat", "id", "ID",
               "opid", "Start Cycle", "Duration (cycles)", "Dominant Path Cycles", "QNN Op Name",
               "Dims", "Inputs Ops"});
  ASSERT_NE(escaped.find(R"("\u0053tart Cycle":)"), std::string::npos);
  ASSERT_EQ(escaped.find(R"("dur":)"), std::string::npos);
  for (bool gzip : {false, true}) {
    SCOPED_TRACE(gzip ? "gzip" : "plain");
    const Optrace streamed = ReadInSmallChunks("escaped_keys", escaped, gzip);
    EXPECT_GT(streamed.chunks_parsed, 1u);
    testing_support::ExpectSameTrace(streamed, whole);
    EXPECT_EQ(streamed.warnings, whole.warnings);
  }
}

TEST(OptraceLayouts, HeaderAfterTheEventsReadsTheSame) {
  const std::string writer = WriterLayoutTrace(40);
  const Optrace whole = ParseOptrace("header_first", writer.data(), writer.size(), false);
  const auto value = nlohmann::ordered_json::parse(writer);
  nlohmann::ordered_json moved;
  moved["traceEvents"] = value["traceEvents"];
  moved["header"] = value["header"];
  for (JsonLayout layout : {JsonLayout::kMinified, JsonLayout::kIndent2}) {
    SCOPED_TRACE(JsonLayoutName(layout));
    const std::string text = layout == JsonLayout::kMinified ? moved.dump() : moved.dump(2);
    const Optrace streamed = ReadInSmallChunks("header_last", text, false);
    EXPECT_GT(streamed.chunks_parsed, 1u);
    testing_support::ExpectSameTrace(streamed, whole);
  }
}

class OptraceLayoutsCorpus : public ::testing::TestWithParam<const char*> {};

TEST_P(OptraceLayoutsCorpus, EveryLayoutPlainAndGzipGivesTheSameResultNeedsCorpus) {
  HTPSCOPE_REQUIRE_CORPUS(GetParam());
  ExpectEveryLayoutReadsAlike(
      GetParam(),
      testing_support::ReadTestFile(testing_support::CorpusFile(GetParam(), "chrometrace.json")),
      4096);
}

INSTANTIATE_TEST_SUITE_P(Corpus, OptraceLayoutsCorpus,
                         ::testing::Values("v8c8_256", "native_256", "gdn_hvx_int16",
                                           "chain8_archive"));

}  // namespace
}  // namespace htpscope::optrace_layouts_test
