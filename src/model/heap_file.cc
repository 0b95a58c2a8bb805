#include "model/heap_file.h"

#include "formats/heap_profile.h"

namespace htpscope {

HeapFile LoadHeapFile(const std::string& path) {
  HeapCheckpoints read = ReadHeapCheckpoints(path);
  HeapFile file;
  file.path = read.path;
  file.format = HeapSourceFormatName(read.format);
  file.checkpoints = std::move(read.checkpoints);
  file.warnings = std::move(read.warnings);
  return file;
}

}  // namespace htpscope
