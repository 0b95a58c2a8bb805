// Timing whole programs from outside, for bench_summary: each run is a child
// process (fork/exec), so wall time includes start-up, reading and all the
// work, and the peak resident set (wait4's ru_maxrss) is that run's.  Linux
// counts the forked copy of this process in it too, so this process keeps
// itself small when it forks (no big outputs held, freed memory trimmed).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace htpscope::bench {

struct ChildRun {
  double seconds = 0;      // wall
  double cpu_seconds = 0;  // user + system
  int64_t peak_rss_bytes = 0;
  std::string out;  // standard output (empty unless captured)
};

// Runs argv[0] (searched in PATH) with argv; stdout is kept when `capture`,
// else discarded.  Throws std::runtime_error on a failed start, a signal or
// a non-zero exit.
ChildRun RunChild(const std::vector<std::string>& argv, bool capture = false);

// Every run of one command, timed.
struct Timing {
  std::vector<double> seconds;  // wall, per run
  double best_seconds = 0, median_seconds = 0;
  double best_cpu_seconds = 0;
  int64_t peak_rss_bytes = 0;  // highest over the runs
  std::string out;             // the first run's stdout, when captured
};

// Runs each command `repeat` times, interleaved (A B C A B C ...), so that
// all see the same machine: a shared machine's speed drifts by tens of
// percent in minutes, and only ratios within one pass mean much.
std::vector<Timing> TimeInterleaved(const std::vector<std::vector<std::string>>& commands,
                                    unsigned repeat, bool capture_first = false);

// Bytes of the file, or of its decompressed content for gzip.
int64_t FileBytes(const std::string& path);
int64_t DecompressedBytes(const std::string& path);
bool IsGzip(const std::string& path);

double Mb(int64_t bytes);

}  // namespace htpscope::bench
