// libFuzzer target: the profile CSV reader (qnn-profile-viewer / ONNX Runtime)
// and the heap checkpoints found in it.
#include "base/fuzz_support.h"
#include "formats/heap_profile.h"
#include "formats/profile_text.h"
#include "formats/profile_text_fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  std::string_view text = fuzz::AsText(data, size);
  (void)LooksLikeProfileCsv(text);
  try {
    ProfileReport report = ParseProfileCsv(fuzz::kFuzzPath, text);
    fuzz::CheckProfileGraphs(report);
    HeapCheckpointsFromProfile(report, text);
  } catch (const InputError& e) {
    fuzz::CheckTextError(e, fuzz::kFuzzPath, fuzz::AsText(data, size));
  }
  return 0;
}
