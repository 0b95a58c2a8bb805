#include "cli/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "report/format_util.h"

namespace htpscope::cli {
namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kRedrawInterval = std::chrono::milliseconds(200);  // 5 frames a second
constexpr auto kQuietStart = std::chrono::seconds(1);             // auto: short reads stay silent

// The drawing thread and what it shares with the main thread.
struct Display {
  std::mutex mutex;
  std::condition_variable wake;
  bool stop = false;
  bool drawn = false;  // a line is on the screen
  std::thread thread;
};

Display* g_display = nullptr;

bool StderrIsTerminal() {
  const char* term = std::getenv("TERM");
  if (term && std::strcmp(term, "dumb") == 0) return false;
  return isatty(STDERR_FILENO) == 1;
}

// Writes `text` to stderr unbuffered: "\r" returns to the line's start,
// "\x1b[K" erases the rest of it.
void Draw(const std::string& text) {
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
}

void Run(Display& d, bool from_start, Clock::time_point start) {
  std::unique_lock lock(d.mutex);
  for (;;) {
    const auto elapsed = Clock::now() - start;
    const read_progress::Snapshot now = read_progress::Now();
    // auto: once every byte is read (the analyses may still run), the line goes.
    const bool read_all = now.total_known && now.bytes_read >= now.bytes_expected;
    if (!from_start && read_all) {
      if (d.drawn) Draw("\r\x1b[K");
      d.drawn = false;
    } else if (from_start || elapsed >= kQuietStart) {
      Draw("\r" + ProgressLine(now, std::chrono::duration<double>(elapsed).count()) + "\x1b[K");
      d.drawn = true;
    }
    if (d.wake.wait_for(lock, kRedrawInterval, [&] { return d.stop; })) break;
  }
  if (from_start) {  // always: the last figures too
    Draw("\r" +
         ProgressLine(read_progress::Now(),
                      std::chrono::duration<double>(Clock::now() - start).count()) +
         "\x1b[K");
    d.drawn = true;
  }
  if (d.drawn) Draw("\r\x1b[K");
}

}  // namespace

ProgressMode ParseProgressMode(std::string_view name) {
  if (name == "always") return ProgressMode::kAlways;
  if (name == "never") return ProgressMode::kNever;
  return ProgressMode::kAuto;
}

void StartProgress(ProgressMode mode) {
  if (g_display || mode == ProgressMode::kNever) return;
  if (mode == ProgressMode::kAuto && !StderrIsTerminal()) return;
  g_display = new Display;
  const bool from_start = mode == ProgressMode::kAlways;
  g_display->thread = std::thread(Run, std::ref(*g_display), from_start, Clock::now());
}

void StopProgress() {
  if (!g_display) return;
  {
    std::lock_guard lock(g_display->mutex);
    g_display->stop = true;
  }
  g_display->wake.notify_all();
  g_display->thread.join();
  delete g_display;
  g_display = nullptr;
}

std::string ProgressLine(const read_progress::Snapshot& progress, double elapsed_seconds) {
  auto bytes = [](uint64_t n) { return HumanBytes(static_cast<int64_t>(n)); };
  std::string line = "htpscope: reading " + bytes(progress.bytes_read);
  // Gzip inputs can read past their on-disk size only through the prefix
  // reads, which are not counted; the share is capped all the same.
  const bool total = progress.total_known;
  const uint64_t done = total ? std::min(progress.bytes_read, progress.bytes_expected) : 0;
  if (total)
    line += fmt::format(
        " of {} ({:.0f} %)", bytes(progress.bytes_expected),
        100.0 * static_cast<double>(done) / static_cast<double>(progress.bytes_expected));
  if (elapsed_seconds <= 0 || progress.bytes_read == 0) return line;
  const double rate = static_cast<double>(progress.bytes_read) / elapsed_seconds;
  line += ", " + bytes(static_cast<uint64_t>(rate)) + "/s";
  if (total && done < progress.bytes_expected)
    line +=
        fmt::format(", {} s left",
                    FormatMeasure(static_cast<double>(progress.bytes_expected - done) / rate, 0));
  return line;
}

}  // namespace htpscope::cli
