#include "formats/optrace.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <set>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "formats/optrace_fuzz_compare.h"
#include "formats/optrace_test_util.h"

namespace htpscope::optrace_test {
namespace {

using testing_support::CorpusFile;

TEST(OptraceCorpus, V8c8DeduplicatesAndRecoversOrigin) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  Optrace t = ReadOptrace(CorpusFile("v8c8_256", "chrometrace.json"));
  EXPECT_EQ(t.version, "1.1.0");
  EXPECT_EQ(t.events_read, 684u);
  EXPECT_EQ(t.slices.size(), 53u);
  EXPECT_EQ(t.duplicate_slices, 53u);
  EXPECT_EQ(t.non_executed.size(), 20u);
  EXPECT_EQ(t.flows.size(), 184u);
  EXPECT_TRUE(t.origin_known);
  EXPECT_EQ(t.origin_cycles, 1668827862822);
  ASSERT_EQ(t.counters.count("VTCM alloc"), 1u);
  EXPECT_EQ(t.counters.at("VTCM alloc").size(), 50u);
  int64_t peak = 0;
  for (const auto& c : t.counters.at("VTCM alloc")) peak = std::max(peak, c.value);
  EXPECT_EQ(peak, 919552);
  EXPECT_EQ(t.counters.at("DRAM read").size(), 68u);
  // First event of the file: the Input slice DMA.
  ASSERT_EQ(t.slice_args.size(), t.slices.size());
  const OpSlice& s = t.slices.front();
  const OpSliceArgs& a = t.slice_args.front();
  EXPECT_EQ(s.op_id, 0x0000104900000002u);
  EXPECT_EQ(s.qnn_op_id(), 2u);
  EXPECT_EQ(s.start_cycles, 1668827862868);
  EXPECT_EQ(s.dur_cycles, 3030);
  EXPECT_EQ(a.op_duration_cycles, 3030);
  EXPECT_EQ(a.dpc_cycles, 3030);
  EXPECT_EQ(s.tid, 256u);
  EXPECT_EQ(s.flags, kFlagDma);
  EXPECT_EQ(t.Str(a.htp_op_type), "q::*InputSlice");
  EXPECT_EQ(t.Str(a.qnn_op_name), "Input");
  EXPECT_EQ(a.inputs_count, 6u);
  ASSERT_EQ(a.dims_count, 4u);
  EXPECT_EQ(t.dims[a.dims_begin + 3], 256);
  EXPECT_DOUBLE_EQ(a.cycles_per_packet, 58.2692);
  EXPECT_EQ(t.ThreadName(0, 256), "Type: HMX");
  EXPECT_EQ(t.ThreadName(2, 256), "Core:0 Type: HMX Tid: 256");
  EXPECT_EQ(t.ThreadName(2, 999), "");
  ASSERT_NE(t.FindProcess(0), nullptr);
  EXPECT_EQ(t.Str(t.FindProcess(0)->name), "Core 0 Overview");
  const TraceProcess* p3 = t.FindProcess(3);
  ASSERT_NE(p3, nullptr);
  EXPECT_EQ(t.Str(p3->name), "QNN::$Const_11");
  EXPECT_TRUE(p3->has_op_id);
  EXPECT_EQ(p3->qnn_op_id, 0x11u);
  EXPECT_TRUE(p3->has_sort_index);  // a separate process_sort_index event, folded in
  EXPECT_EQ(p3->sort_index, 17);
  EXPECT_EQ(t.FindProcess(100000), nullptr);
  for (size_t i = 1; i < t.processes.size(); ++i)
    EXPECT_LT(t.processes[i - 1].pid, t.processes[i].pid);
  EXPECT_TRUE(t.warnings.empty());
}

TEST(OptraceCorpus, GdnKeepsEverySliceOfMultiThreadedOps) {
  HTPSCOPE_REQUIRE_CORPUS("gdn_hvx_int16");
  Optrace t = ReadOptrace(CorpusFile("gdn_hvx_int16", "chrometrace.json"));
  EXPECT_EQ(t.slices.size(), 44u);
  EXPECT_EQ(t.origin_cycles, 8026796209898);
  std::vector<int64_t> durs;
  std::set<uint32_t> tids;
  for (size_t i = 0; i < t.slices.size(); ++i) {
    const OpSlice& s = t.slices[i];
    if (s.op_id != 0x0000101a00000010u) continue;
    durs.push_back(s.dur_cycles);
    tids.insert(s.tid);
    EXPECT_EQ(t.slice_args[i].op_start_cycles, 8026796958801);  // op-level args repeat on
    EXPECT_EQ(t.slice_args[i].op_duration_cycles, 1010387);     // every slice
  }
  std::sort(durs.begin(), durs.end());
  EXPECT_EQ(durs, (std::vector<int64_t>{613430, 623108, 723563, 746569, 1010387, 1447776}));
  EXPECT_EQ(tids, (std::set<uint32_t>{512, 513, 514, 515}));
}

// Unsorted events, metadata after the events it names, a per-op duplicate,
// a two-slice HVX op, a tid-1 tensor, a counter and a flow pair.
constexpr char kHandBuilt[] = R"json({"traceEvents": [
{"name": "Conv", "ph": "X", "tid": 512, "pid": 0, "ts": 320, "dur": 50, "args": {"ID": "0x0000000200000007", "Start Cycle": 1300, "Duration (cycles)": 80, "Dominant Path Cycles": 40, "QNN Op Name": "conv", "Flags": ["uses_hvx"]}},
{"name": "Conv", "ph": "X", "tid": 513, "pid": 0, "ts": 300, "dur": 80, "args": {"ID": "0x0000000200000007", "Start Cycle": 1300, "Duration (cycles)": 80, "Dominant Path Cycles": 40, "QNN Op Name": "conv", "Flags": ["uses_hvx"]}},
{"name": "In", "ph": "X", "tid": 256, "pid": 0, "ts": 100, "dur": 20, "args": {"ID": "0x0000000100000002", "Start Cycle": 1100, "Duration (cycles)": 20, "Dominant Path Cycles": 20, "QNN Op Name": "Input", "Flags": ["dma"], "Inputs Ops": ["0x5", "0x0000000000000006"]}},
{"name": "In", "ph": "X", "tid": 256, "pid": 4, "ts": 100, "dur": 20, "args": {"ID": "0x0000000100000002", "Start Cycle": 1100, "Duration (cycles)": 20, "Dominant Path Cycles": 20, "QNN Op Name": "Input", "Flags": ["dma"]}},
{"name": "$Const", "ph": "X", "tid": 1, "pid": 0, "ts": 95, "dur": 5, "args": {"ID": "0x0000000000000005"}},
{"name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":300, "args": {"": 4096}},
{"name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":100, "args": {"": 1024}},
{"cat": "input_output", "name": "InputOutputFlowEvents", "tid": 256, "pid": 0, "ts": 120, "ph": "s", "id": 0},
{"cat": "input_output", "name": "InputOutputFlowEvents", "tid": 512, "pid": 0, "ts": 300, "ph": "f", "pb": "e", "id": 0},
{"cat": "__metadata", "pid": 4, "ph": "M", "name": "process_name", "args": {"name": "QNN::Input", "opid": "0x0000000000000002"}},
{"cat": "__metadata", "pid": 0, "tid": 512, "ph": "M", "name": "thread_name", "args": {"name": "Type: HVX"}}
],
"header": {"version": {"major": 1, "minor": 1, "patch": 0}, "artifact_type": "OP_TRACE"}})json";

TEST(OptraceParse, HandBuiltTraceGivesAbsoluteCyclesAndDropsDuplicates) {
  Optrace t = ParseOptrace("hand.json", kHandBuilt, sizeof(kHandBuilt) - 1);
  ASSERT_EQ(t.slices.size(), 3u);
  EXPECT_EQ(t.duplicate_slices, 1u);
  // Two of three slices say Start Cycle - ts = 1000; the second slice of the
  // multi-slice op (ts 320, Start Cycle 1300 repeated) says 980.
  EXPECT_EQ(t.origin_cycles, 1000);
  EXPECT_EQ(t.slices[0].start_cycles, 1320);
  EXPECT_EQ(t.slices[0].dur_cycles, 50);
  EXPECT_EQ(t.slices[2].start_cycles, 1100);
  EXPECT_EQ(t.slice_args[2].inputs_count, 2u);
  EXPECT_EQ(t.input_ids[t.slice_args[2].inputs_begin], 5u);
  ASSERT_EQ(t.non_executed.size(), 1u);
  EXPECT_EQ(t.non_executed[0].id, 5u);
  const auto& vtcm = t.counters.at("VTCM alloc");
  ASSERT_EQ(vtcm.size(), 2u);
  EXPECT_EQ(vtcm[0].ts_cycles, 1100);  // sorted by time, made absolute
  EXPECT_EQ(vtcm[1].value, 4096);
  ASSERT_EQ(t.flows.size(), 2u);
  EXPECT_EQ(t.flows[1].ts_cycles, 1300);
  ASSERT_NE(t.FindProcess(4), nullptr);
  EXPECT_EQ(t.Str(t.FindProcess(4)->name), "QNN::Input");
  EXPECT_EQ(t.ThreadName(0, 512), "Type: HVX");
  // 1 pid-0 duplicate-able slice vs 3 kept: reported, not hidden.
  ASSERT_EQ(t.warnings.size(), 1u);
}

std::string ErrorOf(std::string_view json) {
  try {
    ParseOptrace("bad.json", json.data(), json.size());
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(OptraceErrors, NameFileOffsetAndWhatWasExpected) {
  std::string truncated(kHandBuilt, 600);
  std::string message = ErrorOf(truncated);
  EXPECT_NE(message.find("bad.json: at byte "), std::string::npos) << message;

  std::string wrong_type = R"json({"header": {"artifact_type": "OP_TRACE"}, "traceEvents": [
{"name": "a", "ph": "X", "tid": 256, "pid": 0, "ts": 1, "dur": 2, "args": {"Start Cycle": 5}},
{"name": "b", "ph": "X", "tid": 256, "pid": 0, "ts": "7", "dur": 2, "args": {}}]})json";
  message = ErrorOf(wrong_type);
  EXPECT_NE(message.find("traceEvents[1].ts: expected an integer"), std::string::npos) << message;

  message = ErrorOf(R"json({"header": {"artifact_type": "QHAS"}, "traceEvents": []})json");
  EXPECT_NE(message.find("expected \"OP_TRACE\""), std::string::npos) << message;

  message = ErrorOf(R"json({"header": {"artifact_type": "OP_TRACE"}, "traceEvents": [
{"name": "a", "ph": "X", "tid": 256, "pid": 0, "ts": 10, "dur": -4, "args": {"Start Cycle": 5}}]})json");
  EXPECT_NE(message.find("negative duration -4"), std::string::npos) << message;

  message = ErrorOf(R"json({"header": {"artifact_type": "OP_TRACE"}, "traceEvents": [
{"name": "a", "ph": "X", "tid": 256, "pid": 0, "ts": 10, "dur": 99999999999999999999, "args": {}}]})json");
  EXPECT_NE(message.find("traceEvents[0].dur"), std::string::npos) << message;

  message = ErrorOf(R"json({"header": {"artifact_type": "OP_TRACE"}, "traceEvents": [
{"name": "a", "ph": "X", "tid": 256, "pid": 0, "ts": 10, "dur": 3, "args": {"ID": "0xZZ"}}]})json");
  EXPECT_NE(message.find("is not a hex id"), std::string::npos) << message;

  message =
      ErrorOf(R"json({"header": {"artifact_type": "OP_TRACE"}, "traceEvents": []} trailing)json");
  EXPECT_NE(message.find("bad.json: at byte"), std::string::npos) << message;

  EXPECT_NE(ErrorOf("").find("bad.json"), std::string::npos);
}

TEST(OptraceGzip, ReadsCompressedFileRecognisedByContent) {
  std::string dir = testing_support::TempDir("optrace_gz");
  std::string path = dir + "/trace.bin";  // no .gz suffix: recognised by magic bytes
  gzFile gz = gzopen(path.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  gzwrite(gz, kHandBuilt, sizeof(kHandBuilt) - 1);
  gzclose(gz);
  Optrace t = ReadOptrace(path);
  EXPECT_EQ(t.slices.size(), 3u);
  EXPECT_EQ(t.origin_cycles, 1000);
}

}  // namespace
}  // namespace htpscope::optrace_test

namespace htpscope::optrace_test {
namespace {

// The start of an optrace, up to its first event.
const std::string kOptraceHead =
    R"({"header": {"version": {"major": 1, "minor": 1, "patch": 0}, "artifact_type": "OP_TRACE"},
"traceEvents": [
)";

// Counter and flow lines in the writer's exact layout take a fast path
// (optrace_line_matcher.h); the same events in any other layout take the
// general parser.  Both must give the same trace.
TEST(OptraceFastPath, WriterLayoutAndOtherLayoutsGiveTheSameEvents) {
  const std::string op =
      R"({ "name": "Conv", "ph": "X", "tid": 256, "pid": 0, "ts": 10, "dur": 5, "args": {"ID": "0x2", "Start Cycle": 1010}})";
  const std::string writer =
      R"({"header": {"version": {"major": 1, "minor": 1, "patch": 0}, "header_version": {"major": 1, "minor": 0, "patch": 0}, "artifact_type": "OP_TRACE"},
"traceEvents": [
)" + op +
      R"(,
{ "name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":12, "args": {"": 4096}},
{ "name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":11, "args": {"": 2048}},
{ "cat": "input_output", "name": "InputOutputFlowEvents", "tid": 1, "pid": 0, "ts": 9, "ph": "s", "id": 7},
{ "cat": "sequencer", "name": "InputOutputFlowEvents", "tid": 256, "pid": 0, "ts": 10, "ph": "f", "pb": "e", "id": 7}
]}
)";
  std::string other = writer;
  auto replace = [&](const std::string& from, const std::string& to) {
    auto at = other.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    other.replace(at, from.size(), to);
  };
  replace(R"("tid":0, "pid":0, "ts":12)", R"("pid":0, "tid":0, "ts":12)");
  replace(R"("args": {"": 2048})", R"("args": {"": 2.048e3})");
  replace(R"("ts": 9, "ph": "s")", R"("ph": "s", "ts": 9)");
  replace(R"("ts": 10, "ph": "f", "pb": "e")", R"("ts":10, "ph": "f", "pb": "e")");
  for (const std::string* text : {&writer, const_cast<const std::string*>(&other)}) {
    Optrace t = ParseOptrace("t.json", text->data(), text->size());
    EXPECT_EQ(t.events_read, 5u);
    ASSERT_EQ(t.counters.count("VTCM alloc"), 1u);
    const auto& vtcm = t.counters.at("VTCM alloc");
    ASSERT_EQ(vtcm.size(), 2u);  // sorted by time, made absolute (origin 1000)
    EXPECT_EQ(vtcm[0].ts_cycles, 1011);
    EXPECT_EQ(vtcm[0].value, 2048);
    EXPECT_EQ(vtcm[1].ts_cycles, 1012);
    EXPECT_EQ(vtcm[1].value, 4096);
    ASSERT_EQ(t.flows.size(), 2u);
    EXPECT_TRUE(t.flows[0].is_start);
    EXPECT_EQ(t.flows[0].flow_id, 7u);
    EXPECT_EQ(t.flows[0].ts_cycles, 1009);
    EXPECT_EQ(t.flows[0].tid, 1u);
    EXPECT_EQ(t.Str(t.flows[0].category), "input_output");
    EXPECT_FALSE(t.flows[1].is_start);
    EXPECT_EQ(t.flows[1].tid, 256u);
    EXPECT_EQ(t.Str(t.flows[1].category), "sequencer");
  }
}

// A flow line in the writer's layout with a pid out of range is reported by
// the general parser, with the event's index.
TEST(OptraceFastPath, OutOfRangeFlowIsStillAnError) {
  const std::string text =
      R"({"header": {"version": {"major": 1, "minor": 1, "patch": 0}, "header_version": {"major": 1, "minor": 0, "patch": 0}, "artifact_type": "OP_TRACE"},
"traceEvents": [
{ "cat": "input_output", "name": "InputOutputFlowEvents", "tid": 1, "pid": -4, "ts": 9, "ph": "s", "id": 7}
]}
)";
  try {
    ParseOptrace("t.json", text.data(), text.size());
    FAIL() << "accepted a negative pid";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("traceEvents[0].pid"), std::string::npos) << e.what();
  }
}

TEST(Optrace, AnEventThatIsNoObjectIsNamedWithItsIndex) {
  const std::string text = kOptraceHead +
                           R"({ "name": "Conv", "ph": "X", "tid": 256, "pid": 0, "ts": 1, "dur": 5},
[1])" + "\n]}";
  try {
    ParseOptrace("t.json", text.data(), text.size());
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("traceEvents[1]: expected an object (wrong JSON type)"),
              std::string::npos)
        << e.what();
  }
}

TEST(Optrace, TimesBeyondEighteenDigitsAreAnError) {
  // Origins (Start Cycle - ts) and slice ends (ts + dur) must fit in int64.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({ "name": "Conv", "ph": "X", "tid": 256, "pid": 0, "ts": 9000000000000000000, "dur": 5, "args": {"Start Cycle": 1}})",
       "traceEvents[0].ts"},
      {R"({ "name": "Conv", "ph": "X", "tid": 256, "pid": 0, "ts": 1, "dur": 1000000000000000000, "args": {"Start Cycle": 1}})",
       "traceEvents[0].dur"},
      {R"({ "name": "Conv", "ph": "X", "tid": 256, "pid": 0, "ts": 1, "dur": 5, "args": {"Start Cycle": -9000000000000000000}})",
       "traceEvents[0].args.\"Start Cycle\""},
      {R"({ "name": "VTCM alloc", "ph": "C", "tid": 0, "pid": 0, "ts": -1000000000000000000, "args": {"": 1}})",
       "traceEvents[0].ts"},
  };
  for (const auto& [event, where] : cases) {
    SCOPED_TRACE(event);
    const std::string text = kOptraceHead + event + "\n]}";
    try {
      ParseOptrace("t.json", text.data(), text.size());
      FAIL() << "accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(where + ": out of range"), std::string::npos)
          << e.what();
    }
  }
  // 18 digits are still read.
  const std::string ok =
      kOptraceHead +
      R"({ "name": "Conv", "ph": "X", "tid": 256, "pid": 0, "ts": -999999999999999999, "dur": 5, "args": {"Start Cycle": 999999999999999999}})" +
      "\n]}";
  Optrace t = ParseOptrace("t.json", ok.data(), ok.size());
  ASSERT_EQ(t.slices.size(), 1u);
  EXPECT_EQ(t.origin_cycles, 1999999999999999998);
  EXPECT_EQ(t.slices[0].start_cycles, 999999999999999999);
}

// Op events on pid 0 in the writer's layout are read by a line matcher;
// every variant must give what the general path gives for the same event
// written as `{"name"...` (a layout no matcher takes), error or events.
TEST(OptraceFastPath, OpLinesReadAsTheGeneralPathReadsThem) {
  const std::string writer =
      R"x({ "name": "q::Conv", "ph": "X", "tid": 256, "pid": 0, "ts": 10, "dur": 5, "args": { "ID": "0x0000101200000002","HTP Op Type": "q::Conv","Description": "Conv2d with strides=(1,1), it's fine","Dims": [1,8,32,256],"Data Type": "QUInt8","Rank": 4,"Step Size": 0.00787402,"Zero Offset": 128,"Inputs Ops": ["0x0000100359320003","0x10"],"Flags": ["dma","uses_hmx"],"Cycles per Packet": 19.5661,"QNN Op Type": "Conv2d","QNN Op Name": "conv_0","Start Cycle": 1010,"Duration (cycles)": 6,"Dominant Path Cycles": 4} })x";
  auto with = [&](const std::string& from, const std::string& to) {
    std::string line = writer;
    const size_t at = line.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) line.replace(at, from.size(), to);
    return line;
  };
  const std::vector<std::pair<std::string, std::string>> variants = {
      {"writer", writer},
      {"escape", with("it's fine", R"(it\"s \u00e9)")},
      {"utf8_name", with("q::Conv\", \"ph\"", "q::Conv\xc3\xa9\", \"ph\"")},
      {"unknown_key", with(R"("Rank": 4,)", R"("Rank": 4,"Foo": [1, {"a": 2}],)")},
      {"exponent", with("0.00787402", "7.87402e-3")},
      {"integer_double", with("19.5661", "19")},
      {"negative_zero", with("0.00787402", "-0.0")},
      {"exponent_cpp", with("19.5661", "1.95661e1")},
      {"negative_zero_cpp", with("19.5661", "-0.0")},
      {"huge_double", with("19.5661", "1e999")},
      {"rank_fraction", with(R"("Rank": 4)", R"("Rank": 4.0)")},
      {"negative_dim", with("[1,8,32,256]", "[1,-8]")},
      {"big_dim", with("[1,8,32,256]", "[2147483648]")},
      {"empty_lists", with(R"("Dims": [1,8,32,256])", R"("Dims": [],"Flags": [])")},
      {"twice_dims", with(R"("Data Type")", R"("Dims": [7],"Data Type")")},
      {"bad_input", with("\"0x10\"", "\"zz\"")},
      {"bad_id", with("0x0000101200000002", "nothex")},
      {"negative_dur", with(R"("dur": 5)", R"("dur": -5)")},
      {"nineteen_digits", with("1010", "1000000000000000000")},
      {"tensor", with(R"("tid": 256)", R"("tid": 1)")},
      {"not_executed", with(R"(,"Start Cycle": 1010)", "")},
      {"spacing", with(R"("Rank": 4)", R"("Rank" : 4)")},
      {"leading_zero", with(R"("Zero Offset": 128)", R"("Zero Offset": 0128)")},
      // Copies on a per-QNN-op process: only whether they are executed counts.
      {"copy", with(R"("pid": 0)", R"("pid": 5)")},
      {"copy_not_executed",
       with(R"("pid": 0)", R"("pid": 5)")
           .replace(with(R"("pid": 0)", R"("pid": 5)").find(R"(,"Start Cycle")"), 19, "")},
      {"copy_bad_id",
       with(R"("pid": 0)", R"("pid": 5)")
           .replace(with(R"("pid": 0)", R"("pid": 5)").find("0x00001012"), 10, "nothex!!!!")},
      {"copy_negative_dur",
       with(R"("pid": 0, "ts": 10, "dur": 5)", R"("pid": 5, "ts": 10, "dur": -5)")},
      {"copy_pid_too_big", with(R"("pid": 0)", R"("pid": 4294967296)")},
      {"negative_pid", with(R"("pid": 0)", R"("pid": -1)")},
  };
  for (const auto& [name, line] : variants) {
    SCOPED_TRACE(name);
    const std::string matched = kOptraceHead + line + "\n]}";
    std::optional<Optrace> a, b;
    try {
      a = ParseOptrace("m.json", matched.data(), matched.size());
    } catch (const InputError&) {
    }
    try {
      b = ParseOptrace("g.json", matched.data(), matched.size(), /*fast_paths=*/false);
    } catch (const InputError&) {
    }
    ASSERT_EQ(a.has_value(), b.has_value());
    if (!a) continue;
    EXPECT_EQ(a->non_executed.size(), b->non_executed.size());
    EXPECT_EQ(a->duplicate_slices, b->duplicate_slices);
    EXPECT_EQ(a->warnings, b->warnings);
    testing_support::ExpectSameSlices(*a, *b);
  }
  // Args read but not kept are still checked, on either path.
  for (const auto& [from, to] : {std::pair{"0.00787402", "\"small\""}, std::pair{"128", "1.5"},
                                 std::pair{"\"Rank\": 4", "\"Rank\": [4]"}}) {
    SCOPED_TRACE(to);
    const std::string bad = kOptraceHead + with(from, to) + "\n]}";
    EXPECT_THROW(ParseOptrace("m.json", bad.data(), bad.size()), InputError);
    EXPECT_THROW(ParseOptrace("g.json", bad.data(), bad.size(), /*fast_paths=*/false), InputError);
  }
  // The writer line's values, by hand.
  const std::string text = kOptraceHead + writer + "\n]}";
  Optrace t = ParseOptrace("t.json", text.data(), text.size());
  ASSERT_EQ(t.slices.size(), 1u);
  const OpSlice& s = t.slices[0];
  EXPECT_EQ(s.op_id, 0x0000101200000002u);
  EXPECT_EQ(s.start_cycles, 1010);  // origin 1000
  EXPECT_EQ(s.dur_cycles, 5);
  EXPECT_EQ(s.flags, kFlagDma | kFlagUsesHmx);
  const OpSliceArgs& a = t.slice_args[0];
  EXPECT_EQ(a.op_duration_cycles, 6);
  EXPECT_EQ(a.dpc_cycles, 4);
  EXPECT_EQ(a.cycles_per_packet, 19.5661);
  EXPECT_EQ(t.Str(a.description), "Conv2d with strides=(1,1), it's fine");
  EXPECT_EQ(t.Str(a.qnn_op_name), "conv_0");
  ASSERT_EQ(a.dims_count, 4u);
  EXPECT_EQ(t.dims[a.dims_begin + 3], 256);
  ASSERT_EQ(a.inputs_count, 2u);
  EXPECT_EQ(t.input_ids[a.inputs_begin + 1], 0x10u);
}

// Metadata is folded into one process per pid and one thread per (pid,
// tid), ordered by them, a later event's fields winning; dense pids are
// sorted by counting, a sparse one sends them to a merge sort.
TEST(OptraceMetadata, FoldsByPidAndTidWithLaterEventsWinning) {
  const std::string events[] = {
      R"({"name": "thread_name", "ph": "M", "pid": 5, "tid": 512, "args": {"name": "a"}})",
      R"({"name": "thread_name", "ph": "M", "pid": 2, "tid": 256, "args": {"name": "b"}})",
      R"({"name": "thread_name", "ph": "M", "pid": 5, "tid": 256, "args": {"name": "c"}})",
      R"({"name": "thread_name", "ph": "M", "pid": 5, "tid": 512, "args": {"name": "d"}})",
      R"({"name": "process_name", "ph": "M", "pid": 4000000000, "args": {"name": "far"}})",
      R"({"name": "process_name", "ph": "M", "pid": 3, "args": {"name": "near"}})",
      R"({"name": "process_sort_index", "ph": "M", "pid": 4000000000, "args": {"sort_index": 2}})",
      R"({"name": "process_name", "ph": "M", "pid": 3, "args": {"name": "nearer"}})",
  };
  std::string text = kOptraceHead;
  for (size_t i = 0; i < std::size(events); ++i)
    text += events[i] + (i + 1 < std::size(events) ? ",\n" : "\n");
  text += "]}";
  Optrace t = ParseOptrace("m.json", text.data(), text.size());
  ASSERT_EQ(t.threads.size(), 3u);
  EXPECT_EQ(t.threads[0].pid, 2u);
  EXPECT_EQ(t.Str(t.threads[0].name), "b");
  EXPECT_EQ(t.threads[1].pid, 5u);
  EXPECT_EQ(t.threads[1].tid, 256u);
  EXPECT_EQ(t.Str(t.threads[1].name), "c");
  EXPECT_EQ(t.threads[2].tid, 512u);
  EXPECT_EQ(t.Str(t.threads[2].name), "d");
  // With the sparse pid the processes take the merge sort; with pid 7 in
  // its place, the counting sort.
  std::string dense = text;
  for (size_t at; (at = dense.find("4000000000")) != std::string::npos;) dense.replace(at, 10, "7");
  for (const auto& [trace_text, far_pid] : {std::pair{text, 4000000000u}, std::pair{dense, 7u}}) {
    SCOPED_TRACE(far_pid);
    Optrace m = ParseOptrace("m.json", trace_text.data(), trace_text.size());
    ASSERT_EQ(m.processes.size(), 2u);
    EXPECT_EQ(m.processes[0].pid, 3u);
    EXPECT_EQ(m.Str(m.processes[0].name), "nearer");
    EXPECT_EQ(m.processes[1].pid, far_pid);
    EXPECT_EQ(m.Str(m.processes[1].name), "far");
    EXPECT_EQ(m.processes[1].sort_index, 2);
  }
}

// Metadata lines in the writer's layout (optrace_line_matcher.h) give the
// processes and threads the general parser gives, errors included.
TEST(OptraceFastPath, MetadataLinesReadAsTheGeneralPathReadsThem) {
  const std::string op =
      R"({ "name": "Conv", "ph": "X", "tid": 256, "pid": 0, "ts": 10, "dur": 5, "args": {"ID": "0x2", "Start Cycle": 1010}})";
  const std::string lines[] = {
      R"({ "cat": "__metadata", "pid": 0, "ph": "M", "name": "process_name", "args": {"name": "Core 0 Overview"}})",
      R"({ "cat": "__metadata", "pid": 0, "tid": 256, "ph": "M", "name": "thread_name", "args": {"name": "Type: HMX"}})",
      R"({ "cat": "__metadata", "pid": 9, "ph": "M", "name": "process_name", "args": {"name": "QNN::conv_1", "opid": "0x0000000000000022"}})",
      R"({ "cat": "__metadata", "pid": 9, "ph": "M", "name": "process_sort_index", "args": {"sort_index": 33}})",
      R"({ "cat": "__metadata", "pid": 9, "tid": 512, "ph": "M", "name": "thread_name", "args": {"name": "Core:0 Type: HVX Tid: 512"}})",
      R"({ "cat": "__metadata", "pid": 9, "ph": "M", "name": "process_sort_index", "args": {"sort_index": 34}})",
      R"({ "cat": "__metadata", "pid": 7, "ph": "M", "name": "process_name", "args": {"name": "QNN::bad", "opid": "zz"}})",
      R"({ "cat": "__metadata", "pid": 7, "ph": "M", "name": "process_labels", "args": {"name": "ignored"}})",
      R"({ "cat": "__metadata", "pid": 7, "ph": "M", "name": "process_sort_index", "args": {"name": "no index"}})",
  };
  auto trace_of = [&](const std::vector<std::string>& events) {
    std::string text = kOptraceHead;
    for (size_t i = 0; i < events.size(); ++i)
      text += events[i] + (i + 1 < events.size() ? ",\n" : "\n");
    return text + "]}";
  };
  std::vector<std::string> events(std::begin(lines), std::end(lines));
  events.insert(events.begin() + 2, op);
  const std::string matched = trace_of(events);
  for (bool fast_paths : {true, false}) {
    Optrace t = ParseOptrace("t.json", matched.data(), matched.size(), fast_paths);
    EXPECT_EQ(t.events_read, 10u);
    ASSERT_EQ(t.processes.size(), 3u);  // by pid, later events winning
    EXPECT_EQ(t.processes[0].pid, 0u);
    EXPECT_EQ(t.Str(t.processes[0].name), "Core 0 Overview");
    EXPECT_FALSE(t.processes[0].has_op_id);
    EXPECT_EQ(t.processes[1].pid, 7u);
    EXPECT_EQ(t.Str(t.processes[1].name), "QNN::bad");
    EXPECT_FALSE(t.processes[1].has_op_id);
    EXPECT_FALSE(t.processes[1].has_sort_index);
    EXPECT_EQ(t.processes[2].pid, 9u);
    EXPECT_EQ(t.Str(t.processes[2].name), "QNN::conv_1");
    EXPECT_TRUE(t.processes[2].has_op_id);
    EXPECT_EQ(t.processes[2].qnn_op_id, 0x22u);
    EXPECT_EQ(t.processes[2].sort_index, 34);
    ASSERT_EQ(t.threads.size(), 2u);
    EXPECT_EQ(t.threads[0].pid, 0u);
    EXPECT_EQ(t.threads[0].tid, 256u);
    EXPECT_EQ(t.Str(t.threads[0].name), "Type: HMX");
    EXPECT_EQ(t.threads[1].pid, 9u);
    EXPECT_EQ(t.threads[1].tid, 512u);
    EXPECT_EQ(t.Str(t.threads[1].name), "Core:0 Type: HVX Tid: 512");
  }
  // Lines the general path refuses are refused in either layout, with the
  // event's index and key.
  const std::pair<std::string, std::string> errors[] = {
      {R"({ "cat": "__metadata", "pid": 3, "ph": "M", "name": "thread_name", "args": {"name": "no tid"}})",
       "traceEvents[1].tid"},
      {R"({ "cat": "__metadata", "pid": -3, "ph": "M", "name": "process_sort_index", "args": {"sort_index": 1}})",
       "traceEvents[1].pid"},
      {R"({ "cat": "__metadata", "pid": 3, "tid": 4294967296, "ph": "M", "name": "thread_name", "args": {"name": "a"}})",
       "traceEvents[1].tid"},
  };
  for (const auto& [line, where] : errors) {
    const std::string text = trace_of({lines[0], line});
    for (bool fast_paths : {true, false}) {
      SCOPED_TRACE(fast_paths);
      try {
        ParseOptrace("t.json", text.data(), text.size(), fast_paths);
        ADD_FAILURE() << "accepted";
      } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
      }
    }
  }
}

}  // namespace
}  // namespace htpscope::optrace_test
