// Reader for `chrometrace_runtrace.json` (artifact_type RUN_TRACE): the wall
// phases of every graph execution.
//
// Units: `dur`/`ts` and `stat_*_ticks` are ticks of the 19.2 MHz global timer
// (NOT cycles, NOT µs); `stat_*_cycles` are the HTP cycle counter (the same
// counter as the optrace's Start Cycle); `summary_time_us` is the viewer's own
// µs figure (= ticks / 19.2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "formats/streamed_read_options.h"

namespace htpscope {

inline constexpr double kRuntraceTicksPerUs = 19.2;

struct RunPhase {
  std::string name;  // "QNN DSP Execute", "VTCM Acquire", "Resource Power On", "Graph Execute", ...
  std::string graph_name;
  int64_t start_ticks = 0, end_ticks = 0;
  int64_t start_cycles = 0, end_cycles = 0;
  bool has_cycles = false;
  double reported_time_us = 0;        // args.summary_time_us
  double reported_frequency_ghz = 0;  // args.summary_htp_frequency_ghz

  int64_t wall_ticks() const { return end_ticks - start_ticks; }
  int64_t wall_cycles() const { return end_cycles - start_cycles; }
  double wall_us() const { return static_cast<double>(wall_ticks()) / kRuntraceTicksPerUs; }
  // Effective HTP clock over the phase: cycles per µs / 1000.  0 when unknown.
  double effective_ghz() const {
    return has_cycles && wall_ticks() > 0 ? static_cast<double>(wall_cycles()) / wall_us() / 1000.0
                                          : 0;
  }
};

// One execution: the enclosing "QNN DSP Execute" phase and the phases inside
// it, in time order.
struct RunExecution {
  int index = 0;  // 1-based, in time order
  std::string graph_name;
  std::vector<RunPhase> phases;
  // The enclosing phase, or nullptr when the file has none for this execution.
  const RunPhase* Enclosing() const;
  const RunPhase* Find(std::string_view phase_name) const;
};

struct Runtrace {
  std::string path;
  std::string version;
  std::vector<RunExecution> executions;
  std::vector<std::string> warnings;
  uint64_t chunks_parsed = 0;  // chunks of events parsed in parallel; 0 when parsed whole
};

// Reads a RUN_TRACE file (plain or gzip), its traceEvents streamed in chunks
// parsed on `options.threads` threads (results and errors never depend on
// the chunking).  Throws InputError on bad input.
Runtrace ReadRuntrace(const std::string& path, const StreamedReadOptions& options = {});
Runtrace ParseRuntrace(const std::string& path, std::string_view json);

}  // namespace htpscope
