// libFuzzer target: the ExecuTorch LLM runner stats reader
// (formats/llm_runner_stats.h), the whole input at once and fed in small
// pieces (as a stream delivers it): both must give the same lines or the
// same error, and recognition must not fail on what the reader reads.
#include <cstdlib>

#include "base/fuzz_support.h"
#include "formats/llm_runner_stats.h"

namespace {

// What a read gave, for comparing two reads.
std::string Outcome(std::string_view text, size_t piece_bytes) {
  using namespace htpscope;
  try {
    const LlmRunnerStats s = ParseLlmRunnerStats(fuzz::kFuzzPath, text, piece_bytes);
    std::string out = std::to_string(s.log_lines) + " " + std::to_string(s.other_observer_lines);
    for (const auto& l : s.lines)
      out += " " + std::to_string(l.line) + ":" + std::to_string(*l.prompt_tokens) + "/" +
             std::to_string(*l.generated_tokens);
    return out;
  } catch (const InputError& e) {
    fuzz::CheckTextError(e, fuzz::kFuzzPath, text);
    return e.what();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  const std::string_view text = fuzz::AsText(data, size);
  const std::string whole = Outcome(text, 0);
  const size_t piece = size == 0 ? 1 : 1 + data[0] % 23;
  if (Outcome(text, piece) != whole) {
    std::fprintf(stderr, "fuzz contract violated: reading in pieces of %zu differs\n", piece);
    std::abort();
  }
  // A log the reader reads is one recognition accepts (recognition reads
  // the keys' text, so escaped keys are left out).
  if (whole.find(fuzz::kFuzzPath) == std::string::npos &&
      text.find('\\') == std::string_view::npos && !LooksLikeLlmRunnerStats(text)) {
    std::fprintf(stderr, "fuzz contract violated: read but not recognised\n");
    std::abort();
  }
  return 0;
}
