#include "formats/optrace_line_matcher.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace htpscope::optrace_line_matcher_test {
namespace {

// SameBytes agrees with memcmp for every length the matchers use and a
// difference at every position, reading only the bytes compared (each range
// is an allocation of exactly its length, which ASan guards).
TEST(SameBytes, AgreesWithMemcmpAndReadsOnlyTheRanges) {
  for (size_t length = 0; length <= 70; ++length) {
    std::unique_ptr<char[]> a(new char[length]), b(new char[length]);
    for (size_t i = 0; i < length; ++i) a[i] = b[i] = static_cast<char>('a' + i % 26);
    EXPECT_TRUE(SameBytes(a.get(), b.get(), length)) << length;
    for (size_t at = 0; at < length; ++at) {
      b[at] ^= 0x20;
      EXPECT_FALSE(SameBytes(a.get(), b.get(), length)) << length << " at " << at;
      EXPECT_NE(std::memcmp(a.get(), b.get(), length), 0);
      b[at] ^= 0x20;
    }
  }
  // Views: the lengths first.
  EXPECT_TRUE(SameBytes(std::string_view("Start Cycle"), std::string_view("Start Cycle")));
  EXPECT_FALSE(SameBytes(std::string_view("Start Cycle"), std::string_view("Start Cycles")));
  EXPECT_FALSE(SameBytes(std::string_view(""), std::string_view("a")));
}

// Each call learns the spacing afresh, as each chunk does.
size_t Counter(const std::string& text, CounterLine* out) {
  LineCursor::ResetSpacing();
  return MatchCounterLine(text.data(), text.data() + text.size(), out);
}
size_t Flow(const std::string& text, FlowLine* out) {
  LineCursor::ResetSpacing();
  return MatchFlowLine(text.data(), text.data() + text.size(), out);
}
size_t Metadata(const std::string& text, MetadataLine* out) {
  LineCursor::ResetSpacing();
  return MatchMetadataLine(text.data(), text.data() + text.size(), out);
}

// Lines as the optrace writer prints them (copied from a device capture).
const std::string kCounter =
    R"({ "name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":4511, "args": {"": 67584}})";
const std::string kFlowStart =
    R"({ "cat": "input_output", "name": "InputOutputFlowEvents", "tid": 1, "pid": 0, "ts": 40052, "ph": "s", "id": 0})";
const std::string kFlowFinish =
    R"({ "cat": "sequencer", "name": "InputOutputFlowEvents", "tid": 256, "pid": 0, "ts": 22, "ph": "f", "pb": "e", "id": 17})";

TEST(OptraceLineMatcher, WriterLayoutsAreRead) {
  CounterLine c;
  const std::string followed = kCounter + ",\n";
  ASSERT_EQ(Counter(followed, &c), kCounter.size());
  EXPECT_EQ(c.name, "VTCM alloc");
  EXPECT_EQ(c.ts, 4511);
  EXPECT_EQ(c.value, 67584);

  FlowLine f;
  ASSERT_EQ(Flow(kFlowStart, &f), kFlowStart.size());
  EXPECT_EQ(f.category, "input_output");
  EXPECT_EQ(f.tid, 1);
  EXPECT_EQ(f.pid, 0);
  EXPECT_EQ(f.ts, 40052);
  EXPECT_EQ(f.id, 0);
  EXPECT_TRUE(f.is_start);
  ASSERT_EQ(Flow(kFlowFinish, &f), kFlowFinish.size());
  EXPECT_EQ(f.category, "sequencer");
  EXPECT_EQ(f.tid, 256);
  EXPECT_EQ(f.ts, 22);
  EXPECT_EQ(f.id, 17);
  EXPECT_FALSE(f.is_start);
}

// Metadata lines as the writer prints them (device captures).
const std::string kThreadName =
    R"({ "cat": "__metadata", "pid": 10, "tid": 512, "ph": "M", "name": "thread_name", "args": {"name": "Core:0 Type: HVX Tid: 512"}})";
const std::string kProcessName =
    R"({ "cat": "__metadata", "pid": 11, "ph": "M", "name": "process_name", "args": {"name": "QNN::bbb_indep6", "opid": "0x0000000000000025"}})";
const std::string kSortIndex =
    R"({ "cat": "__metadata", "pid": 0, "ph": "M", "name": "process_sort_index", "args": {"sort_index": 1}})";

TEST(OptraceLineMatcher, MetadataLayoutsAreRead) {
  MetadataLine m;
  const std::string followed = kThreadName + ",\n";  // the views point into it
  ASSERT_EQ(Metadata(followed, &m), kThreadName.size());
  EXPECT_EQ(m.name, "thread_name");
  EXPECT_EQ(m.pid, 10);
  EXPECT_TRUE(m.has_tid);
  EXPECT_EQ(m.tid, 512);
  EXPECT_EQ(m.arg_name, "Core:0 Type: HVX Tid: 512");
  EXPECT_EQ(m.opid_text, "");
  EXPECT_FALSE(m.has_sort_index);

  ASSERT_EQ(Metadata(kProcessName, &m), kProcessName.size());
  EXPECT_EQ(m.name, "process_name");
  EXPECT_EQ(m.pid, 11);
  EXPECT_FALSE(m.has_tid);
  EXPECT_EQ(m.tid, -1);
  EXPECT_EQ(m.arg_name, "QNN::bbb_indep6");
  EXPECT_EQ(m.opid_text, "0x0000000000000025");

  ASSERT_EQ(Metadata(kSortIndex, &m), kSortIndex.size());
  EXPECT_EQ(m.name, "process_sort_index");
  EXPECT_EQ(m.pid, 0);
  EXPECT_EQ(m.arg_name, "");  // nothing left over from the line before
  EXPECT_EQ(m.opid_text, "");
  EXPECT_TRUE(m.has_sort_index);
  EXPECT_EQ(m.sort_index, 1);

  const std::string no_opid =
      R"({ "cat": "__metadata", "pid": 0, "ph": "M", "name": "process_name", "args": {"name": "Core 0 Overview"}})";
  ASSERT_EQ(Metadata(no_opid, &m), no_opid.size());
  EXPECT_EQ(m.arg_name, "Core 0 Overview");
  EXPECT_EQ(m.opid_text, "");

  const std::string bad[] = {
      // other key order, cat
      R"({ "cat": "__metadata", "tid": 512, "pid": 10, "ph": "M", "name": "thread_name", "args": {"name": "a"}})",
      R"({ "cat": "metadata", "pid": 10, "ph": "M", "name": "process_sort_index", "args": {"sort_index": 1}})",
      // another phase, other args, an extra arg, both args, a number form
      R"({ "cat": "__metadata", "pid": 10, "ph": "m", "name": "process_sort_index", "args": {"sort_index": 1}})",
      R"({ "cat": "__metadata", "pid": 10, "ph": "M", "name": "process_name", "args": {"label": "a"}})",
      R"({ "cat": "__metadata", "pid": 10, "ph": "M", "name": "process_name", "args": {"name": "a", "opid": "0x1", "x": 1}})",
      R"({ "cat": "__metadata", "pid": 10, "ph": "M", "name": "process_name", "args": {"name": "a", "sort_index": 1}})",
      R"({ "cat": "__metadata", "pid": 10, "ph": "M", "name": "process_sort_index", "args": {"sort_index": 1.0}})",
      R"({ "cat": "__metadata", "pid": -, "ph": "M", "name": "process_sort_index", "args": {"sort_index": 1}})",
      // an escape, a missing brace
      R"({ "cat": "__metadata", "pid": 10, "ph": "M", "name": "process_name", "args": {"name": "a\"b"}})",
      R"({ "cat": "__metadata", "pid": 10, "ph": "M", "name": "process_sort_index", "args": {"sort_index": 1})",
  };
  for (const auto& text : bad) EXPECT_EQ(Metadata(text, &m), 0u) << text;
}

TEST(OptraceLineMatcher, NegativeAndZeroIntegers) {
  CounterLine c;
  ASSERT_NE(
      Counter(R"({ "name": "x", "ph": "C", "tid":0, "pid":0, "ts":-12, "args": {"": 0}})", &c), 0u);
  EXPECT_EQ(c.ts, -12);
  EXPECT_EQ(c.value, 0);
  ASSERT_NE(Counter(R"({ "name": "", "ph": "C", "tid":0, "pid":0, "ts":-0, "args": {"": )"
                    R"(999999999999999999}})",
                    &c),
            0u);
  EXPECT_EQ(c.name, "");
  EXPECT_EQ(c.ts, 0);
  EXPECT_EQ(c.value, 999999999999999999);
}

// The same events minified, spaced as json.dumps spaces them, or indented:
// the same values.
TEST(OptraceLineMatcher, EverySpacingIsRead) {
  const std::string counters[] = {
      R"({"name":"VTCM alloc","ph":"C","tid":0,"pid":0,"ts":4511,"args":{"":67584}})",
      R"({"name": "VTCM alloc", "ph": "C", "tid": 0, "pid": 0, "ts": 4511, "args": {"": 67584}})",
      "{\n  \"name\": \"VTCM alloc\",\n  \"ph\": \"C\",\n  \"tid\": 0,\n  \"pid\": 0,\n"
      "  \"ts\": 4511,\n  \"args\": {\n    \"\": 67584\n  }\n}",
      // spacing mixed within one event
      R"({ "name": "VTCM alloc", "ph": "C", "tid": 0, "pid":0, "ts":4511, "args": {"": 67584}})",
  };
  for (const std::string& text : counters) {
    CounterLine c;
    const std::string followed = text + ",\n";  // the views point into it
    ASSERT_EQ(Counter(followed, &c), text.size()) << text;
    EXPECT_EQ(c.name, "VTCM alloc");
    EXPECT_EQ(c.ts, 4511);
    EXPECT_EQ(c.value, 67584);
  }
  const std::string flow =
      "{\n  \"cat\": \"sequencer\",\n  \"name\": \"InputOutputFlowEvents\",\n  \"tid\": 256,\n"
      "  \"pid\": 0,\n  \"ts\": 22,\n  \"ph\": \"f\",\n  \"pb\": \"e\",\n  \"id\": 17\n}";
  FlowLine f;
  ASSERT_EQ(Flow(flow, &f), flow.size());
  EXPECT_EQ(f.category, "sequencer");
  EXPECT_EQ(f.id, 17);
  EXPECT_FALSE(f.is_start);
  const std::string process =
      R"({"cat":"__metadata","pid":11,"ph":"M","name":"process_name","args":{"name":"QNN::a b","opid":"0x25"}})";
  MetadataLine m;
  ASSERT_EQ(Metadata(process, &m), process.size());
  EXPECT_EQ(m.arg_name, "QNN::a b");
  EXPECT_EQ(m.opid_text, "0x25");
}

// Anything but these event shapes goes to the general JSON parser.
TEST(OptraceLineMatcher, EveryOtherLayoutIsLeftToTheGeneralParser) {
  CounterLine c;
  const std::string counter_variants[] = {
      // a space inside a key, white space inside a number
      R"({ "name ": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":4511, "args": {"": 67584}})",
      R"({ "name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":45 11, "args": {"": 67584}})",
      // other key order
      R"({ "name": "VTCM alloc", "ph": "C", "pid":0, "tid":0, "ts":4511, "args": {"": 67584}})",
      // an escape in the name, a control character
      R"({ "name": "VTCM \"a\"", "ph": "C", "tid":0, "pid":0, "ts":4511, "args": {"": 1}})",
      "{ \"name\": \"a\tb\", \"ph\": \"C\", \"tid\":0, \"pid\":0, \"ts\":1, \"args\": {\"\": 1}}",
      // non-ASCII (here not even valid UTF-8): simdjson validates it
      "{ \"name\": \"caf\xc3\xa9\", \"ph\": \"C\", \"tid\":0, \"pid\":0, \"ts\":1, \"args\": "
      "{\"\": 1}}",
      "{ \"name\": \"\xff\", \"ph\": \"C\", \"tid\":0, \"pid\":0, \"ts\":1, \"args\": {\"\": 1}}",
      // number forms: fraction, exponent, leading zero, 19 digits, bare minus
      R"({ "name": "a", "ph": "C", "tid":0, "pid":0, "ts":4511, "args": {"": 1.5}})",
      R"({ "name": "a", "ph": "C", "tid":0, "pid":0, "ts":4511, "args": {"": 1e3}})",
      R"({ "name": "a", "ph": "C", "tid":0, "pid":0, "ts":04511, "args": {"": 1}})",
      R"({ "name": "a", "ph": "C", "tid":0, "pid":0, "ts":1234567890123456789, "args": {"": 1}})",
      R"({ "name": "a", "ph": "C", "tid":0, "pid":0, "ts":9999999999999999999, "args": {"": 1}})",
      R"({ "name": "a", "ph": "C", "tid":0, "pid":0, "ts":-, "args": {"": 1}})",
      // a string where a number belongs, an extra key, another phase
      R"({ "name": "a", "ph": "C", "tid":0, "pid":0, "ts":"1", "args": {"": 1}})",
      R"({ "name": "a", "ph": "C", "tid":0, "pid":0, "ts":1, "args": {"": 1, "b": 2}})",
      R"({ "name": "a", "ph": "X", "tid":0, "pid":0, "ts":1, "args": {"": 1}})",
      // truncated
      R"({ "name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":4511, "args": {"": 67584})",
      R"({ "name": "VTCM alloc)",
  };
  for (const auto& text : counter_variants) EXPECT_EQ(Counter(text, &c), 0u) << text;

  FlowLine f;
  const std::string flow_variants[] = {
      // "f" without "pb", "s" with it
      R"({ "cat": "input_output", "name": "n", "tid": 256, "pid": 0, "ts": 22, "ph": "f", "id": 1})",
      R"({ "cat": "input_output", "name": "n", "tid": 256, "pid": 0, "ts": 22, "ph": "s", "pb": "e", "id": 1})",
      // "ph" before "ts", another phase, an extra key, truncated
      R"({ "cat": "input_output", "name": "n", "tid": 256, "pid": 0, "ph": "s", "ts": 22, "id": 1})",
      R"({ "cat": "input_output", "name": "n", "tid": 256, "pid": 0, "ts": 22, "ph": "t", "id": 1})",
      R"({ "cat": "input_output", "name": "n", "tid": 256, "pid": 0, "ts": 22, "ph": "s", "id": 1, "x": 2})",
      R"({ "cat": "input_output", "name": "n", "tid": 256, "pid": 0, "ts": 22, "ph": "s", "id": 1)",
  };
  for (const auto& text : flow_variants) EXPECT_EQ(Flow(text, &f), 0u) << text;
}

TEST(OptraceLineMatcher, NeverReadsPastTheEnd) {
  // The matcher is given only a prefix of a valid line: it must stop at the
  // given end even though the bytes after it would match.
  CounterLine c;
  for (size_t length = 0; length < kCounter.size(); ++length)
    EXPECT_EQ(MatchCounterLine(kCounter.data(), kCounter.data() + length, &c), 0u) << length;
  FlowLine f;
  for (size_t length = 0; length < kFlowFinish.size(); ++length)
    EXPECT_EQ(MatchFlowLine(kFlowFinish.data(), kFlowFinish.data() + length, &f), 0u) << length;
  MetadataLine m;
  for (const std::string* line : {&kThreadName, &kProcessName, &kSortIndex})
    for (size_t length = 0; length < line->size(); ++length)
      EXPECT_EQ(MatchMetadataLine(line->data(), line->data() + length, &m), 0u) << length;
}

// String's content as read one byte at a time: up to the closing quote, or
// nothing when a backslash, a control character or a non-ASCII byte comes
// first.
std::optional<std::string> PlainStringUpToQuote(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '"') return text.substr(0, i);
    if (byte == '\\' || byte < 0x20 || byte >= 0x80) return std::nullopt;
  }
  return std::nullopt;
}

TEST(LineCursor, StringStopsAtTheFirstSpecialByteWhereverItFalls) {
  // String reads eight bytes at a time: put every byte value at every
  // offset of two words, after plain text, and before and after a quote.
  int checked = 0;
  for (int value = 0; value < 256; ++value) {
    for (size_t at = 0; at < 17; ++at) {
      for (const std::string& tail :
           {std::string("\"tail"), std::string("ab\"c"), std::string("\x01\"x"), std::string("")}) {
        std::string text(at, 'a');
        text += static_cast<char>(value);
        text += tail;
        LineCursor c(text.data(), text.data() + text.size());
        std::string_view read;
        const std::optional<std::string> expected = PlainStringUpToQuote(text);
        ASSERT_EQ(c.String(&read), expected.has_value()) << value << " at " << at;
        if (expected) {
          EXPECT_EQ(read, *expected) << value << " at " << at;
          EXPECT_EQ(c.at(), text.data() + expected->size() + 1);
        } else {
          EXPECT_EQ(c.at(), text.data());  // no match: the cursor stays
        }
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 256 * 17 * 4);
  // Hand cases: a borrow from a stop byte must not hide an earlier one.
  for (const auto& [text, expected] : std::vector<std::pair<std::string, std::string>>{
           {"abcdefg\"", "abcdefg"},
           {"\"\x1f", ""},
           {"0123456789abcdef\"", "0123456789abcdef"},
           {"\x7f\x7f\"", "\x7f\x7f"},  // DEL is ASCII and not a control byte here
       }) {
    LineCursor c(text.data(), text.data() + text.size());
    std::string_view read;
    ASSERT_TRUE(c.String(&read)) << text;
    EXPECT_EQ(read, expected);
  }
  for (const std::string text :
       {"abcdefgh\x1f\"", "abc\\\"", "abcdefghijkl\xc3\xa9\"", "no quote"}) {
    LineCursor c(text.data(), text.data() + text.size());
    std::string_view read;
    EXPECT_FALSE(c.String(&read)) << text;
  }
}

TEST(OptraceLineMatcher, OpEventPrefixFindsThePid) {
  // The start of an op line as the writer prints it (device capture).
  const std::string line =
      R"({ "name": "q::*InputSlice", "ph": "X", "tid": 256, "pid": 12, "ts": 22, "dur": 3267, )"
      R"("args": {}})";
  OpEventPrefix prefix;
  LineCursor::ResetSpacing();
  const size_t matched = MatchOpEventPrefix(line.data(), line.data() + line.size(), &prefix);
  const size_t pid_at = line.find("12, \"ts\"");
  ASSERT_EQ(matched, pid_at + 2);
  EXPECT_EQ(prefix.name, "q::*InputSlice");
  EXPECT_EQ(prefix.tid, 256);
  EXPECT_EQ(prefix.pid, 12);
  EXPECT_EQ(prefix.pid_begin, pid_at);
  EXPECT_EQ(prefix.pid_end, pid_at + 2);

  for (const std::string bad : {
           R"({ "name": "a", "ph": "C", "tid": 256, "pid": 0, "ts": 1})",     // not X
           R"({ "name": "a", "ph": "X", "pid": 0, "tid": 256, "ts": 1})",     // key order
           R"({ "name": "a", "ph": "X", "tid": 256, "pid":0, "ts": 1})",      // spacing
           R"({ "name": "a", "ph": "X", "tid": 256, "pid": 0.0, "ts": 1})",   // not an integer
           R"({ "name": "a", "ph": "X", "tid": 256, "pid": 0})",              // nothing follows
           R"({ "name": "a\"b", "ph": "X", "tid": 256, "pid": 0, "ts": 1})",  // escape
           R"({ "name": "a", "ph": "X", "tid": 256, "pid": 01, "ts": 1})",    // leading zero
       }) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(MatchOpEventPrefix(bad.data(), bad.data() + bad.size(), &prefix), 0u);
  }
}

}  // namespace
}  // namespace htpscope::optrace_line_matcher_test
