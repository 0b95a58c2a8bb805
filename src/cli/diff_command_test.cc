// Runs the htpscope binary: exit statuses and the command line of `diff`.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "base/corpus_test_util.h"
#include "base/test_paths.h"
#include "model/figures.h"

namespace htpscope::diff_command_test {
namespace {

using testing_support::CorpusRun;
using testing_support::TempDir;

struct Result {
  int status = -1;
  std::string out;  // stdout and stderr
};

Result RunHtpscope(const std::string& args) {
  std::string command = std::string(HTPSCOPE_BINARY) + " " + args + " 2>&1";
  Result r;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.out.append(buffer.data(), n);
  int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

std::string WriteFile(const std::string& dir, const std::string& name, const std::string& text) {
  std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(DiffCommand, StagesTableAndGateExitCodes) {
  std::string dir = TempDir("diff_cli_stages");
  std::string a = WriteFile(dir, "a.csv", "stage,seconds\nquantize,548\ncompile,929\n");
  std::string b = WriteFile(dir, "b.csv", "stage,seconds\nquantize,469\ncompile,803\n");
  Result r = RunHtpscope("diff --stages " + a + " " + b);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("total         1,477      1,272        -205       13.9 %"),
            std::string::npos)
      << r.out;
  // B is 13.9 % faster: a "must improve by 15 %" gate fails (1), 10 % passes (0).
  EXPECT_EQ(RunHtpscope("diff --stages " + a + " " + b + " --fail-on 'total_seconds>-15%'").status,
            1);
  EXPECT_EQ(RunHtpscope("diff --stages " + a + " " + b + " --fail-on 'total_seconds>-10%'").status,
            0);
  // Reversed, B is slower: any increase fails.
  EXPECT_EQ(RunHtpscope("diff --stages " + b + " " + a + " --fail-on 'stage:*:seconds>+0%'").status,
            1);
}

// The gate grammar of `diff --help` lists the figure registry: every
// run-level figure among the METRIC alternatives, the item figures per
// family, in lines of at most 95 columns.
TEST(DiffCommand, HelpGrammarListsTheFigureRegistry) {
  Result r = RunHtpscope("diff --help");
  ASSERT_EQ(r.status, 0) << r.out;
  const size_t begin = r.out.find("  METRIC    := wall_us | compute_busy_us | overhead_us"),
               end = r.out.find(
                   "             | op:GLOB:(dpc_cycles|work_cycles|instances)     "
                   "per QNN op\n");
  ASSERT_NE(begin, std::string::npos) << r.out;
  ASSERT_NE(end, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("             | htp:GLOB:(dpc_cycles|work_cycles|instances)    per HTP op "
                       "type\n"),
            std::string::npos);
  EXPECT_NE(r.out.find("             | unit:GLOB:(cycles_used|utilization_pct)        per "
                       "hardware thread id\n"),
            std::string::npos);
  std::istringstream metric(r.out.substr(begin, end - begin));
  std::vector<std::string> names;
  std::string line, word;
  while (std::getline(metric, line)) {
    EXPECT_LE(line.size(), 95u) << line;
    std::istringstream words(line);
    while (words >> word)
      if (word != "METRIC" && word != ":=" && word != "|") names.push_back(word);
  }
  std::vector<std::string> expected;
  for (const FigureInfo& f : Figures()) expected.push_back(f.name);
  expected.push_back("total_seconds");
  expected.push_back("(--stages)");
  EXPECT_EQ(names, expected);
}

// The device profiles' gate NAMEs in `diff --help` are the registry's
// device figures, each artifact's in diff's order, wrapped at 95 columns.
TEST(DiffCommand, HelpGrammarListsTheDeviceFigures) {
  Result r = RunHtpscope("diff --help");
  ASSERT_EQ(r.status, 0) << r.out;
  const size_t begin = r.out.find("             | AI Hub profiles: "),
               end = r.out.find("  '>' fails when the change");
  ASSERT_NE(begin, std::string::npos) << r.out;
  ASSERT_NE(end, std::string::npos) << r.out;
  const std::string block = r.out.substr(begin, end - begin);
  EXPECT_EQ(block,
            "             | AI Hub profiles: inference_us | cold_inference_us | "
            "estimated_inference_us\n"
            "             | first_load_us | warm_load_us | compile_us | "
            "inference_peak_memory_bytes\n"
            "             | npu_layers_pct | npu_time_pct | fallback_layers | fallback_time_us | "
            "layers\n"
            "             | layer:GLOB:(time_us|cycles)                    per AI Hub layer (name, "
            "name#2, ...)\n"
            "             | Genie profiles: ttft_us | cold_ttft_us | token_rate | prompt_rate | "
            "query_us\n"
            "             | init_us | free_us | prompt_tokens | generated_tokens\n"
            "             | ExecuTorch runner logs: ttft_us | cold_ttft_us | prefill_us | "
            "prefill_token_rate\n"
            "             | decode_us | decode_token_rate | generation_us | model_load_us | "
            "prompt_tokens\n"
            "             | generated_tokens | gpu_peak_usage_mb\n");
  std::istringstream lines(block);
  std::string line, word;
  std::vector<std::string> names;
  while (std::getline(lines, line)) {
    if (line.find("layer:GLOB:") != std::string::npos) continue;  // a family's line
    EXPECT_LE(line.size(), 95u) << line;
    const size_t lead = line.find(": ");  // "AI Hub profiles: ", ...
    std::istringstream words(lead == std::string::npos ? line : line.substr(lead + 2));
    while (words >> word)
      if (word != "|") names.push_back(word);
  }
  std::vector<std::string> expected;
  for (DeviceArtifact a :
       {DeviceArtifact::kAihub, DeviceArtifact::kGenie, DeviceArtifact::kLlmRunner})
    for (const DeviceFigureInfo* f : DeviceFiguresOf(a)) expected.push_back(f->name);
  EXPECT_EQ(names, expected);
}

TEST(DiffCommand, HtmlFormatIsAPageOfTheDiffsJson) {
  const std::string run = std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run";
  Result r = RunHtpscope("diff " + run + " " + run + " --format html");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.rfind("<!DOCTYPE html>", 0), 0u) << r.out.substr(0, 200);
  EXPECT_NE(r.out.find("htpscope.diff/1"), std::string::npos);  // the embedded diff JSON
  EXPECT_NE(r.out.find("</html>"), std::string::npos);
  // --stages has no page.
  EXPECT_EQ(RunHtpscope("diff --stages a.csv b.csv --format html").status, 2);
}

TEST(DiffCommand, BadInputExitsTwoWithFileAndLine) {
  std::string dir = TempDir("diff_cli_bad");
  std::string a = WriteFile(dir, "a.csv", "quantize,548\n");
  std::string bad = WriteFile(dir, "bad.csv", "quantize,548\ncompile,soon\n");
  Result r = RunHtpscope("diff --stages " + a + " " + bad);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("bad.csv:2: stage \"compile\": \"soon\" is not a number of seconds"),
            std::string::npos)
      << r.out;
  // A malformed gate, a missing run, a wrong argument count: all 2.
  EXPECT_EQ(RunHtpscope("diff --stages " + a + " " + a + " --fail-on 'total_seconds=5'").status, 2);
  EXPECT_EQ(RunHtpscope("diff " + dir + "/nonexistent " + dir).status, 2);
  EXPECT_EQ(RunHtpscope("diff " + dir).status, 2);
  EXPECT_EQ(RunHtpscope("diff --a " + dir).status, 2);
  // A gate naming a figure the stage diff does not have.
  EXPECT_EQ(RunHtpscope("diff --stages " + a + " " + a + " --fail-on 'wall_us>+5%'").status, 2);
}

// The two sides load at the same time; the error is still side A's when
// both are bad, even when B's (a few bytes) fails long before A's (a
// truncated trace, found bad at its end).
TEST(DiffCommand, SideAsErrorComesFirstThoughTheSidesLoadTogether) {
  std::string dir = TempDir("diff_cli_error_order");
  std::ifstream in(std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run/chrometrace.json",
                   std::ios::binary);
  std::string trace((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(trace.size(), 1000u);
  std::string a = WriteFile(dir, "truncated.json", trace.substr(0, trace.size() - 100));
  std::string b = WriteFile(dir, "tiny.json", "{\"header\": [");
  Result r = RunHtpscope("diff " + a + " " + b);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("truncated.json"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("tiny.json"), std::string::npos) << r.out;
  // A sound, B bad: B's error.
  const std::string run = std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run";
  r = RunHtpscope("diff " + run + " " + b);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("tiny.json"), std::string::npos) << r.out;
}

TEST(DiffCommand, CorpusPairJsonAndGates) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  std::string a = CorpusRun("v8c8_256"), b = CorpusRun("native_256");
  Result r = RunHtpscope("diff " + a + " " + b + " --format json --fail-on 'wall_us>+5%'");
  ASSERT_EQ(r.status, 0) << r.out;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["wall_us"]["a"], 215.5);
  EXPECT_EQ(j["wall_us"]["b"], 188.0);
  EXPECT_EQ(j["gates"][0]["passed"], true);
  EXPECT_EQ(j["ops"][0]["name"], "bbb_indep0");
  EXPECT_EQ(j["ops"][0]["status"], "removed");
  // Swapped, B (v8c8) is 14.6 % slower in wall and uses less peak VTCM.
  EXPECT_EQ(RunHtpscope("diff " + b + " " + a + " --fail-on 'wall_us>+5%'").status, 1);
  EXPECT_EQ(RunHtpscope("diff " + b + " " + a + " --fail-on 'peak_vtcm_bytes>+0'").status, 0);
  EXPECT_EQ(RunHtpscope("diff " + a + " " + b + " --fail-on 'peak_vtcm_bytes>+0'").status, 1);
  // --a/--b form, with the per-op glob gate: MatMul_* are added, Input's DPC
  // fell, Output's rose 459 %.
  r = RunHtpscope("diff --a " + a + " --b " + b +
                  " --fail-on 'op:*put:dpc_cycles>+100%' --format junit");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("<failure type=\"regression\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("op:Output:dpc_cycles"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace htpscope::diff_command_test
