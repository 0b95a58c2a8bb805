// libFuzzer target: TerminalSafe.  Aborts unless the result holds no byte a
// terminal acts on (C0, DEL) and no C1, bidirectional or separator code
// point, leaves safe text unchanged, and never loses a character (every
// input byte is either kept or written as an escape, so the result is at
// least as long).
#include <cstdlib>
#include <string>

#include "base/fuzz_support.h"
#include "report/text_sanitize.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  std::string_view input = fuzz::AsText(data, size);
  std::string safe = TerminalSafe(input);
  for (unsigned char c : safe)
    if (c < 0x20 || c == 0x7F) std::abort();
  if (!IsTerminalSafe(safe)) std::abort();
  if (safe.size() < input.size()) std::abort();
  if (IsTerminalSafe(input) != (safe == input)) std::abort();
  // Escaping is stable: what is safe stays as it is.
  if (TerminalSafe(safe) != safe) std::abort();
  return 0;
}
