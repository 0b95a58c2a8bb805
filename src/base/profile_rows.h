// Rows of a qnn-profile-viewer profile that the run keeps exactly as the
// reader makes them: the reader fills them and the model moves them into
// its tables.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace htpscope {

// The linting entries of a per-node line (a profile taken at linting
// level): text lines indented under the node, CSV SUB-SUB-EVENT rows.
struct ProfileNodeLint {
  std::optional<int64_t> wait_cycles;          // "Wait (Scheduler) time"
  std::optional<int64_t> overlap_cycles;       // "Overlap time"
  std::optional<int64_t> overlap_wait_cycles;  // "Overlap (wait) time"
  std::vector<std::string> overlap_ops;        // names listed under "Overlap time"
  std::vector<std::string> overlap_wait_ops;   // names listed under "Overlap (wait) time"
  std::vector<std::string> resources;          // "HVX", "HMX", "DMA"
};

}  // namespace htpscope
