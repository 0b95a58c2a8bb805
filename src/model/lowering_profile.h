// An ahead-of-time lowering run as a sampling profiler saw it (primer §11,
// docs/aot.md): a table of distinct stacks, each weighted in seconds.
//
// Built from any sampling profile formats/sampling_profile.h reads.  Weights
// that count samples (collapsed stacks, speedscope unit "none") become
// seconds at a sample rate: samples ÷ rate_hz.  Time weights are taken as
// written (speedscope time units, austin's µs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace htpscope {

struct SamplingProfile;  // formats/sampling_profile.h

struct LoweringStack {
  std::vector<uint32_t> frames;  // root first; indices into LoweringProfile::frames
  uint32_t thread = 0;           // index into LoweringProfile::threads
  double seconds = 0;
};

struct LoweringProfile {
  std::string path;
  std::string source;  // what was read, e.g. "austin 3.6.0 output, wall mode, interval 100 µs"
  std::vector<std::string> frames;   // "function (file)", see formats/sampling_profile.h
  std::vector<std::string> threads;  // thread labels ("" when the profile names none)
  std::vector<LoweringStack> stacks;
  double total_seconds = 0;                   // Σ stacks' seconds
  uint64_t samples = 0;                       // samples (or lines, or evented intervals) read
  std::optional<double> sample_rate_hz;       // set when sample counts were turned into seconds
  std::optional<double> profiler_gc_seconds;  // austin -g's "# gc:" footer
  std::vector<std::string> notes;
};

struct LoweringProfileOptions {
  // Samples per second, for profiles whose weights count samples.  100 is
  // py-spy's default rate.
  double sample_rate_hz = 100;
};

// Reads `path` (speedscope, collapsed or austin; plain or gzip).  Throws
// InputError as ReadSamplingProfile does.
LoweringProfile LoadLoweringProfile(const std::string& path,
                                    const LoweringProfileOptions& options = {});

// The same from a profile already read.
LoweringProfile ToLoweringProfile(SamplingProfile profile, const LoweringProfileOptions& options);

}  // namespace htpscope
