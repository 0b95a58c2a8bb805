#include "formats/optrace.h"

#include <fmt/format.h>
#include <malloc.h>
#include <simdjson.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <string_view>
#include <thread>
#include <variant>

#include "base/errors.h"
#include "formats/byte_source.h"
#include "formats/json_array_chunker.h"
#include "formats/json_util.h"
#include "formats/optrace_line_matcher.h"

namespace htpscope {

const TraceProcess* Optrace::FindProcess(uint32_t pid) const {
  auto it = std::lower_bound(processes.begin(), processes.end(), pid,
                             [](const TraceProcess& p, uint32_t key) { return p.pid < key; });
  return it != processes.end() && it->pid == pid ? &*it : nullptr;
}

std::string_view Optrace::ThreadName(uint32_t pid, uint32_t tid) const {
  auto it = std::lower_bound(threads.begin(), threads.end(), std::pair(pid, tid),
                             [](const TraceThread& t, std::pair<uint32_t, uint32_t> key) {
                               return std::pair(t.pid, t.tid) < key;
                             });
  return it != threads.end() && it->pid == pid && it->tid == tid ? Str(it->name)
                                                                 : std::string_view();
}

namespace {

using simdjson::ondemand::array;
using simdjson::ondemand::object;
using simdjson::ondemand::value;

void AddWarning(Optrace* trace, std::string message);

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

  void Reset() {
    name = ph = cat = {};
    pid = tid = -1;
    ts = dur = 0;
    has_ts = has_dur = has_flow_id = has_args = false;
    flow_id = 0;
    id_text = htp_op_type = data_type = qnn_op_type = qnn_op_name = description = {};
    dims.clear();
    inputs.clear();
    flags = 0;
    rank = zero_offset = start_cycle = duration = dpc = 0;
    has_start = has_duration = has_dpc = false;
    cycles_per_packet = step_size = 0;
    counter_value = 0;
    has_counter_value = false;
    meta_name = opid_text = {};
    sort_index = 0;
    has_sort_index = false;
    field_count = 0;
    op_keys = 0;
    args_text = nullptr;
  }
};

class OptraceParser {
 public:
  OptraceParser(const std::string& path, simdjson::padded_string_view buffer, Optrace* out,
                uint64_t base_offset = 0)
      : path_(path),
        reader_(path, buffer, base_offset),
        out_(out),
        buffer_(buffer),
        text_begin_(buffer.data()),
        text_end_(buffer.data() + buffer.length()) {}
  // Parsing with a worker's `parser`, reused from chunk to chunk.
  OptraceParser(const std::string& path, simdjson::padded_string_view buffer, Optrace* out,
                uint64_t base_offset, simdjson::ondemand::parser* parser)
      : path_(path),
        reader_(path, buffer, base_offset, parser),
        out_(out),
        buffer_(buffer),
        text_begin_(buffer.data()),
        text_end_(buffer.data() + buffer.length()) {}

  void Run() {
    auto root = reader_.Root();
    bool saw_header = false, saw_events = false;
    reader_.Fields(root, "top level", [&](std::string_view key, value v) {
      if (key == "header") {
        out_->version = reader_.CheckHeader(v, "OP_TRACE");
        saw_header = true;
      } else if (key == "traceEvents") {
        ParseEvents(v);
        saw_events = true;
      }
    });
    reader_.set_scope("");
    reader_.ExpectEnd();
    if (!saw_header) throw InputError(path_, "no \"header\" object: not an optrace chrometrace", 0);
    if (!saw_events) throw InputError(path_, "no \"traceEvents\" array", 0);
  }

  // Reads an op event in the writer's exact layout at `text` (ending before
  // `end`) into raw_, as ParseEvent and ParseArgs (ParseCopyArgs for a copy
  // on a per-QNN-op process) would: the same fields, the same values, so
  // that Dispatch() takes it as from the general path.  Returns the bytes of
  // the event, or 0:
  //
  //   { "name": "q::Conv", "ph": "X", "tid": 256, "pid": 0, "ts": 3300, "dur": 1213,
  //     "args": { "ID": "0x0000101200000002","HTP Op Type": "q::Conv","Dims": [1,8],...,
  //     "Dominant Path Cycles": 1213} }                                      (one line)
  //
  // Args keys are the writer's known ones, in any order; strings are
  // printable ASCII without escapes.  Anything else (another key, spacing,
  // escape, number form, an ID or input that is no hex id, a dimension out
  // of range) returns 0, and the general path parses the event (and
  // reports what is wrong with it).
  size_t MatchOpLine(const char* text, const char* end) {
    OpEventPrefix& prefix = op_prefix_;
    if (!MatchOpEventPrefix(text, end, &prefix) || !IsPidOrTid(prefix.pid)) return 0;
    RawEvent& r = raw_;
    r.Reset();
    LineCursor c(text + prefix.pid_end, end);
    if (!(c.Literal(", \"ts\": ") && c.Integer(&r.ts) && c.Literal(", \"dur\": ") &&
          c.Integer(&r.dur) && c.Literal(", \"args\": ")))
      return 0;
    r.args_text = c.at();
    if (!c.Literal("{ ")) return 0;
    auto string = [&](std::string_view* out) { return c.Literal("\"") && c.String(out); };
    for (;;) {
      std::string_view key;
      if (!(string(&key) && c.Literal(": "))) return 0;
      bool ok = false;
      if (IsKey(key, "ID")) {
        ok = string(&r.id_text);
      } else if (IsKey(key, "HTP Op Type")) {
        ok = string(&r.htp_op_type);
      } else if (IsKey(key, "Description")) {
        ok = string(&r.description);
      } else if (IsKey(key, "Data Type")) {
        ok = string(&r.data_type);
      } else if (IsKey(key, "QNN Op Type")) {
        ok = string(&r.qnn_op_type);
      } else if (IsKey(key, "QNN Op Name")) {
        ok = string(&r.qnn_op_name);
      } else if (IsKey(key, "Rank")) {
        ok = c.Integer(&r.rank);
      } else if (IsKey(key, "Zero Offset")) {
        ok = c.Integer(&r.zero_offset);
      } else if (IsKey(key, "Start Cycle")) {
        ok = r.has_start = c.Integer(&r.start_cycle);
      } else if (IsKey(key, "Duration (cycles)")) {
        ok = r.has_duration = c.Integer(&r.duration);
      } else if (IsKey(key, "Dominant Path Cycles")) {
        ok = r.has_dpc = c.Integer(&r.dpc);
      } else if (IsKey(key, "Step Size")) {
        ok = c.Number(&r.step_size);
      } else if (IsKey(key, "Cycles per Packet")) {
        ok = c.Number(&r.cycles_per_packet);
      } else if (IsKey(key, "Dims") || IsKey(key, "Inputs Ops") || IsKey(key, "Flags")) {
        ok = MatchOpLineList(key, c, string);
      }
      if (!ok) return 0;
      if (c.Literal(",")) continue;
      if (c.Literal("} }")) break;
      return 0;
    }
    if (prefix.pid > 0) {
      // A copy: of its args the general path reads only whether they hold
      // a "Start Cycle" key (ParseCopyArgs).
      const int64_t ts = r.ts, dur = r.dur;
      const bool has_start = r.has_start;
      const char* args_text = r.args_text;
      r.Reset();  // keeps the vectors' capacity, unlike a fresh RawEvent
      r.ts = ts;
      r.dur = dur;
      r.has_start = has_start;
      r.args_text = args_text;
    }
    r.name = prefix.name;
    r.ph = "X";
    r.pid = prefix.pid;
    r.tid = prefix.tid;
    r.has_ts = r.has_dur = r.has_args = true;
    r.field_count = 7;
    r.op_keys = RawEvent::kOpKeys;
    return c.consumed(text);
  }

  // The array value of args `key` (Dims, Inputs Ops or Flags) in MatchOpLine.
  template <typename StringReader>
  bool MatchOpLineList(std::string_view key, LineCursor& c, StringReader& string) {
    if (!c.Literal("[")) return false;
    if (c.Literal("]")) return true;
    RawEvent& r = raw_;
    do {
      if (IsKey(key, "Dims")) {
        int64_t dim = 0;
        if (!c.Integer(&dim) || dim < 0 || dim > INT32_MAX) return false;
        r.dims.push_back(static_cast<int32_t>(dim));
        continue;
      }
      std::string_view text;
      if (!string(&text)) return false;
      if (IsKey(key, "Flags")) {
        r.flags |= OpFlagOfName(text);
        continue;
      }
      auto id = ParseHexId(text);
      if (!id) return false;
      r.inputs.push_back(*id);
    } while (c.Literal(","));
    return c.Literal("]");
  }

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
    std::string rest;              // the events TakeFastLines leaves, as JSON
    std::vector<TakenLine> taken;  // the lines it took after the first kept one, in file order
    // The op events it took, as MatchOpLine read them; slots are swapped
    // with raw_, so their vectors keep their capacity from chunk to chunk.
    std::vector<RawEvent> ops;
  };

  // Parses a chunk: a JSON array of trace events.
  void RunChunk(ChunkScratch* scratch) {
    taken_lines_ = &scratch->taken;
    taken_ops_ = &scratch->ops;
    taken_lines_->clear();
    if (TakeFastLines(buffer_.data(), buffer_.length(), &scratch->rest)) {
      const std::string& text = scratch->rest;
      simdjson::padded_string_view rest(text.data(), text.size(), text.capacity());
      reader_.SetBuffer(rest);  // error offsets no longer match the file: the
                                // reader falls back to a whole parse on any error
      text_begin_ = rest.data();
      text_end_ = rest.data() + rest.length();
      check_line_starts_ = true;
    }
    array events = reader_.RootArray();
    ParseEventArray(events);
    reader_.ExpectEnd();
    if (check_line_starts_ && kept_events_ != rest_line_starts_.size())
      Invalid("", "a line holds more than one event");
    if (next_copy_ != pending_copies_.size())
      Invalid("", "an op event copied on another process was not read");
  }

  // Parses the root object's members other than traceEvents (the header).
  void RunOtherMembers() {
    auto root = reader_.Root();
    bool saw_header = false;
    reader_.Fields(root, "top level", [&](std::string_view key, value v) {
      if (key == "header") {
        out_->version = reader_.CheckHeader(v, "OP_TRACE");
        saw_header = true;
      }
    });
    if (!saw_header) throw InputError(path_, "no \"header\" object: not an optrace chrometrace", 0);
  }

 private:
  [[noreturn]] void Fail(simdjson::error_code err, std::string_view context) {
    reader_.set_scope("");
    reader_.Fail(err, Where(context));
  }
  void Check(simdjson::error_code err, std::string_view context) {
    if (err) Fail(err, context);
  }
  [[noreturn]] void Invalid(std::string_view context, std::string_view problem) {
    reader_.Invalid(fmt::format("{}: {}", Where(context), problem));
  }
  std::string Where(std::string_view key) const {
    return fmt::format("traceEvents[{}]{}{}", event_index_, key.empty() ? "" : ".", key);
  }

  void ParseEvents(value events_value) {
    array events = reader_.Array(events_value, "traceEvents");
    ParseEventArray(events);
  }

  void ParseEventArray(array& events) {
    for (auto element : events) {
      value element_value;
      Check(element.get(element_value), "");
      // Counter and flow lines (most events of a big trace) in the writer's
      // exact layout skip the generic parser; the array's iterator steps
      // over an element left unread.
      std::string_view token = element_value.raw_json_token();
      if (check_line_starts_) {
        const auto at = static_cast<size_t>(token.data() - text_begin_);
        if (kept_events_ >= rest_line_starts_.size() || at != rest_line_starts_[kept_events_])
          Invalid("", "an event does not start its own line");
        CommitTakenLines(kept_events_);
        ++kept_events_;
      }
      if (!token.empty() && token.front() == '{') {
        if (TakeFastPathLine(token.data())) {
          ++event_index_;
          continue;
        }
        if (MatchOpLine(token.data(), text_end_)) {  // simdjson skips the unread element
          Dispatch();
          if (check_line_starts_) ResolveCopies(kept_events_ - 1);
          ++event_index_;
          continue;
        }
      }
      object event;
      Check(element_value.get_object().get(event), "expected an object");
      raw_.Reset();
      ParseEvent(event);
      Dispatch();
      if (check_line_starts_) ResolveCopies(kept_events_ - 1);
      ++event_index_;
    }
    CommitTakenLines(SIZE_MAX);
    out_->events_read = event_index_;
  }

  // Adds the lines TakeFastLines took from before the `kept_line`th kept
  // line, in file order.
  void CommitTakenLines(size_t kept_line) {
    if (!taken_lines_) return;
    const std::vector<TakenLine>& taken = *taken_lines_;
    for (; next_taken_ < taken.size() && taken[next_taken_].kept_before <= kept_line;
         ++next_taken_) {
      const TakenLine& line = taken[next_taken_];
      if (line.op != kNoOp) {
        std::swap(raw_, (*taken_ops_)[line.op]);
        Dispatch();
      } else {
        CommitFastLine(line.line);
      }
      ++event_index_;
    }
  }

  // Takes the event at `text` if MatchCounterLine or MatchFlowLine accepts
  // it, with the general path's checks and results.
  bool TakeFastPathLine(const char* text) {
    FastLine line;
    if (!MatchFastLine(text, text_end_, &line)) return false;
    CommitFastLine(line);
    return true;
  }

  // Matches the event at `text`; returns the bytes matched, or 0.  Flows
  // with a pid or tid out of range are left to the general path, which
  // reports them.
  static size_t MatchFastLine(const char* text, const char* end, FastLine* line) {
    if (end - text < 4 || text[2] != '"') return 0;
    if (text[3] == 'n') return MatchCounterLine(text, end, &line->emplace<CounterLine>());
    if (text[3] != 'c') return 0;
    if (size_t matched = MatchMetadataLine(text, end, &line->emplace<MetadataLine>())) {
      const MetadataLine& m = std::get<MetadataLine>(*line);
      // A thread_name needs its tid (RequirePidTid): else the general path reports it.
      const bool tid_ok = m.has_tid ? IsPidOrTid(m.tid) : m.name != "thread_name";
      return IsPidOrTid(m.pid) && tid_ok ? matched : 0;
    }
    const size_t matched = MatchFlowLine(text, end, &line->emplace<FlowLine>());
    const FlowLine& f = std::get<FlowLine>(*line);
    if (!IsPidOrTid(f.pid) || !IsPidOrTid(f.tid)) return 0;
    return matched;
  }

  // Adds a matched line's event, as Dispatch() would.
  void CommitFastLine(const FastLine& line) {
    if (const auto* counter = std::get_if<CounterLine>(&line)) {
      CounterTrack(counter->name).push_back({counter->ts, counter->value});
      return;  // ts relative until FinishOptrace()
    }
    if (const auto* metadata = std::get_if<MetadataLine>(&line)) {
      AddMetadata(*metadata);
      return;
    }
    const FlowLine& f = std::get<FlowLine>(line);
    AddFlow(f.id, f.ts, f.pid, f.tid, f.category, f.is_start);
  }

  // Adds one end of a flow arrow; `pid` and `tid` are already range-checked,
  // `ts` is relative cycles (made absolute in FinishOptrace()).
  void AddFlow(int64_t id, int64_t ts, int64_t pid, int64_t tid, std::string_view category,
               bool is_start) {
    FlowPoint flow;
    flow.flow_id = static_cast<uint64_t>(id);
    flow.ts_cycles = ts;
    flow.pid = static_cast<uint32_t>(pid);
    flow.tid = static_cast<uint32_t>(tid);
    flow.category = InternRepeated(kFlowCategory, category);
    flow.is_start = is_start;
    out_->flows.push_back(flow);
  }

  // Adds a metadata event: a thread's or a process's name, or a process's
  // sort index; other names are ignored.  `pid` (and, for a thread_name,
  // `tid`) are already range-checked.
  void AddMetadata(const MetadataLine& m) {
    const auto pid = static_cast<uint32_t>(m.pid);
    if (m.name == "thread_name") {
      out_->threads.push_back(
          {pid, static_cast<uint32_t>(m.tid), InternRepeated(kThreadName, m.arg_name)});
    } else if (m.name == "process_name") {
      TraceProcess process;
      process.pid = pid;
      process.name = out_->strings.Intern(m.arg_name);
      process.has_name = true;
      if (!m.opid_text.empty()) {
        auto id = ParseHexId(m.opid_text);
        if (id) {
          process.qnn_op_id = *id;
          process.has_op_id = true;
        }
      }
      out_->processes.push_back(process);  // folded by pid in FinishOptrace()
    } else if (m.name == "process_sort_index" && m.has_sort_index) {
      TraceProcess process;
      process.pid = pid;
      process.sort_index = m.sort_index;
      process.has_sort_index = true;
      out_->processes.push_back(process);
    }
  }

  // A pid or tid the model can hold (uint32); -1 stands for a missing one.
  static bool IsPidOrTid(int64_t value) { return value >= 0 && value <= UINT32_MAX; }

  // Times of at most 18 digits (as the line matcher takes): origins and
  // ends computed from them cannot overflow int64.
  static bool InCycleRange(int64_t cycles) {
    constexpr int64_t kMaxCycles = 999'999'999'999'999'999;
    return cycles >= -kMaxCycles && cycles <= kMaxCycles;
  }

  // key == text, with text's length known at compile time.
  template <size_t N>
  static bool IsKey(std::string_view key, const char (&text)[N]) {
    return key.size() == N - 1 && std::memcmp(key.data(), text, N - 1) == 0;
  }

  static bool IsJsonSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

  // Takes the counter and flow lines of a chunk ("[" events "]") out before
  // simdjson sees it, and copies every other line to `rest` as a smaller
  // JSON array.  Returns false (and leaves `rest` unused) when no line was
  // taken.
  //
  // Lines are kept verbatim, so `rest` is valid JSON exactly when the chunk
  // is: a taken line goes with the comma after it, or, as the last element,
  // with the comma before it; a line that would leave a comma dangling or
  // hide a missing one is not taken.  `rest_line_starts_` records where each
  // kept line starts, so that ParseEventArray can check that every kept line
  // holds exactly one event: otherwise a taken line might have sat inside
  // another event, and the chunk fails (and the file is parsed whole).
  bool TakeFastLines(const char* data, size_t length, std::string* rest) {
    if (length < 2 || data[0] != '[' || data[length - 1] != ']') return false;
    const char* p = data + 1;
    const char* const end = data + length - 1;  // the ']'
    rest->clear();
    rest->push_back('[');
    rest_line_starts_.clear();
    size_t taken = 0;
    // Whether what precedes p in the array ends with '[' or ',': a line is
    // only taken when its own separator is in place.
    bool separated = true;
    while (p < end) {
      while (p < end && IsJsonSpace(*p)) ++p;
      if (p >= end) break;
      FastLine line;
      size_t n = 0;
      int64_t copy_pid = 0;  // > 0: the line is a copy of copy_source_'s event
      bool op = false;       // an op event, read into raw_ by MatchOpLine
      if (separated) {
        n = MatchFastLine(p, end, &line);
        if (!n && (n = MatchCopyLine(p, end, &copy_pid)) == 0) copy_pid = 0;
        if (!n) op = (n = MatchOpLine(p, end)) != 0;
      }
      if (n) {
        const char* q = p + n;
        while (q < end && (*q == ' ' || *q == '\t' || *q == '\r')) ++q;
        bool take = false;
        if (q < end && *q == ',') {
          ++q;
          while (q < end && (*q == ' ' || *q == '\t' || *q == '\r')) ++q;
          const char* after = q;
          while (after < end && IsJsonSpace(*after)) ++after;
          take = q < end && *q == '\n' && after < end;  // another element follows
        } else {
          while (q < end && IsJsonSpace(*q)) ++q;
          take = q == end;  // the last element: the comma before it goes too
          if (take) {
            size_t tail = rest->size();
            while (IsJsonSpace((*rest)[tail - 1])) --tail;
            if ((*rest)[tail - 1] == ',') rest->resize(tail - 1);
          }
        }
        if (take) {
          // A pid-0 op event is the source of the copies that follow it.  No
          // nested object in the matched layout: a copy holds a "Start
          // Cycle" key exactly when this event does (ParseCopyArgs).
          if (op && op_prefix_.pid == 0)
            copy_source_ = {p, n, op_prefix_, 0, true, raw_.has_start && raw_.tid != 1};
          if (copy_pid > 0) {
            if (copy_source_.resolved)
              out_->duplicate_slices += copy_source_.executed;
            else
              pending_copies_.push_back(copy_source_.kept_line);
            ++event_index_;
          } else if (rest_line_starts_.empty()) {
            // No line kept before it, so no event parsed later precedes it:
            // added now, in file order, instead of being held for later.
            if (op) {
              Dispatch();
            } else {
              CommitFastLine(line);
            }
            ++event_index_;
          } else {
            // Committed in file order among the kept events (ParseEventArray):
            // the slices, a counter track or the flows must not depend on
            // which lines were taken.
            uint32_t slot = kNoOp;
            if (op) {
              slot = static_cast<uint32_t>(ops_taken_++);
              if (slot == taken_ops_->size()) taken_ops_->emplace_back();
              std::swap((*taken_ops_)[slot], raw_);
            }
            taken_lines_->push_back({line, slot, rest_line_starts_.size()});
          }
          ++taken;
          p = q;
          continue;
        }
      }
      const void* newline = std::memchr(p, '\n', static_cast<size_t>(end - p));
      const char* line_end = newline ? static_cast<const char*>(newline) : end;
      rest_line_starts_.push_back(rest->size());
      rest->append(p, static_cast<size_t>(line_end - p));
      rest->push_back('\n');
      const char* last = line_end;
      while (last > p && IsJsonSpace(last[-1])) --last;
      separated = last[-1] == ',';
      RememberCopySource(p, last, rest_line_starts_.size() - 1);
      p = line_end;
    }
    if (taken == 0) return false;
    rest->push_back(']');
    rest->reserve(rest->size() + simdjson::SIMDJSON_PADDING);
    return true;
  }

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

  // Makes the kept line [text, last) (trailing whitespace cut) the source
  // for later copies when it starts like a pid-0 op event.
  void RememberCopySource(const char* text, const char* last, size_t kept_line) {
    OpEventPrefix prefix;
    if (!MatchOpEventPrefix(text, last, &prefix) || prefix.pid != 0) return;
    if (last[-1] == ',') --last;  // the element ends before its comma
    while (last > text && IsJsonSpace(last[-1])) --last;
    copy_source_ = {text, static_cast<size_t>(last - text), prefix, kept_line, false, false};
  }

  // Matches a line at `text` that is copy_source_'s event with another pid
  // (1..UINT32_MAX).  Returns the bytes of its event, or 0.  Whether the
  // source really is a plain pid-0 op event is only known once simdjson has
  // parsed it: ResolveCopies checks that.
  size_t MatchCopyLine(const char* text, const char* end, int64_t* pid) const {
    const CopySource& source = copy_source_;
    if (!source.text || end - text < 4 || text[3] != 'n') return 0;
    OpEventPrefix prefix;
    if (!MatchOpEventPrefix(text, end, &prefix) || prefix.pid <= 0 || prefix.pid > UINT32_MAX)
      return 0;
    const size_t before_pid = source.prefix.pid_begin;
    const size_t tail = source.element_length - source.prefix.pid_end;
    if (prefix.pid_begin != before_pid || std::memcmp(text, source.text, before_pid) != 0 ||
        static_cast<size_t>(end - text) - prefix.pid_end < tail ||
        std::memcmp(text + prefix.pid_end, source.text + source.prefix.pid_end, tail) != 0)
      return 0;
    *pid = prefix.pid;
    return prefix.pid_end + tail;
  }

  // Counts the copies taken of the kept event just parsed (the
  // `kept_line`th), as AddOpEvent would have counted each.  The copy reads
  // like its source only when the source has each op key once and no other,
  // and is an X event on pid 0; anything else fails the chunk, which is then
  // parsed whole.
  void ResolveCopies(size_t kept_line) {
    if (next_copy_ == pending_copies_.size() || pending_copies_[next_copy_] != kept_line) return;
    if (raw_.field_count != 7 || raw_.op_keys != RawEvent::kOpKeys || raw_.ph != "X" ||
        raw_.pid != 0)
      Invalid("", "an op event copied on another process is not a plain op event");
    // Only ts and dur may follow args: the rest of the line from args on
    // holds a "Start Cycle" key exactly when the args do.
    const char* line_end = kept_line + 1 < rest_line_starts_.size()
                               ? text_begin_ + rest_line_starts_[kept_line + 1]
                               : text_end_;
    const bool executed =
        raw_.tid != 1 && HasStartCycleKey(std::string_view(
                             raw_.args_text, static_cast<size_t>(line_end - raw_.args_text)));
    for (; next_copy_ < pending_copies_.size() && pending_copies_[next_copy_] == kept_line;
         ++next_copy_)
      out_->duplicate_slices += executed;
  }

  void ReadInt(value v, int64_t* out, std::string_view key) {
    auto err = GetInteger(v, out);
    if (err) Fail(err, fmt::format("{}: expected an integer", key));
  }
  void ReadString(value v, std::string_view* out, std::string_view key) {
    auto err = v.get_string().get(*out);
    if (err) Fail(err, fmt::format("{}: expected a string", key));
  }
  void ReadDouble(value v, double* out, std::string_view key) {
    auto err = GetNumber(v, out);
    if (err) Fail(err, fmt::format("{}: expected a number", key));
  }

  void ParseEvent(object& event) {
    for (auto field_result : event) {
      simdjson::ondemand::field field;
      Check(std::move(field_result).get(field), "");
      auto key = field.key();
      // One byte rules out most keys before a full compare.
      const char first = key.raw()[0];
      value v = field.value();
      ++raw_.field_count;
      if (first == 'p' && key == "ph") {
        ReadString(v, &raw_.ph, "ph");
        raw_.op_keys |= RawEvent::kKeyPh;
      } else if (first == 'n' && key == "name") {
        ReadString(v, &raw_.name, "name");
        raw_.op_keys |= RawEvent::kKeyName;
      } else if (first == 'p' && key == "pid") {
        ReadInt(v, &raw_.pid, "pid");
        raw_.op_keys |= RawEvent::kKeyPid;
      } else if (first == 't' && key == "tid") {
        ReadInt(v, &raw_.tid, "tid");
        raw_.op_keys |= RawEvent::kKeyTid;
      } else if (first == 't' && key == "ts") {
        ReadInt(v, &raw_.ts, "ts");
        raw_.has_ts = true;
        raw_.op_keys |= RawEvent::kKeyTs;
      } else if (first == 'd' && key == "dur") {
        ReadInt(v, &raw_.dur, "dur");
        raw_.has_dur = true;
        raw_.op_keys |= RawEvent::kKeyDur;
      } else if (first == 'c' && key == "cat") {
        ReadString(v, &raw_.cat, "cat");
      } else if (first == 'i' && key == "id") {
        ReadInt(v, &raw_.flow_id, "id");
        raw_.has_flow_id = true;
      } else if (first == 'a' && key == "args") {
        raw_.op_keys |= RawEvent::kKeyArgs;
        raw_.args_text = v.raw_json_token().data();
        object args;
        Check(v.get_object().get(args), "args: expected an object");
        raw_.has_args = true;
        // An op event on a per-QNN-op process is a copy of one on pid 0
        // (formats §1.3): only whether it is executed is counted.
        if (raw_.ph == "X" && raw_.pid > 0)
          ParseCopyArgs(args);
        else
          ParseArgs(args);
      }
    }
  }

  // A copy's args are skipped as raw text (far cheaper than walking their
  // fields); only whether they hold a "Start Cycle" key matters.
  void ParseCopyArgs(object& args) {
    std::string_view text;
    Check(args.raw_json().get(text), "args");
    if (HasStartCycleKey(text)) raw_.has_start = true;
  }

  // Whether `text` (starting with the args' '{') holds a "Start Cycle" key.
  // The text search also finds the key in a nested object, which no real
  // file has.
  static bool HasStartCycleKey(std::string_view text) {
    constexpr std::string_view kKey = "\"Start Cycle\"";
    // memmem skips ahead by the whole key; find() would stop at every '"'.
    auto find = [&](size_t from) -> size_t {
      const void* hit = memmem(text.data() + from, text.size() - from, kKey.data(), kKey.size());
      return hit ? static_cast<size_t>(static_cast<const char*>(hit) - text.data())
                 : std::string_view::npos;
    };
    for (size_t at = find(0); at != std::string_view::npos; at = find(at + 1)) {
      size_t after = at + kKey.size();
      while (after < text.size() && IsJsonSpace(text[after])) ++after;
      // A key, not the end of a string value containing an escaped quote.
      if (after < text.size() && text[after] == ':' && at > 0 && text[at - 1] != '\\') return true;
    }
    return false;
  }

  void ParseArgs(object& args) {
    for (auto field_result : args) {
      simdjson::ondemand::field field;
      Check(std::move(field_result).get(field), "args");
      auto key = field.key();
      // One byte rules out most keys before a full compare.
      const char first = key.raw()[0];
      value v = field.value();
      if (first == 'I' && key == "ID") {
        ReadString(v, &raw_.id_text, "args.ID");
      } else if (first == 'S' && key == "Start Cycle") {
        ReadInt(v, &raw_.start_cycle, "args.\"Start Cycle\"");
        raw_.has_start = true;
      } else if (first == 'D' && key == "Duration (cycles)") {
        ReadInt(v, &raw_.duration, "args.\"Duration (cycles)\"");
        raw_.has_duration = true;
      } else if (first == 'D' && key == "Dominant Path Cycles") {
        ReadInt(v, &raw_.dpc, "args.\"Dominant Path Cycles\"");
        raw_.has_dpc = true;
      } else if (first == 'H' && key == "HTP Op Type") {
        ReadString(v, &raw_.htp_op_type, "args.\"HTP Op Type\"");
      } else if (first == 'Q' && key == "QNN Op Name") {
        ReadString(v, &raw_.qnn_op_name, "args.\"QNN Op Name\"");
      } else if (first == 'Q' && key == "QNN Op Type") {
        ReadString(v, &raw_.qnn_op_type, "args.\"QNN Op Type\"");
      } else if (first == 'D' && key == "Data Type") {
        ReadString(v, &raw_.data_type, "args.\"Data Type\"");
      } else if (first == 'D' && key == "Description") {
        ReadString(v, &raw_.description, "args.Description");
      } else if (first == 'C' && key == "Cycles per Packet") {
        ReadDouble(v, &raw_.cycles_per_packet, "args.\"Cycles per Packet\"");
      } else if (first == 'S' && key == "Step Size") {
        ReadDouble(v, &raw_.step_size, "args.\"Step Size\"");
      } else if (first == 'Z' && key == "Zero Offset") {
        ReadInt(v, &raw_.zero_offset, "args.\"Zero Offset\"");
      } else if (first == 'R' && key == "Rank") {
        ReadInt(v, &raw_.rank, "args.Rank");
      } else if (first == 'D' && key == "Dims") {
        array dims;
        Check(v.get_array().get(dims), "args.Dims: expected an array");
        for (auto d : dims) {
          int64_t dim = 0;
          value dv;
          Check(d.get(dv), "args.Dims");
          ReadInt(dv, &dim, "args.Dims[]");
          if (dim < 0 || dim > INT32_MAX)
            Invalid("args.Dims[]", fmt::format("dimension {} out of range", dim));
          raw_.dims.push_back(static_cast<int32_t>(dim));
        }
      } else if (first == 'I' && key == "Inputs Ops") {
        array inputs;
        Check(v.get_array().get(inputs), "args.\"Inputs Ops\": expected an array");
        for (auto in : inputs) {
          std::string_view text;
          Check(in.get_string().get(text), "args.\"Inputs Ops\"[]: expected a string");
          auto id = ParseHexId(text);
          if (!id) Invalid("args.\"Inputs Ops\"[]", fmt::format("\"{}\" is not a hex id", text));
          raw_.inputs.push_back(*id);
        }
      } else if (first == 'F' && key == "Flags") {
        array flags;
        Check(v.get_array().get(flags), "args.Flags: expected an array");
        for (auto f : flags) {
          std::string_view text;
          Check(f.get_string().get(text), "args.Flags[]: expected a string");
          raw_.flags |= OpFlagOfName(text);
        }
      } else if (first == '"' && key == "") {
        ReadInt(v, &raw_.counter_value, "args.\"\"");
        raw_.has_counter_value = true;
      } else if (first == 'n' && key == "name") {
        ReadString(v, &raw_.meta_name, "args.name");
      } else if (first == 'o' && key == "opid") {
        ReadString(v, &raw_.opid_text, "args.opid");
      } else if (first == 's' && key == "sort_index") {
        ReadInt(v, &raw_.sort_index, "args.sort_index");
        raw_.has_sort_index = true;
      }
    }
  }

  void RequirePidTid(bool need_tid) {
    if (!IsPidOrTid(raw_.pid)) Invalid("pid", "missing or out of range");
    if (need_tid && !IsPidOrTid(raw_.tid)) Invalid("tid", "missing or out of range");
  }

  void Dispatch() {
    const auto& ph = raw_.ph;
    if (raw_.has_ts && !InCycleRange(raw_.ts)) Invalid("ts", "out of range");
    if (ph == "X") {
      AddOpEvent();
    } else if (ph == "C") {
      if (!raw_.has_ts || !raw_.has_counter_value) {
        Warn(fmt::format("{}: counter without ts or value under key \"\"; skipped", Where("")));
        return;
      }
      CounterTrack(raw_.name).push_back({raw_.ts, raw_.counter_value});  // relative ts until
                                                                         // FinishOptrace()
    } else if (ph == "s" || ph == "f") {
      RequirePidTid(true);
      if (!raw_.has_flow_id || !raw_.has_ts) {
        Warn(fmt::format("{}: flow event without id or ts; skipped", Where("")));
        return;
      }
      AddFlow(raw_.flow_id, raw_.ts, raw_.pid, raw_.tid, raw_.cat, ph == "s");
    } else if (ph == "M") {
      RequirePidTid(false);
      if (raw_.name == "thread_name") RequirePidTid(true);
      MetadataLine m;
      m.name = raw_.name;
      m.pid = raw_.pid;
      m.tid = raw_.tid;
      m.has_tid = raw_.tid >= 0;
      m.arg_name = raw_.meta_name;
      m.opid_text = raw_.opid_text;
      m.sort_index = raw_.sort_index;
      m.has_sort_index = raw_.has_sort_index;
      AddMetadata(m);
    }
    // Other phases (none seen in real files) are ignored.
  }

  void AddOpEvent() {
    RequirePidTid(true);
    if (!raw_.has_ts || !raw_.has_dur) Invalid("", "X event without \"ts\" or \"dur\"");
    if (raw_.dur < 0)
      Invalid("dur",
              fmt::format("negative duration {} (the event ends before it starts)", raw_.dur));
    if (!InCycleRange(raw_.dur)) Invalid("dur", "out of range");
    if (raw_.has_start && !InCycleRange(raw_.start_cycle))
      Invalid("args.\"Start Cycle\"", "out of range");
    uint64_t id = 0;
    if (!raw_.id_text.empty()) {
      auto parsed = ParseHexId(raw_.id_text);
      if (!parsed) Invalid("args.ID", fmt::format("\"{}\" is not a hex id", raw_.id_text));
      id = *parsed;
    }
    bool executed = raw_.has_start && raw_.tid != 1;
    if (raw_.pid != 0) {
      if (executed) ++out_->duplicate_slices;
      return;
    }
    if (!executed) {
      out_->non_executed.push_back({id, out_->strings.Intern(raw_.name), raw_.ts});
      return;
    }
    OpSlice s;
    s.op_id = id;
    s.start_cycles = raw_.ts;  // relative until Finish()
    s.dur_cycles = raw_.dur;
    s.op_start_cycles = raw_.start_cycle;
    s.op_duration_cycles = raw_.has_duration ? raw_.duration : raw_.dur;
    s.dpc_cycles = raw_.dpc;
    s.cycles_per_packet = raw_.cycles_per_packet;
    s.step_size = raw_.step_size;
    s.zero_offset = raw_.zero_offset;
    s.tid = static_cast<uint32_t>(raw_.tid);
    s.htp_op_type =
        InternRepeated(kHtpOpType, raw_.htp_op_type.empty() ? raw_.name : raw_.htp_op_type);
    s.qnn_op_name = InternRepeated(kQnnOpName, raw_.qnn_op_name);
    s.qnn_op_type = InternRepeated(kQnnOpType, raw_.qnn_op_type);
    s.data_type = InternRepeated(kDataType, raw_.data_type);
    s.description = InternDescription(s.htp_op_type, raw_.description);
    s.dims_begin = static_cast<uint32_t>(out_->dims.size());
    s.dims_count = static_cast<uint32_t>(raw_.dims.size());
    out_->dims.insert(out_->dims.end(), raw_.dims.begin(), raw_.dims.end());
    s.inputs_begin = static_cast<uint32_t>(out_->input_ids.size());
    s.inputs_count = static_cast<uint32_t>(raw_.inputs.size());
    out_->input_ids.insert(out_->input_ids.end(), raw_.inputs.begin(), raw_.inputs.end());
    s.rank = static_cast<int32_t>(raw_.rank);
    s.flags = raw_.flags;
    out_->slices.push_back(s);
  }

  void Warn(std::string message) { AddWarning(out_, std::move(message)); }

  // The samples of counter `name`.  Millions of samples share a handful of
  // names: remember the tracks seen instead of a map lookup per sample.
  std::vector<CounterSample>& CounterTrack(std::string_view name) {
    for (auto& [known, track] : recent_counters_)
      if (known == name) return *track;
    auto it = out_->counters.find(name);
    if (it == out_->counters.end())
      it = out_->counters.emplace(std::string(name), std::vector<CounterSample>()).first;
    // Map nodes never move, so the name and track stay valid.
    if (recent_counters_.size() < 16) recent_counters_.emplace_back(it->first, &it->second);
    return it->second;
  }

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
  StringId InternRepeated(RepeatedField field, std::string_view text) {
    auto& [last_text, last_id] = last_interned_[field];
    if (last_id != kNoId && text == last_text) return last_id;
    last_id = out_->strings.Intern(text);
    last_text = out_->strings.View(last_id);  // the pool's copy stays valid
    return last_id;
  }

  // An HTP op type's description repeats on every slice of that type: intern
  // it once per type, not once per slice.
  StringId InternDescription(StringId htp_op_type, std::string_view text) {
    if (htp_op_type >= descriptions_.size()) descriptions_.resize(htp_op_type + 1);
    std::optional<StringId>& known = descriptions_[htp_op_type];
    if (!known || out_->strings.View(*known) != text) known = out_->strings.Intern(text);
    return *known;
  }

  const std::string& path_;
  JsonReader reader_;
  Optrace* out_;
  simdjson::padded_string_view buffer_;
  const char* text_begin_;  // the JSON text being parsed
  const char* text_end_;
  std::vector<size_t> rest_line_starts_;           // see TakeFastLines
  CopySource copy_source_;                         // see MatchCopyLine
  std::vector<size_t> pending_copies_;             // kept line of each copy taken, in order
  std::vector<TakenLine>* taken_lines_ = nullptr;  // RunChunk's, in file order
  std::vector<RawEvent>* taken_ops_ = nullptr;     // RunChunk's
  size_t ops_taken_ = 0;                           // slots of taken_ops_ in use
  OpEventPrefix op_prefix_;                        // of the line MatchOpLine read last
  size_t next_taken_ = 0;                          // the first not yet committed
  size_t next_copy_ = 0;                           // the first not yet counted
  bool check_line_starts_ = false;
  size_t kept_events_ = 0;  // events parsed from the kept lines
  RawEvent raw_;
  uint64_t event_index_ = 0;
  std::vector<std::pair<std::string_view, std::vector<CounterSample>*>> recent_counters_;
  std::vector<std::optional<StringId>> descriptions_;  // by HTP op type
  static constexpr StringId kNoId = UINT32_MAX;
  std::pair<std::string_view, StringId> last_interned_[kRepeatedFields] = {
      {{}, kNoId}, {{}, kNoId}, {{}, kNoId}, {{}, kNoId}, {{}, kNoId}, {{}, kNoId}};
};

void AddWarning(Optrace* trace, std::string message) {
  if (trace->warnings.size() < 20) trace->warnings.push_back(std::move(message));
}

// Sorts metadata records by pid, keeping file order among equal pids.
// Per-QNN-op processes are numbered densely from 0, so a counting sort
// takes one pass; sparse pids fall back to a merge sort.
template <typename Record>
void StableSortByPid(std::vector<Record>& records) {
  auto by_pid = [](const Record& a, const Record& b) { return a.pid < b.pid; };
  if (std::is_sorted(records.begin(), records.end(), by_pid)) return;
  uint32_t max_pid = 0;
  for (const Record& r : records) max_pid = std::max(max_pid, r.pid);
  if (max_pid > 4 * records.size() + 1024) {
    std::stable_sort(records.begin(), records.end(), by_pid);
    return;
  }
  std::vector<uint32_t> next(size_t{max_pid} + 2, 0);  // next[pid]: where its next record goes
  for (const Record& r : records) ++next[r.pid + 1];
  std::partial_sum(next.begin(), next.end(), next.begin());
  std::vector<Record> sorted(records.size());
  for (const Record& r : records) sorted[next[r.pid]++] = r;
  records.swap(sorted);
}

// Folds the metadata records, in file order, into one process per pid and
// one thread per (pid, tid); a later event's fields win.
void FoldMetadata(Optrace* out) {
  auto& processes = out->processes;
  StableSortByPid(processes);
  size_t kept = 0;
  for (size_t i = 0; i < processes.size(); ++i) {
    const TraceProcess& p = processes[i];
    if (kept == 0 || processes[kept - 1].pid != p.pid) {
      processes[kept++] = p;
      continue;
    }
    TraceProcess& into = processes[kept - 1];
    if (p.has_name) {
      into.name = p.name;
      into.has_name = true;
    }
    if (p.has_op_id) {
      into.qnn_op_id = p.qnn_op_id;
      into.has_op_id = true;
    }
    if (p.has_sort_index) {
      into.sort_index = p.sort_index;
      into.has_sort_index = true;
    }
  }
  processes.resize(kept);
  processes.shrink_to_fit();
  auto& threads = out->threads;
  auto key = [](const TraceThread& t) { return std::pair(t.pid, t.tid); };
  auto by_key = [&](const TraceThread& a, const TraceThread& b) { return key(a) < key(b); };
  if (!std::is_sorted(threads.begin(), threads.end(), by_key)) {
    StableSortByPid(threads);
    // Then each process's few threads by tid.
    auto by_tid = [](const TraceThread& a, const TraceThread& b) { return a.tid < b.tid; };
    for (auto run = threads.begin(); run != threads.end();) {
      auto run_end =
          std::find_if(run, threads.end(), [&](const TraceThread& t) { return t.pid != run->pid; });
      if (!std::is_sorted(run, run_end, by_tid)) std::stable_sort(run, run_end, by_tid);
      run = run_end;
    }
  }
  kept = 0;
  for (const TraceThread& t : threads) {
    if (kept && key(threads[kept - 1]) == key(t))
      threads[kept - 1] = t;  // the later name wins
    else
      threads[kept++] = t;
  }
  threads.resize(kept);
  threads.shrink_to_fit();
}

// The difference Start Cycle − ts shared by more than half of `slices`, if
// one is (Boyer–Moore majority vote: two passes, no sort).
std::optional<int64_t> MajorityOriginCycles(const std::vector<OpSlice>& slices) {
  if (slices.empty()) return std::nullopt;
  int64_t candidate = 0;
  size_t votes = 0;
  for (const auto& s : slices) {
    const int64_t d = s.op_start_cycles - s.start_cycles;
    if (votes == 0) candidate = d;
    votes = d == candidate ? votes + 1 : votes - 1;
  }
  size_t agreeing = 0;
  for (const auto& s : slices) agreeing += s.op_start_cycles - s.start_cycles == candidate;
  if (2 * agreeing > slices.size()) return candidate;
  return std::nullopt;
}

// Adds `cycles` to every ts-derived time of `trace` (slices, flows, counter
// samples).
void ShiftTimes(Optrace* trace, int64_t cycles) {
  if (cycles == 0) return;
  for (auto& s : trace->slices) s.start_cycles += cycles;
  for (auto& f : trace->flows) f.ts_cycles += cycles;
  for (auto& [name, samples] : trace->counters)
    for (auto& c : samples) c.ts_cycles += cycles;
}

// Recovers the ts origin and turns relative ts into absolute cycles.
// `added_cycles` is what the caller already added to every time (a
// provisional origin applied while merging; 0 when times are still relative).
// `agreeing_slices`, when known, counts the slices whose Start Cycle equals
// their time as it stands: more than half settle the origin without a pass.
void FinishOptrace(Optrace* out, int64_t added_cycles = 0, size_t agreeing_slices = 0) {
  // The metadata (hundreds of thousands of per-op processes to sort) is
  // independent of the times: folded on a second core meanwhile.
  auto metadata_folded = std::async(std::launch::async, [out] { FoldMetadata(out); });
  // ts + origin == Start Cycle holds for every single-slice op and for one
  // slice of each multi-slice op; the most common difference is the origin.
  // A difference shared by more than half the slices is the most common
  // one: a majority vote settles the usual case without sorting.
  std::optional<int64_t> majority = 2 * agreeing_slices > out->slices.size()
                                        ? std::optional<int64_t>(0)
                                        : MajorityOriginCycles(out->slices);
  std::vector<int64_t> differences;
  if (!majority) {
    differences.reserve(out->slices.size());
    for (const auto& s : out->slices) differences.push_back(s.op_start_cycles - s.start_cycles);
  }
  if (majority) {
    out->origin_cycles = added_cycles + *majority;
    out->origin_known = true;
  } else if (!differences.empty()) {
    std::sort(differences.begin(), differences.end());
    int64_t best = differences[0];
    size_t best_run = 0;
    for (size_t i = 0; i < differences.size();) {
      size_t j = i;
      while (j < differences.size() && differences[j] == differences[i]) ++j;
      if (j - i > best_run) {
        best_run = j - i;
        best = differences[i];
      }
      i = j;
    }
    out->origin_cycles = added_cycles + best;
    out->origin_known = true;
  } else {
    out->origin_cycles = 0;  // no slice: times stay relative
  }
  ShiftTimes(out, out->origin_cycles - added_cycles);
  for (auto& [name, samples] : out->counters) {
    auto earlier = [](const CounterSample& a, const CounterSample& b) {
      return a.ts_cycles < b.ts_cycles;
    };
    // Tracks are written in time order: sorting millions of sorted samples
    // would cost a merge sort's buffer and passes for nothing.
    if (!std::is_sorted(samples.begin(), samples.end(), earlier))
      std::stable_sort(samples.begin(), samples.end(), earlier);
  }
  metadata_folded.get();
  if (out->duplicate_slices != 0 && out->duplicate_slices != out->slices.size())
    AddWarning(
        out, fmt::format(
                 "{} executed slices on the overview process but {} copies on per-QNN-op processes",
                 out->slices.size(), out->duplicate_slices));
}

// Appends a chunk's events (parsed with its own string pool) to `into`, in
// file order, remapping string ids and pool offsets.
// Makes room for `more` elements.  `expected_total` (0: unknown) is the
// final size extrapolated from the bytes read so far: reserving it once
// avoids the copies of geometric growth, whose old and new arrays are both
// resident at the peak; capacity never touched costs no memory.
template <typename T>
void Reserve(std::vector<T>* v, size_t more, size_t expected_total) {
  const size_t needed = v->size() + more;
  if (needed <= v->capacity()) return;
  v->reserve(std::max({needed, expected_total, 2 * v->capacity()}));
}

// Appends `from` to `to`, mapping each element's string id `name` through
// `id_map` (a chunk's pool ids to the merged pool's).
template <typename T>
void AppendRemapped(const std::vector<T>& from, StringId T::*name,
                    const std::vector<StringId>& id_map, std::vector<T>* to) {
  for (T item : from) {
    item.*name = id_map[item.*name];
    to->push_back(item);
  }
}

// Times are made absolute while merging, with the origin voted by the first
// chunk that settles one: FinishOptrace then only corrects them when the
// whole file votes otherwise, instead of a serial pass over every sample.
struct ProvisionalOrigin {
  int64_t cycles = 0;  // added to every time merged so far
  bool chosen = false;
  size_t agreeing_slices = 0;  // merged slices whose Start Cycle equals their time
};

// How the file's size compares with a chunk's position and length, for
// extrapolating the final size of the arrays a chunk is merged into.
struct ChunkExtent {
  double growth = 0;            // total bytes ÷ bytes through this chunk; 0: unknown
  double chunks_remaining = 0;  // bytes after this chunk ÷ this chunk's bytes
};

void MergeChunk(Optrace&& part, Optrace* into, ProvisionalOrigin* origin, ChunkExtent extent = {}) {
  if (!origin->chosen) {
    if (auto majority = MajorityOriginCycles(part.slices)) {
      origin->cycles = *majority;
      origin->chosen = true;
      ShiftTimes(into, origin->cycles);  // the chunks merged before this one
      for (const OpSlice& s : into->slices)
        origin->agreeing_slices += s.op_start_cycles == s.start_cycles;
    }
  }
  ShiftTimes(&part, origin->cycles);

  // The larger of two extrapolations: as dense as the file so far, or as
  // dense as this chunk till the end.  Events come in sections (formats
  // §1.8: ops, then flows, then counters), so an array's first elements may
  // come late; the first alone would grow it by doubling from there, each
  // step copied to fresh pages.  An overestimate costs address space only.
  auto expected = [&](size_t merged_after, size_t from_part) {
    const double so_far = static_cast<double>(merged_after) * extent.growth;
    const double from_here = static_cast<double>(merged_after) +
                             static_cast<double>(from_part) * extent.chunks_remaining;
    return extent.growth > 0 ? static_cast<size_t>(std::max(so_far, from_here) * 1.05) : 0;
  };
  // The pool's hash index is written when reserved, so it is reserved
  // from the density so far only.
  into->strings.Reserve(expected(into->strings.size() + part.strings.size(), 0));
  const std::vector<StringId> id_map = into->strings.InternAll(part.strings);

  // Every array grows once to its extrapolated size, not by doubling.
  auto reserve = [&](auto* into_array, const auto& part_array) {
    Reserve(into_array, part_array.size(),
            expected(into_array->size() + part_array.size(), part_array.size()));
  };
  reserve(&into->dims, part.dims);
  reserve(&into->input_ids, part.input_ids);
  reserve(&into->slices, part.slices);
  reserve(&into->flows, part.flows);
  reserve(&into->non_executed, part.non_executed);
  reserve(&into->processes, part.processes);
  reserve(&into->threads, part.threads);
  const auto dims_offset = static_cast<uint32_t>(into->dims.size());
  const auto inputs_offset = static_cast<uint32_t>(into->input_ids.size());
  into->dims.insert(into->dims.end(), part.dims.begin(), part.dims.end());
  into->input_ids.insert(into->input_ids.end(), part.input_ids.begin(), part.input_ids.end());
  size_t agreeing = 0;
  for (OpSlice s : part.slices) {
    agreeing += s.op_start_cycles == s.start_cycles;
    s.htp_op_type = id_map[s.htp_op_type];
    s.qnn_op_name = id_map[s.qnn_op_name];
    s.qnn_op_type = id_map[s.qnn_op_type];
    s.data_type = id_map[s.data_type];
    s.description = id_map[s.description];
    s.dims_begin += dims_offset;
    s.inputs_begin += inputs_offset;
    into->slices.push_back(s);
  }
  if (origin->chosen) origin->agreeing_slices += agreeing;
  AppendRemapped(part.non_executed, &NonExecutedTensor::name, id_map, &into->non_executed);
  AppendRemapped(part.flows, &FlowPoint::category, id_map, &into->flows);
  for (auto& [name, samples] : part.counters) {
    auto& target = into->counters[name];
    reserve(&target, samples);
    target.insert(target.end(), samples.begin(), samples.end());
  }
  AppendRemapped(part.processes, &TraceProcess::name, id_map, &into->processes);
  AppendRemapped(part.threads, &TraceThread::name, id_map, &into->threads);
  into->duplicate_slices += part.duplicate_slices;
  into->events_read += part.events_read;
  for (auto& w : part.warnings) AddWarning(into, std::move(w));
}

Optrace ParseWhole(const std::string& path, simdjson::padded_string_view buffer) {
  Optrace trace;
  trace.path = path;
  OptraceParser(path, buffer, &trace).Run();
  FinishOptrace(&trace);
  return trace;
}

// Parses chunks on worker threads and merges them in file order as they
// complete, so that at most `max_in_flight` chunks are held at once.
class ParallelOptraceReader {
 public:
  ParallelOptraceReader(const std::string& path, const ReadOptraceOptions& options)
      : path_(path), options_(options) {}

  // Returns false when chunking or any chunk failed: parse whole instead.
  bool Run(Optrace* out) {
    out_ = out;
    out->path = path_;
    // Plain files are parsed in place through a mapping; gzip is streamed.
    std::unique_ptr<MappedFile> mapped = MappedFile::Open(path_);
    std::unique_ptr<ByteSource> source;
    std::optional<JsonArrayChunker> chunker;
    if (mapped) {
      chunker.emplace(*mapped, "traceEvents", options_.chunk_bytes);
      file_bytes_ = mapped->size();
    } else {
      source = OpenByteSource(path_);
      chunker.emplace(*source, "traceEvents", options_.chunk_bytes);
      std::error_code ec;
      const uint64_t size = std::filesystem::file_size(path_, ec);
      if (!ec) (source->compressed() ? compressed_file_bytes_ : file_bytes_) = size;
    }
    chunker_ = &*chunker;
    unsigned threads =
        options_.threads ? options_.threads : std::max(1u, std::thread::hardware_concurrency());
    max_in_flight_ = 2 * threads + 2;
    for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { Work(); });
    bool ok = true;
    try {
      while (ok) {
        std::optional<JsonChunk> chunk = chunker->Next();
        if (!chunk) break;
        // Finished chunks count against the in-flight bound until a worker
        // has merged them.
        for (;;) {
          std::unique_lock lock(mutex_);
          if (failed_) {
            ok = false;
            break;
          }
          if (queue_.size() + busy_ + done_.size() < max_in_flight_) {
            queue_.push_back(std::move(*chunk));
            work_.notify_one();
            break;
          }
          space_.wait(lock);  // a worker finishing a chunk wakes us
        }
      }
    } catch (const ChunkingNotPossible&) {
      ok = false;
    } catch (const InputError&) {
      ok = false;  // I/O and gzip errors are reported by the whole-file read
    }
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
      if (!ok) failed_ = true;
    }
    work_.notify_all();
    for (auto& w : workers_) w.join();
    merging_ = true;  // the workers are gone: this thread merges what is left
    ok = ok && !failed_ && MergeReady() && done_.empty();
    if (!ok) return false;
    // The header (and any other member) lies outside the streamed array.
    const std::string& others = chunker->other_members();
    simdjson::padded_string other_buffer(others);
    try {
      OptraceParser(path_, other_buffer, out).RunOtherMembers();
    } catch (const InputError&) {
      return false;  // reported with the right offset by the whole-file parse
    }
    FinishOptrace(out, origin_.cycles, origin_.agreeing_slices);
    return true;
  }

 private:
  void Work() {
    simdjson::ondemand::parser parser;    // its buffers serve every chunk of this worker
    OptraceParser::ChunkScratch scratch;  // likewise for TakeFastLines' output
    for (;;) {
      JsonChunk chunk;
      {
        std::unique_lock lock(mutex_);
        work_.wait(lock, [&] { return !queue_.empty() || closing_; });
        if (queue_.empty()) return;
        chunk = std::move(queue_.front());
        queue_.pop_front();
        ++busy_;
      }
      auto part = std::make_unique<Optrace>();
      bool chunk_ok = true;
      try {
        OptraceParser(path_, chunk.view(), part.get(), chunk.file_offset, &parser)
            .RunChunk(&scratch);
      } catch (const InputError&) {
        chunk_ok = false;
      }
      chunker_->Recycle(std::move(chunk));  // reuse the bytes for a later chunk
      bool merge = false;
      {
        std::lock_guard lock(mutex_);
        --busy_;
        if (!chunk_ok)
          failed_ = true;
        else
          done_.emplace(chunk.index, Done{std::move(part), chunk.file_offset + chunk.length,
                                          chunk.length, ExpectedTotalBytes(chunk)});
        // Merging runs on the workers, one at a time, so that the thread
        // feeding chunks (and inflating gzip) does nothing else.
        merge = !merging_ && !failed_;
        if (merge) merging_ = true;
      }
      space_.notify_all();
      if (merge) MergeReady();
    }
  }

  // Merges the completed chunks that continue the file order into out_.
  // Called by the holder of merging_, which it releases (under the same lock
  // as the last look at done_, so no finished chunk is left unmerged).
  bool MergeReady() {
    for (;;) {
      Done done;
      {
        std::lock_guard lock(mutex_);
        if (failed_) {
          merging_ = false;
          return false;
        }
        auto it = done_.find(next_merge_);
        if (it == done_.end()) {
          merging_ = false;
          return true;
        }
        done = std::move(it->second);
        done_.erase(it);
        ++next_merge_;
      }
      space_.notify_all();
      ChunkExtent extent;
      if (done.expected_total_bytes && done.end_offset && done.length) {
        const auto total = static_cast<double>(done.expected_total_bytes);
        const auto end = static_cast<double>(done.end_offset);
        extent.growth = total / end;
        extent.chunks_remaining = std::max(0.0, total - end) / static_cast<double>(done.length);
      }
      MergeChunk(std::move(*done.part), out_, &origin_, extent);
      ++out_->chunks_parsed;
    }
  }

  const std::string& path_;
  ReadOptraceOptions options_;
  Optrace* out_ = nullptr;               // touched only by the holder of merging_
  ProvisionalOrigin origin_;             // likewise
  JsonArrayChunker* chunker_ = nullptr;  // outlives the workers (joined in Run)
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_, space_;
  std::deque<JsonChunk> queue_;
  // The bytes of the whole (decompressed) file, as known when `chunk` was
  // cut: a plain file's size, or for gzip the bytes read so far scaled by
  // the compressed bytes left; 0 when unknown.
  uint64_t ExpectedTotalBytes(const JsonChunk& chunk) const {
    if (file_bytes_) return file_bytes_;
    if (!compressed_file_bytes_ || !chunk.source_bytes) return 0;
    return static_cast<uint64_t>(static_cast<double>(chunk.read_bytes) *
                                 static_cast<double>(compressed_file_bytes_) /
                                 static_cast<double>(chunk.source_bytes));
  }

  struct Done {
    std::unique_ptr<Optrace> part;
    uint64_t end_offset = 0;            // file offset just past the chunk
    uint64_t length = 0;                // the chunk's bytes
    uint64_t expected_total_bytes = 0;  // ExpectedTotalBytes
  };
  std::map<uint64_t, Done> done_;       // by chunk index
  uint64_t file_bytes_ = 0;             // plain files: their size; 0 for gzip (unknown)
  uint64_t compressed_file_bytes_ = 0;  // gzip files: their size on disk
  uint64_t next_merge_ = 0;
  size_t busy_ = 0;
  size_t max_in_flight_ = 2;
  bool closing_ = false;
  bool failed_ = false;
  bool merging_ = false;  // a thread is merging into out_
};

}  // namespace

Optrace ReadOptrace(const std::string& path, const ReadOptraceOptions& options) {
  {
    Optrace trace;
    if (ParallelOptraceReader(path, options).Run(&trace)) {
      // The workers' parsers, scratch text and chunk parts are freed now, but
      // glibc keeps freed memory in the workers' arenas, where the analyses
      // that follow (on this thread) cannot reuse it: hand it back.
      malloc_trim(0);
      return trace;
    }
  }
  LoadedFile file = ReadWholeFile(path);
  return ParseWhole(path, file.bytes);
}

Optrace ParseOptrace(const std::string& path, const char* json, size_t length) {
  simdjson::padded_string buffer(json, length);
  return ParseWhole(path, buffer);
}

}  // namespace htpscope
