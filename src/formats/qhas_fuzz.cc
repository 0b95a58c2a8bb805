// libFuzzer target: the QHAS (analysis summary JSON) reader.
#include "base/fuzz_support.h"
#include "formats/qhas.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  try {
    Qhas qhas = ParseQhas(fuzz::kFuzzPath, fuzz::AsText(data, size));
    for (const auto& [core, segments] : qhas.dominant_path)
      for (const QhasPathSegment& s : segments) (void)s.is_idle();
  } catch (const InputError& e) {
    fuzz::CheckError(e, fuzz::kFuzzPath, fuzz::AsText(data, size));
  }
  return 0;
}
