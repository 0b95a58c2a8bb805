// libFuzzer target: the streamed optrace read (mapped file, chunks cut at
// line-start events, counter, flow and op lines taken out before simdjson) must
// accept exactly the inputs the whole-document parse accepts, and give the
// same events.  Tiny chunks for odd-sized inputs, so that every input is cut
// many times; larger ones for even-sized inputs, so that an op event and its
// copies on other processes share a chunk.
#include <cstdlib>
#include <optional>

#include "base/fuzz_support.h"
#include "formats/optrace.h"
#include "formats/optrace_fuzz_compare.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  // ReadOptrace inflates gzip, ParseOptrace takes bytes as they are: only
  // plain text compares (the byte_source target covers gzip).
  if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) return 0;
  static fuzz::MemoryFile file;
  const std::string& path = file.Write(data, size);
  std::optional<Optrace> whole, streamed;
  std::string whole_error, streamed_error;
  try {
    whole = ParseOptrace(path, reinterpret_cast<const char*>(data), size);
  } catch (const InputError& e) {
    fuzz::CheckError(e, path, fuzz::AsText(data, size));
    whole_error = e.what();
  }
  try {
    ReadOptraceOptions options;
    options.threads = 2;
    options.chunk_bytes = size % 2 ? 64 : 4096;
    streamed = ReadOptrace(path, options);
  } catch (const InputError& e) {
    streamed_error = e.what();
  }
  if (whole_error != streamed_error)
    std::fprintf(stderr, "whole: %s\nstreamed: %s\n", whole_error.c_str(), streamed_error.c_str());
  fuzz::RequireSame(whole_error == streamed_error, "streamed and whole", "errors");
  if (!whole) return 0;
  fuzz::RequireSameEvents(*whole, *streamed, "streamed and whole");
  return 0;
}
