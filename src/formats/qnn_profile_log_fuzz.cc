// libFuzzer target: the qnn-net-run profiling log reader (framing,
// FlatBuffers verification, the corruption locator, the layout checks, and
// the CSV reader its rows go through).  Accepted inputs give rows whose byte
// offsets lie inside the input; rejected ones must name the input and a byte
// offset within it.
#include <cstdlib>

#include "base/fuzz_support.h"
#include "formats/profile_text_fuzz_checks.h"
#include "formats/qnn_profile_log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  std::string_view bytes = fuzz::AsText(data, size);
  (void)LooksLikeQnnProfileLog(bytes);
  try {
    QnnLogContent content = DecodeQnnProfileLog(fuzz::kFuzzPath, bytes);
    for (const QnnLogRow& row : content.rows)
      if (row.byte_offset >= size || row.depth < 0) std::abort();
    ProfileReport report = ParseQnnProfileLog(fuzz::kFuzzPath, bytes);
    fuzz::CheckProfileGraphs(report);
  } catch (const InputError& e) {
    fuzz::CheckError(e, fuzz::kFuzzPath, bytes);
  }
  return 0;
}
