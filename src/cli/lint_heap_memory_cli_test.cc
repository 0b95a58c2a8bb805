// The lint, heap and memory subcommands end to end: output, JSON and exit
// status (0 ok, 2 bad input).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "base/corpus_test_util.h"
#include "cli/cli_test_util.h"

namespace htpscope::lint_heap_memory_cli_test {
namespace {

using testing_support::CliResult;
using testing_support::Slurp;

CliResult RunCli(const std::string& args) { return testing_support::RunCli(args, "lhm_cli_out"); }

std::string Write(const std::string& dir, const std::string& name, const std::string& content) {
  std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

bool Contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

constexpr char kLinting[] = R"(Execute Stats (Average):
------------------------
Total Inference Time:
---------------------
   Backend (Accelerator (critical path execute) time (cycles)): 1000  cycles
      a_sub:OpId_5 (cycles): 500  cycles
            Wait (Scheduler) time: 0  cycles
            Overlap time: 100  cycles
            Resources: HVX
      b:OpId_6 (cycles): 500  cycles
            Wait (Scheduler) time: 0  cycles
            Overlap time: 500  cycles
            Resources: HMX
)";

TEST(LintHeapMemoryCli, Lint) {
  std::string dir = testing_support::TempDir("lint_cli");
  std::string file = Write(dir, "lint.txt", kLinting);
  CliResult r = RunCli("lint '" + file + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Contains(r.out,
                       "1. a_sub:OpId_5  400 exposed cycles — 50.0 % of critical path, 20.0 % "
                       "overlapped, HVX only"))
      << r.out;
  EXPECT_TRUE(Contains(r.out, "hint [sub_div_on_critical_path]")) << r.out;

  r = RunCli("lint --json '" + file + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["critical_path_cycles"], 1000);
  EXPECT_EQ(j["ops"][0]["exposed_cycles"], 400);
  EXPECT_EQ(j["ops"][1]["exposed_cycles"], 0);
  EXPECT_EQ(j["bottlenecks"].size(), 1u);

  r = RunCli("lint --block 3 '" + file + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "--block 3: the file has 1 linting block(s)")) << r.err;

  std::string json =
      Write(dir, "q.json", R"({"header": {"artifact_type": "RUN_TRACE"}, "traceEvents": []})");
  r = RunCli("lint '" + json + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "expected qnn-profile-viewer linting output")) << r.err;
}

TEST(LintHeapMemoryCli, CorpusLintOnDetailedProfileExplainsWhatIsMissing) {
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  CliResult r =
      RunCli("lint '" + testing_support::CorpusFile("native_256", "profile_text.txt") + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "no linting-level data")) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(LintHeapMemoryCli, HeapSeveralRunsAndExitStatus) {
  std::string dir = testing_support::TempDir("heap_cli");
  std::string a = Write(dir, "a.txt",
                        "DSP:before_context_created (bytes), 928212\n"
                        "DSP:after_context_freed (bytes), 928212\n");
  std::string b = Write(dir, "b.txt",
                        "DSP:before_context_created (bytes), 928212\n"
                        "DSP:after_context_freed (bytes), 1060864\n");
  CliResult r = RunCli("heap '" + a + "' '" + b + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_TRUE(Contains(r.out, "+132,652 (+129.5 KiB)")) << r.out;

  std::string wrong = Write(dir, "wrong.txt",
                            "DSP:after_context_freed (bytes), 928212\n"
                            "DSP:before_context_created (bytes), 928212\n");
  std::string bad = Write(dir, "bad.txt", "DSP:before_context_created (bytes), -1\n");
  r = RunCli("heap --json '" + a + "' '" + wrong + "' '" + bad + "'");
  EXPECT_EQ(r.status, 2);
  nlohmann::json j = nlohmann::json::parse(r.out);  // every figure still printed
  ASSERT_EQ(j["runs"].size(), 3u);
  EXPECT_EQ(j["runs"][0]["delta_bytes"], 0);
  EXPECT_EQ(j["runs"][1]["before_bytes"], 928212);
  EXPECT_TRUE(j["runs"][1]["delta_bytes"].is_null());
  EXPECT_TRUE(j["runs"][2]["before_bytes"].is_null());
  EXPECT_TRUE(Contains(r.err, "htpscope: error: " + wrong + ": DSP:after_context_freed")) << r.err;
  EXPECT_TRUE(Contains(r.err, "htpscope: error: " + bad + ": line 1: ")) << r.err;
  EXPECT_TRUE(Contains(r.err, "is negative")) << r.err;
}

TEST(LintHeapMemoryCli, CorpusMemory) {
  HTPSCOPE_REQUIRE_CORPUS("chain8_archive");
  CliResult r = RunCli("memory --json '" + testing_support::CorpusRun("chain8_archive") + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["peak_vtcm"]["peak_bytes"], 671744);
  EXPECT_EQ(j["peak_vtcm"]["peak_offset_cycles"], 15933);
  for (const auto& c : j["cross_checks"]) EXPECT_TRUE(c["agree"].get<bool>()) << c["name"];

  std::string dir = testing_support::TempDir("memory_cli");
  Write(dir, "notes.txt", "not an artifact\n");
  r = RunCli("memory '" + dir + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, dir + ": no profiling artifact among the 1 file(s) read")) << r.err;
}

}  // namespace
}  // namespace htpscope::lint_heap_memory_cli_test
