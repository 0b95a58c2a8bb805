#include "model/lowering_profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/errors.h"
#include "formats/sampling_profile.h"

namespace htpscope {
namespace {

constexpr size_t kMaxThreadsNamed = 4;
constexpr double kSecondsPerMicrosecond = 1e-6;

std::string Source(const SamplingProfile& p) {
  switch (p.format) {
    case SamplingProfileFormat::kSpeedscope:
      return p.exporter.empty() ? "speedscope JSON"
                                : fmt::format("speedscope JSON from {}", p.exporter);
    case SamplingProfileFormat::kCollapsed:
      return "collapsed stacks";
    case SamplingProfileFormat::kAustin: {
      std::string s = p.austin_version.empty() ? "austin output"
                                               : fmt::format("austin {} output", p.austin_version);
      if (!p.austin_mode.empty()) s += fmt::format(", {} mode", p.austin_mode);
      if (p.austin_interval_us) s += fmt::format(", interval {} µs", *p.austin_interval_us);
      return s;
    }
  }
  return "sampling profile";
}

// "3 threads: MainThread 98.0 %, ..." when the profile has more than one.
void NoteThreads(LoweringProfile& out) {
  if (out.threads.size() < 2 || out.total_seconds <= 0) return;
  std::vector<double> seconds(out.threads.size(), 0.0);
  for (const auto& s : out.stacks) seconds[s.thread] += s.seconds;
  std::vector<size_t> order(out.threads.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t x, size_t y) { return seconds[x] > seconds[y]; });
  std::vector<std::string> parts;
  for (size_t i = 0; i < order.size() && i < kMaxThreadsNamed; ++i)
    parts.push_back(fmt::format("{} {:.1f} %",
                                out.threads[order[i]].empty() ? "(unnamed)" : out.threads[order[i]],
                                seconds[order[i]] / out.total_seconds * 100.0));
  if (order.size() > kMaxThreadsNamed)
    parts.push_back(fmt::format("{} more", order.size() - kMaxThreadsNamed));
  out.notes.push_back(
      fmt::format("{} threads, summed (each thread's samples count its own time): {}",
                  out.threads.size(), fmt::join(parts, ", ")));
}

}  // namespace

LoweringProfile ToLoweringProfile(SamplingProfile profile, const LoweringProfileOptions& options) {
  if (!(options.sample_rate_hz > 0) || !std::isfinite(options.sample_rate_hz))
    throw InternalError("ToLoweringProfile: the sample rate must be positive");
  LoweringProfile out;
  out.path = profile.path;
  out.source = Source(profile);
  out.samples = profile.samples_read;
  out.frames = std::move(profile.frames);
  out.threads = std::move(profile.threads);
  out.notes = std::move(profile.notes);
  // Samples are divided by the rate (exact for whole seconds of samples).
  double samples_per_second = 1.0;
  if (profile.weight_unit == SampleWeightUnit::kSamples) {
    out.sample_rate_hz = options.sample_rate_hz;
    samples_per_second = options.sample_rate_hz;
    out.source +=
        fmt::format(", weights count samples: seconds = samples ÷ {:g} Hz", options.sample_rate_hz);
  }
  out.stacks.reserve(profile.stacks.size());
  for (auto& s : profile.stacks) {
    if (s.weight <= 0) continue;
    double seconds = s.weight / samples_per_second;
    out.total_seconds += seconds;
    out.stacks.push_back({std::move(s.frames), s.thread, seconds});
  }
  if (profile.austin_gc_us)
    out.profiler_gc_seconds = static_cast<double>(*profile.austin_gc_us) * kSecondsPerMicrosecond;
  if (profile.austin_duration_us && *profile.austin_duration_us > 0 &&
      profile.austin_mode != "cpu") {
    double duration = static_cast<double>(*profile.austin_duration_us) * kSecondsPerMicrosecond;
    out.notes.push_back(fmt::format("austin sampled for {:.3f} s; the samples sum to {:.3f} s",
                                    duration, out.total_seconds));
  }
  NoteThreads(out);
  return out;
}

LoweringProfile LoadLoweringProfile(const std::string& path,
                                    const LoweringProfileOptions& options) {
  return ToLoweringProfile(ReadSamplingProfile(path), options);
}

}  // namespace htpscope
