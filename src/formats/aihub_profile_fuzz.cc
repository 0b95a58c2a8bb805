// libFuzzer target: the AI Hub profile reader (formats/aihub_profile.h).
#include <cstdlib>

#include "base/fuzz_support.h"
#include "formats/aihub_profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  simdjson::padded_string json(reinterpret_cast<const char*>(data), size);
  try {
    ParseAihubProfile(fuzz::kFuzzPath, json);
  } catch (const InputError& e) {
    fuzz::CheckError(e, fuzz::kFuzzPath, fuzz::AsText(data, size));
  }
  return 0;
}
