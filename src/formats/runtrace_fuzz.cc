// libFuzzer target: the runtrace (RUN_TRACE chrometrace) reader.
#include <cstdlib>

#include "base/fuzz_support.h"
#include "formats/runtrace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  try {
    Runtrace trace = ParseRuntrace(fuzz::kFuzzPath, fuzz::AsText(data, size));
    for (const RunExecution& execution : trace.executions) {
      if (execution.phases.empty()) std::abort();
      for (const RunPhase& phase : execution.phases) {
        if (phase.wall_ticks() < 0) std::abort();  // rejected as "ends before it starts"
        if (phase.has_cycles && phase.wall_cycles() < 0) std::abort();
        (void)phase.effective_ghz();
      }
    }
  } catch (const InputError& e) {
    fuzz::CheckError(e, fuzz::kFuzzPath, fuzz::AsText(data, size));
  }
  return 0;
}
