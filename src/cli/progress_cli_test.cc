// End-to-end: progress of reads on stderr, for terminals only.  Under a pty
// (script(1)) `--progress always` draws "htpscope: reading ..." frames on
// stderr and erases them, and stdout holds the report alone; a pipe, a
// short read under auto, --quiet and --progress never draw nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "base/test_paths.h"
#include "cli/cli_test_util.h"
#include "cli/synth_test_util.h"

namespace htpscope::progress_cli_test {
namespace {

using testing_support::CliResult;
using testing_support::RunCaptured;
using testing_support::Slurp;

const std::string kBinary = std::string("'") + HTPSCOPE_BINARY + "'";
const std::string kExample = std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run";

bool ShowsProgress(const std::string& text) {
  return text.find("htpscope: reading") != std::string::npos;
}

// A generated run of some size (--progress always draws for any read),
// written once for the suite and removed after it.
class ProgressCli : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    big_run_ = testing_support::GenerateBigRun("progress_big_run", 5000, 3).dir;
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(big_run_); }
  static const std::string& BigRun() { return big_run_; }
  static std::string big_run_;
};
std::string ProgressCli::big_run_;

// Runs `env ARGS` with stderr on a pty and stdout into a file; returns
// (what the pty showed, the stdout file).
CliResult OnPty(const std::string& env, const std::string& args) {
  std::string dir = testing_support::TempDir("progress_pty");
  std::string out = dir + "/stdout";
  CliResult r = RunCaptured(
      env + " script -qec \"" + kBinary + " " + args + " > '" + out + "'\" /dev/null", "pty_tty");
  return {r.status, Slurp(out), r.out};  // .err = the terminal's screen
}

TEST_F(ProgressCli, DrawnOnATerminalErasedAndNeverOnStdout) {
  CliResult r = OnPty("TERM=xterm", "summary " + BigRun() + " --progress always");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(ShowsProgress(r.err)) << r.err.substr(0, 400);
  // Figures: bytes of the run's files (the total is known) and a rate.
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(reading [0-9.]+ [KMG]?i?B of [0-9.]+ MiB)")))
      << r.err.substr(0, 400);
  EXPECT_NE(r.err.find("(100 %)"), std::string::npos) << r.err.substr(0, 400);
  // Redrawn in place and erased at the end: the screen ends with an erase.
  EXPECT_NE(r.err.find("\r\x1b[K"), std::string::npos);
  EXPECT_NE(r.out.find("Fine view"), std::string::npos);
  EXPECT_FALSE(ShowsProgress(r.out));
  EXPECT_EQ(r.out.find('\r'), std::string::npos);

  // The same through the environment.
  CliResult env = OnPty("TERM=xterm HTPSCOPE_PROGRESS=always", "summary " + BigRun());
  EXPECT_TRUE(ShowsProgress(env.err));
}

TEST_F(ProgressCli, SilentIntoPipesWhenQuietAndForShortReads) {
  // stderr into a pipe: auto draws nothing.
  CliResult pipe = RunCaptured(
      "TERM=xterm " + kBinary + " summary " + BigRun() + " 2>&1 >/dev/null | cat", "progress_pipe");
  ASSERT_EQ(pipe.status, 0);
  EXPECT_EQ(pipe.out, "");
  // On a terminal: --quiet and --progress never win over the environment.
  CliResult quiet =
      OnPty("TERM=xterm HTPSCOPE_PROGRESS=always", "summary " + BigRun() + " --quiet");
  ASSERT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_FALSE(ShowsProgress(quiet.err)) << quiet.err.substr(0, 400);
  CliResult never =
      OnPty("TERM=xterm HTPSCOPE_PROGRESS=always", "summary " + BigRun() + " --progress never");
  EXPECT_FALSE(ShowsProgress(never.err));
  // auto on a terminal: the example reads in well under a second.
  CliResult short_read = OnPty("TERM=xterm", "summary " + kExample);
  ASSERT_EQ(short_read.status, 0);
  EXPECT_FALSE(ShowsProgress(short_read.err)) << short_read.err.substr(0, 400);
  // A bad option value is a usage error naming the choices.
  CliResult bad = RunCaptured(kBinary + " summary " + kExample + " --progress sometimes", "bad");
  EXPECT_EQ(bad.status, 2);
}

}  // namespace
}  // namespace htpscope::progress_cli_test
