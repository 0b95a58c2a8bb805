// libFuzzer target: a whole run through the model and the summary (op
// instances, dominant path, unit occupancy, cross-checks), so that extreme
// figures a reader accepts are followed into the arithmetic built on them.
//
// Input: an optrace, optionally followed by "\n@@runtrace@@\n" and a runtrace
// and/or "\n@@qhas@@\n" and a QHAS summary (model/run_fuzz_support.h).
#include "analysis/summary.h"
#include "model/run_fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  static fuzz::RunFiles files;
  std::string_view failed_part;
  try {
    Run run = fuzz::LoadFuzzRun(fuzz::AsText(data, size), files, &failed_part);
    Summary summary = Summarize(run);  // the dominant path was built when the run was loaded
    (void)summary;
  } catch (const InputError& e) {
    // A join's verdict (an overflow, a mismatch) names a file but no place in it.
    if (e.byte_offset() || e.line()) fuzz::CheckError(e, e.file(), failed_part);
  }
  return 0;
}
