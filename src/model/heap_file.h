// DSP heap checkpoints of one file (primer §9), as the heap analysis reads
// them: DSP:before_context_created and DSP:after_context_freed, in bytes,
// with where in the file each was found (base/heap_rows.h).
#pragma once

#include <string>
#include <vector>

#include "base/heap_rows.h"

namespace htpscope {

struct HeapFile {
  std::string path;
  // "ExecuTorch heap file", "profile-viewer text", "profile CSV" or "QNN_PROFILE JSON".
  std::string format;
  std::vector<HeapCheckpoint> checkpoints;  // in file order
  std::vector<std::string> warnings;
};

// Reads the checkpoints of `path` (plain or gzip), recognising the format by
// content.  Throws InputError on unreadable or malformed input.
HeapFile LoadHeapFile(const std::string& path);

}  // namespace htpscope
