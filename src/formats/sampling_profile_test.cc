#include "formats/sampling_profile.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <map>
#include <string>

#include "base/corpus_test_util.h"
#include "base/errors.h"

namespace htpscope::sampling_profile_test {
namespace {

// "thread|frame;frame" -> weight, for comparing a profile with hand-made
// expectations independently of the reader's stack order.
std::map<std::string, double> Stacks(const SamplingProfile& p) {
  std::map<std::string, double> out;
  for (const auto& s : p.stacks) {
    std::string key = p.threads[s.thread] + "|";
    for (size_t i = 0; i < s.frames.size(); ++i) key += (i ? ";" : "") + p.frames[s.frames[i]];
    out[key] += s.weight;
  }
  return out;
}

InputError ParseError(const std::string& content) {
  try {
    ParseSamplingProfile("p", content);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no InputError for:\n" << content;
  return InputError("p", "none");
}

// ---- speedscope ----------------------------------------------------------------

constexpr char kSampled[] = R"({
  "$schema": "https://www.speedscope.app/file-format-schema.json",
  "exporter": "py-spy@0.3.14",
  "profiles": [
    {"type": "sampled", "name": "MainThread", "unit": "seconds", "startValue": 0, "endValue": 0.05,
     "samples": [[0, 1], [0, 1], [0, 2], [0, 3]],
     "weights": [0.01, 0.01, 0.02, 0.01]},
    {"type": "sampled", "name": "Worker", "unit": "seconds", "startValue": 0, "endValue": 0.01,
     "samples": [[0]], "weights": [0.01]}
  ],
  "shared": {"frames": [
    {"name": "main", "file": "lower.py", "line": 3},
    {"name": "prepare_pt2e", "file": "torch/ao/quantization/quantize_pt2e.py", "line": 10},
    {"name": "prepare_pt2e", "file": "torch/ao/quantization/quantize_pt2e.py", "line": 12},
    {"name": "<lambda>"}
  ]}
})";

TEST(SamplingProfile, SpeedscopeSampledMergesLinesAndKeepsThreads) {
  SamplingProfile p = ParseSamplingProfile("p.json", kSampled);
  EXPECT_EQ(p.format, SamplingProfileFormat::kSpeedscope);
  EXPECT_EQ(p.weight_unit, SampleWeightUnit::kSeconds);
  EXPECT_EQ(p.exporter, "py-spy@0.3.14");
  // A byte-order mark is skipped.
  EXPECT_EQ(Stacks(ParseSamplingProfile("bom.json", std::string("\xEF\xBB\xBF") + kSampled)),
            Stacks(p));
  EXPECT_EQ(p.samples_read, 5u);
  auto stacks = Stacks(p);
  ASSERT_EQ(stacks.size(), 3u);
  // Lines 10 and 12 of prepare_pt2e are one frame: 0.01 + 0.01 + 0.02.
  EXPECT_DOUBLE_EQ(stacks["MainThread|main (lower.py);prepare_pt2e "
                          "(torch/ao/quantization/quantize_pt2e.py)"],
                   0.04);
  EXPECT_DOUBLE_EQ(stacks["MainThread|main (lower.py);<lambda>"], 0.01);
  EXPECT_DOUBLE_EQ(stacks["Worker|main (lower.py)"], 0.01);
}

TEST(SamplingProfile, SpeedscopeEveryUnit) {
  const std::pair<const char*, double> units[] = {{"seconds", 2.5},
                                                  {"milliseconds", 2.5e-3},
                                                  {"microseconds", 2.5e-6},
                                                  {"nanoseconds", 2.5e-9},
                                                  {"none", 2.5}};
  for (const auto& [unit, expected] : units) {
    std::string json = fmt::format(
        R"({{"shared": {{"frames": [{{"name": "f"}}]}}, "profiles": [{{"type": "sampled",
            "name": "t", "unit": "{}", "startValue": 0, "endValue": 1, "samples": [[0], [0]],
            "weights": [2, 0.5]}}]}})",
        unit);
    SamplingProfile p = ParseSamplingProfile("p", json);
    EXPECT_EQ(p.weight_unit,
              std::string(unit) == "none" ? SampleWeightUnit::kSamples : SampleWeightUnit::kSeconds)
        << unit;
    EXPECT_DOUBLE_EQ(Stacks(p)["t|f"], expected) << unit;
  }
}

TEST(SamplingProfile, SpeedscopeEventedWeighsTheTimeBetweenEvents) {
  // main 0..10 ms; quantize 1..4; compile 4..9 with gc 5..6; main alone 0..1, 9..10.
  constexpr char kEvented[] = R"({"$schema": "https://www.speedscope.app/file-format-schema.json",
    "shared": {"frames": [{"name": "main"}, {"name": "quantize"}, {"name": "compile"},
                          {"name": "gc_collect_main", "file": "Python/gcmodule.c"}]},
    "profiles": [{"type": "evented", "name": "main", "unit": "milliseconds",
      "startValue": 0, "endValue": 10, "events": [
        {"type": "O", "frame": 0, "at": 0}, {"type": "O", "frame": 1, "at": 1},
        {"type": "C", "frame": 1, "at": 4}, {"type": "O", "frame": 2, "at": 4},
        {"type": "O", "frame": 3, "at": 5}, {"type": "C", "frame": 3, "at": 6},
        {"type": "C", "frame": 2, "at": 9}, {"type": "C", "frame": 0, "at": 10}]}]})";
  SamplingProfile p = ParseSamplingProfile("p", kEvented);
  auto stacks = Stacks(p);
  ASSERT_EQ(stacks.size(), 4u);
  EXPECT_DOUBLE_EQ(stacks["main|main"], 0.002);
  EXPECT_DOUBLE_EQ(stacks["main|main;quantize"], 0.003);
  EXPECT_DOUBLE_EQ(stacks["main|main;compile"], 0.004);
  EXPECT_DOUBLE_EQ(stacks["main|main;compile;gc_collect_main (Python/gcmodule.c)"], 0.001);
}

TEST(SamplingProfile, SpeedscopeErrorsNameTheOffset) {
  auto e = ParseError(R"({"shared": {"frames": [{"name": "f"}]}, "profiles": [{"type":
      "sampled", "name": "t", "unit": "bytes", "samples": [[0]], "weights": [1]}]})");
  EXPECT_NE(e.problem().find("bytes"), std::string::npos) << e.what();
  EXPECT_TRUE(e.byte_offset());

  constexpr char kOutOfRange[] = R"({"profiles": [{"type": "sampled", "name": "t",
      "unit": "none", "samples": [[0, 7]], "weights": [1]}], "shared": {"frames": [{"name": "f"}]}})";
  e = ParseError(kOutOfRange);
  EXPECT_NE(e.problem().find("frame index 7 is out of range: shared.frames has 1 frame"),
            std::string::npos)
      << e.what();
  ASSERT_TRUE(e.byte_offset());
  EXPECT_EQ(std::string_view(kOutOfRange).substr(*e.byte_offset() - 1, 1), "7");

  e = ParseError(R"({"shared": {"frames": [{"name": "f"}, {"name": "g"}]}, "profiles": [
      {"type": "evented", "name": "t", "unit": "seconds", "events": [
        {"type": "O", "frame": 0, "at": 0}, {"type": "C", "frame": 1, "at": 1}]}]})");
  EXPECT_NE(e.problem().find("closes frame 1 but frame 0 is the innermost open"), std::string::npos)
      << e.what();
  e = ParseError(R"({"shared": {"frames": [{"name": "f"}]}, "profiles": [{"type": "sampled",
      "name": "t", "unit": "seconds", "samples": [[0], [0]], "weights": [1]}]})");
  EXPECT_NE(e.problem().find("2 samples but 1 weights"), std::string::npos) << e.what();
  e = ParseError(R"({"$schema": "https://json-schema.org/draft/2020-12/schema", "profiles": []})");
  EXPECT_NE(e.problem().find("not a speedscope profile"), std::string::npos) << e.what();
  e = ParseError(R"({"shared": {"frames": []}, "profiles": []})");
  EXPECT_NE(e.problem().find("no sample"), std::string::npos) << e.what();
  e = ParseError(R"({"profiles": [{"type": "sampled", "unit": "seconds", "samples": [[0]], )");
  EXPECT_TRUE(e.byte_offset()) << e.what();
  e = ParseError(R"({"shared": {"frames": [{"name": "f"}]}, "profiles": [{"type": "sampled",
      "name": "t", "unit": "seconds", "samples": [[0]], "weights": [-1]}]})");
  EXPECT_NE(e.problem().find("not a non-negative weight"), std::string::npos) << e.what();
}

// ---- collapsed stacks -----------------------------------------------------------

TEST(SamplingProfile, CollapsedPySpyRawAndFoldedStacks) {
  // py-spy --format raw --threads: thread frames first, "function (file:line)".
  constexpr char kRaw[] =
      "thread (0x7F1E2D3C4B40): MainThread;<module> (lower.py:40);main (lower.py:33);"
      "prepare_pt2e (torch/ao/quantization/quantize_pt2e.py:120) 30\n"
      "thread (0x7F1E2D3C4B40): MainThread;<module> (lower.py:40);main (lower.py:33);"
      "prepare_pt2e (torch/ao/quantization/quantize_pt2e.py:131) 12\n"
      "\n"
      "# a comment\r\n"
      "thread (0x7F1E2D3C4B40): MainThread;<module> (lower.py:40);main (lower.py:35) 8\r\n";
  SamplingProfile p = ParseSamplingProfile("raw.txt", kRaw);
  EXPECT_EQ(p.format, SamplingProfileFormat::kCollapsed);
  EXPECT_EQ(p.weight_unit, SampleWeightUnit::kSamples);
  EXPECT_EQ(p.samples_read, 50u);
  auto stacks = Stacks(p);
  ASSERT_EQ(stacks.size(), 2u);
  EXPECT_EQ(stacks["thread (0x7F1E2D3C4B40): MainThread|<module> (lower.py);main (lower.py);"
                   "prepare_pt2e (torch/ao/quantization/quantize_pt2e.py)"],
            42);
  EXPECT_EQ(stacks["thread (0x7F1E2D3C4B40): MainThread|<module> (lower.py);main (lower.py)"], 8);

  // Brendan Gregg's folded stacks (perf): names without files stay; counts may be decimal.
  p = ParseSamplingProfile("perf.folded",
                           "python;_PyEval_EvalFrameDefault;gc_collect_main 2.5\n"
                           "python;[unknown] 1\n");
  stacks = Stacks(p);
  EXPECT_DOUBLE_EQ(stacks["|python;_PyEval_EvalFrameDefault;gc_collect_main"], 2.5);
  EXPECT_DOUBLE_EQ(stacks["|python;[unknown]"], 1);
}

TEST(SamplingProfile, CollapsedErrorsNameTheLine) {
  auto e = ParseError("a;b 1\na;b\n");
  EXPECT_EQ(e.line(), 2u) << e.what();
  e = ParseError("a;b 1\n\na;c -3\n");
  EXPECT_EQ(e.line(), 3u) << e.what();
  EXPECT_NE(e.problem().find("\"-3\" is not a sample count"), std::string::npos) << e.what();
  e = ParseError("a;b 10 12\n");
  EXPECT_NE(e.problem().find("two counts"), std::string::npos) << e.what();
  e = ParseError("a;b nan\n");
  EXPECT_EQ(e.line(), 1u);
  e = ParseError("\n\n# only comments\n");
  EXPECT_NE(e.problem().find("no samples"), std::string::npos) << e.what();
  e = ParseError("a;b 0\n");
  EXPECT_NE(e.problem().find("no sample with a positive weight"), std::string::npos) << e.what();
  e = ParseError("a " + std::string(308, '9') + "\nb " + std::string(308, '9') + "\n");
  EXPECT_NE(e.problem().find("beyond the range of a double"), std::string::npos) << e.what();
  e = ParseError("Hello world, this is not a profile.\n");
  EXPECT_EQ(e.line(), 1u);
}

// ---- austin ---------------------------------------------------------------------

TEST(SamplingProfile, Austin3HeaderFramesAndFooter) {
  constexpr char kAustin3[] =
      "# austin: 3.6.0\n"
      "# interval: 100\n"
      "# mode: wall\n"
      "# python: 3.11.2\n"
      "\n"
      "P4242;T0:7f1e2d3c4b40;/src/lower.py:<module>:40;/src/lower.py:main:33;"
      "/usr/lib/python3/dist-packages/torch/ao/quantization/quantize_pt2e.py:prepare_pt2e:120 150\n"
      "P4242;T0:7f1e2d3c4b40;/src/lower.py:<module>:40;/src/lower.py:main:33;"
      "/usr/lib/python3/dist-packages/torch/ao/quantization/quantize_pt2e.py:prepare_pt2e:131 250\n"
      "P4242;T0:7f1e2d3c4b40;/src/lower.py:<module>:40;/src/lower.py:main:35;:GC: 100\n"
      "P4242;T0:7f1e2d3c4b41 50\n"
      "\n"
      "# duration: 600\n"
      "# gc: 100\n";
  SamplingProfile p = ParseSamplingProfile("austin.txt", kAustin3);
  EXPECT_EQ(p.format, SamplingProfileFormat::kAustin);
  EXPECT_EQ(p.weight_unit, SampleWeightUnit::kSeconds);
  EXPECT_EQ(p.austin_version, "3.6.0");
  EXPECT_EQ(p.austin_mode, "wall");
  EXPECT_EQ(p.austin_interval_us, 100);
  EXPECT_EQ(p.austin_duration_us, 600);
  EXPECT_EQ(p.austin_gc_us, 100);
  auto stacks = Stacks(p);
  ASSERT_EQ(stacks.size(), 3u);
  EXPECT_DOUBLE_EQ(stacks["P4242;T0:7f1e2d3c4b40|<module> (/src/lower.py);main (/src/lower.py);"
                          "prepare_pt2e (/usr/lib/python3/dist-packages/torch/ao/quantization/"
                          "quantize_pt2e.py)"],
                   400e-6);
  EXPECT_DOUBLE_EQ(stacks["P4242;T0:7f1e2d3c4b40|<module> (/src/lower.py);main (/src/lower.py);"
                          ":GC:"],
                   100e-6);
  EXPECT_DOUBLE_EQ(stacks["P4242;T0:7f1e2d3c4b41|"], 50e-6);
}

TEST(SamplingProfile, AustinFullModeReadsTheTime) {
  SamplingProfile p =
      ParseSamplingProfile("full.txt",
                           "# austin: 3.6.0\n# interval: 100\n# mode: full\n# memory: 16000000\n"
                           "P1;T0:1;a.py:f:1 300,0,4096\nP1;T0:1;a.py:f:2 200,1,-4096\n");
  EXPECT_DOUBLE_EQ(Stacks(p)["P1;T0:1|f (a.py)"], 500e-6);
  auto e = ParseError("# austin: 3.6.0\n# mode: full\nP1;T0:1;a.py:f:1 300\n");
  EXPECT_EQ(e.line(), 3u) << e.what();
  e = ParseError("# austin: 3.6.0\n# interval: 100\n# mode: memory\nP1;T0:1;a.py:f:1 4096\n");
  EXPECT_EQ(e.line(), 3u) << e.what();
  EXPECT_NE(e.problem().find("bytes, not time"), std::string::npos) << e.what();
  e = ParseError("# austin: 3.6.0\n# interval: ten\n");
  EXPECT_EQ(e.line(), 2u) << e.what();
}

// austin 1.0.1 (Debian bookworm's) as it really writes: no header, "Thread
// <hex>", "function (file);L<line>", and in full mode "<µs> <+bytes> <-bytes>".
TEST(SamplingProfile, Austin1And2Output) {
  SamplingProfile p = ParseSamplingProfile(
      "austin1.txt",
      "Thread 556798751e40;<module> (w.py);L16;main (w.py);L13;prepare_pt2e (w.py);L9 1064\n"
      "Thread 556798751e40;<module> (w.py);L16;main (w.py);L13;prepare_pt2e (w.py);L10 936\n"
      "Thread 556798751e40;Bad sample 12\n");
  EXPECT_EQ(p.format, SamplingProfileFormat::kAustin);
  auto stacks = Stacks(p);
  EXPECT_DOUBLE_EQ(stacks["Thread 556798751e40|<module> (w.py);main (w.py);prepare_pt2e (w.py)"],
                   2000e-6);
  EXPECT_DOUBLE_EQ(stacks["Thread 556798751e40|Bad sample"], 12e-6);
  ASSERT_FALSE(p.notes.empty());
  EXPECT_NE(p.notes.back().find("no \"# austin:\" header"), std::string::npos);

  p = ParseSamplingProfile("full1.txt",
                           "Thread 5567;<module> (w.py);L16;spin (w.py);L5 1064 12 0\n"
                           "Thread 5567;<module> (w.py);L16;spin (w.py);L6 1063 0 -8\n");
  EXPECT_DOUBLE_EQ(Stacks(p)["Thread 5567|<module> (w.py);spin (w.py)"], 2127e-6);
  // austin 2: "P<pid>;T<tid>", the alternative "function (file:line)" frames.
  p = ParseSamplingProfile("austin2.txt", "P12;T7f;<module> (w.py:16);spin (w.py:5) 500\n");
  EXPECT_DOUBLE_EQ(Stacks(p)["P12;T7f|<module> (w.py);spin (w.py)"], 500e-6);
  auto e = ParseError("Thread 5567;f (w.py);L1 12x\n");
  EXPECT_EQ(e.line(), 1u) << e.what();
}

// ---- files --------------------------------------------------------------------------

TEST(SamplingProfile, ReadsFilesByContentPlainOrGzip) {
  std::string dir = testing_support::TempDir("sampling_profile_files");
  // A speedscope profile named .txt and collapsed stacks named .json.
  std::ofstream(dir + "/speedscope.txt") << kSampled;
  std::ofstream(dir + "/stacks.json") << "a;b 3\na;c 1\n";
  EXPECT_EQ(ReadSamplingProfile(dir + "/speedscope.txt").format,
            SamplingProfileFormat::kSpeedscope);
  SamplingProfile p = ReadSamplingProfile(dir + "/stacks.json");
  EXPECT_EQ(p.format, SamplingProfileFormat::kCollapsed);
  EXPECT_EQ(Stacks(p)["|a;b"], 3);

  std::string gz = dir + "/austin.gz";
  gzFile out = gzopen(gz.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  gzputs(out, "# austin: 3.6.0\n# interval: 100\n# mode: cpu\nP1;T0:1;a.py:f:3 700\n");
  gzclose(out);
  EXPECT_EQ(DetectSamplingProfileFormatOf(gz), SamplingProfileFormat::kAustin);
  p = ReadSamplingProfile(gz);
  EXPECT_EQ(p.austin_mode, "cpu");
  EXPECT_DOUBLE_EQ(Stacks(p)["P1;T0:1|f (a.py)"], 700e-6);

  // A line split across the reader's chunks is read whole.
  std::string big(3 << 20, 'x');
  std::ofstream(dir + "/long.txt") << "a;" << big << " 2\nb 1\n";
  p = ReadSamplingProfile(dir + "/long.txt");
  EXPECT_EQ(Stacks(p)["|a;" + big], 2);
  EXPECT_THROW(ReadSamplingProfile(dir + "/absent.txt"), InputError);
  EXPECT_THROW(DetectSamplingProfileFormatOf(dir + "/absent.txt"), InputError);
}

TEST(SamplingProfile, DetectAndStripFrameLine) {
  EXPECT_EQ(DetectSamplingProfileFormat(" \n{\"profiles\": []}"),
            SamplingProfileFormat::kSpeedscope);
  EXPECT_EQ(DetectSamplingProfileFormat("# austin: 3.6.0\n"), SamplingProfileFormat::kAustin);
  EXPECT_EQ(DetectSamplingProfileFormat("P1;T0:1;a.py:f:3 700\n"), SamplingProfileFormat::kAustin);
  EXPECT_EQ(DetectSamplingProfileFormat("main;f 3\n"), SamplingProfileFormat::kCollapsed);
  EXPECT_EQ(DetectSamplingProfileFormat("stage,seconds\nquantize,548\n"), std::nullopt);
  EXPECT_EQ(StripFrameLine("f (a.py:12)"), "f (a.py)");
  EXPECT_EQ(StripFrameLine("f (C:\\src\\a.py:12)"), "f (C:\\src\\a.py)");
  EXPECT_EQ(StripFrameLine("f (a.py)"), "f (a.py)");
  EXPECT_EQ(StripFrameLine("f:12"), "f:12");
  EXPECT_EQ(StripFrameLine("thread (0x7F)"), "thread (0x7F)");
}

}  // namespace
}  // namespace htpscope::sampling_profile_test
