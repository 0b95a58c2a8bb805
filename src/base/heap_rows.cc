#include "base/heap_rows.h"

#include <fmt/format.h>

namespace htpscope {

const char* HeapCheckpointName(HeapCheckpointKind kind) {
  return kind == HeapCheckpointKind::kBeforeContextCreated ? "DSP:before_context_created"
                                                           : "DSP:after_context_freed";
}

std::string HeapCheckpoint::Where() const {
  if (line) return fmt::format("line {}", *line);
  if (byte_offset) return fmt::format("byte {}", *byte_offset);
  return "";
}

}  // namespace htpscope
