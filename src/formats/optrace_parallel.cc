// The optrace reader's parallel stage: the traceEvents array cut into chunks
// of whole events (JsonChunker), parsed on every core, merged in file order.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "formats/json_parallel.h"
#include "formats/optrace_parser.h"

namespace htpscope::optrace_internal {
namespace {

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

// Appends a chunk's events (parsed with its own string pool) to `into`, in
// file order, remapping string ids and pool offsets; its warnings are
// numbered from the events merged before it.
void MergeChunk(OptracePart&& chunk, Optrace* into, ProvisionalOrigin* origin,
                const ChunkMergeInfo& info) {
  Optrace& part = chunk.trace;
  for (EventWarning& w : chunk.warnings)
    AddWarning(into,
               fmt::format("traceEvents[{}]: {}", into->events_read + w.event_index, w.message));
  if (!origin->chosen) {
    if (auto majority = MajorityOriginCycles(part)) {
      origin->cycles = *majority;
      origin->chosen = true;
      ShiftTimes(into, origin->cycles);  // the chunks merged before this one
      for (size_t i = 0; i < into->slices.size(); ++i)
        origin->agreeing_slices += StartCycleMinusTs(*into, i) == 0;
    }
  }
  ShiftTimes(&part, origin->cycles);

  // The pool's hash index is written when reserved, so it is reserved
  // from the density so far only.
  into->strings.Reserve(info.ExpectedCount(into->strings.size() + part.strings.size(), 0));
  const std::vector<StringId> id_map = into->strings.InternAll(part.strings);

  // Every array grows once to its extrapolated size, not by doubling.
  auto reserve = [&](auto* into_array, const auto& part_array) {
    ReserveForChunk(into_array, part_array.size(), info);
  };
  reserve(&into->dims, part.dims);
  reserve(&into->input_ids, part.input_ids);
  reserve(&into->slices, part.slices);
  reserve(&into->slice_args, part.slice_args);
  reserve(&into->flows, part.flows);
  reserve(&into->non_executed, part.non_executed);
  reserve(&into->processes, part.processes);
  reserve(&into->threads, part.threads);
  const auto dims_offset = static_cast<uint32_t>(into->dims.size());
  const auto inputs_offset = static_cast<uint32_t>(into->input_ids.size());
  into->dims.insert(into->dims.end(), part.dims.begin(), part.dims.end());
  into->input_ids.insert(into->input_ids.end(), part.input_ids.begin(), part.input_ids.end());
  size_t agreeing = 0;
  into->slices.insert(into->slices.end(), part.slices.begin(), part.slices.end());
  for (size_t i = 0; i < part.slice_args.size(); ++i) {
    agreeing += StartCycleMinusTs(part, i) == 0;
    OpSliceArgs a = part.slice_args[i];
    a.htp_op_type = id_map[a.htp_op_type];
    a.qnn_op_name = id_map[a.qnn_op_name];
    a.qnn_op_type = id_map[a.qnn_op_type];
    a.data_type = id_map[a.data_type];
    a.description = id_map[a.description];
    a.dims_begin += dims_offset;
    a.inputs_begin += inputs_offset;
    into->slice_args.push_back(a);
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
}

// A worker's parser and buffers, reused from chunk to chunk.
class ChunkWorker {
 public:
  ChunkWorker(const std::string& path, bool fast_paths) : path_(path), fast_paths_(fast_paths) {}

  std::unique_ptr<OptracePart> Parse(const JsonChunk& chunk) {
    auto part = std::make_unique<OptracePart>();
    try {
      Parse(chunk, part.get(), /*fast_lines=*/true);
    } catch (const FastPathDeclined&) {
      // The same events through the general path alone.
      part = std::make_unique<OptracePart>();
      Parse(chunk, part.get(), /*fast_lines=*/false);
    }
    return part;
  }

 private:
  void Parse(const JsonChunk& chunk, OptracePart* part, bool fast_lines) {
    OptraceParser parser(path_, chunk.view(), &part->trace, chunk.file_offset, &parser_);
    parser.set_fast_paths(fast_paths_);
    parser.RunChunk(&scratch_, fast_lines, chunk.end_guessed, &part->warnings);
  }

  const std::string& path_;
  bool fast_paths_;
  simdjson::ondemand::parser parser_;  // its buffers serve every chunk of this worker
  OptraceParser::ChunkScratch scratch_;
};

bool MapsPlainFile(const std::string& path, ReadOptraceOptions::PlainFileRead how) {
  using Read = ReadOptraceOptions::PlainFileRead;
  if (how != Read::kByLayout) return how == Read::kMapped;
  // A pipe's bytes are not read twice: it is mapped from its in-memory copy.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return true;
  return !EventsArePrettyPrinted(ReadPrefix(path, kLayoutPrefixBytes));
}

}  // namespace

bool EventsArePrettyPrinted(std::string_view prefix) {
  const size_t key = prefix.find("\"traceEvents\"");
  if (key == std::string_view::npos) return false;
  const size_t open = prefix.find('[', key);
  if (open == std::string_view::npos) return false;
  return OptraceParser::IsPrettyPrinted(prefix.data() + open, prefix.size() - open);
}

ChunkedRead ReadOptraceInChunks(const std::string& path, const ReadOptraceOptions& options,
                                bool guess_cuts, Optrace* out) {
  out->path = path;
  auto select = [](const std::vector<std::string>& keys, bool is_array) {
    return is_array && keys.size() == 1 && keys[0] == "traceEvents" ? 1 : 0;
  };
  ChunkedFile file = OpenChunkedFile(path, select, options.chunk_bytes,
                                     MapsPlainFile(path, options.plain_file_read));
  if (IsSmall(file, options.chunk_bytes)) return ChunkedRead::kNotChunked;  // parsed whole
  file.chunker->set_guess_cuts(guess_cuts);
  const auto failed = [&] {
    return file.chunker->guessed_cuts() ? ChunkedRead::kGuessFailed : ChunkedRead::kNotChunked;
  };
  ProvisionalOrigin origin;
  const bool streamed = ParseChunksInParallel<OptracePart>(
      *file.chunker, options.threads, file.size,
      [&] { return ChunkWorker(path, options.fast_paths); },
      [&](OptracePart&& part, const ChunkMergeInfo& info) {
        MergeChunk(std::move(part), out, &origin, info);
        ++out->chunks_parsed;
      });
  if (!streamed) return failed();
  // The header (and any other member) lies outside the streamed array.
  const std::string& skeleton = file.chunker->skeleton();
  simdjson::padded_string skeleton_buffer(skeleton);
  StreamedContainers containers(std::string_view(skeleton_buffer.data(), skeleton_buffer.size()),
                                file.chunker->streamed_offsets());
  try {
    if (!OptraceParser(path, skeleton_buffer, out).RunSkeleton(&containers)) return failed();
  } catch (const InputError&) {
    return failed();  // reported with the right offset by the whole-file parse
  }
  FinishOptrace(out, origin.cycles, origin.agreeing_slices);
  return ChunkedRead::kRead;
}

}  // namespace htpscope::optrace_internal
