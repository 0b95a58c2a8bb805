// libFuzzer target: ExecuTorch's DSP heap file and the QNN_PROFILE JSON
// reader, with the heap checkpoints taken from each.
#include "base/fuzz_support.h"
#include "formats/heap_profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  std::string_view text = fuzz::AsText(data, size);
  try {
    ParseExecuTorchHeapFile(fuzz::kFuzzPath, text);
  } catch (const InputError& e) {
    fuzz::CheckTextError(e, fuzz::kFuzzPath, fuzz::AsText(data, size));
  }
  try {
    QnnProfileJson profile = ParseQnnProfileJson(fuzz::kFuzzPath, text);
    HeapCheckpointsFromQnnProfile(profile);
  } catch (const InputError& e) {
    fuzz::CheckError(e, fuzz::kFuzzPath, fuzz::AsText(data, size));
  }
  return 0;
}
