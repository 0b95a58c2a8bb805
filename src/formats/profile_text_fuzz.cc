// libFuzzer target: the qnn-profile-viewer / snpe-diagview text reader (basic,
// detailed and linting levels) and the heap checkpoints found in it.
#include "base/fuzz_support.h"
#include "formats/heap_profile.h"
#include "formats/profile_text.h"
#include "formats/profile_text_fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  std::string_view text = fuzz::AsText(data, size);
  (void)LooksLikeProfileText(text);
  try {
    ProfileReport report = ParseProfileText(fuzz::kFuzzPath, text);
    fuzz::CheckProfileGraphs(report);
    HeapCheckpointsFromProfile(report, text);
  } catch (const InputError& e) {
    fuzz::CheckTextError(e, fuzz::kFuzzPath, fuzz::AsText(data, size));
  }
  return 0;
}
