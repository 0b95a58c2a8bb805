// libFuzzer target: the streamed optrace read (mapped file, chunks cut at
// line-start events, counter and flow lines taken out before simdjson) must
// accept exactly the inputs the whole-document parse accepts, and give the
// same events.  Tiny chunks for odd-sized inputs, so that every input is cut
// many times; larger ones for even-sized inputs, so that an op event and its
// copies on other processes share a chunk.
#include <cstdlib>
#include <optional>

#include "formats/fuzz_support.h"
#include "formats/optrace.h"

namespace {

void Require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz contract violated: streamed and whole reads differ: %s\n", what);
    std::abort();
  }
}

}  // namespace

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
  Require(whole_error == streamed_error, "errors");
  if (!whole) return 0;
  Require(whole->events_read == streamed->events_read, "events read");
  Require(whole->origin_cycles == streamed->origin_cycles, "origin");
  Require(whole->slices.size() == streamed->slices.size(), "slices");
  Require(whole->duplicate_slices == streamed->duplicate_slices, "copies");
  Require(whole->non_executed.size() == streamed->non_executed.size(), "tensors");
  Require(whole->flows.size() == streamed->flows.size(), "flows");
  for (size_t i = 0; i < whole->flows.size(); ++i)
    Require(whole->flows[i].ts_cycles == streamed->flows[i].ts_cycles &&
                whole->flows[i].flow_id == streamed->flows[i].flow_id,
            "a flow");
  Require(whole->counters.size() == streamed->counters.size(), "counter tracks");
  for (const auto& [name, samples] : whole->counters) {
    auto it = streamed->counters.find(name);
    Require(it != streamed->counters.end() && it->second.size() == samples.size(), "a track");
    for (size_t i = 0; i < samples.size(); ++i)
      Require(samples[i].ts_cycles == it->second[i].ts_cycles &&
                  samples[i].value == it->second[i].value,
              "a counter sample");
  }
  for (size_t i = 0; i < whole->slices.size(); ++i)
    Require(whole->slices[i].start_cycles == streamed->slices[i].start_cycles &&
                whole->slices[i].op_id == streamed->slices[i].op_id,
            "a slice");
  return 0;
}
