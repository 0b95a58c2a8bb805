// Sampling profiles of a Python process (e.g. an ahead-of-time lowering run),
// as three profilers write them (docs/aot.md):
//
//  * speedscope JSON (py-spy --format speedscope, austin2speedscope, ...):
//    {"$schema": ".../file-format-schema.json", "shared": {"frames": [{"name",
//    "file"?, "line"?, "col"?}]}, "profiles": [...]}.  A "sampled" profile has
//    "samples" (stacks of frame indices, root first) and "weights"; an
//    "evented" one has "events" ({"type": "O"|"C", "at", "frame"}), and a
//    stack weighs the time between consecutive events.  "unit" is seconds,
//    milliseconds, microseconds, nanoseconds or none (a weight counts
//    samples); "bytes" is rejected.  Every profile (one per thread for py-spy)
//    is read; its name labels the stacks' thread.
//  * collapsed ("folded") stacks: one "frame;frame;frame COUNT" line per
//    distinct stack, root first (py-spy --format raw, Brendan Gregg's
//    stackcollapse-*.pl).  COUNT is a number of samples (flamegraph.pl also
//    allows decimals).  Blank lines and lines starting with '#' are skipped.
//  * austin's output: "# key: value" metadata lines (austin 3 writes
//    "# austin: <version>", "# interval: <µs>", "# mode: wall|cpu|memory|full"
//    first and "# duration: <µs>", "# gc: <µs>" last), then one line per
//    sample: "P<pid>;T<iid>:<tid>;<file>:<function>:<line>;... <µs>" (austin
//    3), "P<pid>;T<tid>;<function> (<file>);L<line>;... <µs>" (austin 2) or
//    "Thread <tid>;<function> (<file>);L<line>;... <µs>" (austin 1, "Process
//    <pid>;" first with -C).  Full mode ends a line with "<µs>,<idle>,<bytes>"
//    (austin 3) or "<µs> <+bytes> <-bytes>" (austin 1 and 2); the time is
//    read.  Memory mode (metrics in bytes) is rejected when the header says
//    so; austin 1 and 2 write no header, so their output is taken as time.
//    With -g austin 3 appends a ":GC:" frame while the collector runs.
//
// The kind is recognised by content, never by the file name; the file may be
// gzip-compressed.  Frames are named "function (file)" whatever the source:
// line numbers are dropped ("f (a.py:12)" and austin's "a.py:f:12" both read
// "f (a.py)"), so that the same function at different lines (or in two
// versions of the code) is one frame.  A name without a file is kept as is.
// austin's process/thread prefix and py-spy's root "process N:..." and
// "thread (0x...)" frames become the stack's thread label, not frames.
// Identical (thread, stack) pairs are merged, their weights summed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace htpscope {

enum class SamplingProfileFormat { kSpeedscope, kCollapsed, kAustin };
// "speedscope", "collapsed", "austin".
const char* SamplingProfileFormatName(SamplingProfileFormat format);

// What the weights of a profile count.
enum class SampleWeightUnit {
  kSeconds,  // time (speedscope time units and austin's µs are converted)
  kSamples,  // samples (collapsed stacks, speedscope unit "none")
};

struct SampledStack {
  std::vector<uint32_t> frames;  // root first; indices into SamplingProfile::frames
  uint32_t thread = 0;           // index into SamplingProfile::threads
  double weight = 0;             // in SamplingProfile::weight_unit, summed over samples
};

struct SamplingProfile {
  std::string path;
  SamplingProfileFormat format = SamplingProfileFormat::kCollapsed;
  SampleWeightUnit weight_unit = SampleWeightUnit::kSamples;
  std::vector<std::string> frames;   // distinct frame names ("function (file)")
  std::vector<std::string> threads;  // thread labels; "" when the source names none
  std::vector<SampledStack> stacks;  // distinct (thread, stack) pairs, in first-seen order
  // Samples read: collapsed counts (rounded), austin lines, speedscope
  // samples, or intervals between evented events.
  uint64_t samples_read = 0;

  // Producer facts, when the file states them.
  std::string exporter;                       // speedscope "exporter", e.g. "py-spy@0.3.14"
  std::string austin_version;                 // "# austin: 3.6.0"
  std::string austin_mode;                    // "wall", "cpu" or "full" ("" when not stated)
  std::optional<int64_t> austin_interval_us;  // "# interval:"
  std::optional<int64_t> austin_duration_us;  // "# duration:"
  std::optional<int64_t> austin_gc_us;        // "# gc:" (austin -g)
  std::vector<std::string> notes;             // what was read in a way worth saying
};

// Reads a sampling profile (plain or gzip), recognising its kind by content.
// Collapsed and austin text is streamed line by line.  Throws InputError
// naming the file and the byte offset (JSON) or 1-based line (text) on
// anything malformed: not one of the three kinds, a line without a count,
// a negative or non-numeric weight, a frame index out of range, unbalanced
// evented frames, bytes or memory-mode weights, or a profile without samples.
SamplingProfile ReadSamplingProfile(const std::string& path);

// The same for content already in memory (tests, fuzzing).
SamplingProfile ParseSamplingProfile(const std::string& path, std::string_view content);

// The kind of profile `prefix` (the first KB of a file) starts like, or
// nullopt when it is none of the three.
std::optional<SamplingProfileFormat> DetectSamplingProfileFormat(std::string_view prefix);
// The same for the file at `path` (plain or gzip).  Throws InputError only
// when it cannot be opened.
std::optional<SamplingProfileFormat> DetectSamplingProfileFormatOf(const std::string& path);

// "f (a.py:12)" -> "f (a.py)"; any other name is returned unchanged.
std::string StripFrameLine(std::string_view frame);

}  // namespace htpscope
