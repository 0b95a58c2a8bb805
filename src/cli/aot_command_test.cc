// Runs the htpscope binary: `aot` on hand-written profiles of a lowering run
// scaled to the figures of ExecuTorch's Qualcomm lowering-time work
// (Qwen3-0.6B: quantize 548 -> 469 s, compile 929 -> 803 s).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_test_util.h"

namespace htpscope::aot_command_test {
namespace {

using testing_support::RunCli;
using testing_support::TempDir;

std::string Write(const std::string& dir, const std::string& name, const std::string& text) {
  std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// Profile A as py-spy --format speedscope writes it (frames with file and
// line, one sampled profile per thread, weights in seconds): quantize 548 s
// (prepare 48, calibration through observers 450, convert 50), compile 929 s
// (partitioner 129, node visitors 560 of which 40 s garbage collection,
// QnnManager 200).
constexpr char kProfileA[] = R"({
  "$schema": "https://www.speedscope.app/file-format-schema.json",
  "exporter": "py-spy@0.3.14", "name": "py-spy profile", "activeProfileIndex": null,
  "profiles": [{"type": "sampled", "name": "MainThread", "unit": "seconds",
    "startValue": 0, "endValue": 1477,
    "samples": [[0, 1, 2, 3], [0, 1, 4, 5], [0, 1, 6], [0, 7, 8, 9], [0, 7, 10, 11],
                [0, 7, 10, 11, 12], [0, 7, 10, 13]],
    "weights": [48, 450, 50, 129, 560, 40, 200]}],
  "shared": {"frames": [
    {"name": "<module>", "file": "llama.py", "line": 1201},
    {"name": "quantize", "file": "llama.py", "line": 420},
    {"name": "prepare_pt2e", "file": "torchao/quantization/pt2e/quantize_pt2e.py", "line": 88},
    {"name": "_annotate", "file": "executorch/backends/qualcomm/quantizer/quantizer.py", "line": 301},
    {"name": "_calibrate", "file": "executorch/examples/qualcomm/oss_scripts/llama/quantize/ptq.py", "line": 45},
    {"name": "forward", "file": "executorch/backends/qualcomm/quantizer/observers/per_channel_param_observer.py", "line": 60},
    {"name": "convert_pt2e", "file": "torchao/quantization/pt2e/quantize_pt2e.py", "line": 230},
    {"name": "to_edge_transform_and_lower_to_qnn", "file": "executorch/backends/qualcomm/utils/utils.py", "line": 512},
    {"name": "partition", "file": "executorch/backends/qualcomm/partition/qnn_partitioner.py", "line": 170},
    {"name": "is_node_supported", "file": "executorch/backends/qualcomm/partition/qnn_partitioner.py", "line": 80},
    {"name": "preprocess", "file": "executorch/backends/qualcomm/qnn_preprocess.py", "line": 101},
    {"name": "define_node", "file": "executorch/backends/qualcomm/builders/node_visitor.py", "line": 184},
    {"name": "gc_collect_main", "file": "Python/gcmodule.c", "line": 1198},
    {"name": "qnn_delegate::PyQnnManager::Compile", "file": "PyQnnManagerAdaptor.so"}
  ]}
})";

// Profile B as py-spy --format raw writes it (collapsed stacks, samples at
// 100 Hz, "function (file:line)"): quantize 469 s (observers 371 s), compile
// 803 s (node visitors 474 s without garbage collection).
constexpr char kProfileB[] =
    "<module> (llama.py:1201);quantize (llama.py:420);prepare_pt2e "
    "(torchao/quantization/pt2e/quantize_pt2e.py:88);_annotate "
    "(executorch/backends/qualcomm/quantizer/quantizer.py:301) 4800\n"
    "<module> (llama.py:1201);quantize (llama.py:420);_calibrate "
    "(executorch/examples/qualcomm/oss_scripts/llama/quantize/ptq.py:45);forward "
    "(executorch/backends/qualcomm/quantizer/observers/per_channel_param_observer.py:64) 37100\n"
    "<module> (llama.py:1201);quantize (llama.py:420);convert_pt2e "
    "(torchao/quantization/pt2e/quantize_pt2e.py:230) 5000\n"
    "<module> (llama.py:1201);to_edge_transform_and_lower_to_qnn "
    "(executorch/backends/qualcomm/utils/utils.py:512);partition "
    "(executorch/backends/qualcomm/partition/qnn_partitioner.py:170);is_node_supported "
    "(executorch/backends/qualcomm/partition/qnn_partitioner.py:80) 12900\n"
    "<module> (llama.py:1201);to_edge_transform_and_lower_to_qnn "
    "(executorch/backends/qualcomm/utils/utils.py:512);preprocess "
    "(executorch/backends/qualcomm/qnn_preprocess.py:101);define_node "
    "(executorch/backends/qualcomm/builders/node_visitor.py:190) 47400\n"
    "<module> (llama.py:1201);to_edge_transform_and_lower_to_qnn "
    "(executorch/backends/qualcomm/utils/utils.py:512);preprocess "
    "(executorch/backends/qualcomm/qnn_preprocess.py:101);qnn_delegate::PyQnnManager::Compile "
    "(PyQnnManagerAdaptor.so) 20000\n";

class AotCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TempDir("aot_cli");
    a_ = Write(dir_, "a.speedscope.json", kProfileA);
    b_ = Write(dir_, "b.txt", kProfileB);
  }
  std::string dir_, a_, b_;
};

TEST_F(AotCommand, TwoProfilesGiveThePerStageTable) {
  auto r = RunCli("aot " + a_ + " " + b_, "aot_cli_table");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* row : {"  quantize      548.0      469.0      -79.0       14.4 %                "
                          " -                -\n",
                          "  compile       929.0      803.0     -126.0       13.6 %      40.0 (4.3 "
                          "%)                -\n",
                          "  other             0          0          0            -                "
                          " -                -\n",
                          "  total       1,477.0    1,272.0     -205.0       13.9 %      40.0 (2.7 "
                          "%)                -\n"})
    EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
  // The frames whose self time changed most: the per-channel observer, 450 -> 371 s.
  EXPECT_NE(r.out.find("-79.0      450.0      371.0   -17.6 %  forward "
                       "(executorch/backends/qualcomm/quantizer/observers/"
                       "per_channel_param_observer.py)"),
            std::string::npos)
      << r.out;
}

TEST_F(AotCommand, GatesExitOneWhenBIsSlowerBeyondTheThreshold) {
  // B is faster: every "slower by" gate passes.
  EXPECT_EQ(RunCli("aot " + a_ + " " + b_ + " --fail-on 'total_seconds>+5%'").status, 0);
  EXPECT_EQ(RunCli("aot " + a_ + " " + b_ + " --fail-on 'stage:compile:seconds>+10%'").status, 0);
  // Swapped, B (the speedscope profile) is 16.1 % slower in total and 15.7 % in compile.
  auto r = RunCli("aot " + b_ + " " + a_ + " --fail-on 'total_seconds>+5%'");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL   total_seconds>+5%"), std::string::npos) << r.out;
  EXPECT_EQ(RunCli("aot " + b_ + " " + a_ + " --fail-on 'stage:compile:seconds>+10%'").status, 1);
  // ... but within a 20 % budget.
  EXPECT_EQ(RunCli("aot " + b_ + " " + a_ + " --fail-on 'stage:*:seconds>+20%'").status, 0);
  // A gate needs two profiles; a gate naming no stage cannot be evaluated.
  EXPECT_EQ(RunCli("aot " + a_ + " --fail-on 'total_seconds>+5%'").status, 2);
  EXPECT_EQ(RunCli("aot " + a_ + " " + b_ + " --fail-on 'stage:export:seconds>+1%'").status, 2);
}

TEST_F(AotCommand, JsonMarkdownAndDifferentialSvg) {
  auto r = RunCli("aot " + a_ + " " + b_ + " --json --svg " + dir_ + "/diff.svg");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "htpscope.aot_diff/1");
  EXPECT_EQ(j["stages"][0]["stage"], "quantize");
  EXPECT_NEAR(j["stages"][0]["improvement_pct"].get<double>(), 14.416, 0.001);
  EXPECT_NEAR(j["stages"][1]["improvement_pct"].get<double>(), 13.563, 0.001);
  EXPECT_NEAR(j["total"]["improvement_pct"].get<double>(), 13.879, 0.001);
  EXPECT_DOUBLE_EQ(j["stages"][1]["a_gc_seconds"].get<double>(), 40);
  EXPECT_EQ(j["b"]["samples"], 127200);
  EXPECT_EQ(j["exit_status"], 0);

  std::string svg = testing_support::Slurp(dir_ + "/diff.svg");
  EXPECT_NE(svg.find("&lt;module&gt; (llama.py)"), std::string::npos);
  EXPECT_EQ(svg.find("<module>"), std::string::npos);
  EXPECT_EQ(std::system(("xmllint --noout " + dir_ + "/diff.svg").c_str()), 0);

  r = RunCli("aot " + a_ + " " + b_ + " --format markdown");
  EXPECT_NE(r.out.find("| quantize | 548.0 | 469.0 | -79.0 | 14.4 % |"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("| **total** | 1,477.0 | 1,272.0 | -205.0 | 13.9 % |"), std::string::npos)
      << r.out;
}

TEST_F(AotCommand, OneProfileCustomStagesAndErrors) {
  auto r = RunCli("aot " + b_ + " --rate 1000 --svg " + dir_ + "/one.svg");
  ASSERT_EQ(r.status, 0) << r.err;
  // 46,900 samples of quantize at 1 kHz.
  EXPECT_NE(r.out.find("  quantize       46.9   36.9 %"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("collapsed stacks, weights count samples: seconds = samples ÷ 1000 Hz"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(std::system(("xmllint --noout " + dir_ + "/one.svg").c_str()), 0);

  // Custom stages only: the partitioner on its own, the rest in other.
  r = RunCli("aot " + a_ + " --stage 'partition=qualcomm/partition/' --json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["stages"].size(), 2u);
  EXPECT_DOUBLE_EQ(j["stages"][0]["seconds"].get<double>(), 129);
  EXPECT_DOUBLE_EQ(j["stages"][1]["seconds"].get<double>(), 1348);

  r = RunCli("aot " + a_ + " --stage 'compile=(oops'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--stage compile=(oops"), std::string::npos) << r.err;
  std::string bad = Write(dir_, "bad.txt", "main;quantize 10\nmain;compile ten\n");
  r = RunCli("aot " + bad);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(bad + ":2: \"ten\" is not a sample count"), std::string::npos) << r.err;
  r = RunCli("aot " + a_ + " --svg " + a_);
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_EQ(RunCli("aot " + a_ + " --stages tflite").status, 2);
}

}  // namespace
}  // namespace htpscope::aot_command_test
