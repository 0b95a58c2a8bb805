// The JSON that `summary`, `graph`, `timeline` and `memory` print, on the four
// corpus runs, the bundled example and the device profiles, byte for byte as
// it was before the registries of artifacts, figures and warnings were built.
// A refactor that moves where a figure comes from must not change a figure.
// The expected outputs are kept gzipped in testdata/unchanged_outputs, each
// made by running the command from the input's parent directory (so the
// paths in it are relative, the same in every checkout).  To accept a change
// on purpose, regenerate them: HTPSCOPE_UPDATE_UNCHANGED_OUTPUTS=1.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "cli/cli_test_util.h"

namespace htpscope::unchanged_outputs_cli_test {
namespace {

using testing_support::RunCaptured;
using testing_support::Slurp;
using testing_support::TempDir;

std::string Quoted(const std::string& s) { return "'" + s + "'"; }

std::string GoldenPath(const std::string& input, const std::string& command) {
  return std::string(HTPSCOPE_SOURCE_DIR) + "/src/cli/testdata/unchanged_outputs/" + input + "." +
         command + ".json.gz";
}

// Where the first difference is, with a little context, for the failure text.
std::string FirstDifference(const std::string& want, const std::string& got) {
  size_t at = 0;
  while (at < want.size() && at < got.size() && want[at] == got[at]) ++at;
  size_t from = at < 80 ? 0 : at - 80;
  return "first difference at byte " + std::to_string(at) + "\n  expected: …" +
         want.substr(from, 160) + "…\n  got:      …" + got.substr(from, 160) + "…";
}

// Runs `htpscope COMMAND INPUT --json` in `parent` and compares stdout with
// the kept output.
void ExpectUnchanged(const std::string& parent, const std::string& input,
                     const std::string& command) {
  std::string scratch = TempDir("unchanged_" + command);
  std::string got_path = scratch + "/got.json";
  std::string run = "cd " + Quoted(parent) + " && " + Quoted(HTPSCOPE_BINARY) + " " + command +
                    " " + Quoted(input) + " --json > " + Quoted(got_path) + " 2>/dev/null";
  ASSERT_EQ(std::system(run.c_str()), 0) << run;
  std::string golden = GoldenPath(input, command);
  if (std::getenv("HTPSCOPE_UPDATE_UNCHANGED_OUTPUTS") != nullptr) {
    std::string write = "gzip -9n < " + Quoted(got_path) + " > " + Quoted(golden);
    ASSERT_EQ(std::system(write.c_str()), 0) << write;
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(golden)) << golden;
  auto want = RunCaptured("gzip -dc " + Quoted(golden), "unchanged_want");
  ASSERT_EQ(want.status, 0) << want.err;
  std::string got = Slurp(got_path);
  EXPECT_TRUE(want.out == got) << command << " " << input << " --json changed; "
                               << FirstDifference(want.out, got);
}

const char* const kRunCommands[] = {"summary", "graph", "timeline", "memory"};

TEST(UnchangedOutputs, BundledExampleEveryRunCommand) {
  for (const char* command : kRunCommands)
    ExpectUnchanged(std::string(HTPSCOPE_SOURCE_DIR) + "/examples", "synthetic_run", command);
}

TEST(UnchangedOutputs, DeviceProfilesInTestdataSummary) {
  std::string dir = std::string(HTPSCOPE_SOURCE_DIR) + "/src/formats/testdata";
  for (const char* input : {"aihub_profile.json", "genie_profile.json",
                            "ort_qnn_ep_resnet_modules.csv", "llm_runner_stats.log"})
    ExpectUnchanged(dir, input, "summary");
}

TEST(UnchangedOutputs, CorpusRunsEveryRunCommandSkipsWithoutSharedCorpus) {
  std::string parent = testing_support::CorpusRun("");
  if (!std::filesystem::exists(parent)) GTEST_SKIP() << "../shared/corpus absent";
  for (const char* run : {"chain8_archive", "gdn_hvx_int16", "native_256", "v8c8_256"})
    for (const char* command : kRunCommands) ExpectUnchanged(parent, run, command);
}

TEST(UnchangedOutputs, NetRunProfilesSummarySkipsWithoutSharedCorpus) {
  std::string parent = std::string(HTPSCOPE_SOURCE_DIR) + "/../shared/corpus/qnn_net_run_2.47";
  if (!std::filesystem::exists(parent)) GTEST_SKIP() << "../shared/corpus absent";
  for (const char* input :
       {"tiny_llm_block_prefill.profile.csv", "tiny_llm_block_decode.qnn-profiling-data_0.log"})
    ExpectUnchanged(parent, input, "summary");
}

}  // namespace
}  // namespace htpscope::unchanged_outputs_cli_test
