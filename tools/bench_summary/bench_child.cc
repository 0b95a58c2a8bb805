#include "bench_child.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <stdexcept>

#include "analysis/statistics.h"

namespace htpscope::bench {

ChildRun RunChild(const std::vector<std::string>& argv, bool capture) {
  char out_path[] = "/tmp/bench_summary_XXXXXX";
  const int out_fd = capture ? mkstemp(out_path) : ::open("/dev/null", O_WRONLY);
  if (out_fd < 0) throw std::runtime_error("cannot open the child's output");
  if (capture) unlink(out_path);
  // A forked child's ru_maxrss starts at this process's resident set (the
  // copy exec replaces is counted): hand freed memory back first, so that a
  // big output parsed earlier does not show up as the child's peak.
  malloc_trim(0);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
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
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  run.cpu_seconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  run.peak_rss_bytes = static_cast<int64_t>(usage.ru_maxrss) * 1024;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    close(out_fd);
    std::string command;
    for (const auto& a : argv) command += (command.empty() ? "" : " ") + a;
    throw std::runtime_error(fmt::format("`{}` exited with status {}", command,
                                         WIFEXITED(status) ? WEXITSTATUS(status) : -1));
  }
  if (capture) {
    lseek(out_fd, 0, SEEK_SET);
    char buffer[1 << 16];
    for (ssize_t n; (n = read(out_fd, buffer, sizeof buffer)) > 0;) run.out.append(buffer, n);
  }
  close(out_fd);
  return run;
}

std::vector<Timing> TimeInterleaved(const std::vector<std::vector<std::string>>& commands,
                                    unsigned repeat, bool capture_first) {
  std::vector<Timing> timings(commands.size());
  for (unsigned i = 0; i < std::max(repeat, 1u); ++i) {
    for (size_t c = 0; c < commands.size(); ++c) {
      ChildRun run = RunChild(commands[c], capture_first && i == 0);
      Timing& t = timings[c];
      if (i == 0) t.out = std::move(run.out);
      if (t.seconds.empty() || run.seconds < t.best_seconds) {
        t.best_seconds = run.seconds;
        t.best_cpu_seconds = run.cpu_seconds;
      }
      t.seconds.push_back(run.seconds);
      t.peak_rss_bytes = std::max(t.peak_rss_bytes, run.peak_rss_bytes);
    }
  }
  for (Timing& t : timings) t.median_seconds = ComputeStats(t.seconds)->median;
  return timings;
}

int64_t FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::runtime_error("cannot open " + path);
  return static_cast<int64_t>(in.tellg());
}

bool IsGzip(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char magic[2] = {0, 0};
  in.read(reinterpret_cast<char*>(magic), 2);
  return magic[0] == 0x1f && magic[1] == 0x8b;
}

int64_t DecompressedBytes(const std::string& path) {
  if (!IsGzip(path)) return FileBytes(path);
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path);
  gzbuffer(f, 1 << 20);
  std::vector<char> buffer(1 << 20);
  int64_t bytes = 0;
  for (int n; (n = gzread(f, buffer.data(), static_cast<unsigned>(buffer.size()))) > 0;) bytes += n;
  gzclose(f);
  return bytes;
}

double Mb(int64_t bytes) { return static_cast<double>(bytes) / 1e6; }

}  // namespace htpscope::bench
