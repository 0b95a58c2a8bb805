// How a JSON reader streams a big document: the arrays or objects that hold
// most of its bytes cut into chunks parsed on several threads
// (formats/json_parallel.h).
#pragma once

#include <cstddef>

namespace htpscope {

struct StreamedReadOptions {
  unsigned threads = 0;             // parser threads; 0 = one per core
  size_t chunk_bytes = 512u << 10;  // target size of the chunks parsed in parallel
};

}  // namespace htpscope
