// Building many small vectors without growing each one block by block.
#pragma once

#include <vector>

namespace htpscope {

// Appends the values `fill(add)` passes to `add`, in order, to `out`; an
// empty `out` gets them in one block of their exact size.  They are
// gathered first in a buffer this thread keeps from call to call: a vector
// of a few elements grown by push_back takes two or three blocks (1, 2, 4
// ...), and readers build hundreds of thousands of them.  `fill` must not
// call AppendGathered for the same T itself (the buffer is shared).
template <typename T, typename Fill>
void AppendGathered(std::vector<T>& out, Fill&& fill) {
  thread_local std::vector<T> gathered;
  gathered.clear();
  fill([](T value) { gathered.push_back(value); });
  if (out.empty())
    out.assign(gathered.begin(), gathered.end());
  else
    out.insert(out.end(), gathered.begin(), gathered.end());
}

}  // namespace htpscope
