// libFuzzer target: a whole run through the summary (op instances, unit
// occupancy, cross-checks), so that extreme figures a reader accepts are
// followed into the arithmetic built on them.
//
// Input: an optrace, optionally followed by "\n@@runtrace@@\n" and a runtrace
// and/or "\n@@qhas@@\n" and a QHAS summary (any order after the optrace).
#include <string_view>

#include "analysis/summary.h"
#include "formats/fuzz_support.h"

namespace {

constexpr std::string_view kRuntraceMark = "\n@@runtrace@@\n";
constexpr std::string_view kQhasMark = "\n@@qhas@@\n";

// Splits off the part after `mark` (up to the next mark of either kind).
std::string_view Part(std::string_view input, std::string_view mark) {
  size_t at = input.find(mark);
  if (at == std::string_view::npos) return {};
  std::string_view rest = input.substr(at + mark.size());
  size_t end = std::min(rest.find(kRuntraceMark), rest.find(kQhasMark));
  return rest.substr(0, end);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  std::string_view input = fuzz::AsText(data, size);
  std::string_view trace =
      input.substr(0, std::min(input.find(kRuntraceMark), input.find(kQhasMark)));
  std::string_view runtrace = Part(input, kRuntraceMark);
  std::string_view qhas = Part(input, kQhasMark);
  ProfiledRun run;
  run.label = fuzz::kFuzzPath;
  try {
    run.optrace = ParseOptrace("optrace", trace.data(), trace.size());
    if (!runtrace.empty()) run.runtrace = ParseRuntrace("runtrace", runtrace);
    if (!qhas.empty()) run.qhas = ParseQhas("qhas", qhas);
  } catch (const InputError& e) {
    fuzz::CheckError(e, e.file(), fuzz::AsText(data, size));
    return 0;
  }
  run.ops = BuildOpInstances(*run.optrace, &run.warnings);
  Summary summary = Summarize(run);
  (void)summary;
  return 0;
}
