// Reader for the optrace Chrome trace `chrometrace.json` (artifact_type OP_TRACE).
//
// Time base: every `ts`/`dur` in this file is in HTP *cycles* (not µs, despite
// the Chrome-trace convention).  `ts` is relative to a per-file origin; the
// reader recovers the absolute cycle counter (`Start Cycle`) and stores
// absolute cycles everywhere below.
//
// De-duplication: every executed op event appears on the "Core N Overview"
// process (pid 0) and again on a per-QNN-op process ("QNN::<op>").  Only the
// pid-0 copy is kept; the copies are counted so that a mismatch can be
// reported.  Events on tid 1 ("Non Executed Tensors") are kept apart and never
// used for timing.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/op_vocabulary.h"
#include "base/string_pool.h"
#include "base/trace_rows.h"

namespace htpscope {

// One executed op slice from the overview process: which op, where and
// when.  A single-threaded op instance has one slice; an HVX op split across
// threads has several slices sharing one `op_id`.
struct OpSlice {
  uint64_t op_id = 0;        // args.ID; low 32 bits = QNN op id
  int64_t start_cycles = 0;  // absolute cycle of this slice's start (ts + origin)
  int64_t dur_cycles = 0;    // this slice's duration (event `dur`)
  uint32_t tid = 0;
  uint8_t flags = 0;  // OpFlag bits

  int64_t end_cycles() const { return start_cycles + dur_cycles; }
  uint32_t qnn_op_id() const { return static_cast<uint32_t>(op_id & 0xffffffffu); }
};

// The op-level args of a slice, which every slice of a multi-threaded op
// repeats: Optrace::slice_args[i] belongs to Optrace::slices[i].  They are
// kept apart from the slices so that an import can free them once the op
// instances hold them, before it builds its own slice table: 72 of each
// slice's 104 bytes.  The output tensor's "Rank", "Step Size" and "Zero
// Offset" args are checked (numbers of the right kind) but not kept: the run
// has no use for them.
struct OpSliceArgs {
  int64_t op_start_cycles = 0;     // args "Start Cycle" (op level)
  int64_t op_duration_cycles = 0;  // args "Duration (cycles)" (op level)
  int64_t dpc_cycles = 0;          // args "Dominant Path Cycles" (op level)
  double cycles_per_packet = 0;
  StringId htp_op_type = StringPool::kEmpty;
  StringId qnn_op_name = StringPool::kEmpty;
  StringId qnn_op_type = StringPool::kEmpty;
  StringId data_type = StringPool::kEmpty;
  StringId description = StringPool::kEmpty;
  uint32_t dims_begin = 0;  // into Optrace::dims
  uint32_t dims_count = 0;
  uint32_t inputs_begin = 0;  // into Optrace::input_ids
  uint32_t inputs_count = 0;
};

// A tensor listed on tid 1 ("Non Executed Tensors"): $Const, $Shape, ...
struct NonExecutedTensor {
  uint64_t id = 0;
  StringId name = StringPool::kEmpty;
  int64_t ts_cycles = 0;  // relative ts as written (synthetic placement)
};

// A process's metadata (formats §1.3): its "process_name" and
// "process_sort_index" events folded together, later events winning.
struct TraceProcess {
  uint32_t pid = 0;
  StringId name = StringPool::kEmpty;  // "Core 0 Overview", "QNN::bbb_indep0"
  uint64_t qnn_op_id = 0;              // from args.opid (per-op processes)
  int64_t sort_index = 0;
  bool has_name = false;
  bool has_op_id = false;
  bool has_sort_index = false;
};

// A "thread_name" metadata event.  Per-op processes repeat a few names over
// hundreds of thousands of threads, so the name is interned.
struct TraceThread {
  uint32_t pid = 0;
  uint32_t tid = 0;
  StringId name = StringPool::kEmpty;
};

struct Optrace {
  std::string path;
  std::string version;  // header.version "major.minor.patch"
  StringPool strings;
  std::vector<OpSlice> slices;          // executed, de-duplicated, in file order (unsorted)
  std::vector<OpSliceArgs> slice_args;  // one per slice, at the same index
  std::vector<int32_t> dims;
  std::vector<uint64_t> input_ids;
  std::vector<NonExecutedTensor> non_executed;
  std::map<std::string, std::vector<CounterSample>, std::less<>> counters;  // by counter name
  std::vector<FlowPoint> flows;
  std::vector<TraceProcess> processes;  // sorted by pid, one per pid
  std::vector<TraceThread> threads;     // sorted by (pid, tid), one per pair
  int64_t origin_cycles = 0;            // absolute cycle = ts + origin_cycles
  bool origin_known = false;            // false when no event carried "Start Cycle"
  uint64_t duplicate_slices = 0;        // executed copies seen on per-QNN-op processes
  uint64_t events_read = 0;             // every traceEvents element
  uint64_t chunks_parsed = 0;           // chunks parsed in parallel; 0 when parsed whole
  std::vector<std::string> warnings;

  std::string_view Str(StringId id) const { return strings.View(id); }
  // The metadata of process `pid`, or nullptr when it has none.
  const TraceProcess* FindProcess(uint32_t pid) const;
  // The name of thread (pid, tid), or "" when it has none.
  std::string_view ThreadName(uint32_t pid, uint32_t tid) const;
};

struct ReadOptraceOptions {
  unsigned threads = 0;  // parser threads; 0 = one per core
  // Target size of the chunks parsed in parallel: small enough that a chunk is
  // still in the worker's L2 cache when the events its pre-pass took are committed.
  size_t chunk_bytes = 512u << 10;
  // For tests: false sends every event through the general JSON parser (no
  // line matcher, no pre-pass), which the fast paths must agree with.
  bool fast_paths = true;
  // How a plain file is read: mapped (chunks are views of the file: no copy,
  // where its events are one a line or minified), streamed as gzip is (where
  // they are pretty-printed: the parser minifies them into a buffer anyway,
  // and read() copies faster than the mapping faults in), or chosen by the
  // layout of its first event.  Tests pick one to read every layout both ways.
  enum class PlainFileRead : uint8_t { kByLayout, kMapped, kStreamed };
  PlainFileRead plain_file_read = PlainFileRead::kByLayout;
};

// Reads an OP_TRACE file (plain or gzip), streaming: the traceEvents array is
// cut into chunks of whole events parsed on `threads` threads, so memory
// grows with the events kept, not with the file.  Layouts that defeat
// chunking, and every malformed file, are parsed whole instead, so results
// and errors never depend on the chunking.  Throws InputError with the file
// name and byte offset on malformed JSON, wrong types, or a file that is not
// an OP_TRACE.
Optrace ReadOptrace(const std::string& path, const ReadOptraceOptions& options = {});

// Parses OP_TRACE JSON already in memory; `path` is used in messages only.
// A UTF-8 byte order mark before the JSON is read as spaces, as in a file.
// `fast_paths` as in ReadOptraceOptions.
Optrace ParseOptrace(const std::string& path, const char* json, size_t length,
                     bool fast_paths = true);

}  // namespace htpscope
