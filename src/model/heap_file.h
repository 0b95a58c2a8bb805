// DSP heap checkpoints of one file (primer §9), as the heap analysis reads
// them: DSP:before_context_created and DSP:after_context_freed, in bytes,
// with where in the file each was found.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace htpscope {

enum class HeapCheckpointType { kBeforeContextCreated, kAfterContextFreed };
// "DSP:before_context_created" / "DSP:after_context_freed".
const char* HeapCheckpointTypeName(HeapCheckpointType type);

struct HeapCheckpointRow {
  HeapCheckpointType type = HeapCheckpointType::kBeforeContextCreated;
  std::string identifier;  // as written, e.g. "DSP:before_context_created (bytes)"
  int64_t value_bytes = 0;
  std::optional<uint64_t> line;         // 1-based line (text formats)
  std::optional<uint64_t> byte_offset;  // JSON
  std::string context;                  // "Init Stats", "messages[0] BACKEND_DEINIT", ...
  // "line 3" or "byte 120", for messages.
  std::string Where() const;
};

struct HeapFile {
  std::string path;
  // "ExecuTorch heap file", "profile-viewer text", "profile CSV" or "QNN_PROFILE JSON".
  std::string format;
  std::vector<HeapCheckpointRow> checkpoints;  // in file order
  std::vector<std::string> warnings;
};

// Reads the checkpoints of `path` (plain or gzip), recognising the format by
// content.  Throws InputError on unreadable or malformed input.
HeapFile LoadHeapFile(const std::string& path);

}  // namespace htpscope
