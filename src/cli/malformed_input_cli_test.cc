// The command line on malformed input: exit status 2 and one clear line
// naming the file and where it is broken; warnings (not errors) for runs
// that load but whose parts disagree.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "base/corpus_test_util.h"
#include "cli/cli_test_util.h"

namespace htpscope::malformed_input_cli_test {
namespace {

namespace fs = std::filesystem;

using testing_support::CliResult;
using testing_support::RunCli;
using testing_support::Slurp;

void Write(const std::string& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

TEST(MalformedInputCli, BrokenArtifactsExitWithStatus2AndALocatedMessage) {
  std::string dir = testing_support::TempDir("cli_broken");
  struct Case {
    std::string file, content, expect;
  };
  std::vector<Case> cases = {
      {"cut.json", R"({"header": {"artifact_type": "OP_TRACE"}, "traceEvents": [{"ph": "X", )",
       ": at byte "},
      {"types.json",
       R"({"header": {"artifact_type": "RUN_TRACE"}, "traceEvents": [{"ph": "X", "args": )"
       R"({"stat_start_ticks": "12", "stat_end_ticks": 20}}]})",
       "args.stat_start_ticks: expected an integer"},
      {"nan.json",
       R"({"header": {"artifact_type": "QHAS"}, "data": {"htp_overall_summary": {"data": )"
       R"([{"time_us": NaN}]}}})",
       "time_us: expected a number"},
      {"backwards.json",
       R"({"header": {"artifact_type": "RUN_TRACE"}, "traceEvents": [{"ph": "X", "name": "A", )"
       R"("args": {"stat_start_ticks": 50, "stat_end_ticks": 20}}]})",
       "ends (tick 20) before it starts (tick 50)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    Write(dir + "/" + c.file, c.content);
    CliResult r = RunCli("summary '" + dir + "/" + c.file + "'");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err.rfind("htpscope: error: " + dir + "/" + c.file + ": at byte ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST(MalformedInputCli, CorpusMissingPathAndTwoTracesExitWithStatus2) {
  CliResult r = RunCli("summary /no/such/run");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("/no/such/run: no such file or directory"), std::string::npos) << r.err;

  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  std::string dir = testing_support::TempDir("cli_two");
  fs::copy_file(testing_support::CorpusFile("v8c8_256", "chrometrace.json"), dir + "/a.json");
  fs::copy_file(testing_support::CorpusFile("native_256", "chrometrace.json"), dir + "/b.json");
  r = RunCli("summary '" + dir + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(dir + "/b.json: a second optrace (OP_TRACE) artifact (the first is " + dir +
                       "/a.json)"),
            std::string::npos)
      << r.err;
}

// Artifacts of two runs in one directory: refused by every command that reads
// a run, naming the file and the evidence; --allow-mismatch joins them with
// the warning mismatched_artifacts.
TEST(MalformedInputCli, CorpusQhasFromAnotherRunIsRefusedUnlessAllowed) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  std::string dir = testing_support::TempDir("cli_mismatch");
  fs::copy_file(testing_support::CorpusFile("v8c8_256", "chrometrace.json"),
                dir + "/chrometrace.json");
  fs::copy_file(
      testing_support::CorpusFile("native_256", "chrometrace_qnn_htp_analysis_summary.json"),
      dir + "/qhas.json");
  for (const char* command : {"summary", "timeline", "graph", "memory"}) {
    CliResult r = RunCli(std::string(command) + " '" + dir + "'");
    EXPECT_EQ(r.status, 2) << command << ": " << r.err;
    EXPECT_NE(r.err.find(dir + "/qhas.json: the artifacts do not belong to one run: 0 of 99 QHAS "
                               "op IDs occur in the optrace chrometrace.json"),
              std::string::npos)
        << command << ": " << r.err;
    EXPECT_NE(r.err.find("--allow-mismatch"), std::string::npos) << r.err;
  }
  CliResult r = RunCli("summary --json --allow-mismatch '" + dir + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"mismatched_artifacts\""), std::string::npos) << r.out;
  r = RunCli("diff '" + dir + "' '" + dir + "'");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("0 of 99 QHAS op IDs"), std::string::npos) << r.err;
}

TEST(MalformedInputCli, CorpusHtpGraphFromAnotherRunIsRefusedWithTheEvidence) {
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  HTPSCOPE_REQUIRE_CORPUS("chain8_archive");
  std::string dir = testing_support::TempDir("cli_mismatch_graph");
  fs::copy_file(testing_support::CorpusFile("native_256", "chrometrace.json"),
                dir + "/chrometrace.json");
  fs::copy_file(testing_support::CorpusFile("chain8_archive", "chrometrace_htp.json"),
                dir + "/chrometrace_htp.json");
  CliResult r = RunCli("graph '" + dir + "'");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find(dir + "/chrometrace_htp.json: the artifacts do not belong to one run: 2 of "
                             "29 HTP graph node IDs occur in the optrace chrometrace.json"),
            std::string::npos)
      << r.err;
  r = RunCli("graph --allow-mismatch --json '" + dir + "'");
  EXPECT_EQ(r.status, 0) << r.err;
}

}  // namespace
}  // namespace htpscope::malformed_input_cli_test
