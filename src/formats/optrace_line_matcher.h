// Fast paths for the two event shapes that make up most of an optrace's
// events: counter samples and flow-arrow ends (formats §1.5, §1.6).  The
// optrace writer prints each on one line with a fixed key order and spacing:
//
//   { "name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":22, "args": {"": 65536}}
//   { "cat": "input_output", "name": "InputOutputFlowEvents", "tid": 1, "pid": 0,
//     "ts": 17, "ph": "s", "id": 1}                        (one line; "f" adds "pb": "e")
//
// A matcher accepts exactly that text and nothing else: any other spacing,
// key order, escape, number form or extra key makes it return false, and the
// caller parses the event with the general JSON path.  So a match never
// changes a result, it only skips the generic parser's work.
#pragma once

#include <cstdint>
#include <string_view>

namespace htpscope {

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

// Matches an op event prefix at `text` ('{'), followed by ", ".  Returns the
// bytes matched through the pid digits (== pid_end), or 0.
size_t MatchOpEventPrefix(const char* text, const char* end, OpEventPrefix* out);

// Matches the counter line starting at `text` ('{') and ending before `end`.
// Returns the bytes matched (through the closing '}'), or 0.
size_t MatchCounterLine(const char* text, const char* end, CounterLine* out);

// Matches the flow line starting at `text`; same contract.
size_t MatchFlowLine(const char* text, const char* end, FlowLine* out);

}  // namespace htpscope
