#include "model/heap_file.h"

#include <fmt/format.h>

#include "formats/heap_profile.h"

namespace htpscope {

const char* HeapCheckpointTypeName(HeapCheckpointType type) {
  return type == HeapCheckpointType::kBeforeContextCreated ? "DSP:before_context_created"
                                                           : "DSP:after_context_freed";
}

std::string HeapCheckpointRow::Where() const {
  if (line) return fmt::format("line {}", *line);
  if (byte_offset) return fmt::format("byte {}", *byte_offset);
  return "";
}

HeapFile LoadHeapFile(const std::string& path) {
  HeapCheckpoints read = ReadHeapCheckpoints(path);
  HeapFile file;
  file.path = read.path;
  file.format = HeapSourceFormatName(read.format);
  file.warnings = std::move(read.warnings);
  for (auto& c : read.checkpoints)
    file.checkpoints.push_back({c.kind == HeapCheckpointKind::kBeforeContextCreated
                                    ? HeapCheckpointType::kBeforeContextCreated
                                    : HeapCheckpointType::kAfterContextFreed,
                                std::move(c.identifier), c.value_bytes, c.line, c.byte_offset,
                                std::move(c.context)});
  return file;
}

}  // namespace htpscope
