// The optrace reader's general event parser: every traceEvents element
// through simdjson On-Demand, field by field, into the model's records.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "base/errors.h"
#include "formats/json_parallel.h"
#include "formats/json_structure.h"
#include "formats/optrace_parser.h"

namespace htpscope::optrace_internal {

using simdjson::ondemand::array;
using simdjson::ondemand::object;
using simdjson::ondemand::value;

void RawEvent::Reset() {
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

OptraceParser::OptraceParser(const std::string& path, simdjson::padded_string_view buffer,
                             Optrace* out, uint64_t base_offset, simdjson::ondemand::parser* parser)
    : path_(path),
      reader_(path, buffer, base_offset, parser),
      base_offset_(base_offset),
      out_(out),
      buffer_(buffer),
      text_begin_(buffer.data()),
      text_end_(buffer.data() + buffer.length()) {}

void OptraceParser::Run() {
  LineCursor::ResetSpacing();
  auto root = reader_.Root();
  bool saw_header = false, saw_events = false;
  reader_.Fields(root, "top level", [&](std::string_view key, value v) {
    if (key == "header") {
      out_->version = reader_.CheckHeader(v, "OP_TRACE");
      saw_header = true;
    } else if (key == "traceEvents") {
      array events = reader_.Array(v, "traceEvents");
      ParseEventArray(events);
      saw_events = true;
    }
  });
  reader_.set_scope("");
  reader_.ExpectEnd();
  if (!saw_header) throw InputError(path_, "no \"header\" object: not an optrace chrometrace", 0);
  if (!saw_events) throw InputError(path_, "no \"traceEvents\" array", 0);
}

void OptraceParser::RunChunk(ChunkScratch* scratch, bool fast_lines, bool end_guessed,
                             std::vector<EventWarning>* warnings) {
  LineCursor::ResetSpacing();
  fast_lines = fast_lines && fast_paths_;
  chunk_warnings_ = warnings;
  taken_lines_ = &scratch->taken;
  taken_ops_ = &scratch->ops;
  taken_lines_->clear();
  simdjson::padded_string_view text = buffer_;
  if (fast_lines && IsPrettyPrinted(buffer_.data(), buffer_.length())) {
    // Indented events: minified first, for the matchers' fastest form (text
    // that cannot be minified is no JSON: the general path reports it).
    std::string& minified = scratch->minified;
    minified.resize(buffer_.length() + 64 + simdjson::SIMDJSON_PADDING);
    const size_t length = MinifyJson(buffer_.data(), buffer_.length(), minified.data());
    if (length == kMinifyRefused) throw FastPathDeclined();
    text = simdjson::padded_string_view(minified.data(), length, minified.size());
    reader_.SetBuffer(text);
    text_begin_ = text.data();
    text_end_ = text.data() + length;
  }
  // The pre-pass reads the text as whole events, each found exactly; the
  // general parser does not check what it skips: a guessed end is checked
  // first.
  const bool taken = fast_lines && TakeFastLines(text.data(), text.length(), &scratch->rest);
  if (end_guessed && !taken && !IsArrayOfClosedElements(text.data(), text.length()))
    throw InputError(path_, "a chunk cut by a guess is not whole events", base_offset_);
  if (taken) {
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
    throw FastPathDeclined();  // a line holds more than one event
  if (next_copy_ != pending_copies_.size())
    throw FastPathDeclined();  // an op event copied on another process was not read
}

bool OptraceParser::RunSkeleton(StreamedContainers* streamed) {
  auto root = reader_.Root();
  bool saw_header = false, saw_events = false, all_streamed = true;
  reader_.Fields(root, "top level", [&](std::string_view key, value v) {
    if (key == "header") {
      out_->version = reader_.CheckHeader(v, "OP_TRACE");
      saw_header = true;
    } else if (key == "traceEvents") {
      all_streamed = all_streamed && streamed->Take(v).has_value();
      saw_events = true;
    }
  });
  reader_.ExpectEnd();
  if (!saw_header) throw InputError(path_, "no \"header\" object: not an optrace chrometrace", 0);
  // Without a traceEvents array nothing was streamed: the whole-document
  // parse says so (Run), as it would for a small file.
  return saw_events && all_streamed && streamed->AllTaken();
}

bool OptraceParser::IsPrettyPrinted(const char* data, size_t length) {
  // A line break inside the first event's first bytes (its first key on a
  // line of its own); one event a line has none.
  const char* const end = data + std::min<size_t>(length, 256);
  const char* p = data + 1;
  while (p < end && IsJsonSpace(*p)) ++p;
  if (p == end || *p != '{') return false;
  for (++p; p < end && *p != '"'; ++p)
    if (*p == '\n') return true;
  return false;
}

void OptraceParser::Warn(std::string message) {
  if (chunk_warnings_)
    chunk_warnings_->push_back({event_index_, std::move(message)});
  else
    AddWarning(out_, fmt::format("{}: {}", Where(""), message));
}

[[noreturn]] void OptraceParser::Fail(simdjson::error_code err, std::string_view context) {
  reader_.set_scope("");
  reader_.Fail(err, Where(context));
}

[[noreturn]] void OptraceParser::Invalid(std::string_view context, std::string_view problem) {
  reader_.Invalid(fmt::format("{}: {}", Where(context), problem));
}

std::string OptraceParser::Where(std::string_view key) const {
  return fmt::format("traceEvents[{}]{}{}", event_index_, key.empty() ? "" : ".", key);
}

void OptraceParser::ParseEventArray(array& events) {
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
        throw FastPathDeclined();  // an event does not start its own line
      CommitTakenLines(kept_events_);
      ++kept_events_;
    }
    if (!token.empty() && token.front() == '{') {
      if (fast_paths_ && TakeFastPathLine(token.data())) {
        ++event_index_;
        continue;
      }
      if (fast_paths_ && MatchOpLine(token.data(), text_end_)) {  // simdjson skips it
        Dispatch();
        if (check_line_starts_) ResolveCopies(kept_events_ - 1);
        ++event_index_;
        continue;
      }
    }
    object event;
    if (auto err = element_value.get_object().get(event)) {
      reader_.set_scope("");
      reader_.Fail(err, Where("") + ": expected an object");
    }
    raw_.Reset();
    ParseEvent(event);
    Dispatch();
    if (check_line_starts_) ResolveCopies(kept_events_ - 1);
    ++event_index_;
  }
  CommitTakenLines(SIZE_MAX);
  out_->events_read = event_index_;
}

void OptraceParser::ReadInt(value v, int64_t* out, std::string_view key) {
  auto err = GetInteger(v, out);
  if (err) Fail(err, fmt::format("{}: expected an integer", key));
}

void OptraceParser::ReadString(value v, std::string_view* out, std::string_view key) {
  auto err = v.get_string().get(*out);
  if (err) Fail(err, fmt::format("{}: expected a string", key));
}

void OptraceParser::ReadDouble(value v, double* out, std::string_view key) {
  auto err = GetNumber(v, out);
  if (err) Fail(err, fmt::format("{}: expected a number", key));
}

std::string_view OptraceParser::KeyOf(simdjson::ondemand::field& field, std::string_view context) {
  // The key's bytes end at the first quote unless a backslash comes first
  // (the document's strings are whole: simdjson checked them).
  const char* raw = field.key().raw();
  const char* end = raw;
  while (*end != '"') {
    if (*end == '\\') {
      // No writer escapes a key's letters, but JSON allows "\u0064ur" for "dur".
      std::string_view unescaped;
      Check(field.unescaped_key().get(unescaped), context);
      return unescaped;
    }
    ++end;
  }
  return {raw, static_cast<size_t>(end - raw)};
}

void OptraceParser::ParseEvent(object& event) {
  for (auto field_result : event) {
    simdjson::ondemand::field field;
    Check(std::move(field_result).get(field), "");
    const std::string_view key = KeyOf(field, "");
    // One byte rules out most keys before a full compare.
    const char first = key.empty() ? '\0' : key[0];
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

void OptraceParser::ParseCopyArgs(object& args) {
  std::string_view text;
  Check(args.raw_json().get(text), "args");
  if (HasStartCycleKey(text)) raw_.has_start = true;
}

void OptraceParser::ParseArgs(object& args) {
  for (auto field_result : args) {
    simdjson::ondemand::field field;
    Check(std::move(field_result).get(field), "args");
    const std::string_view key = KeyOf(field, "args");
    // One byte rules out most keys before a full compare.
    const char first = key.empty() ? '\0' : key[0];
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
    } else if (key.empty()) {
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

void OptraceParser::RequirePidTid(bool need_tid) {
  if (!IsPidOrTid(raw_.pid)) Invalid("pid", "missing or out of range");
  if (need_tid && !IsPidOrTid(raw_.tid)) Invalid("tid", "missing or out of range");
}

void OptraceParser::Dispatch() {
  const auto& ph = raw_.ph;
  if (raw_.has_ts && !InCycleRange(raw_.ts)) Invalid("ts", "out of range");
  if (ph == "X") {
    AddOpEvent();
  } else if (ph == "C") {
    if (!raw_.has_ts || !raw_.has_counter_value) {
      Warn("counter without ts or value under key \"\"; skipped");
      return;
    }
    CounterTrack(raw_.name).push_back({raw_.ts, raw_.counter_value});  // relative ts until
                                                                       // FinishOptrace()
  } else if (ph == "s" || ph == "f") {
    RequirePidTid(true);
    if (!raw_.has_flow_id || !raw_.has_ts) {
      Warn("flow event without id or ts; skipped");
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

void OptraceParser::AddOpEvent() {
  RequirePidTid(true);
  if (!raw_.has_ts || !raw_.has_dur) Invalid("", "X event without \"ts\" or \"dur\"");
  if (raw_.dur < 0)
    Invalid("dur", fmt::format("negative duration {} (the event ends before it starts)", raw_.dur));
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
  s.tid = static_cast<uint32_t>(raw_.tid);
  s.flags = raw_.flags;
  OpSliceArgs a;
  a.op_start_cycles = raw_.start_cycle;
  a.op_duration_cycles = raw_.has_duration ? raw_.duration : raw_.dur;
  a.dpc_cycles = raw_.dpc;
  a.cycles_per_packet = raw_.cycles_per_packet;
  a.htp_op_type =
      InternRepeated(kHtpOpType, raw_.htp_op_type.empty() ? raw_.name : raw_.htp_op_type);
  a.qnn_op_name = InternRepeated(kQnnOpName, raw_.qnn_op_name);
  a.qnn_op_type = InternRepeated(kQnnOpType, raw_.qnn_op_type);
  a.data_type = InternRepeated(kDataType, raw_.data_type);
  a.description = InternDescription(a.htp_op_type, raw_.description);
  a.dims_begin = static_cast<uint32_t>(out_->dims.size());
  a.dims_count = static_cast<uint32_t>(raw_.dims.size());
  out_->dims.insert(out_->dims.end(), raw_.dims.begin(), raw_.dims.end());
  a.inputs_begin = static_cast<uint32_t>(out_->input_ids.size());
  a.inputs_count = static_cast<uint32_t>(raw_.inputs.size());
  out_->input_ids.insert(out_->input_ids.end(), raw_.inputs.begin(), raw_.inputs.end());
  out_->slices.push_back(s);
  out_->slice_args.push_back(a);
}

void OptraceParser::AddFlow(int64_t id, int64_t ts, int64_t pid, int64_t tid,
                            std::string_view category, bool is_start) {
  FlowPoint flow;
  flow.flow_id = static_cast<uint64_t>(id);
  flow.ts_cycles = ts;
  flow.pid = static_cast<uint32_t>(pid);
  flow.tid = static_cast<uint32_t>(tid);
  flow.category = InternRepeated(kFlowCategory, category);
  flow.is_start = is_start;
  out_->flows.push_back(flow);
}

void OptraceParser::AddMetadata(const MetadataLine& m) {
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

std::vector<CounterSample>& OptraceParser::CounterTrack(std::string_view name) {
  for (auto& [known, track] : recent_counters_)
    if (SameBytes(known, name)) return *track;
  auto it = out_->counters.find(name);
  if (it == out_->counters.end())
    it = out_->counters.emplace(std::string(name), std::vector<CounterSample>()).first;
  // Map nodes never move, so the name and track stay valid.
  if (recent_counters_.size() < 16) recent_counters_.emplace_back(it->first, &it->second);
  return it->second;
}

StringId OptraceParser::InternRepeated(RepeatedField field, std::string_view text) {
  auto& [last_text, last_id] = last_interned_[field];
  if (last_id != kNoId && SameBytes(text, last_text)) return last_id;
  last_id = out_->strings.Intern(text);
  last_text = out_->strings.View(last_id);  // the pool's copy stays valid
  return last_id;
}

StringId OptraceParser::InternDescription(StringId htp_op_type, std::string_view text) {
  if (htp_op_type >= descriptions_.size()) descriptions_.resize(htp_op_type + 1);
  std::optional<StringId>& known = descriptions_[htp_op_type];
  if (!known || out_->strings.View(*known) != text) known = out_->strings.Intern(text);
  return *known;
}

}  // namespace htpscope::optrace_internal
