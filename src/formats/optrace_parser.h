// The optrace reader's internals, shared by its stages (not for use outside
// the reader):
//  * optrace_events.cc      the general event parser (simdjson On-Demand);
//  * optrace_fast_lines.cc  the pre-pass that reads lines in the optrace
//                           writer's exact layout before simdjson sees them;
//  * optrace_parallel.cc    the chunked read on every core, and the merge;
//  * optrace_finish.cc      the ts origin, metadata folding and checks.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "formats/json_util.h"
#include "formats/optrace.h"
#include "formats/optrace_line_matcher.h"

namespace htpscope {

class StreamedContainers;

namespace optrace_internal {

// Everything one traceEvents element can carry, filled field by field (the
// key order varies between event shapes, and `ph` may come after `args`).
// Reused across events so parsing does not allocate per event.
struct RawEvent {
  std::string_view name, ph, cat;
  int64_t pid = -1, tid = -1, ts = 0, dur = 0;
  bool has_ts = false, has_dur = false;
  int64_t flow_id = 0;
  bool has_flow_id = false;
  // args of op events
  bool has_args = false;
  std::string_view id_text, htp_op_type, data_type, qnn_op_type, qnn_op_name, description;
  std::vector<int32_t> dims;
  std::vector<uint64_t> inputs;
  uint8_t flags = 0;
  int64_t rank = 0, zero_offset = 0, start_cycle = 0, duration = 0, dpc = 0;
  bool has_start = false, has_duration = false, has_dpc = false;
  double cycles_per_packet = 0, step_size = 0;
  // args of counters and metadata
  int64_t counter_value = 0;
  bool has_counter_value = false;
  std::string_view meta_name, opid_text;
  int64_t sort_index = 0;
  bool has_sort_index = false;
  // Which keys the event had, for telling whether a copy of its line
  // (TakeFastLines) would read the same: each of kOpKeys once and no other.
  uint32_t field_count = 0;
  uint8_t op_keys = 0;              // OpKey bits
  const char* args_text = nullptr;  // where the "args" value starts

  enum OpKey : uint8_t {
    kKeyName = 1,
    kKeyPh = 2,
    kKeyTid = 4,
    kKeyPid = 8,
    kKeyTs = 16,
    kKeyDur = 32,
    kKeyArgs = 64,
    kOpKeys = 127
  };

  void Reset();
};

// The pre-pass met a layout it cannot vouch for (two events on a line, an
// op-event copy whose source is no plain op event): the chunk is parsed
// again without it.  Never a verdict on the file.
class FastPathDeclined : public std::exception {
 public:
  const char* what() const noexcept override { return "optrace fast path declined"; }
};

// A warning about the `event_index`th event of a chunk, placed in the file
// once the events before the chunk are counted.
struct EventWarning {
  uint64_t event_index = 0;
  std::string message;  // what follows "traceEvents[N]: "
};

// A chunk's events, parsed with a string pool of their own.
struct OptracePart {
  Optrace trace;
  std::vector<EventWarning> warnings;
};

class OptraceParser {
 public:
  // Parses `buffer`, a whole document or a chunk of one, into `out`.
  // `base_offset` is the file offset of buffer[0]; `parser`, when given, is
  // reused from chunk to chunk.
  OptraceParser(const std::string& path, simdjson::padded_string_view buffer, Optrace* out,
                uint64_t base_offset = 0, simdjson::ondemand::parser* parser = nullptr);

  // Whether the line matchers and the pre-pass may read events (true by
  // default); the general parser alone reads the same.
  void set_fast_paths(bool on) { fast_paths_ = on; }

  // A whole OP_TRACE document.
  void Run();

  // A counter, flow or metadata line matched by optrace_line_matcher.h.
  using FastLine = std::variant<CounterLine, FlowLine, MetadataLine>;
  static constexpr uint32_t kNoOp = UINT32_MAX;
  struct TakenLine {
    FastLine line;        // a counter, flow or metadata line, unless `op` is set
    uint32_t op = kNoOp;  // else: the slot in ChunkScratch::ops of an op event
    size_t kept_before;   // kept lines before it in the chunk
  };
  // A worker's buffers, reused from chunk to chunk.
  struct ChunkScratch {
    std::string minified;          // an indented chunk without its white space
    std::string rest;              // the events TakeFastLines leaves, as JSON
    std::vector<TakenLine> taken;  // the lines it took after the first kept one, in file order
    // The op events it took, as MatchOpLine read them; slots are swapped
    // with raw_, so their vectors keep their capacity from chunk to chunk.
    std::vector<RawEvent> ops;
  };

  // A chunk: a JSON array of trace events.  With `fast_lines`, the lines in
  // the writer's layout are read by the pre-pass first (may throw
  // FastPathDeclined).  Warnings go to `warnings`, numbered in the chunk.
  // `end_guessed` (JsonChunk::end_guessed): the chunk's text must be shown
  // to be whole events before it is read (InputError when it is not).
  void RunChunk(ChunkScratch* scratch, bool fast_lines, bool end_guessed,
                std::vector<EventWarning>* warnings);

  // A chunker's skeleton: the header, and every traceEvents array empty and
  // streamed.  Returns false when there is no traceEvents member, one was
  // not streamed, or a streamed container is not one (then parse the whole
  // file, which reports what is wrong).
  bool RunSkeleton(StreamedContainers* streamed);

  // Reads an op event in the writer's exact layout at `text` (ending before
  // `end`) into raw_, as the general path would (optrace_fast_lines.cc).
  // Returns the bytes of the event, or 0.
  size_t MatchOpLine(const char* text, const char* end);

  // Whether the chunk `data` (a JSON array) is indented: events over
  // several lines.
  static bool IsPrettyPrinted(const char* data, size_t length);

 private:
  // --- general path (optrace_events.cc) ---
  [[noreturn]] void Fail(simdjson::error_code err, std::string_view context);
  void Check(simdjson::error_code err, std::string_view context) {
    if (err) Fail(err, context);
  }
  [[noreturn]] void Invalid(std::string_view context, std::string_view problem);
  std::string Where(std::string_view key) const;
  void ParseEventArray(simdjson::ondemand::array& events);
  void ReadInt(simdjson::ondemand::value v, int64_t* out, std::string_view key);
  void ReadString(simdjson::ondemand::value v, std::string_view* out, std::string_view key);
  void ReadDouble(simdjson::ondemand::value v, double* out, std::string_view key);
  void ParseEvent(simdjson::ondemand::object& event);
  // `field`'s key, unescaped when it holds an escape; a view of the document
  // or of the parser's string buffer, valid while the chunk is parsed.
  std::string_view KeyOf(simdjson::ondemand::field& field, std::string_view context);
  void ParseCopyArgs(simdjson::ondemand::object& args);
  void ParseArgs(simdjson::ondemand::object& args);
  void RequirePidTid(bool need_tid);
  void Dispatch();
  void AddOpEvent();
  void AddFlow(int64_t id, int64_t ts, int64_t pid, int64_t tid, std::string_view category,
               bool is_start);
  void AddMetadata(const MetadataLine& m);
  void Warn(std::string message);  // about the current event
  std::vector<CounterSample>& CounterTrack(std::string_view name);
  // Fields whose text mostly repeats the previous event's (the slices of one
  // QNN op follow each other; a flow's category; a data type): a compare
  // with the last text is cheaper than hashing into the pool.
  enum RepeatedField {
    kHtpOpType,
    kQnnOpName,
    kQnnOpType,
    kDataType,
    kFlowCategory,
    kThreadName,
    kRepeatedFields
  };
  StringId InternRepeated(RepeatedField field, std::string_view text);
  StringId InternDescription(StringId htp_op_type, std::string_view text);

  // --- pre-pass (optrace_fast_lines.cc) ---
  template <typename StringReader>
  bool MatchOpLineList(std::string_view key, LineCursor& c, StringReader& string);
  void CommitTakenLines(size_t kept_line);
  bool TakeFastPathLine(const char* text);
  static size_t MatchFastLine(const char* text, const char* end, FastLine* line);
  void CommitFastLine(const FastLine& line);
  bool TakeFastLines(const char* data, size_t length, std::string* rest);
  // An op event line on pid 0 kept for simdjson, whose copies (the same
  // text with another pid) TakeFastLines takes without parsing.
  struct CopySource {
    const char* text = nullptr;  // the line's '{' (in the chunk)
    size_t element_length = 0;   // through the event's closing '}'
    OpEventPrefix prefix;
    size_t kept_line = 0;   // its index in rest_line_starts_, when kept for simdjson
    bool resolved = false;  // taken by MatchOpLine: whether its copies count is known
    bool executed = false;  // if resolved: whether each copy counts as executed
  };
  void RememberCopySource(const char* text, const char* last, size_t kept_line);
  size_t MatchCopyLine(const char* text, const char* end, int64_t* pid) const;
  void ResolveCopies(size_t kept_line);

  const std::string& path_;
  JsonReader reader_;
  uint64_t base_offset_;  // the file offset of the buffer's first byte
  Optrace* out_;
  simdjson::padded_string_view buffer_;
  const char* text_begin_;  // the JSON text being parsed
  const char* text_end_;
  std::vector<EventWarning>* chunk_warnings_ = nullptr;  // set when parsing a chunk
  std::vector<size_t> rest_line_starts_;                 // see TakeFastLines
  CopySource copy_source_;                               // see MatchCopyLine
  std::vector<size_t> pending_copies_;                   // kept line of each copy taken, in order
  std::vector<TakenLine>* taken_lines_ = nullptr;        // RunChunk's, in file order
  std::vector<RawEvent>* taken_ops_ = nullptr;           // RunChunk's
  size_t ops_taken_ = 0;                                 // slots of taken_ops_ in use
  OpEventPrefix op_prefix_;                              // of the line MatchOpLine read last
  size_t next_taken_ = 0;                                // the first not yet committed
  size_t next_copy_ = 0;                                 // the first not yet counted
  bool check_line_starts_ = false;
  bool fast_paths_ = true;
  size_t kept_events_ = 0;  // events parsed from the kept lines
  RawEvent raw_;
  uint64_t event_index_ = 0;
  std::vector<std::pair<std::string_view, std::vector<CounterSample>*>> recent_counters_;
  std::vector<std::optional<StringId>> descriptions_;  // by HTP op type
  static constexpr StringId kNoId = UINT32_MAX;
  std::pair<std::string_view, StringId> last_interned_[kRepeatedFields] = {
      {{}, kNoId}, {{}, kNoId}, {{}, kNoId}, {{}, kNoId}, {{}, kNoId}, {{}, kNoId}};
};

// A pid or tid the model can hold (uint32); -1 stands for a missing one.
inline bool IsPidOrTid(int64_t value) { return value >= 0 && value <= UINT32_MAX; }

inline bool IsJsonSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Times of at most 18 digits (as the line matcher takes): origins and ends
// computed from them cannot overflow int64.
inline bool InCycleRange(int64_t cycles) {
  constexpr int64_t kMaxCycles = 999'999'999'999'999'999;
  return cycles >= -kMaxCycles && cycles <= kMaxCycles;
}

// key == text, with text's length known at compile time.
template <size_t N>
bool IsKey(std::string_view key, const char (&text)[N]) {
  return SameBytes(key, std::string_view(text, N - 1));
}

// Whether `text` (starting with the args' '{') holds a "Start Cycle" key.
bool HasStartCycleKey(std::string_view text);

// --- finish (optrace_finish.cc) ---

// Adds `message` unless 20 warnings are already listed.
void AddWarning(Optrace* trace, std::string message);

// Slice `i`'s "Start Cycle" arg minus its ts, in cycles: the origin, for
// the slices whose ts is their op's start (once ts is absolute, 0 for them).
inline int64_t StartCycleMinusTs(const Optrace& trace, size_t i) {
  return trace.slice_args[i].op_start_cycles - trace.slices[i].start_cycles;
}

// The difference Start Cycle − ts shared by more than half of the trace's
// slices, if one is.
std::optional<int64_t> MajorityOriginCycles(const Optrace& trace);

// Adds `cycles` to every ts-derived time of `trace` (slices, flows, counter
// samples).
void ShiftTimes(Optrace* trace, int64_t cycles);

// Recovers the ts origin and turns relative ts into absolute cycles, folds
// the metadata and checks the copies.  `added_cycles` is what the caller
// already added to every time (a provisional origin applied while merging;
// 0 when times are still relative).  `agreeing_slices`, when known, counts
// the slices whose Start Cycle equals their time as it stands: more than
// half settle the origin without a pass.
void FinishOptrace(Optrace* out, int64_t added_cycles = 0, size_t agreeing_slices = 0);

// --- parallel read (optrace_parallel.cc) ---

// Reads `path` in chunks on every core into `out`; `guess_cuts`: a mapped
// file's chunks are cut by guesses (JsonChunker::set_guess_cuts).
enum class ChunkedRead {
  kRead,
  kNotChunked,   // its layout, or any error: parse the file whole
  kGuessFailed,  // a chunk failed after guessed cuts: read again without guesses
};
ChunkedRead ReadOptraceInChunks(const std::string& path, const ReadOptraceOptions& options,
                                bool guess_cuts, Optrace* out);

// Whether the events of an optrace whose first bytes are `prefix` are
// pretty-printed (a line break inside the first event's first bytes, as
// json.dump(indent=N) writes them): such a file is streamed rather than
// mapped (ReadOptraceOptions::PlainFileRead::kByLayout).  False when the
// traceEvents array does not open within the prefix.
inline constexpr size_t kLayoutPrefixBytes = 64 << 10;
bool EventsArePrettyPrinted(std::string_view prefix);

}  // namespace optrace_internal
}  // namespace htpscope
