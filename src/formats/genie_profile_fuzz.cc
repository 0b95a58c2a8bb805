// libFuzzer target: the Genie profile reader (formats/genie_profile.h).
#include <cstdlib>

#include "base/fuzz_support.h"
#include "formats/genie_profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  simdjson::padded_string json(reinterpret_cast<const char*>(data), size);
  try {
    ParseGenieProfile(fuzz::kFuzzPath, json);
  } catch (const InputError& e) {
    fuzz::CheckError(e, fuzz::kFuzzPath, fuzz::AsText(data, size));
  }
  return 0;
}
