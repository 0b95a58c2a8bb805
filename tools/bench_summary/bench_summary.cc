// bench_summary: how fast htpscope reads and summarises generated runs, and
// in how much memory, beside the tools it must be measured against — `wc -l`
// of the same file (reading it at all), `gzip -dc` for a .gz file
// (inflating it at all) and the Python json.load script people use today
// (summary_baseline.py).  Every program runs as a child process, timed from
// outside (start-up included), peak RSS from wait4; commands of one input are
// interleaved run by run; the best wall time is kept and the median shown.
// MB = 10^6 bytes of uncompressed data.
//
//   bench_summary layouts  --htpscope BIN [--python SCRIPT] LABEL=TRACE...
//       `htpscope summary TRACE` per trace (the optrace in each layout, plain
//       or .gz): time, RSS, ratios to wc -l / gzip -dc and Python (plain files
//       only), and the
//       --json figures, which must be identical for every trace (the same
//       value in another layout) and match Python's.
//   bench_summary sweep    --htpscope BIN TRACE...        (increasing sizes)
//       time and RSS as the input grows.
//   bench_summary readers  --reader BENCH_READ KIND=FILE...
//       one reader alone (bench_read) against wc -l of its file.
//   bench_summary commands --htpscope BIN --dir DIR 'COMMAND ARGS'...
//       each command on a run directory ({dir} and {out} in ARGS stand for
//       DIR and a scratch file) against wc -l of the files it is given: the
//       directory's files once per {dir} (diff DIR DIR reads them twice); a
//       run is stopped after 20 minutes.
//
// Each mode ends with its targets (docs/performance.md), each "met" or "NOT
// met".  Exit status: 0, or 1 when figures differ between layouts or from
// Python; 2 on a failed run.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "bench_child.h"

namespace {

using namespace htpscope::bench;

struct Options {
  std::string htpscope, python, reader, dir;
  unsigned repeat = 3, python_repeat = 1;
  std::vector<std::string> inputs;
};

struct Labelled {
  std::string label, path;
};

Labelled ParseLabelled(const std::string& spec) {
  const size_t eq = spec.find('=');
  if (eq == std::string::npos) return {std::filesystem::path(spec).filename().string(), spec};
  return {spec.substr(0, eq), spec.substr(eq + 1)};
}

// The yardstick for reading `path` at all: wc -l, or gzip -dc for gzip.
std::vector<std::string> Yardstick(const std::string& path, std::string* name) {
  if (IsGzip(path)) {
    *name = "gzip -dc";
    return {"sh", "-c", "exec gzip -dc \"$0\" > /dev/null", path};
  }
  *name = "wc -l";
  return {"wc", "-l", path};
}

void Target(bool met, const std::string& what) {
  fmt::print("  target  {:<9} {}\n", met ? "met" : "NOT met", what);
}

// The figures both htpscope and the Python baseline derive.
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

// `summary --json` output with the input's name taken out: what must be
// identical for the same value in any layout.
std::string WithoutInputName(std::string json, const std::string& path) {
  const std::string escaped = nlohmann::json(path).dump();  // "..." with escapes
  const std::string inner = escaped.substr(1, escaped.size() - 2);
  for (size_t at = json.find(inner); at != std::string::npos; at = json.find(inner, at))
    json.replace(at, inner.size(), "INPUT");
  return json;
}

int Layouts(const Options& o) {
  bool identical = true, python_agrees = true;
  // A hash of the first input's figures, not the text: this process's own
  // memory would count in the next child's peak RSS (bench_child.h).
  std::optional<size_t> first_json;
  std::string first_label;
  double worst_yardstick_plain = 0, worst_yardstick_gz = 0, worst_rss = 0;
  double least_speedup = INFINITY;
  for (const std::string& spec : o.inputs) {
    const Labelled in = ParseLabelled(spec);
    const int64_t file_bytes = FileBytes(in.path), bytes = DecompressedBytes(in.path);
    std::string yardstick_name;
    const auto timings = TimeInterleaved(
        {{o.htpscope, "summary", in.path}, Yardstick(in.path, &yardstick_name)}, o.repeat);
    const Timing& ours = timings[0];
    const Timing& yard = timings[1];
    const ChildRun json = RunChild({o.htpscope, "summary", "--json", in.path}, true);
    const double rss = static_cast<double>(ours.peak_rss_bytes) / static_cast<double>(bytes);
    const double ratio = ours.best_seconds / yard.best_seconds;
    fmt::print("{} ({}): {:.1f} MB{}\n", in.label, in.path, Mb(bytes),
               IsGzip(in.path) ? fmt::format(" ({:.1f} MB gzip)", Mb(file_bytes)) : "");
    fmt::print(
        "  htpscope summary {:7.3f} s (median {:.3f}, cpu {:.3f})  {:6.0f} MB/s  peak RSS "
        "{:7.1f} MB = {:.3f} x\n",
        ours.best_seconds, ours.median_seconds, ours.best_cpu_seconds,
        Mb(bytes) / ours.best_seconds, Mb(ours.peak_rss_bytes), rss);
    fmt::print("  {:<16} {:7.3f} s (median {:.3f})  htpscope = {:.2f} x it\n", yardstick_name,
               yard.best_seconds, yard.median_seconds, ratio);
    fmt::print("  summary --json   {:7.3f} s  peak RSS {:7.1f} MB = {:.3f} x  (one run)\n",
               json.seconds, Mb(json.peak_rss_bytes),
               static_cast<double>(json.peak_rss_bytes) / static_cast<double>(bytes));
    (IsGzip(in.path) ? worst_yardstick_gz : worst_yardstick_plain) =
        std::max(IsGzip(in.path) ? worst_yardstick_gz : worst_yardstick_plain, ratio);
    worst_rss = std::max(worst_rss, rss);
    const size_t figures = std::hash<std::string>{}(WithoutInputName(json.out, in.path));
    if (!first_json) {
      first_json = figures;
      first_label = in.label;
    } else if (figures != *first_json) {
      identical = false;
      fmt::print("  figures          DIFFER from {}'s\n", first_label);
    }
    if (!o.python.empty() && !IsGzip(in.path)) {  // Python's gzip would only add time
      std::optional<ChildRun> best;
      for (unsigned i = 0; i < std::max(o.python_repeat, 1u); ++i) {
        ChildRun run = RunChild({"python3", o.python, in.path}, true);
        if (!best || run.seconds < best->seconds) best = std::move(run);
      }
      const nlohmann::json pj = nlohmann::json::parse(best->out);
      const double speedup = best->seconds / ours.best_seconds;
      least_speedup = std::min(least_speedup, speedup);
      fmt::print(
          "  python json.load {:7.3f} s  peak RSS {:7.1f} MB  ({} events)  htpscope {:.1f} x "
          "faster\n",
          best->seconds, Mb(best->peak_rss_bytes), pj.at("events").get<int64_t>(), speedup);
      if (!(FromPython(pj) == FromHtpscope(nlohmann::json::parse(json.out)))) {
        python_agrees = false;
        fmt::print("  figures          DIFFER from Python's\n");
      }
    }
    std::fflush(stdout);
  }
  fmt::print("targets\n");
  if (worst_yardstick_plain > 0)
    Target(worst_yardstick_plain <= 5,
           fmt::format("plain: summary <= 5 x wc -l (worst {:.2f} x)", worst_yardstick_plain));
  if (worst_yardstick_gz > 0)
    Target(worst_yardstick_gz <= 1.5,
           fmt::format(".gz: summary <= 1.5 x gzip -dc (worst {:.2f} x)", worst_yardstick_gz));
  if (!o.python.empty())
    Target(least_speedup >= 30,
           fmt::format(">= 30 x faster than Python json.load (least {:.1f} x)", least_speedup));
  Target(worst_rss <= 0.3, fmt::format("peak RSS <= 0.3 x the data (worst {:.3f} x)", worst_rss));
  Target(identical, "identical --json figures for every input");
  if (!o.python.empty()) Target(python_agrees, "graph wall, work, cycles_used equal to Python's");
  return identical && python_agrees ? 0 : 1;
}

int Sweep(const Options& o) {
  struct Point {
    int64_t bytes;
    double seconds;
  };
  std::vector<Point> points;
  for (const std::string& path : o.inputs) {
    const int64_t bytes = DecompressedBytes(path);
    std::string yardstick_name;
    const auto timings = TimeInterleaved(
        {{o.htpscope, "summary", path}, Yardstick(path, &yardstick_name)}, o.repeat);
    const Timing& t = timings[0];
    fmt::print(
        "{}: {:8.1f} MB  summary {:7.3f} s (median {:.3f})  {:6.0f} MB/s  peak RSS {:7.1f} MB = "
        "{:.3f} x  ({} {:.3f} s, {:.2f} x)\n",
        path, Mb(bytes), t.best_seconds, t.median_seconds, Mb(bytes) / t.best_seconds,
        Mb(t.peak_rss_bytes), static_cast<double>(t.peak_rss_bytes) / static_cast<double>(bytes),
        yardstick_name, timings[1].best_seconds, t.best_seconds / timings[1].best_seconds);
    points.push_back({bytes, t.best_seconds});
    std::fflush(stdout);
  }
  fmt::print("targets\n");
  for (size_t i = 1; i < points.size(); ++i) {
    const double size_ratio =
        static_cast<double>(points[i].bytes) / static_cast<double>(points[i - 1].bytes);
    const double time_ratio = points[i].seconds / points[i - 1].seconds;
    Target(time_ratio <= 1.1 * size_ratio,
           fmt::format("growth: {:.2f} x the input costs {:.2f} x the time (<= {:.2f})", size_ratio,
                       time_ratio, 1.1 * size_ratio));
  }
  return 0;
}

int Readers(const Options& o) {
  for (const std::string& spec : o.inputs) {
    const Labelled in = ParseLabelled(spec);  // KIND=FILE
    const int64_t bytes = DecompressedBytes(in.path);
    std::string yardstick_name;
    const auto timings = TimeInterleaved(
        {{o.reader, in.label, in.path}, Yardstick(in.path, &yardstick_name)}, o.repeat, true);
    const Timing& t = timings[0];
    const nlohmann::json report = nlohmann::json::parse(t.out);
    fmt::print(
        "{} reader, {} ({:.1f} MB): {:.3f} s (median {:.3f}, cpu {:.3f})  {:.0f} MB/s  peak RSS "
        "{:.1f} MB = {:.3f} x  ({} {:.3f} s: {:.2f} x)\n  {}\n",
        in.label, in.path, Mb(bytes), t.best_seconds, t.median_seconds, t.best_cpu_seconds,
        Mb(bytes) / t.best_seconds, Mb(t.peak_rss_bytes),
        static_cast<double>(t.peak_rss_bytes) / static_cast<double>(bytes), yardstick_name,
        timings[1].best_seconds, t.best_seconds / timings[1].best_seconds, report.dump());
    std::fflush(stdout);
  }
  return 0;
}

int Commands(const Options& o) {
  int64_t dir_bytes = 0;
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(o.dir))
    if (entry.is_regular_file()) {
      dir_bytes += static_cast<int64_t>(entry.file_size());
      files.push_back(entry.path().string());
    }
  std::sort(files.begin(), files.end());
  const std::string scratch = "/tmp/bench_summary_out.html";
  fmt::print("{}: {} files, {:.1f} MB\n", o.dir, files.size(), Mb(dir_bytes));
  for (const std::string& command : o.inputs) {
    // Bounded: a command far beyond its target is reported, not waited for.
    std::vector<std::string> argv = {"timeout", "1200", o.htpscope};
    // The yardstick reads what the command is given: the files once per {dir}.
    std::vector<std::string> wc = {"wc", "-l"};
    int runs = 0;
    std::istringstream words(command);
    for (std::string word; words >> word;) {
      if (word == "{dir}") {
        word = o.dir;
        wc.insert(wc.end(), files.begin(), files.end());
        ++runs;
      }
      if (word == "{out}") word = scratch;
      argv.push_back(word);
    }
    std::vector<Timing> timings;
    try {
      timings = TimeInterleaved({argv, wc}, o.repeat);
    } catch (const std::exception& e) {
      fmt::print("  {:<28} failed: {}\n", command, e.what());
      Target(false, fmt::format("{}: <= 5 x wc -l", command));
      continue;
    }
    const Timing& t = timings[0];
    const double ratio = t.best_seconds / timings[1].best_seconds;
    const double rss = static_cast<double>(t.peak_rss_bytes) / static_cast<double>(dir_bytes);
    fmt::print(
        "  {:<28} {:8.3f} s (median {:.3f}, cpu {:.3f})  peak RSS {:8.1f} MB = {:.3f} x  "
        "(wc -l {:.3f} s{}: {:.2f} x)\n",
        command, t.best_seconds, t.median_seconds, t.best_cpu_seconds, Mb(t.peak_rss_bytes), rss,
        timings[1].best_seconds, runs > 1 ? fmt::format(", the files {} times", runs) : "", ratio);
    Target(ratio <= 5, fmt::format("{}: <= 5 x wc -l", command));
    if (command.rfind("report", 0) == 0) Target(rss <= 0.5, "report: peak RSS <= 0.5 x the files");
    std::fflush(stdout);
  }
  std::filesystem::remove(scratch);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{
      "bench_summary: htpscope's speed and memory on generated runs, beside wc -l, "
      "gzip -dc and Python json.load"};
  app.require_subcommand(1);
  CLI::App* layouts = app.add_subcommand("layouts", "summary on the same trace in each layout");
  layouts->add_option("--htpscope", o.htpscope, "The htpscope binary")->required();
  layouts->add_option("--python", o.python, "summary_baseline.py (omit to skip Python)");
  layouts->add_option("--python-repeat", o.python_repeat, "Python runs per trace (best kept)");
  layouts->add_option("traces", o.inputs, "LABEL=TRACE (plain or .gz)")->required();
  CLI::App* sweep = app.add_subcommand("sweep", "summary on traces of growing size");
  sweep->add_option("--htpscope", o.htpscope, "The htpscope binary")->required();
  sweep->add_option("traces", o.inputs, "Traces, smallest first")->required();
  CLI::App* readers = app.add_subcommand("readers", "one reader alone on its artifact");
  readers->add_option("--reader", o.reader, "The bench_read binary")->required();
  readers
      ->add_option("inputs", o.inputs,
                   "KIND=FILE (optrace, qhas, htp_graph, runtrace, profile_text)")
      ->required();
  CLI::App* commands = app.add_subcommand("commands", "commands on a run directory");
  commands->add_option("--htpscope", o.htpscope, "The htpscope binary")->required();
  commands->add_option("--dir", o.dir, "The run directory")->required();
  commands->add_option("commands", o.inputs, "'COMMAND ARGS' with {dir} and {out}")->required();
  for (CLI::App* cmd : {layouts, sweep, readers, commands})
    cmd->add_option("--repeat", o.repeat, "Runs of each command, interleaved; best kept")
        ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  try {
    if (layouts->parsed()) return Layouts(o);
    if (sweep->parsed()) return Sweep(o);
    if (readers->parsed()) return Readers(o);
    return Commands(o);
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_summary: error: {}\n", e.what());
    return 2;
  }
}
