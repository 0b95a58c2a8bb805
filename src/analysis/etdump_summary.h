// What an ExecuTorch ETDump says about a run: per RunData block its profile
// events and, per event name, the number of calls and their total duration
// in the runtime's ticks (see model/etdump_run.h for what a tick is).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/etdump_run.h"

namespace htpscope {

// Calls of one event name (delegate and non-delegate events kept apart).
struct EtdumpEventTotal {
  std::string_view name;  // into the EtdumpRun's strings
  bool delegate = false;
  // The delegate's ids when every call of this name carried the same one
  // (the join key to QNN op names); unset otherwise.
  std::optional<int32_t> delegate_debug_id_int;
  std::string_view delegate_debug_id_str;
  uint64_t count = 0;
  uint64_t total_ticks = 0;  // Σ duration over calls that have one
  uint64_t uncounted = 0;    // calls ending before they start: not in total_ticks
};

struct EtdumpEventView {
  std::string_view name;
  const EtdumpProfileRow* row = nullptr;
};

struct EtdumpBlockSummary {
  std::string name;
  std::vector<EtdumpEventView> events;   // profile events in logged order
  std::vector<EtdumpEventTotal> totals;  // by total_ticks, largest first
  size_t debug_events = 0, allocation_events = 0;
};

struct EtdumpSummary {
  std::string path;
  uint32_t version = 0;
  std::vector<EtdumpBlockSummary> runs;
  std::vector<EtdumpEventTotal> op_totals;  // over all blocks, by total_ticks, largest first
  std::vector<std::string> warnings;
};

// Summarises `run`; the result points into `run`, which must outlive it.
// Throws InputError naming the file when a total overflows 2^64 ticks.
EtdumpSummary SummarizeEtdump(const EtdumpRun& run);

}  // namespace htpscope
