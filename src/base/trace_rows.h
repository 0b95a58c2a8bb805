// Rows of the optrace that the run keeps exactly as the reader makes them:
// the reader fills these vectors and the model moves them into its tables,
// so millions of counter samples and flow ends are never copied.
#pragma once

#include <cstdint>

#include "base/string_pool.h"

namespace htpscope {

// One sample of a counter track (`ph: "C"`, value under key "").
struct CounterSample {
  int64_t ts_cycles = 0;  // absolute cycles
  int64_t value = 0;      // bytes for the VTCM/DRAM counters
};

// One end of a flow arrow (`ph: "s"` / `"f"`).
struct FlowPoint {
  uint64_t flow_id = 0;
  int64_t ts_cycles = 0;  // absolute cycles
  uint32_t pid = 0;
  uint32_t tid = 0;
  StringId category = StringPool::kEmpty;  // "input_output" or "sequencer"
  bool is_start = false;
};

}  // namespace htpscope
