// libFuzzer target: the sampling-profile reader (speedscope JSON, collapsed
// stacks, austin output).  A profile read must be consistent: every stack's
// frames and thread exist, and every weight is a finite non-negative number.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "base/fuzz_support.h"
#include "formats/sampling_profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  std::string_view text = fuzz::AsText(data, size);
  try {
    SamplingProfile p = ParseSamplingProfile(fuzz::kFuzzPath, text);
    for (const auto& s : p.stacks) {
      bool frames_ok = true;
      for (uint32_t f : s.frames) frames_ok = frames_ok && f < p.frames.size();
      if (!frames_ok || s.thread >= p.threads.size() || !std::isfinite(s.weight) || s.weight < 0) {
        std::fprintf(stderr, "fuzz contract violated: inconsistent stack\n");
        std::abort();
      }
    }
  } catch (const InputError& e) {
    fuzz::CheckError(e, fuzz::kFuzzPath, text);
  }
  return 0;
}
