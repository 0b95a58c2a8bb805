// Parsing the chunks of a JsonChunker on every core, merging their results
// in file order.
//
// The calling thread cuts chunks (and inflates gzip); worker threads parse
// them, and the worker that finishes a chunk merges every finished chunk
// that continues the file order, one merger at a time, so the cutting
// thread does nothing else.  At most 2 × threads + 2 chunks are held at once,
// finished ones included, so memory stays bounded whatever the file size.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/errors.h"
#include "formats/byte_source_open.h"
#include "formats/json_chunker.h"
#include "formats/json_util.h"
#include "formats/streamed_read_options.h"

namespace htpscope {

// What a merge is told about the chunk it merges.
struct ChunkMergeInfo {
  uint64_t index = 0;                 // JsonChunk::index
  uint32_t container = 0;             // JsonChunk::container
  int tag = 0;                        // JsonChunk::tag
  uint64_t end_offset = 0;            // file offset just past the chunk
  uint64_t length = 0;                // the chunk's bytes
  uint64_t expected_total_bytes = 0;  // the file's (decompressed) bytes as known then; 0: unknown

  // How the file's size compares with this chunk, for reserving the arrays
  // it is merged into: total bytes ÷ bytes through this chunk (0: unknown),
  // and bytes after it ÷ its own bytes.
  double growth() const {
    return expected_total_bytes && end_offset
               ? static_cast<double>(expected_total_bytes) / static_cast<double>(end_offset)
               : 0;
  }
  double chunks_remaining() const {
    if (!expected_total_bytes || !length || expected_total_bytes < end_offset) return 0;
    return static_cast<double>(expected_total_bytes - end_offset) / static_cast<double>(length);
  }

  // The final size of an array that holds `merged_after` elements once this
  // chunk's `from_chunk` are merged: the larger of two extrapolations, as
  // dense as the file so far, or as dense as this chunk till the end (an
  // array's elements may start late, in a section of their own); 0 when the
  // file's size is unknown.  An overestimate costs address space only.
  size_t ExpectedCount(size_t merged_after, size_t from_chunk) const {
    const double so_far = static_cast<double>(merged_after) * growth();
    const double from_here =
        static_cast<double>(merged_after) + static_cast<double>(from_chunk) * chunks_remaining();
    return growth() > 0 ? static_cast<size_t>(std::max(so_far, from_here) * 1.05) : 0;
  }
};

// Makes room in `array` for the `more` elements a chunk adds, growing it
// once to its extrapolated final size (ChunkMergeInfo::ExpectedCount), else
// by doubling: geometric growth alone copies every element to fresh pages at
// each step, with the old and new arrays both resident at the peak;
// capacity never touched costs no memory.
template <typename T>
void ReserveForChunk(std::vector<T>* array, size_t more, const ChunkMergeInfo& info) {
  const size_t needed = array->size() + more;
  if (needed <= array->capacity()) return;
  array->reserve(std::max({needed, info.ExpectedCount(needed, more), 2 * array->capacity()}));
}

// Moves a chunk's elements `from` to the end of `to`, reserved as
// ReserveForChunk reserves.
template <typename T>
void AppendChunk(std::vector<T>&& from, std::vector<T>* to, const ChunkMergeInfo& info) {
  ReserveForChunk(to, from.size(), info);
  for (T& item : from) to->push_back(std::move(item));
}

// The file sizes a reader knows before streaming, for ChunkMergeInfo.
struct StreamedFileSize {
  uint64_t plain_bytes = 0;       // a plain file's size; 0 for gzip
  uint64_t compressed_bytes = 0;  // a gzip file's size on disk
};

// Runs `chunker` to its end.  `make_worker()` builds each worker thread's
// state, whose `std::unique_ptr<Part> Parse(const JsonChunk&)` parses one
// chunk (and may keep buffers from chunk to chunk); `merge(Part&&, const
// ChunkMergeInfo&)` is called once per chunk, in file order, one call at a
// time.  Returns false when the document cannot be read this way: the
// chunker refused the layout, reading failed, or a Parse or merge threw
// InputError.  The caller then parses the whole document, which reports any
// error with its true offset.  An InputCapError (the input is over a cap: a
// whole read would be too), or any exception but InputError (std::bad_alloc,
// InternalError), from any thread is rethrown on the calling thread once
// every worker has been joined; no thread outlives the call.
template <typename Part, typename MakeWorker, typename Merge>
bool ParseChunksInParallel(JsonChunker& chunker, unsigned threads, StreamedFileSize size,
                           MakeWorker&& make_worker, Merge&& merge) {
  struct Done {
    std::unique_ptr<Part> part;
    ChunkMergeInfo info;
  };
  std::mutex mutex;
  std::condition_variable work, space;
  std::deque<JsonChunk> queue;
  std::map<uint64_t, Done> done;  // by chunk index
  uint64_t next_merge = 0;
  size_t busy = 0;
  bool closing = false, failed = false, merging = false;
  std::exception_ptr fatal;  // the first error that ends the read: rethrown at the end
  // Records the exception being handled as fatal (under `mutex`).
  auto note_fatal = [&] {
    if (!fatal) fatal = std::current_exception();
    failed = true;
  };
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const size_t max_in_flight = 2 * threads + 2;

  // The file's decompressed bytes as known when `chunk` was cut: a plain
  // file's size, or for gzip the bytes read so far scaled by the compressed
  // bytes left; 0 when unknown.
  auto expected_total = [&](const JsonChunk& chunk) -> uint64_t {
    if (size.plain_bytes) return size.plain_bytes;
    if (!size.compressed_bytes || !chunk.source_bytes) return 0;
    return static_cast<uint64_t>(static_cast<double>(chunk.read_bytes) *
                                 static_cast<double>(size.compressed_bytes) /
                                 static_cast<double>(chunk.source_bytes));
  };

  // Merges the finished chunks that continue the file order.  Called by the
  // holder of `merging`, which it releases (under the same lock as the last
  // look at `done`, so no finished chunk is left unmerged).
  auto merge_ready = [&]() -> bool {
    for (;;) {
      Done next;
      {
        std::lock_guard lock(mutex);
        if (failed) {
          merging = false;
          return false;
        }
        auto it = done.find(next_merge);
        if (it == done.end()) {
          merging = false;
          return true;
        }
        next = std::move(it->second);
        done.erase(it);
        ++next_merge;
      }
      space.notify_all();
      try {
        merge(std::move(*next.part), next.info);
        continue;
      } catch (const InputCapError&) {
        std::lock_guard lock(mutex);
        note_fatal();
        merging = false;
      } catch (const InputError&) {
        std::lock_guard lock(mutex);
        failed = true;
        merging = false;
      } catch (...) {
        std::lock_guard lock(mutex);
        note_fatal();
        merging = false;
      }
      // The reading thread may be waiting for room that only a merge makes:
      // it must see `failed` now, or it waits for ever.
      space.notify_all();
      return false;
    }
  };

  auto work_loop = [&] {
    try {
      auto worker = make_worker();
      for (;;) {
        JsonChunk chunk;
        {
          std::unique_lock lock(mutex);
          work.wait(lock, [&] { return !queue.empty() || closing; });
          if (queue.empty()) return;
          chunk = std::move(queue.front());
          queue.pop_front();
          ++busy;
        }
        std::unique_ptr<Part> part;
        try {
          part = worker.Parse(chunk);
        } catch (const InputCapError&) {
          std::lock_guard lock(mutex);
          note_fatal();
        } catch (const InputError&) {
          part.reset();
        }
        ChunkMergeInfo info;
        info.index = chunk.index;
        info.container = chunk.container;
        info.tag = chunk.tag;
        info.end_offset = chunk.file_offset + chunk.length;
        info.length = chunk.length;
        info.expected_total_bytes = expected_total(chunk);
        chunker.Recycle(std::move(chunk));  // reuse the bytes for a later chunk
        bool merge_now = false;
        {
          std::lock_guard lock(mutex);
          --busy;
          if (!part)
            failed = true;
          else
            done.emplace(info.index, Done{std::move(part), info});
          merge_now = !merging && !failed;
          if (merge_now) merging = true;
        }
        space.notify_all();
        if (merge_now) merge_ready();
      }
    } catch (...) {
      // Anything else (std::bad_alloc, InternalError) ends the read; the
      // calling thread rethrows it once every worker is joined.
      {
        std::lock_guard lock(mutex);
        note_fatal();
      }
      space.notify_all();
    }
  };

  std::vector<std::thread> workers;
  bool ok = true;
  try {
    workers.reserve(threads);
    for (unsigned i = 0; i < threads; ++i) workers.emplace_back(work_loop);
  } catch (...) {
    // No thread to be had (address space or process limits): the threads
    // started carry on, or with none the whole-document read takes over.
    if (workers.empty()) ok = false;
  }
  try {
    while (ok) {
      std::optional<JsonChunk> chunk = chunker.Next();
      if (!chunk) break;
      // Finished chunks count against the bound until they are merged.
      std::unique_lock lock(mutex);
      space.wait(lock, [&] { return failed || queue.size() + busy + done.size() < max_in_flight; });
      if (failed) {
        ok = false;
        break;
      }
      queue.push_back(std::move(*chunk));
      work.notify_one();
    }
  } catch (const ChunkingNotPossible&) {
    ok = false;
  } catch (const InputCapError&) {
    std::lock_guard lock(mutex);
    note_fatal();
    ok = false;
  } catch (const InputError&) {
    ok = false;  // I/O and gzip errors are reported by the whole-document read
  } catch (...) {
    std::lock_guard lock(mutex);
    note_fatal();
    ok = false;
  }
  {
    std::lock_guard lock(mutex);
    closing = true;
    if (!ok) failed = true;
  }
  work.notify_all();
  for (auto& w : workers) w.join();
  if (fatal) std::rethrow_exception(fatal);
  merging = true;  // the workers are gone: this thread merges what is left
  const bool merged = ok && !failed && merge_ready() && done.empty();
  if (fatal) std::rethrow_exception(fatal);
  return merged;
}

// A file opened for chunking: a plain file mapped, anything else (gzip, a
// pipe) streamed.
struct ChunkedFile {
  std::unique_ptr<MappedFile> mapped;
  std::unique_ptr<ByteSource> source;
  std::unique_ptr<JsonChunker> chunker;
  StreamedFileSize size;
};

// Opens `path` (streamed, never mapped, unless `map_plain_files`), capped as
// `cap` says (byte_source.h): a plain file over the cap is never mapped but
// refused.  Throws InputError when it cannot be opened, InputCapError when
// it is a plain file over the cap.
ChunkedFile OpenChunkedFile(const std::string& path, JsonStreamSelector select, size_t chunk_bytes,
                            bool map_plain_files = true, ReadCap cap = ReadCap::kStreamed);

// Whether `file` is a plain file smaller than one chunk: no gain in
// streaming it.
inline bool IsSmall(const ChunkedFile& file, size_t chunk_bytes) {
  return file.size.plain_bytes != 0 && file.size.plain_bytes < chunk_bytes;
}

// Tells, while parsing a chunker's skeleton, which of its values were
// streamed: each streamed container must be met exactly once, in place of
// its elements.
class StreamedContainers {
 public:
  // `skeleton`: the text parsed (a copy of JsonChunker::skeleton()).
  StreamedContainers(std::string_view skeleton, std::vector<size_t> offsets)
      : skeleton_(skeleton), offsets_(std::move(offsets)), taken_(offsets_.size(), false) {}

  // The container number (JsonChunk::container) of the skeleton's value `v`
  // when it was streamed, else nullopt.  Throws InternalError when it was
  // taken before (a reader bug, never the file's).
  std::optional<uint32_t> Take(simdjson::ondemand::value v);
  // Whether every streamed container was taken.
  bool AllTaken() const;

 private:
  std::string_view skeleton_;
  std::vector<size_t> offsets_;
  std::vector<bool> taken_;
};

// The end of a streamed read: parses the chunker's skeleton with
// `parse_document(skeleton, containers)`, which takes every streamed
// container's merged parts through `containers`, and records `chunks` in
// the document's chunks_parsed.  nullopt when a streamed container was not
// taken or the skeleton is malformed: the caller then parses the file whole,
// which reports any error at its true offset.
template <typename Document, typename ParseDocument>
std::optional<Document> ParseStreamedSkeleton(const JsonChunker& chunker, uint64_t chunks,
                                              ParseDocument&& parse_document) {
  const simdjson::padded_string skeleton(chunker.skeleton());
  StreamedContainers containers(std::string_view(skeleton.data(), skeleton.size()),
                                chunker.streamed_offsets());
  try {
    Document out = parse_document(skeleton, containers);
    if (!containers.AllTaken()) return std::nullopt;
    out.chunks_parsed = chunks;
    return out;
  } catch (const InputError&) {
    return std::nullopt;  // reported with the right offset by the whole-file parse
  }
}

// A worker thread of ReadStreamedJson: parses each chunk with its own
// simdjson parser (whose buffers serve every chunk of the thread) through
// its copy of `read_chunk(JsonReader&, const JsonChunk&, Part&)`, which may
// keep state from chunk to chunk.  The chunk must hold nothing more than
// what `read_chunk` reads.
template <typename Part, typename ReadChunk>
class JsonChunkWorker {
 public:
  JsonChunkWorker(const std::string& path, ReadChunk read_chunk)
      : path_(path), read_chunk_(std::move(read_chunk)) {}

  std::unique_ptr<Part> Parse(const JsonChunk& chunk) {
    auto part = std::make_unique<Part>();
    JsonReader reader(path_, chunk.view(), chunk.file_offset, &parser_);
    read_chunk_(reader, chunk, *part);
    reader.ExpectEnd();
    return part;
  }

 private:
  const std::string& path_;
  ReadChunk read_chunk_;
  simdjson::ondemand::parser parser_;
};

// The streamed read of a JSON document whose big containers `select` picks
// (the QHAS, runtrace and HTP graph readers): opens `path`, capped as a
// whole read is (docs/robustness.md); parses the containers' chunks on
// `options.threads` threads, each chunk into a Part by a JsonChunkWorker
// with `read_chunk`; `merge(Part& into, Part&& chunk, const
// ChunkMergeInfo&)` moves each chunk's part, in file order, into the part
// of its container; then `parse_skeleton(skeleton, containers, parts)`
// parses the rest of the document, taking streamed container i's part from
// parts[i] (a std::deque<Part>).  nullopt when the file is smaller than one
// chunk or cannot be read this way (ParseChunksInParallel,
// ParseStreamedSkeleton): the caller then parses it whole.
template <typename Document, typename Part, typename ReadChunk, typename Merge,
          typename ParseSkeleton>
std::optional<Document> ReadStreamedJson(const std::string& path, JsonStreamSelector select,
                                         const StreamedReadOptions& options,
                                         const ReadChunk& read_chunk, Merge&& merge,
                                         ParseSkeleton&& parse_skeleton) {
  // Streamed, not mapped: these artifacts are written indented, and read()
  // copies indented text in faster than a mapping faults it in (QHAS and
  // HTP graph readers 0.95x; docs/performance.md).
  ChunkedFile file = OpenChunkedFile(path, select, options.chunk_bytes, false, ReadCap::kHeldWhole);
  if (IsSmall(file, options.chunk_bytes)) return std::nullopt;  // one chunk: parsed whole
  std::deque<Part> parts;  // by streamed container (stable addresses)
  uint64_t chunks = 0;
  const bool ok = ParseChunksInParallel<Part>(
      *file.chunker, options.threads, file.size,
      [&] { return JsonChunkWorker<Part, ReadChunk>(path, read_chunk); },
      [&](Part&& part, const ChunkMergeInfo& info) {
        while (parts.size() <= info.container) parts.emplace_back();
        merge(parts[info.container], std::move(part), info);
        ++chunks;
      });
  if (!ok) return std::nullopt;
  parts.resize(file.chunker->streamed_offsets().size());
  return ParseStreamedSkeleton<Document>(
      *file.chunker, chunks,
      [&](const simdjson::padded_string& skeleton, StreamedContainers& containers) {
        return parse_skeleton(skeleton, containers, parts);
      });
}

}  // namespace htpscope
