// The optrace reader's pre-pass: before simdjson sees a chunk, the lines in
// the optrace writer's exact layout (counter samples, flow ends, metadata,
// op events and their copies on per-QNN-op processes) are read by strict
// matchers into the same records the general path fills, and the rest of
// the chunk is left to simdjson.  A pure optimisation: a line is only taken
// when the result is exactly the general path's, and any doubt declines the
// pre-pass for the chunk (FastPathDeclined), which is then parsed again
// without it.
#include <algorithm>
#include <cstring>

#include "formats/json_structure.h"
#include "formats/optrace_parser.h"

namespace htpscope::optrace_internal {

template <typename StringReader>
bool OptraceParser::MatchOpLineList(std::string_view key, LineCursor& c, StringReader& string) {
  if (!c.Literal<"[">()) return false;
  if (c.Literal<"]">()) return true;
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
  } while (c.Literal<",">());
  return c.Literal<"]">();
}

size_t OptraceParser::MatchOpLine(const char* text, const char* end) {
  OpEventPrefix& prefix = op_prefix_;
  if (!MatchOpEventPrefix(text, end, &prefix) || !IsPidOrTid(prefix.pid)) return 0;
  RawEvent& r = raw_;
  r.Reset();
  LineCursor c(text + prefix.pid_end, end);
  if (!(c.Literal<", \"ts\": ">() && c.Integer(&r.ts) && c.Literal<", \"dur\": ">() &&
        c.Integer(&r.dur) && c.Literal<", \"args\": ">()))
    return 0;
  r.args_text = c.at();
  if (!c.Literal<"{ ">()) return 0;
  auto string = [&](std::string_view* out) { return c.Literal<"\"">() && c.String(out); };
  for (;;) {
    std::string_view key;
    if (!(string(&key) && c.Literal<": ">())) return 0;
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
    if (c.Literal<",">()) continue;
    if (c.Literal<"} }">()) break;
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

void OptraceParser::CommitTakenLines(size_t kept_line) {
  if (!taken_lines_) return;
  const std::vector<TakenLine>& taken = *taken_lines_;
  for (; next_taken_ < taken.size() && taken[next_taken_].kept_before <= kept_line; ++next_taken_) {
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

bool OptraceParser::TakeFastPathLine(const char* text) {
  FastLine line;
  if (!MatchFastLine(text, text_end_, &line)) return false;
  CommitFastLine(line);
  return true;
}

size_t OptraceParser::MatchFastLine(const char* text, const char* end, FastLine* line) {
  const char first = FirstKeyLetter(text, end);
  if (first == 'n') return MatchCounterLine(text, end, &line->emplace<CounterLine>());
  if (first != 'c') return 0;
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

void OptraceParser::CommitFastLine(const FastLine& line) {
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

bool OptraceParser::TakeFastLines(const char* data, size_t length, std::string* rest) {
  if (length < 2 || data[0] != '[' || data[length - 1] != ']') return false;
  const char* p = data + 1;
  const char* const end = data + length - 1;  // the ']'
  rest->clear();
  rest->push_back('[');
  rest_line_starts_.clear();
  size_t taken = 0;
  // Whether what precedes p in the array is '[' or ',': an event is only
  // taken when its own separator is in place.
  bool separated = true;
  while (p < end) {
    while (p < end && IsJsonSpace(*p)) ++p;
    if (p >= end) break;
    FastLine line;
    size_t n = 0;
    int64_t copy_pid = 0;  // > 0: the event is a copy of copy_source_'s
    bool op = false;       // an op event, read into raw_ by MatchOpLine
    if (separated) {
      n = MatchFastLine(p, end, &line);
      if (!n && (n = MatchCopyLine(p, end, &copy_pid)) == 0) copy_pid = 0;
      if (!n) op = (n = MatchOpLine(p, end)) != 0;
    }
    if (n) {
      const char* q = p + n;
      while (q < end && IsJsonSpace(*q)) ++q;
      bool take = false;
      if (q < end && *q == ',') {
        ++q;
        const char* after = q;
        while (after < end && IsJsonSpace(*after)) ++after;
        take = after < end;  // another element follows
      } else {
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
          // No event kept before it, so no event parsed later precedes it:
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
          // which events were taken.
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
    // Events of other shapes only: copying them would be wasted work.
    constexpr size_t kKeptBeforeGivingUp = 16;
    if (taken == 0 && rest_line_starts_.size() >= kKeptBeforeGivingUp) return false;
    // Kept for simdjson: the element through the comma after it, found
    // structurally (whatever the lines), or the rest of the chunk.
    JsonContainerScanner scanner;
    const auto found = scanner.Scan(data, static_cast<size_t>(p - data),
                                    static_cast<size_t>(end - data), static_cast<size_t>(p - data),
                                    /*final=*/true);
    const bool comma = found.stop == JsonContainerScanner::Stop::kSeparator;
    // The last element must close what it opens before the chunk's ']':
    // else the chunk is no array of whole events (a guessed cut that is no
    // element boundary), which the general parser reports.
    if (!comma && !scanner.EndedBetweenElements(found)) throw FastPathDeclined();
    const char* element_end = comma ? data + found.offset : end;
    rest_line_starts_.push_back(rest->size());
    rest->append(p, static_cast<size_t>(element_end - p));
    if (comma) rest->push_back(',');
    separated = comma;
    RememberCopySource(p, element_end, rest_line_starts_.size() - 1);
    p = comma ? element_end + 1 : end;
  }
  if (taken == 0) return false;
  rest->push_back(']');
  rest->reserve(rest->size() + simdjson::SIMDJSON_PADDING);
  return true;
}

void OptraceParser::RememberCopySource(const char* text, const char* last, size_t kept_line) {
  OpEventPrefix prefix;
  if (!MatchOpEventPrefix(text, last, &prefix) || prefix.pid != 0) return;
  while (last > text && IsJsonSpace(last[-1])) --last;
  copy_source_ = {text, static_cast<size_t>(last - text), prefix, kept_line, false, false};
}

size_t OptraceParser::MatchCopyLine(const char* text, const char* end, int64_t* pid) const {
  const CopySource& source = copy_source_;
  if (!source.text || FirstKeyLetter(text, end) != 'n') return 0;
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

void OptraceParser::ResolveCopies(size_t kept_line) {
  if (next_copy_ == pending_copies_.size() || pending_copies_[next_copy_] != kept_line) return;
  if (raw_.field_count != 7 || raw_.op_keys != RawEvent::kOpKeys || raw_.ph != "X" || raw_.pid != 0)
    throw FastPathDeclined();  // the copied op event is not a plain op event
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

bool HasStartCycleKey(std::string_view text) {
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
  // JSON may spell the key with escapes ("Start \u0043ycle"): when the text
  // holds any, its members' keys are read unescaped.
  if (text.find('\\') == std::string_view::npos || text.empty() || text[0] != '{') return false;
  JsonContainerScanner scanner;
  const auto close = scanner.Scan(text.data(), 1, text.size(), SIZE_MAX, true);
  if (close.stop != JsonContainerScanner::Stop::kClose) return false;
  // One parser per thread: a backslash in any of the args' strings (an op
  // name with a quote) brings each such event here.
  thread_local simdjson::ondemand::parser parser;
  return FindObjectMember(text.substr(0, close.offset + 1), "Start Cycle", parser,
                          [](simdjson::ondemand::value) {});
}

}  // namespace htpscope::optrace_internal
