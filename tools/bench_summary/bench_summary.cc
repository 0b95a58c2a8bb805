// bench_summary: end-to-end throughput and peak memory of `htpscope summary`
// on optrace files, side by side with the Python standard-library script
// people use today (summary_baseline.py), and, for .gz input, against plain
// single-threaded inflate of the same file: zlib's (gzip -d, Python's gzip)
// and htpscope's own gzip reader (ISA-L igzip) alone.
//
//   bench_summary --htpscope BIN [--python SCRIPT] [--repeat N] TRACE...
//
// `htpscope summary FILE` (the text report) is timed; one `--json` run
// more gives the figures compared with Python and its own time and RSS.
// Each measurement runs the program as a child process (fork/exec), so the
// wall time includes start-up, reading and the whole summary, and the peak
// resident set (wait4's ru_maxrss) is that run's alone.  htpscope runs N
// times (best wall time, highest RSS); Python runs once.  Sizes and
// throughputs count uncompressed bytes: MB = 10^6 bytes.  Both sides' figures
// (graph wall, work, per-thread cycles_used) are compared, and a mismatch is
// reported and makes the exit status 1.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/statistics.h"
#include "formats/byte_source.h"

namespace {

using Clock = std::chrono::steady_clock;

struct ChildRun {
  double seconds = 0;
  int64_t peak_rss_bytes = 0;
  std::string out;  // the child's standard output
};

// Runs argv[0] with argv, capturing stdout in a temporary file.  Throws on a
// failed start or a non-zero exit.
ChildRun RunChild(const std::vector<std::string>& argv) {
  char out_path[] = "/tmp/bench_summary_XXXXXX";
  int out_fd = mkstemp(out_path);
  if (out_fd < 0) throw std::runtime_error("mkstemp failed");
  unlink(out_path);
  auto start = Clock::now();
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(out_fd, 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  if (wait4(pid, &status, 0, &usage) < 0) throw std::runtime_error("wait4 failed");
  ChildRun run;
  run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  run.peak_rss_bytes = static_cast<int64_t>(usage.ru_maxrss) * 1024;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(fmt::format("{} exited with status {}", argv[0],
                                         WIFEXITED(status) ? WEXITSTATUS(status) : -1));
  lseek(out_fd, 0, SEEK_SET);
  char buffer[1 << 16];
  for (ssize_t n; (n = read(out_fd, buffer, sizeof buffer)) > 0;) run.out.append(buffer, n);
  close(out_fd);
  return run;
}

struct Inflated {
  int64_t bytes = 0;  // uncompressed
  double seconds = 0;
};

// Plain single-threaded zlib inflate of a (multi-member) gzip file into a
// discarded buffer: the ceiling for any reader of a .gz trace on one core.
Inflated InflateOnly(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path);
  gzbuffer(f, 1 << 20);
  std::vector<char> buffer(1 << 20);
  Inflated r;
  auto start = Clock::now();
  for (int n; (n = gzread(f, buffer.data(), static_cast<unsigned>(buffer.size()))) > 0;)
    r.bytes += n;
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  gzclose(f);
  return r;
}

// htpscope's own gzip reader (ISA-L igzip) alone on one thread, into a
// discarded buffer: the inflate part of reading a .gz trace.
Inflated InflateOnlyIgzip(const std::string& path) {
  std::unique_ptr<htpscope::ByteSource> source = htpscope::OpenByteSource(path);
  std::vector<char> buffer(1 << 20);
  Inflated r;
  auto start = Clock::now();
  for (size_t n; (n = source->Read(buffer.data(), buffer.size())) > 0;)
    r.bytes += static_cast<int64_t>(n);
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

int64_t FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::runtime_error("cannot open " + path);
  return static_cast<int64_t>(in.tellg());
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The figures both sides compute: graph wall, work, cycles_used per tid.
struct Figures {
  int64_t graph_wall_cycles = 0, work_cycles = 0;
  std::map<int64_t, int64_t> cycles_used_by_tid;
  bool operator==(const Figures&) const = default;
};

Figures FromHtpscope(const nlohmann::json& j) {
  Figures f;
  f.graph_wall_cycles = j.at("graph_wall_cycles").get<int64_t>();
  f.work_cycles = j.at("work_cycles").get<int64_t>();
  for (const auto& u : j.at("units"))
    f.cycles_used_by_tid[u.at("tid").get<int64_t>()] = u.at("cycles_used").get<int64_t>();
  return f;
}

Figures FromPython(const nlohmann::json& j) {
  Figures f;
  f.graph_wall_cycles = j.at("graph_wall_cycles").get<int64_t>();
  f.work_cycles = j.at("work_cycles").get<int64_t>();
  for (const auto& [tid, cycles] : j.at("cycles_used").items())
    f.cycles_used_by_tid[std::stoll(tid)] = cycles.get<int64_t>();
  return f;
}

double Mb(int64_t bytes) { return static_cast<double>(bytes) / 1e6; }

// The median of `seconds` (at least one run).
double Median(const std::vector<double>& seconds) {
  return htpscope::ComputeStats(seconds)->median;
}

}  // namespace

int main(int argc, char** argv) {
  std::string htpscope, python_script;
  unsigned repeat = 3;
  std::vector<std::string> traces;
  CLI::App app{"bench_summary: htpscope summary vs a Python json.load script, on optrace files"};
  app.add_option("--htpscope", htpscope, "The htpscope binary")->required();
  app.add_option("--python", python_script, "summary_baseline.py (omit to skip Python)");
  app.add_option("--repeat", repeat, "htpscope runs per file (best time is kept)")
      ->capture_default_str();
  app.add_option("traces", traces, "chrometrace.json or chrometrace.json.gz files")->required();
  CLI11_PARSE(app, argc, argv);

  bool mismatch = false;
  try {
    for (const std::string& trace : traces) {
      bool gz = EndsWith(trace, ".gz");
      int64_t file_bytes = FileBytes(trace);
      // Timed: `htpscope summary FILE` as people run it (text report), and
      // for .gz the inflate baselines, interleaved so that all see the same
      // machine (a shared virtual one drifts by tens of percent in minutes);
      // the best of each is kept.
      std::optional<Inflated> inflate, igzip;
      std::vector<double> htpscope_seconds, inflate_seconds;  // every run, for medians
      auto keep_faster = [](std::optional<Inflated>& best, const Inflated& run) {
        if (!best || run.seconds < best->seconds) best = run;
      };
      ChildRun best;
      int64_t peak_rss = 0;
      for (unsigned i = 0; i < std::max(repeat, 1u); ++i) {
        if (gz) {
          Inflated zlib_run = InflateOnly(trace);
          inflate_seconds.push_back(zlib_run.seconds);
          keep_faster(inflate, zlib_run);
          keep_faster(igzip, InflateOnlyIgzip(trace));
        }
        ChildRun run = RunChild({htpscope, "summary", trace});
        peak_rss = std::max(peak_rss, run.peak_rss_bytes);
        htpscope_seconds.push_back(run.seconds);
        if (i == 0 || run.seconds < best.seconds) best = std::move(run);
      }
      int64_t bytes = gz ? inflate->bytes : file_bytes;
      // Once more with --json, for the figures compared with Python (the
      // JSON lists every op, so it costs more: reported on its own line).
      ChildRun json_run = RunChild({htpscope, "summary", "--json", trace});
      Figures ours = FromHtpscope(nlohmann::json::parse(json_run.out));
      int64_t events = 0;  // len(traceEvents), counted by the Python side
      fmt::print("{}\n", trace);
      fmt::print("  file        {:10.1f} MB{}\n", Mb(file_bytes),
                 gz ? fmt::format(" (gzip; {:.1f} MB uncompressed)", Mb(bytes)) : "");
      fmt::print(
          "  htpscope    {:10.3f} s  {:8.0f} MB/s  peak RSS {:8.1f} MB = {:.3f} x the data"
          "  (best of {}; median {:.3f} s)\n",
          best.seconds, Mb(bytes) / best.seconds, Mb(peak_rss),
          static_cast<double>(peak_rss) / static_cast<double>(bytes), repeat,
          Median(htpscope_seconds));
      fmt::print(
          "  --json      {:10.3f} s  {:8.0f} MB/s  peak RSS {:8.1f} MB = {:.3f} x the data"
          "  (one run; every op in the output)\n",
          json_run.seconds, Mb(bytes) / json_run.seconds, Mb(json_run.peak_rss_bytes),
          static_cast<double>(json_run.peak_rss_bytes) / static_cast<double>(bytes));
      if (inflate)
        fmt::print(
            "  zlib inflate{:10.3f} s  {:8.0f} MB/s  (one thread, output discarded, best of the "
            "same runs); "
            "htpscope reaches {:.0f} % of it (medians: {:.0f} %)\n",
            inflate->seconds, Mb(bytes) / inflate->seconds, 100.0 * inflate->seconds / best.seconds,
            100.0 * Median(inflate_seconds) / Median(htpscope_seconds));
      if (igzip)
        fmt::print(
            "  igzip inflate{:9.3f} s  {:8.0f} MB/s  (htpscope's gzip reader alone, one thread, "
            "output discarded, best of the same runs); "
            "htpscope reaches {:.0f} % of it\n",
            igzip->seconds, Mb(bytes) / igzip->seconds, 100.0 * igzip->seconds / best.seconds);
      if (!python_script.empty()) {
        ChildRun py = RunChild({"python3", python_script, trace});
        nlohmann::json pj = nlohmann::json::parse(py.out);
        events = pj.at("events").get<int64_t>();
        fmt::print(
            "  python3     {:10.3f} s  {:8.1f} MB/s  peak RSS {:8.1f} MB = {:.2f} x the data\n",
            py.seconds, Mb(bytes) / py.seconds, Mb(py.peak_rss_bytes),
            static_cast<double>(py.peak_rss_bytes) / static_cast<double>(bytes));
        fmt::print(
            "  events      {:10}     htpscope {:.2f} M events/s, python3 {:.3f} M events/s\n",
            events, events / best.seconds / 1e6, events / py.seconds / 1e6);
        fmt::print("  speed-up    {:10.1f} x\n", py.seconds / best.seconds);
        Figures theirs = FromPython(pj);
        if (theirs == ours) {
          fmt::print("  figures     agree: graph wall {} cycles, work {} cycles, {} threads\n",
                     ours.graph_wall_cycles, ours.work_cycles, ours.cycles_used_by_tid.size());
        } else {
          mismatch = true;
          fmt::print("  figures     DIFFER: graph wall {} vs {}, work {} vs {}\n",
                     ours.graph_wall_cycles, theirs.graph_wall_cycles, ours.work_cycles,
                     theirs.work_cycles);
        }
      }
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_summary: error: {}\n", e.what());
    return 2;
  }
  return mismatch ? 1 : 0;
}
