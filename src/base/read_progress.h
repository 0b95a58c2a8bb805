// How many bytes of their inputs the readers have consumed, for a progress
// display (the CLI draws it; nothing here prints).  Process-wide and
// thread-safe; readers add once per block or chunk they finish (relaxed
// atomics), never per event.  Bytes are file bytes: compressed bytes for
// gzip input, so they compare with file sizes.
#pragma once

#include <cstdint>

namespace htpscope::read_progress {

// `bytes` more of an input were consumed.
void AddBytesRead(uint64_t bytes);
// An input of `bytes` bytes will be read (a regular file's size).
void AddBytesExpected(uint64_t bytes);
// An input of unknown size will be read (standard input, a pipe): no total.
void MarkTotalUnknown();

struct Snapshot {
  uint64_t bytes_read = 0;
  uint64_t bytes_expected = 0;  // Σ AddBytesExpected
  bool total_known = false;     // bytes_expected > 0 and no MarkTotalUnknown
};
Snapshot Now();

// Back to zero (for tests).
void Reset();

}  // namespace htpscope::read_progress
