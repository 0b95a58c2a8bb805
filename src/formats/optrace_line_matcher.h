// Fast paths for the event shapes that make up most of an optrace's events:
// counter samples, flow-arrow ends and metadata (formats §1.6, §1.7, §1.2).
// The optrace writer prints each on one line with a fixed key order and
// spacing:
//
//   { "name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":22, "args": {"": 65536}}
//   { "cat": "input_output", "name": "InputOutputFlowEvents", "tid": 1, "pid": 0,
//     "ts": 17, "ph": "s", "id": 1}                        (one line; "f" adds "pb": "e")
//   { "cat": "__metadata", "pid": 2, "tid": 256, "ph": "M", "name": "thread_name",
//     "args": {"name": "Core:0 Type: HMX Tid: 256"}}       (one line; see MetadataLine)
//
// A matcher accepts exactly that text, spaced as any JSON layout spaces it
// (minified, indented, one event a line: white space around structural
// characters is free), and nothing else: another key order, an escape, a
// number form or an extra key makes it return false, and the caller parses
// the event with the general JSON path.  So a match never changes a result,
// it only skips the generic parser's work.  Op event lines
// (formats §1.3) are matched by the reader itself (optrace.cc, MatchOpLine)
// from OpEventPrefix and LineCursor steps.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "formats/optrace_literal.h"

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace htpscope {

// Whether the `length` bytes at `a` and `b` are equal.  Inlined, with loads
// that overlap instead of a byte loop, so that a compare whose length is
// known at compile time (the matchers' literals) costs a few instructions
// instead of a call to memcmp.  Reads no byte outside either range.
[[gnu::always_inline]] inline bool SameBytes(const char* a, const char* b, size_t length) {
  auto word = [](const char* p, auto type) {
    decltype(type) w;
    std::memcpy(&w, p, sizeof w);
    return w;
  };
  if (length >= 16) {
#if defined(__SSE2__)
    auto differ16 = [](const char* x, const char* y) {
      const __m128i eq = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x)),
                                        _mm_loadu_si128(reinterpret_cast<const __m128i*>(y)));
      return _mm_movemask_epi8(eq) != 0xffff;
    };
    for (size_t i = 0; i + 16 < length; i += 16)
      if (differ16(a + i, b + i)) return false;
    return !differ16(a + length - 16, b + length - 16);
#else
    return std::memcmp(a, b, length) == 0;
#endif
  }
  if (length >= 8)
    return ((word(a, uint64_t{}) ^ word(b, uint64_t{})) |
            (word(a + length - 8, uint64_t{}) ^ word(b + length - 8, uint64_t{}))) == 0;
  if (length >= 4)
    return ((word(a, uint32_t{}) ^ word(b, uint32_t{})) |
            (word(a + length - 4, uint32_t{}) ^ word(b + length - 4, uint32_t{}))) == 0;
  for (size_t i = 0; i < length; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// Whether `a` and `b` hold the same bytes (SameBytes after a length check;
// pass a literal as `b`, so that its length is known at compile time).
[[gnu::always_inline]] inline bool SameBytes(std::string_view a, std::string_view b) {
  return a.size() == b.size() && SameBytes(a.data(), b.data(), b.size());
}

// A cursor over [at, end) that only moves on a match: the matchers below
// are sequences of its steps.
class LineCursor {
 public:
  LineCursor(const char* at, const char* end) : at_(at), end_(end) {}

  // The fragment F (optrace_literal.h) spaced as any JSON layout spaces it:
  // as the writer spaces it, minified, as json.dumps spaces it (each one
  // compare of a length known at compile time), or otherwise (a walk over
  // its tokens, for indented layouts).  White space after a final opening
  // bracket, comma or colon is consumed too.
  //
  // A file keeps one spacing: once a fragment has told which (see
  // ResetSpacing), only that form is tried, so a mismatch (a counter
  // matcher meeting an op event) costs one compare.  An event spaced
  // otherwise is left to the general parser: slower, never wrong.
  template <JsonFragment F>
  [[gnu::always_inline]] bool Literal() {
    static constexpr auto minified = Respace(F, FragmentSpacing::kMinified);
    static constexpr auto dumps = Respace(F, FragmentSpacing::kDumps);
    static constexpr auto tokens = Tokenize(F);
    // Whether matching this fragment tells the spacing.
    constexpr bool kTells = !SameText(minified.text.data(), minified.length, F.text, F.kLength);
    switch (spacing_) {
      case Spacing::kWriter:
        return Exactly(F.text, F.kLength);
      case Spacing::kMinified:
        return Exactly(minified.text.data(), minified.length);
      case Spacing::kDumps:
        return Exactly(dumps.text.data(), dumps.length);
      case Spacing::kOther:
        return Walk(F.text, tokens.tokens.data(), tokens.count);
      case Spacing::kUnknown:
        break;
    }
    auto found = [&](Spacing spacing) {
      if (kTells) spacing_ = spacing;
      return true;
    };
    if (Exactly(F.text, F.kLength)) return found(Spacing::kWriter);
    if (Exactly(minified.text.data(), minified.length)) return found(Spacing::kMinified);
    if (Exactly(dumps.text.data(), dumps.length)) return found(Spacing::kDumps);
    if (Walk(F.text, tokens.tokens.data(), tokens.count)) return found(Spacing::kOther);
    return false;
  }

  // Forgets the spacing learnt (on this thread): called before each chunk
  // or document.
  static void ResetSpacing() { spacing_ = Spacing::kUnknown; }

  // A string's content up to its closing quote (the opening one already
  // read): printable ASCII without escapes only (the general parser
  // validates escapes, control characters and UTF-8).
  bool String(std::string_view* out) {
    const char* p = at_;
    if constexpr (std::endian::native == std::endian::little) {
      // Eight bytes at a time up to the first one that ends the plain run.
      while (end_ - p >= 8) {
        uint64_t word;
        std::memcpy(&word, p, 8);
        if (const uint64_t stops = StringStopBytes(word)) {
          p += std::countr_zero(stops) / 8;
          break;
        }
        p += 8;
      }
    }
    while (p < end_ && !IsStringStop(static_cast<unsigned char>(*p))) ++p;
    if (p == end_ || *p != '"') return false;
    *out = std::string_view(at_, static_cast<size_t>(p - at_));
    at_ = p + 1;
    return true;
  }

  // A JSON integer literal of at most 18 digits (no overflow possible); a
  // fraction or exponent after it fails.
  bool Integer(int64_t* out) {
    const char* p = at_;
    const bool negative = p < end_ && *p == '-';
    if (negative) ++p;
    const char* digits = p;
    int64_t value = 0;
    while (p < end_ && *p >= '0' && *p <= '9') {
      if (p - digits == 18) return false;  // 19 digits or more: could overflow
      value = value * 10 + (*p++ - '0');
    }
    const auto count = p - digits;
    if (count == 0 || (count > 1 && *digits == '0')) return false;
    if (p < end_ && (*p == '.' || *p == 'e' || *p == 'E')) return false;
    *out = negative ? -value : value;
    at_ = p;
    return true;
  }

  // A JSON number literal, as a correctly rounded double.
  bool Number(double* out);

  // text[0, length) exactly, then any white space after a final opening
  // bracket, comma or colon.
  [[gnu::always_inline]] bool Exactly(const char* text, size_t length) {
    if (static_cast<size_t>(end_ - at_) < length || !SameBytes(at_, text, length)) return false;
    at_ += length;
    if (length > 0 && IsJsonOpener(text[length - 1]))
      while (at_ < end_ && IsJsonWhiteSpace(*at_)) ++at_;
    return true;
  }

  // Literal's walk over a fragment's tokens, white space allowed around
  // each structural character.
  bool Walk(const char* text, const FragmentToken* tokens, size_t count);

  static constexpr bool SameText(const char* a, size_t a_length, const char* b, size_t b_length) {
    if (a_length != b_length) return false;
    for (size_t i = 0; i < a_length; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }

  // A byte that ends a run of String's plain characters: the closing
  // quote, a backslash, a control character or a non-ASCII byte.
  static constexpr bool IsStringStop(unsigned char byte) {
    return byte == '"' || byte == '\\' || byte < 0x20 || byte >= 0x80;
  }

  // The high bit of each byte of `word` (eight bytes of text, first byte
  // lowest) is set where IsStringStop holds; above the first such byte,
  // others may be set falsely (borrows), so only the lowest set bit is
  // exact.
  static constexpr uint64_t StringStopBytes(uint64_t word) {
    constexpr uint64_t kOnes = 0x0101010101010101, kHighs = 0x8080808080808080;
    auto zero_bytes = [](uint64_t w) { return (w - kOnes) & ~w & kHighs; };
    const uint64_t below_space = (word - kOnes * 0x20) & ~word & kHighs;
    return zero_bytes(word ^ (kOnes * '"')) | zero_bytes(word ^ (kOnes * '\\')) | below_space |
           (word & kHighs);
  }

  enum class Spacing : uint8_t { kUnknown, kWriter, kMinified, kDumps, kOther };
  static Spacing spacing() { return spacing_; }

  const char* at() const { return at_; }
  size_t consumed(const char* start) const { return static_cast<size_t>(at_ - start); }

 private:
  const char* at_;
  const char* end_;
  // The spacing of the text being matched, learnt from the first fragment
  // that tells it; per thread, as each parser thread reads its own chunk.
  static inline thread_local Spacing spacing_ = Spacing::kUnknown;
};

struct CounterLine {
  std::string_view name;  // counter name, without escapes
  int64_t ts = 0;         // as written (relative cycles)
  int64_t value = 0;      // args[""]
};

struct FlowLine {
  std::string_view category;  // "cat"
  int64_t pid = 0, tid = 0;
  int64_t ts = 0;  // as written (relative cycles)
  int64_t id = 0;
  bool is_start = false;  // "ph": "s" (else "f")
};

// A metadata event: one of
//
//   { "cat": "__metadata", "pid": 0, "tid": 256, "ph": "M", "name": "thread_name", "args": {"name":
//   "Type: HMX"}} { "cat": "__metadata", "pid": 9, "ph": "M", "name": "process_name", "args":
//   {"name": "QNN::conv_1", "opid": "0x22"}} { "cat": "__metadata", "pid": 9, "ph": "M", "name":
//   "process_sort_index", "args": {"sort_index": 33}}
//
// "tid" is optional for every name, and "opid" for a process_name; which
// name goes with which args is left to the reader, as for the general path.
struct MetadataLine {
  std::string_view name;  // what the event names: "thread_name", ...
  int64_t pid = 0;
  int64_t tid = -1;  // -1: no "tid" key
  bool has_tid = false;
  std::string_view arg_name;   // args.name, or empty
  std::string_view opid_text;  // args.opid, or empty
  int64_t sort_index = 0;      // args.sort_index
  bool has_sort_index = false;
};

// The start of an op event line, through its pid:
//
//   { "name": "q::Conv2d", "ph": "X", "tid": 256, "pid": 0, "ts": 3300, ...
//
// The writer prints each op event twice, on pid 0 and on its QNN op's
// process, with identical text but for the pid (formats §1.3): a line whose
// text equals an earlier pid-0 line's but for the pid digits is that
// event's copy.
struct OpEventPrefix {
  std::string_view name;
  int64_t tid = 0, pid = 0;
  size_t pid_begin = 0;  // offset of the pid's first digit in the line
  size_t pid_end = 0;    // offset just past its last digit
};

// The first letter of the first key of the object at `text` ('{'), or 0
// when it does not start with a plain key.
char FirstKeyLetter(const char* text, const char* end);

// Matches an op event prefix at `text` ('{'), followed by ", ".  Returns the
// bytes matched through the pid digits (== pid_end), or 0.
size_t MatchOpEventPrefix(const char* text, const char* end, OpEventPrefix* out);

// Matches the counter line starting at `text` ('{') and ending before `end`.
// Returns the bytes matched (through the closing '}'), or 0.
size_t MatchCounterLine(const char* text, const char* end, CounterLine* out);

// Matches the flow line starting at `text`; same contract.
size_t MatchFlowLine(const char* text, const char* end, FlowLine* out);

// Matches the metadata line starting at `text`; same contract.
size_t MatchMetadataLine(const char* text, const char* end, MetadataLine* out);

}  // namespace htpscope
