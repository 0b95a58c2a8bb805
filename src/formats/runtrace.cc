#include "formats/runtrace.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>

#include "formats/byte_source.h"
#include "formats/json_parallel.h"
#include "formats/json_util.h"

namespace htpscope {
namespace {

constexpr std::string_view kEnclosingPhase = "QNN DSP Execute";

// Reads traceEvents[index] (`ev`), adding it to `phases` when it is a phase.
void ReadEvent(JsonReader& reader, JsonReader::value ev, size_t index,
               std::vector<RunPhase>* phases) {
  reader.set_scope(fmt::format("traceEvents[{}]", index));
  auto event = reader.Object(ev, "event");
  RunPhase phase;
  std::string ph;
  bool has_ticks_start = false, has_ticks_end = false, has_cycles_start = false,
       has_cycles_end = false;
  reader.Fields(event, "event", [&](std::string_view k, JsonReader::value fv) {
    if (k == "ph") {
      ph = std::string(reader.String(fv, "ph"));
    } else if (k == "name") {
      phase.name = std::string(reader.String(fv, "name"));
    } else if (k == "args") {
      auto args = reader.Object(fv, "args");
      reader.Fields(args, "args", [&](std::string_view a, JsonReader::value av) {
        if (a == "graph_name") {
          phase.graph_name = std::string(reader.String(av, "args.graph_name"));
        } else if (a == "stat_start_ticks") {
          phase.start_ticks = reader.Int(av, "args.stat_start_ticks");
          has_ticks_start = true;
        } else if (a == "stat_end_ticks") {
          phase.end_ticks = reader.Int(av, "args.stat_end_ticks");
          has_ticks_end = true;
        } else if (a == "stat_start_cycles") {
          phase.start_cycles = reader.Int(av, "args.stat_start_cycles");
          has_cycles_start = true;
        } else if (a == "stat_end_cycles") {
          phase.end_cycles = reader.Int(av, "args.stat_end_cycles");
          has_cycles_end = true;
        } else if (a == "summary_time_us") {
          phase.reported_time_us = reader.Number(av, "args.summary_time_us");
        } else if (a == "summary_htp_frequency_ghz") {
          phase.reported_frequency_ghz = reader.Number(av, "args.summary_htp_frequency_ghz");
        }
      });
    }
  });
  if (ph != "X") return;  // metadata (thread/process names)
  if (!has_ticks_start || !has_ticks_end)
    reader.Invalid(fmt::format(
        "traceEvents[{}] \"{}\": missing args.stat_start_ticks/stat_end_ticks", index, phase.name));
  // Both counters run up from 0; a negative value is damage, and would
  // make end - start overflow.
  for (auto [key, value] : {std::pair<const char*, int64_t>{"stat_start_ticks", phase.start_ticks},
                            {"stat_end_ticks", phase.end_ticks},
                            {"stat_start_cycles", phase.start_cycles},
                            {"stat_end_cycles", phase.end_cycles}})
    if (value < 0)
      reader.Invalid(fmt::format("traceEvents[{}] \"{}\": args.{} is negative ({})", index,
                                 phase.name, key, value));
  if (phase.end_ticks < phase.start_ticks)
    reader.Invalid(fmt::format("traceEvents[{}] \"{}\": ends (tick {}) before it starts (tick {})",
                               index, phase.name, phase.end_ticks, phase.start_ticks));
  phase.has_cycles = has_cycles_start && has_cycles_end;
  if (phase.has_cycles && phase.end_cycles < phase.start_cycles)
    reader.Invalid(
        fmt::format("traceEvents[{}] \"{}\": stat_end_cycles {} before stat_start_cycles {}", index,
                    phase.name, phase.end_cycles, phase.start_cycles));
  phases->push_back(std::move(phase));
}

// Executions: each enclosing phase opens one; the other phases belong to the
// enclosing phase whose tick window contains them.
void BuildExecutions(std::vector<RunPhase> phases, Runtrace* out_trace) {
  Runtrace& out = *out_trace;
  std::stable_sort(phases.begin(), phases.end(), [](const RunPhase& a, const RunPhase& b) {
    if (a.start_ticks != b.start_ticks) return a.start_ticks < b.start_ticks;
    return a.name == kEnclosingPhase && b.name != kEnclosingPhase;
  });
  RunExecution* current = nullptr;
  for (auto& phase : phases) {
    bool inside = current && current->Enclosing() &&
                  phase.start_ticks >= current->Enclosing()->start_ticks &&
                  phase.end_ticks <= current->Enclosing()->end_ticks;
    if (phase.name == kEnclosingPhase || !inside) {
      if (phase.name != kEnclosingPhase)
        out.warnings.push_back(fmt::format("phase \"{}\" at tick {} lies in no \"{}\" window",
                                           phase.name, phase.start_ticks, kEnclosingPhase));
      out.executions.emplace_back();
      current = &out.executions.back();
      current->index = static_cast<int>(out.executions.size());
      current->graph_name = phase.graph_name;
    }
    current->phases.push_back(std::move(phase));
  }
}

// Parses the document in `buffer`: a whole RUN_TRACE file, or the skeleton
// of a streamed one (then `streamed` and `parts` supply the events' phases).
Runtrace ParseDocument(const std::string& path, simdjson::padded_string_view buffer,
                       StreamedContainers* streamed = nullptr,
                       std::deque<std::vector<RunPhase>>* parts = nullptr) {
  Runtrace out;
  out.path = path;
  JsonReader reader(path, buffer);
  auto root = reader.Root();
  bool saw_header = false, saw_events = false;
  std::vector<RunPhase> phases;
  reader.Fields(root, "top level", [&](std::string_view key, JsonReader::value v) {
    if (key == "header") {
      out.version = reader.CheckHeader(v, "RUN_TRACE");
      saw_header = true;
    } else if (key == "traceEvents") {
      saw_events = true;
      if (streamed) {
        if (auto container = streamed->Take(v)) {
          for (RunPhase& phase : (*parts)[*container]) phases.push_back(std::move(phase));
          return;
        }
      }
      auto events = reader.Array(v, "traceEvents");
      reader.Elements(events, "traceEvents", [&](JsonReader::value ev, size_t index) {
        ReadEvent(reader, ev, index, &phases);
      });
      reader.set_scope("");
    }
  });
  reader.ExpectEnd();
  if (!saw_header) throw InputError(path, "no \"header\" object: not a runtrace", 0);
  if (!saw_events) throw InputError(path, "no \"traceEvents\" array", 0);
  BuildExecutions(std::move(phases), &out);
  return out;
}

std::optional<Runtrace> ReadStreamed(const std::string& path, const StreamedReadOptions& options) {
  auto select = [](const std::vector<std::string>& keys, bool is_array) {
    return is_array && keys.size() == 1 && keys[0] == "traceEvents" ? 1 : 0;
  };
  // Event numbers in a chunk's messages are the chunk's own: an error sends
  // the file to the whole parse, whose message is reported.
  auto read_chunk = [](JsonReader& reader, const JsonChunk&, std::vector<RunPhase>& phases) {
    auto events = reader.RootArray();
    reader.Elements(events, "traceEvents", [&](JsonReader::value ev, size_t index) {
      ReadEvent(reader, ev, index, &phases);
    });
    reader.set_scope("");
  };
  auto merge = [](std::vector<RunPhase>& into, std::vector<RunPhase>&& part,
                  const ChunkMergeInfo&) {
    for (RunPhase& phase : part) into.push_back(std::move(phase));
  };
  return ReadStreamedJson<Runtrace, std::vector<RunPhase>>(
      path, select, options, read_chunk, merge,
      [&](const simdjson::padded_string& skeleton, StreamedContainers& containers,
          std::deque<std::vector<RunPhase>>& parts) {
        return ParseDocument(path, skeleton, &containers, &parts);
      });
}

}  // namespace

const RunPhase* RunExecution::Enclosing() const {
  return !phases.empty() && phases.front().name == kEnclosingPhase ? &phases.front() : nullptr;
}

const RunPhase* RunExecution::Find(std::string_view phase_name) const {
  for (const auto& p : phases)
    if (p.name == phase_name) return &p;
  return nullptr;
}

Runtrace ReadRuntrace(const std::string& path, const StreamedReadOptions& options) {
  if (std::optional<Runtrace> streamed = ReadStreamed(path, options)) return std::move(*streamed);
  LoadedFile file = ReadWholeFile(path);
  return ParseDocument(path, file.bytes);
}

Runtrace ParseRuntrace(const std::string& path, std::string_view json) {
  return ParseDocument(path, PaddedJsonText(json));
}

}  // namespace htpscope
