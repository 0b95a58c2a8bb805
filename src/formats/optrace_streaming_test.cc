// The streaming, multi-threaded optrace read must give exactly what parsing
// the whole document gives, whatever the chunk size and layout.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <sstream>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "formats/optrace.h"
#include "formats/optrace_parser.h"
#include "formats/optrace_test_util.h"

namespace htpscope::optrace_streaming_test {
namespace {

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `path` read as ReadOptrace streams it, in chunks of about `chunk_bytes` on
// two threads.
Optrace ReadInChunks(const std::string& path, size_t chunk_bytes) {
  ReadOptraceOptions options;
  options.threads = 2;
  options.chunk_bytes = chunk_bytes;
  return ReadOptrace(path, options);
}

// The message of the InputError `read()` throws, or "" when it throws none.
template <typename Read>
std::string ErrorOf(Read read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// The start of a hand-written optrace, up to its first event.
constexpr char kHead[] = "{\"header\": {\"artifact_type\": \"OP_TRACE\"},\n\"traceEvents\": [\n";

// An op event on one line in the optrace writer's layout, which the
// pre-pass reads (MatchOpLine).
std::string WriterOpLine(int pid, int64_t ts, int64_t dur, uint64_t id, int64_t start_cycle) {
  return fmt::format(
      R"j({{ "name": "q::Conv", "ph": "X", "tid": 256, "pid": {}, "ts": {}, "dur": {}, )j"
      R"j("args": {{ "ID": "0x{:016x}","Start Cycle": {},"Dominant Path Cycles": 4}} }})j",
      pid, ts, dur, id, start_cycle);
}

using testing_support::ExpectSameTrace;

class OptraceStreaming : public ::testing::TestWithParam<const char*> {};

TEST_P(OptraceStreaming, SmallChunksOnTwoThreadsEqualTheWholeParse) {
  HTPSCOPE_REQUIRE_CORPUS(GetParam());
  std::string path = testing_support::CorpusFile(GetParam(), "chrometrace.json");
  std::string text = ReadText(path);
  Optrace whole = ParseOptrace(path, text.data(), text.size());
  for (size_t chunk_bytes : {size_t{300}, size_t{4096}, size_t{32} << 10}) {
    Optrace streamed = ReadInChunks(path, chunk_bytes);
    SCOPED_TRACE(chunk_bytes);
    // Streamed (a fallback to the whole parse would give 0).
    EXPECT_GE(streamed.chunks_parsed, chunk_bytes == 300 ? 100u : 2u);
    ExpectSameTrace(streamed, whole);
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, OptraceStreaming,
                         ::testing::Values("v8c8_256", "native_256", "gdn_hvx_int16",
                                           "chain8_archive"));

constexpr char kEvents[] =
    "{\"name\": \"A\", \"ph\": \"X\", \"tid\": 256, \"pid\": 0, \"ts\": 0, \"dur\": 10, \"args\": "
    "{\"ID\": \"0x1\", "
    "\"Start Cycle\": 100, \"Duration (cycles)\": 10, \"Dominant Path Cycles\": 10, \"QNN Op "
    "Name\": \"a\"}},\n"
    "{\"name\": \"B\", \"ph\": \"X\", \"tid\": 512, \"pid\": 0, \"ts\": 5, \"dur\": 20, \"args\": "
    "{\"ID\": \"0x2\", "
    "\"Start Cycle\": 105, \"Duration (cycles)\": 20, \"Dominant Path Cycles\": 15, \"QNN Op "
    "Name\": \"b\"}},\n"
    "{\"name\": \"VTCM alloc\", \"ph\": \"C\", \"tid\":0, \"pid\":0, \"ts\":5, \"args\": {\"\": "
    "64}}\n";

std::string WriteFile(const std::string& name, const std::string& text) {
  std::string path = testing_support::TempDir("stream_" + name) + "/trace.json";
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(OptraceStreamingLayouts, HeaderAfterEventsOneLineAndIndentedGiveTheSameResult) {
  const std::string header =
      "\"header\": {\"version\": {\"major\": 1, \"minor\": 1, \"patch\": 0}, "
      "\"artifact_type\": \"OP_TRACE\"}";
  std::string indented = kEvents;
  for (size_t i = 0; (i = indented.find("\n{", i)) != std::string::npos; i += 3)
    indented.replace(i, 2, "\n  {");
  std::string one_line = kEvents;
  for (char& c : one_line)
    if (c == '\n') c = ' ';
  const std::vector<std::string> layouts = {
      "{" + header + ",\n\"traceEvents\": [\n" + kEvents + "]}",
      "{\"traceEvents\": [\n" + std::string(kEvents) + "],\n" + header + "}\n",
      "{" + header + ", \"traceEvents\": [" + one_line + "]}",
      "{" + header + ",\n\"traceEvents\": [\n  " + indented + "]}",
  };
  for (size_t i = 0; i < layouts.size(); ++i) {
    SCOPED_TRACE(i);
    std::string path = WriteFile(std::to_string(i), layouts[i]);
    Optrace t = ReadInChunks(path, 256);
    ASSERT_EQ(t.slices.size(), 2u);
    // Cut into chunks at element boundaries whatever the line structure.
    EXPECT_GE(t.chunks_parsed, 2u);
    EXPECT_EQ(t.version, "1.1.0");
    EXPECT_EQ(t.origin_cycles, 100);
    EXPECT_EQ(t.slices[1].start_cycles, 105);
    EXPECT_EQ(t.counters.at("VTCM alloc").at(0).ts_cycles, 105);
  }
}

// A mapped trace's chunks are cut by guesses (JsonChunker::set_guess_cuts).
// Where events hold arrays of objects that begin as events do, a guess can
// land inside an event: the chunk cut there is found not whole and the file
// is read again with every byte scanned.  Either way the trace is the whole
// parse's.
TEST(OptraceStreamingLayouts, GuessedCutsInsideEventsAreReadAgainScanned) {
  for (const bool nested : {false, true}) {
    SCOPED_TRACE(nested ? "events holding arrays of objects" : "plain events");
    std::string text = kHead;
    for (int i = 0; i < 2000; ++i) {
      std::string line = WriterOpLine(0, 10 * i, 5, 0x100 + static_cast<uint64_t>(i), 100 + 10 * i);
      if (nested)  // args of its own: { "name": ... },\n{ "name": ... } inside them
        line.insert(line.find("\"ID\""), "\"Parts\": [{ \"name\": \"a\"},\n{ \"name\": 1}],");
      text += line + (i + 1 < 2000 ? ",\n" : "\n");
    }
    text += "]}\n";
    const std::string path = WriteFile(nested ? "guess_nested" : "guess_plain", text);
    ReadOptraceOptions options;
    options.threads = 2;
    options.chunk_bytes = 2048;
    options.plain_file_read = ReadOptraceOptions::PlainFileRead::kMapped;
    Optrace guessed, scanned;
    using optrace_internal::ChunkedRead;
    EXPECT_EQ(optrace_internal::ReadOptraceInChunks(path, options, true, &guessed),
              nested ? ChunkedRead::kGuessFailed : ChunkedRead::kRead);
    ASSERT_EQ(optrace_internal::ReadOptraceInChunks(path, options, false, &scanned),
              ChunkedRead::kRead);
    const Optrace whole = ParseOptrace(path, text.data(), text.size());
    ASSERT_EQ(whole.slices.size(), 2000u);
    ExpectSameTrace(scanned, whole);
    if (!nested) ExpectSameTrace(guessed, whole);
    const Optrace read = ReadOptrace(path, options);
    ExpectSameTrace(read, whole);
    EXPECT_GE(read.chunks_parsed, 20u);  // chunked, not parsed whole
  }
}

TEST(OptraceStreamingLayouts, ErrorsAreTheWholeParsesErrors) {
  std::string bad =
      std::string(kHead) + kEvents +
      ",\n{\"name\": \"C\", \"ph\": \"X\", \"tid\": 256, \"pid\": 0, \"ts\": \"late\", \"dur\": "
      "1}\n]}";
  std::string path = WriteFile("bad", bad);
  const std::string whole_error = ErrorOf([&] { ParseOptrace(path, bad.data(), bad.size()); });
  EXPECT_NE(whole_error.find("traceEvents[3].ts: expected an integer"), std::string::npos)
      << whole_error;
  EXPECT_EQ(ErrorOf([&] { ReadInChunks(path, 256); }), whole_error);
  // The same bytes with the bad value mended (same length) are really cut
  // into chunks, so the error above came from a streamed read.
  std::string mended = bad;
  mended.replace(mended.find("\"late\""), 6, "123456");
  EXPECT_GT(ReadInChunks(WriteFile("mended", mended), 256).chunks_parsed, 1u);
  // A wrong artifact type in a file that streams fine is still refused.
  std::string qhas =
      std::string("{\"header\": {\"artifact_type\": \"QHAS\"},\n\"traceEvents\": [\n") + kEvents +
      "]}";
  EXPECT_THROW(ReadOptrace(WriteFile("type", qhas)), InputError);
}

// A file too big for one chunk whose events sit under another key (here a
// misspelt "traceEvents") streams nothing: it must be refused as the whole
// parse refuses it, not read as an empty trace.
TEST(OptraceStreamingLayouts, NoTraceEventsMemberIsTheWholeParsesError) {
  std::string misspelt = std::string(kHead) + kEvents + "]}";
  misspelt.replace(misspelt.find("\"traceEvents\""), 13, "\"traceEventz\"");
  std::string path = WriteFile("misspelt", misspelt);
  const std::string whole_error =
      ErrorOf([&] { ParseOptrace(path, misspelt.data(), misspelt.size()); });
  EXPECT_NE(whole_error.find("no \"traceEvents\" array"), std::string::npos) << whole_error;
  for (size_t chunk_bytes : {size_t{64}, size_t{256}})
    EXPECT_EQ(ErrorOf([&] { ReadInChunks(path, chunk_bytes); }), whole_error) << chunk_bytes;
}

// Op lines in the writer's layout are read by the pre-pass, before simdjson
// sees the chunk; an event it reads that breaks a rule (a negative
// duration) still gives the whole parse's error.
TEST(OptraceStreamingLayouts, ErrorsInLinesThePrePassReadsAreTheWholeParsesErrors) {
  std::string text = kHead, mended = kHead;  // mended: no negative duration
  for (int i = 0; i < 6; ++i) {
    // Each event, then its copy on pid 1.
    text += WriterOpLine(i % 2, 10 * i, i == 4 ? -5 : 5, 0x100 + i / 2, 1000 + 10 * i);
    mended += WriterOpLine(i % 2, 10 * i, 5, 0x100 + i / 2, 1000 + 10 * i);
    text += i == 5 ? "\n]}" : ",\n";
    mended += i == 5 ? "\n]}" : ",\n";
  }
  std::string path = WriteFile("negative_dur", text);
  const std::string mended_path = WriteFile("negative_dur_mended", mended);
  const std::string whole_error = ErrorOf([&] { ParseOptrace(path, text.data(), text.size()); });
  EXPECT_NE(whole_error.find("traceEvents[4].dur: negative duration -5"), std::string::npos)
      << whole_error;
  for (size_t chunk_bytes : {size_t{64}, size_t{256}, size_t{1} << 20}) {
    SCOPED_TRACE(chunk_bytes);
    EXPECT_EQ(ErrorOf([&] { ReadInChunks(path, chunk_bytes); }), whole_error);
    // Small chunks really cut the file: so the error came from a streamed read.
    if (chunk_bytes < 1024) {
      EXPECT_GT(ReadInChunks(mended_path, chunk_bytes).chunks_parsed, 1u);
    }
  }
}

// An indented trace is minified before its events are matched; two values
// with only white space between them ("dur": 5 0) are no JSON, which
// minified would read as one (50): the whole parse's error, never a number.
TEST(OptraceStreamingLayouts, ValuesJoinedByWhiteSpaceInAnIndentedTraceAreTheWholeParsesError) {
  std::string text = kHead, mended = kHead;
  for (int i = 0; i < 40; ++i) {
    auto event = [&](const char* dur) {
      return fmt::format(
          "  {{\n    \"name\": \"q::Conv\",\n    \"ph\": \"X\",\n    \"tid\": 256,\n    "
          "\"pid\": 0,\n    \"ts\": {},\n    \"dur\": {},\n    \"args\": {{\n      "
          "\"ID\": \"0x{:016x}\"\n    }}\n  }}{}\n",
          10 * i, dur, 0x100 + i, i == 39 ? "" : ",");
    };
    text += event(i == 30 ? "5 0" : "5");
    mended += event(i == 30 ? "500" : "5");
  }
  text += "]}";
  mended += "]}";
  const std::string path = WriteFile("joined_values", text);
  const std::string whole_error = ErrorOf([&] { ParseOptrace(path, text.data(), text.size()); });
  EXPECT_NE(whole_error.find("malformed"), std::string::npos) << whole_error;
  for (size_t chunk_bytes : {size_t{256}, size_t{1024}}) {
    SCOPED_TRACE(chunk_bytes);
    EXPECT_EQ(ErrorOf([&] { ReadInChunks(path, chunk_bytes); }), whole_error);
    EXPECT_GT(ReadInChunks(WriteFile("joined_values_mended", mended), chunk_bytes).chunks_parsed,
              1u);
  }
}

// The origin is voted by the first chunk that settles one and applied to
// the times as chunks are merged; the whole file's vote must still win.
// Three ops put Start Cycle 100 after ts, the seven after them 200: the
// first small chunks vote 100, the file 200.
TEST(OptraceStreamingLayouts, TheWholeFilesOriginWinsOverTheFirstChunksVote) {
  std::string text = kHead;
  for (int i = 0; i < 10; ++i) {
    const int ts = 10 * i, origin = i < 3 ? 100 : 200;
    text += WriterOpLine(0, ts, 5, 0x100 + i, ts + origin);
    text += i == 9 ? "\n]}" : ",\n";
  }
  std::string path = WriteFile("two_origins", text);
  Optrace whole = ParseOptrace(path, text.data(), text.size());
  EXPECT_EQ(whole.origin_cycles, 200);
  for (size_t chunk_bytes : {size_t{64}, size_t{300}, size_t{1} << 20}) {
    SCOPED_TRACE(chunk_bytes);
    Optrace streamed = ReadInChunks(path, chunk_bytes);
    // Small chunks really cut the file (the first ones vote 100); one of
    // 1 MiB holds it all and it is parsed whole.
    if (chunk_bytes < 1024) {
      EXPECT_GT(streamed.chunks_parsed, 1u);
    } else {
      EXPECT_EQ(streamed.chunks_parsed, 0u);
    }
    EXPECT_EQ(streamed.origin_cycles, 200);
    ASSERT_EQ(streamed.slices.size(), 10u);
    EXPECT_EQ(streamed.slices[0].start_cycles, 200);  // ts 0 + 200
    EXPECT_EQ(streamed.slices[9].start_cycles, 290);
    ExpectSameTrace(streamed, whole);
  }
}

TEST(OptraceStreamingLayouts, CorpusTraceGzipStreams) {
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  std::string path = testing_support::CorpusFile("native_256", "chrometrace.json");
  std::string text = ReadText(path);
  std::string gz_path = testing_support::TempDir("stream_gz") + "/t.gz";
  gzFile gz = gzopen(gz_path.c_str(), "wb");
  gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
  gzclose(gz);
  Optrace streamed = ReadInChunks(gz_path, 2048);
  EXPECT_GT(streamed.chunks_parsed, 10u);
  ExpectSameTrace(streamed, ParseOptrace(path, text.data(), text.size()));
}

// Counter and flow lines are taken out of a chunk before simdjson parses the
// rest (TakeFastLines).  Whatever the separators and nesting around them,
// the streamed read must accept exactly what the whole parse accepts, with
// the same events.
TEST(OptraceStreamingLayouts, TakenLinesNeverChangeWhatIsAccepted) {
  const std::string head =
      "{\"header\": {\"version\": {\"major\": 1, \"minor\": 1, \"patch\": 0}, "
      "\"artifact_type\": \"OP_TRACE\"},\n\"traceEvents\": [\n";
  const std::string op =
      R"({ "name": "Conv", "ph": "X", "tid": 256, "pid": 0, "ts": 10, "dur": 5, "args": {"ID": "0x2", "Start Cycle": 1010}})";
  auto counter = [](int ts) {
    return R"({ "name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":)" + std::to_string(ts) +
           R"(, "args": {"": 64}})";
  };
  const std::string flow =
      R"({ "cat": "input_output", "name": "InputOutputFlowEvents", "tid": 1, "pid": 0, "ts": 9, "ph": "s", "id": 7})";
  // Enough lines that every layout spans several 256-byte chunks.
  std::string body;
  for (int i = 0; i < 12; ++i) body += counter(20 + i) + ",\n" + flow + ",\n";
  struct Layout {
    std::string name, text;
    bool valid;
  };
  const std::vector<Layout> layouts = {
      {"counter_last", head + body + op + ",\n" + counter(50) + "\n]}", true},
      {"op_last", head + body + op + "\n]}", true},
      {"missing_comma_before_last", head + body + op + "\n" + counter(50) + "\n]}", false},
      {"missing_comma_between",
       head + body + counter(50) + "\n" + counter(51) + ",\n" + op + "\n]}", false},
      {"trailing_comma", head + body + op + ",\n" + counter(50) + ",\n]}", false},
      // A counter-shaped object on its own line inside another event: it is
      // part of that event's args, not a counter sample.
      {"nested",
       head + body +
           R"({ "name": "Conv", "ph": "X", "tid": 256, "pid": 0, "ts": 10, "dur": 5, "args": {"ID": "0x2", "Start Cycle": 1010, "extra": [)" +
           "\n" + counter(77) + ",\n" + counter(78) + "\n]}},\n" + op + "\n]}",
       true},
  };
  for (const auto& layout : layouts) {
    SCOPED_TRACE(layout.name);
    std::string path = WriteFile("taken_" + layout.name, layout.text);
    if (!layout.valid) {
      EXPECT_THROW(ParseOptrace(path, layout.text.data(), layout.text.size()), InputError);
      EXPECT_THROW(ReadInChunks(path, 256), InputError);
      continue;
    }
    Optrace whole = ParseOptrace(path, layout.text.data(), layout.text.size());
    Optrace streamed = ReadInChunks(path, 256);
    EXPECT_GT(streamed.chunks_parsed, 1u);
    ExpectSameTrace(streamed, whole);
    // The nested objects are no samples: 12 from the body (+1 counter_last).
    EXPECT_EQ(whole.counters.at("VTCM alloc").size(), layout.name == "counter_last" ? 13u : 12u);
    EXPECT_EQ(whole.flows.size(), 12u);
  }
}

// Every op event is written twice, on pid 0 and on its QNN op's process
// (formats §1.3).  The streamed read counts a copy whose line equals its
// pid-0 line but for the pid without parsing it; the counts must be the
// whole parse's, and a source line that is no plain op event must send the
// file to the whole parse.
TEST(OptraceStreamingLayouts, OpEventCopiesCountAsTheWholeParseCounts) {
  const std::string head =
      "{\"header\": {\"version\": {\"major\": 1, \"minor\": 1, \"patch\": 0}, "
      "\"artifact_type\": \"OP_TRACE\"},\n\"traceEvents\": [\n";
  // An op event line on `pid`, with `args` and `extra` members after dur.
  auto op = [](int pid, int tid, const std::string& args, const std::string& extra = "") {
    return R"({ "name": "Conv", "ph": "X", "tid": )" + std::to_string(tid) + R"(, "pid": )" +
           std::to_string(pid) + R"(, "ts": 10, "dur": 5)" + extra + R"(, "args": {"ID": "0x2", )" +
           args + "}}";
  };
  const std::string executed = R"("Start Cycle": 1010)";
  const std::string metadata =
      R"({ "cat": "__metadata", "pid": 7, "ph": "M", "name": "process_name", "args": {"name": "QNN::conv"}})";
  struct Layout {
    std::string name;
    std::vector<std::string> lines;
    uint64_t duplicate_slices;  // by hand: executed copies
  };
  const std::vector<Layout> layouts = {
      {"copies", {op(0, 256, executed), metadata, op(7, 256, executed), op(8, 256, executed)}, 2},
      // tid 1 events are tensors, not executed ops.
      {"tensor_copy", {op(0, 1, executed), op(7, 1, executed)}, 0},
      {"not_executed_copy", {op(0, 256, R"("Rank": 4)"), op(7, 256, R"("Rank": 4)")}, 0},
      // A nested "Start Cycle" does not make the pid-0 event executed, but a
      // copy's text search finds it: both reads must count the copy.
      {"nested_start",
       {op(0, 256, R"("x": {"Start Cycle": 5})"), op(7, 256, R"("x": {"Start Cycle": 5})")},
       1},
      // One byte of args differs: no copy, parsed as any event.
      {"different_args",
       {op(0, 256, executed), op(7, 256, R"("Start Cycle": 1011)"), op(8, 256, executed)},
       2},
      {"copy_first", {op(7, 256, executed), op(0, 256, executed)}, 1},
      // An extra key, or a second pid (which wins over the copy's own), makes
      // the copy read differently from its source: the chunk is parsed again
      // without the pre-pass.
      {"extra_key",
       {op(0, 256, executed, R"(, "cat": "x")"), op(7, 256, executed, R"(, "cat": "x")")},
       1},
      {"second_pid",
       {op(0, 256, executed, R"(, "pid": 0)"), op(7, 256, executed, R"(, "pid": 0)")},
       0},
  };
  for (const auto& layout : layouts) {
    SCOPED_TRACE(layout.name);
    std::string text = head;
    // Repeated so that each layout spans several chunks.
    for (int i = 0; i < 8; ++i)
      for (const auto& line : layout.lines) text += line + ",\n";
    text += R"({ "name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":3, "args": {"": 64}})";
    text += "\n]}";
    std::string path = WriteFile("copies_" + layout.name, text);
    Optrace whole = ParseOptrace(path, text.data(), text.size());
    EXPECT_EQ(whole.duplicate_slices, 8 * layout.duplicate_slices);
    for (size_t chunk_bytes : {size_t{256}, size_t{1} << 20}) {
      SCOPED_TRACE(chunk_bytes);
      Optrace streamed = ReadInChunks(path, chunk_bytes);
      ExpectSameTrace(streamed, whole);
      // Streamed whatever the copies look like (a copy the pre-pass cannot
      // vouch for is left to the general parser); a file smaller than one
      // chunk is parsed whole.
      if (chunk_bytes == 256) {
        EXPECT_GT(streamed.chunks_parsed, 1u);
      } else {
        EXPECT_EQ(streamed.chunks_parsed, 0u);
      }
    }
  }
}

// Lines the pre-pass takes and lines it leaves to simdjson, interleaved:
// the flows and the samples of a track (two share a ts) keep file order.
TEST(OptraceStreamingLayouts, TakenAndKeptLinesKeepFileOrder) {
  const std::string head =
      "{\"header\": {\"version\": {\"major\": 1, \"minor\": 1, \"patch\": 0}, "
      "\"artifact_type\": \"OP_TRACE\"},\n\"traceEvents\": [\n";
  auto flow = [](int id, bool writer_layout) {
    return writer_layout
               ? R"({ "cat": "io", "name": "F", "tid": 1, "pid": 0, "ts": 9, "ph": "s", "id": )" +
                     std::to_string(id) + "}"
               : R"({ "ph": "s", "cat": "io", "name": "F", "tid": 1, "pid": 0, "ts": 9, "id": )" +
                     std::to_string(id) + "}";
  };
  auto counter = [](int value, bool writer_layout) {
    return writer_layout
               ? R"({ "name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":5, "args": {"": )" +
                     std::to_string(value) + "}}"
               : R"({ "ph": "C", "name": "VTCM alloc", "tid":0, "pid":0, "ts":5, "args": {"": )" +
                     std::to_string(value) + "}}";
  };
  std::string text = head;
  for (int i = 0; i < 40; ++i) {
    const bool writer_layout = i % 3 != 1;  // every third line is left to simdjson
    text += flow(i, writer_layout) + ",\n" + counter(i, writer_layout) + ",\n";
  }
  text += flow(40, false) + "\n]}";
  std::string path = WriteFile("order", text);
  Optrace whole = ParseOptrace(path, text.data(), text.size());
  ASSERT_EQ(whole.flows.size(), 41u);
  for (uint64_t i = 0; i < whole.flows.size(); ++i) EXPECT_EQ(whole.flows[i].flow_id, i);
  const auto& track = whole.counters.at("VTCM alloc");
  ASSERT_EQ(track.size(), 40u);
  for (int64_t i = 0; i < 40; ++i) EXPECT_EQ(track[static_cast<size_t>(i)].value, i);
  for (size_t chunk_bytes : {size_t{256}, size_t{4096}}) {
    SCOPED_TRACE(chunk_bytes);
    Optrace streamed = ReadInChunks(path, chunk_bytes);
    EXPECT_GT(streamed.chunks_parsed, 1u);
    ExpectSameTrace(streamed, whole);
  }
}

}  // namespace
}  // namespace htpscope::optrace_streaming_test
