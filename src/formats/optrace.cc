// The optrace reader's entry points.  The stages live beside it:
// optrace_events.cc (general parser), optrace_fast_lines.cc (pre-pass),
// optrace_parallel.cc (chunked read), optrace_finish.cc (origin, metadata).
#include "formats/optrace.h"

#include <malloc.h>

#include <algorithm>
#include <filesystem>

#include "base/read_progress.h"
#include "formats/byte_source.h"
#include "formats/optrace_parser.h"

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

Optrace ParseWhole(const std::string& path, simdjson::padded_string_view buffer, bool fast_paths) {
  Optrace trace;
  trace.path = path;
  optrace_internal::OptraceParser parser(path, buffer, &trace);
  parser.set_fast_paths(fast_paths);
  parser.Run();
  optrace_internal::FinishOptrace(&trace);
  return trace;
}

}  // namespace

Optrace ReadOptrace(const std::string& path, const ReadOptraceOptions& options) {
  using optrace_internal::ChunkedRead;
  // Cuts guessed first; after a wrong guess (a chunk that is not whole
  // events), the file is cut by a scan of every byte.
  for (const bool guess_cuts : {true, false}) {
    Optrace trace;
    const ChunkedRead read =
        optrace_internal::ReadOptraceInChunks(path, options, guess_cuts, &trace);
    if (read == ChunkedRead::kRead) {
      // The workers' parsers, scratch text and chunk parts are freed now, but
      // glibc keeps freed memory in the workers' arenas, where the analyses
      // that follow (on this thread) cannot reuse it: hand it back.
      malloc_trim(0);
      return trace;
    }
    if (read == ChunkedRead::kNotChunked) break;
    // Read again: the progress display's total grows by the file.
    std::error_code ec;
    if (const uint64_t bytes = std::filesystem::file_size(path, ec); !ec)
      read_progress::AddBytesExpected(bytes);
  }
  LoadedFile file = ReadWholeFile(path);
  return ParseWhole(path, file.bytes, options.fast_paths);
}

Optrace ParseOptrace(const std::string& path, const char* json, size_t length, bool fast_paths) {
  return ParseWhole(path, PaddedJsonText(std::string_view(json, length)), fast_paths);
}

}  // namespace htpscope
