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

// The phase of a QNN application's life a profile block belongs to, as the
// CSV's Message column and the text's section titles name it (QnnProfile
// event types): INIT ("Init Stats", "Create From Binary Stats"), COMPOSE
// GRAPHS, FINALIZE (graph preparation), EXECUTE (every "Execute Stat N", and
// the "Execute Stats (Average|Min|Max)" statistics), EXECUTE IPS ("Execute
// Stats (Overall)", inferences per second) and DE-INIT.  Only EXECUTE blocks
// with an execution number are executions.
enum class ProfilePhase : uint8_t {
  kOther,  // a block of no known phase (SNPE "Layer Times", an unknown "X Stats")
  kInit,
  kCompose,
  kFinalize,
  kExecute,
  kExecuteIps,
  kDeinit,
};

// "other", "init", "compose", "finalize", "execute", "execute_ips", "deinit".
constexpr const char* ProfilePhaseName(ProfilePhase phase) {
  switch (phase) {
    case ProfilePhase::kOther:
      return "other";
    case ProfilePhase::kInit:
      return "init";
    case ProfilePhase::kCompose:
      return "compose";
    case ProfilePhase::kFinalize:
      return "finalize";
    case ProfilePhase::kExecute:
      return "execute";
    case ProfilePhase::kExecuteIps:
      return "execute_ips";
    case ProfilePhase::kDeinit:
      return "deinit";
  }
  return "other";
}

}  // namespace htpscope
