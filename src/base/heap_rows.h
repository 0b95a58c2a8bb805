// DSP heap checkpoints (primer §9) as the heap reader finds them and the
// model keeps them: DSP:before_context_created and DSP:after_context_freed,
// in bytes, with where in the file each was found.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace htpscope {

enum class HeapCheckpointKind { kBeforeContextCreated, kAfterContextFreed };

// "DSP:before_context_created" / "DSP:after_context_freed".
const char* HeapCheckpointName(HeapCheckpointKind kind);

struct HeapCheckpoint {
  HeapCheckpointKind kind = HeapCheckpointKind::kBeforeContextCreated;
  std::string identifier;  // as written, e.g. "DSP:before_context_created (bytes)"
  int64_t value_bytes = 0;
  std::optional<uint64_t> line;         // 1-based line (text formats)
  std::optional<uint64_t> byte_offset;  // JSON
  std::string context;                  // "Init Stats", "messages[0] BACKEND_DEINIT", ...

  // "line 3" or "byte 120", for messages.
  std::string Where() const;
};

}  // namespace htpscope
