// End-to-end: one number style in every text report.  Counts, cycles and
// bytes carry thousands separators (also medians and fractional values:
// "239,508.5 cycles"), µs fixed decimals, and no figure is in scientific
// notation.  JSON keeps plain numbers.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "base/test_paths.h"
#include "cli/cli_test_util.h"
#include "cli/synth_test_util.h"

namespace htpscope::number_style_cli_test {
namespace {

using testing_support::CliResult;
using testing_support::RunCli;

const std::string kSource = HTPSCOPE_SOURCE_DIR;
const std::string kExample = kSource + "/examples/synthetic_run";

// The numbers of `text` that break the style, one "line N: token" each.  A
// token is a run of characters between blanks and ( ) , ; : [ ] = < > |;
// it is a figure when it is all digits (an optional sign, decimals and a
// trailing % * + × allowed).  Tokens holding letters, '/', '_' or "0x" —
// names, paths, op ids, hex — are not figures and are never flagged.
std::vector<std::string> StyleBreaks(const std::string& text) {
  static const std::regex kToken(R"([^\s(),;:\[\]=<>|]+)");
  static const std::regex kUngrouped(R"([-+]?\d{5,}(\.\d+)?)");
  static const std::regex kScientific(R"([-+]?\d+(\.\d+)?[eE][-+]?\d+)");
  std::vector<std::string> breaks;
  std::istringstream lines(text);
  std::string line;
  for (int n = 1; std::getline(lines, line); ++n) {
    for (std::sregex_iterator it(line.begin(), line.end(), kToken), end; it != end; ++it) {
      std::string token = it->str();
      while (!token.empty() && std::string(".*+%").find(token.back()) != std::string::npos)
        token.pop_back();
      if (token.size() >= 2 && token.compare(token.size() - 2, 2, "×") == 0)
        token.resize(token.size() - 2);
      if (std::regex_match(token, kUngrouped) || std::regex_match(token, kScientific))
        breaks.push_back("line " + std::to_string(n) + ": " + it->str() + "   | " + line);
    }
  }
  return breaks;
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// Runs `htpscope ARGS` and checks its stdout and stderr.
void ExpectOneStyle(const std::string& args, int status = 0) {
  CliResult r = RunCli(args, "number_style");
  ASSERT_EQ(r.status, status) << args << "\n" << r.err;
  ASSERT_FALSE(r.out.empty()) << args;
  EXPECT_EQ(Joined(StyleBreaks(r.out)), "") << "htpscope " << args;
  EXPECT_EQ(Joined(StyleBreaks(r.err)), "") << "htpscope " << args << " (stderr)";
}

TEST(NumberStyle, TheCheckFlagsWhatItShouldAndNothingElse) {
  EXPECT_EQ(StyleBreaks("  work  median 239508.5 cycles").size(), 1u);
  EXPECT_EQ(StyleBreaks("  cross-check 1.1264e+06 vs 1,126,400").size(), 1u);
  EXPECT_EQ(StyleBreaks("span (1668827862899 .. 1668828061568)").size(), 2u);
  EXPECT_EQ(StyleBreaks("waited 100000 cycles, 12345%").size(), 2u);
  // Grouped figures, small numbers, ids, hex, names and paths pass.
  EXPECT_EQ(Joined(StyleBreaks("  median 239,508.5 cycles (min 225,356.0, n 4) 1357 µs 0.0001\n"
                               "  0x0000111100000002 tid 512 conv2d__debugID_12345 "
                               "/tmp/run_123456/chrometrace.json bbb_indep0 e2e")),
            "");
}

// The bundled example run and the profile test inputs, every text command.
TEST(NumberStyle, TextReportsOfTheExampleRun) {
  for (const char* command : {"summary", "timeline", "graph", "memory"})
    ExpectOneStyle(std::string(command) + " " + kExample);
  ExpectOneStyle("timeline " + kExample + " --all --width 100");
  ExpectOneStyle("graph " + kExample + " --all");
  ExpectOneStyle("diff " + kExample + " " + kExample);
  const std::string testdata = kSource + "/src/formats/testdata/";
  ExpectOneStyle("summary " + testdata + "detailed_two_graphs.txt");
  ExpectOneStyle("summary " + testdata + "ort_qnn_ep_resnet50.csv");
  ExpectOneStyle("lint " + testdata + "qairt247_linting_two_graphs.csv");
  const std::string docs = kSource + "/examples/docs/";
  ExpectOneStyle("lint " + docs + "lint/layout_5_2b.txt");
  ExpectOneStyle("heap " + docs + "heap/run_a_htp_heap_usage.txt " + docs +
                 "heap/run_b_htp_heap_usage.txt");
  ExpectOneStyle("aot " + docs + "aot/a.speedscope.json " + docs + "aot/b.txt");
  ExpectOneStyle("diff --stages " + docs + "stages/a.csv " + docs + "stages/b.csv");
  ExpectOneStyle(
      "numerics " + docs + "numerics/reference " + docs + "numerics/device --ref-layout NCHW", 1);
}

// The style is pinned where it used to break: the steady-state median of
// work cycles, absolute cycle stamps, warnings built in the analyses.
TEST(NumberStyle, ExampleFiguresInTheirStyle) {
  CliResult r = RunCli("summary " + kExample, "number_style");
  ASSERT_EQ(r.status, 0) << r.err;
  // Executions 2..5 did 236,652, 242,365, 225,356 and 250,357 work cycles.
  EXPECT_NE(r.out.find("median 239,508.5 cycles  (min 225,356.0, max 250,357.0, n 4)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("(1,668,827,862,899 .. 1,668,828,061,568)"), std::string::npos);
  EXPECT_NE(r.out.find("execution 2: 236,652 cycles in 81 µs"), std::string::npos);
  // JSON keeps plain numbers.
  CliResult j = RunCli("summary " + kExample + " --json", "number_style");
  ASSERT_EQ(j.status, 0);
  auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc.dump().find("1,668"), std::string::npos);
}

// A generated run big enough for counts above 9,999 (ops, edges, instances),
// and small enough for a sanitizer build.
TEST(NumberStyle, TextReportsOfABigGeneratedRun) {
  testing_support::GeneratedRun run =
      testing_support::GenerateBigRun("number_style_big_run", 10200, 5);
  ASSERT_GE(run.truth.qnn_ops, 10200u);
  const std::string& dir = run.dir;
  for (const char* command : {"summary", "timeline", "graph", "memory"})
    ExpectOneStyle(std::string(command) + " " + dir);
  ExpectOneStyle("diff " + kExample + " " + dir);
  std::filesystem::remove_all(dir);
}

TEST(NumberStyle, TextReportsOfTheCorpusRunsSkippedWithoutSharedCorpus) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  for (const char* run : {"v8c8_256", "native_256", "chain8_archive", "gdn_hvx_int16"}) {
    const std::string path = testing_support::CorpusRun(run);
    for (const char* command : {"summary", "timeline", "graph", "memory"})
      ExpectOneStyle(std::string(command) + " " + path);
  }
  ExpectOneStyle("diff " + testing_support::CorpusRun("v8c8_256") + " " +
                 testing_support::CorpusRun("native_256"));
}

}  // namespace
}  // namespace htpscope::number_style_cli_test
