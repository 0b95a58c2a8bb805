// End-to-end: what a new user meets first.  Did-you-mean for commands,
// options and group names; readable range errors; help without flag-value
// clutter; --version with the commit; colour on terminals only; text output
// of big runs that fits a screen; graph --expect as a CI gate; completions
// and the man page.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "base/test_paths.h"
#include "cli/cli_test_util.h"
#include "cli/synth_test_util.h"

namespace htpscope::first_hour_cli_test {
namespace {

using testing_support::CliResult;
using testing_support::RunCaptured;
using testing_support::RunCli;

const std::string kExample = std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run";

size_t Lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }
bool HasEscape(const std::string& text) { return text.find("\x1b[") != std::string::npos; }

TEST(FirstHourCli, MisspeltCommandGetsASuggestion) {
  CliResult r = RunCli("sumary " + kExample);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown command \"sumary\" (did you mean \"summary\"?)"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("Run 'htpscope --help' for usage."), std::string::npos) << r.err;
  r = RunCli("");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("a command is required: summary, timeline, graph"), std::string::npos)
      << r.err;
}

TEST(FirstHourCli, MisspeltOptionGetsASuggestion) {
  CliResult r = RunCli("summary " + kExample + " --jsn");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown option --jsn for htpscope summary (did you mean \"--json\"?)"),
            std::string::npos)
      << r.err;
  r = RunCli("timeline " + kExample + " --widht=80");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown option --widht for htpscope timeline (did you mean \"--width\"?)"),
            std::string::npos)
      << r.err;
}

TEST(FirstHourCli, RangeErrorsReadAsSentences) {
  CliResult r = RunCli("summary " + kExample + " --top 0");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--top: must be at least 1 (got 0)"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("e+308"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("1797"), std::string::npos) << r.err;
  r = RunCli("timeline " + kExample + " --width 5");
  EXPECT_NE(r.err.find("--width: must be between 10 and 1000 (got 5)"), std::string::npos) << r.err;
  r = RunCli("summary " + kExample + " --clock-ghz 0");
  EXPECT_NE(r.err.find("--clock-ghz: must be greater than 0 (got 0)"), std::string::npos) << r.err;
}

TEST(FirstHourCli, HelpShowsNoFlagValues) {
  CliResult r = RunCli("report --help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("--no-graph"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("{false}"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("{true}"), std::string::npos) << r.out;
}

TEST(FirstHourCli, VersionNamesTheCommit) {
  CliResult r = RunCli("--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(std::regex_search(
      r.out,
      std::regex(R"(^htpscope \d+\.\d+\.\d+ \(commit ([0-9a-f]{7,}(-dirty)?|unknown)\)\n$)")))
      << r.out;
}

// Colour: under a pseudo-terminal (script(1) runs the command on one), not
// through a pipe, not with NO_COLOR, always with --color always.
TEST(FirstHourCli, ColourOnTerminalsOnly) {
  const std::string bin = std::string("'") + HTPSCOPE_BINARY + "'";
  const std::string summary = " summary " + kExample;
  auto on_pty = [&](const std::string& env, const std::string& args) {
    return RunCaptured(env + " script -qec \"" + bin + args + "\" /dev/null", "cli_pty");
  };
  CliResult tty = on_pty("env -u NO_COLOR TERM=xterm", summary);
  ASSERT_EQ(tty.status, 0) << tty.err;
  EXPECT_TRUE(HasEscape(tty.out)) << tty.out.substr(0, 400);
  EXPECT_NE(tty.out.find("\x1b[1m"), std::string::npos);

  CliResult pipe =
      RunCaptured("env -u NO_COLOR TERM=xterm " + bin + summary + " | cat", "cli_pipe");
  ASSERT_EQ(pipe.status, 0);
  EXPECT_FALSE(HasEscape(pipe.out));

  CliResult no_color = on_pty("NO_COLOR=1 TERM=xterm", summary);
  ASSERT_EQ(no_color.status, 0);
  EXPECT_FALSE(HasEscape(no_color.out));
  CliResult never = on_pty("env -u NO_COLOR TERM=xterm", " --color never" + summary);
  EXPECT_FALSE(HasEscape(never.out));

  CliResult always = RunCaptured("NO_COLOR=1 " + bin + summary + " --color always", "cli_always");
  ASSERT_EQ(always.status, 0);
  EXPECT_TRUE(HasEscape(always.out));
  // JSON is never styled.
  CliResult json = on_pty("env -u NO_COLOR TERM=xterm", summary + " --json");
  EXPECT_FALSE(HasEscape(json.out));
}

// A 2,000-op generated run: timeline and graph fit a screen by default and
// list everything with --all.
TEST(FirstHourCli, BigRunTextFitsAScreen) {
  testing_support::GeneratedRun run = testing_support::GenerateBigRun("cli_big_run", 2000, 11);
  ASSERT_GE(run.truth.qnn_ops, 2000u);
  const std::string& dir = run.dir;

  CliResult timeline = RunCli("timeline " + dir);
  ASSERT_EQ(timeline.status, 0) << timeline.err;
  EXPECT_LE(Lines(timeline.out), 200u);
  EXPECT_NE(timeline.out.find("more op groups"), std::string::npos);
  CliResult graph = RunCli("graph " + dir);
  ASSERT_EQ(graph.status, 0) << graph.err;
  EXPECT_LE(Lines(graph.out), 200u);
  EXPECT_NE(graph.out.find("more ops (--top N or --all lists them)"), std::string::npos);

  // --all lists every op: one predecessor line each.
  CliResult all = RunCli("graph " + dir + " --all");
  ASSERT_EQ(all.status, 0);
  EXPECT_GT(Lines(all.out), 2000u);
  EXPECT_EQ(all.out.find("--top N or --all"), std::string::npos);
  CliResult top5 = RunCli("timeline " + dir + " --top 5");
  ASSERT_EQ(top5.status, 0);
  EXPECT_LT(Lines(top5.out), Lines(timeline.out));
}

// graph --expect gates CI like diff --fail-on: 0 when the compiled graph
// matches, 1 when edges are missing or extra, 2 for a name no group has.
TEST(FirstHourCli, GraphExpectExitStatus) {
  CliResult j = RunCli("graph " + kExample + " --json");
  ASSERT_EQ(j.status, 0) << j.err;
  auto graph = nlohmann::json::parse(j.out);
  std::string from, to;
  for (const auto& node : graph["nodes"])
    for (const auto& p : node["predecessors"])
      if (from.empty() && p["group"] != node["group"]) {
        from = p["group"];
        to = node["group"];
      }
  ASSERT_FALSE(from.empty());
  std::string dir = testing_support::TempDir("cli_expect");
  std::ofstream(dir + "/match.txt") << from << " -> " << to << "\n";
  std::ofstream(dir + "/reversed.txt") << to << " -> " << from << "\n";
  std::ofstream(dir + "/ghost.txt") << "# a comment\n" << from << " -> " << to << "x\n";

  CliResult match = RunCli("graph " + kExample + " --expect " + dir + "/match.txt");
  EXPECT_EQ(match.status, 0) << match.out;
  EXPECT_NE(match.out.find("matched 1, missing 0, extra 0"), std::string::npos);
  CliResult reversed = RunCli("graph " + kExample + " --expect " + dir + "/reversed.txt");
  EXPECT_EQ(reversed.status, 1);
  EXPECT_NE(reversed.out.find("matched 0, missing 1, extra 1"), std::string::npos);
  CliResult json = RunCli("graph " + kExample + " --json --expect " + dir + "/reversed.txt");
  EXPECT_EQ(json.status, 1);
  CliResult ghost = RunCli("graph " + kExample + " --expect " + dir + "/ghost.txt");
  EXPECT_EQ(ghost.status, 2);
  EXPECT_NE(ghost.err.find("line 2: no op group named \"" + to + "x\" (did you mean \""),
            std::string::npos)
      << ghost.err;
  // --drop-edge names groups the same way.
  CliResult drop = RunCli("graph " + kExample + " --drop-edge '" + from + "->" + to + "x'");
  EXPECT_EQ(drop.status, 2);
  EXPECT_NE(drop.err.find("no op group named \"" + to + "x\" (did you mean \""), std::string::npos)
      << drop.err;
  // A dependency to drop is "A->B", spaces around the names allowed.
  CliResult spaced =
      RunCli("graph " + kExample + " --json --drop-edge ' " + from + " -> " + to + " '");
  ASSERT_EQ(spaced.status, 0) << spaced.err;
  EXPECT_EQ(nlohmann::json::parse(spaced.out)["what_if"][0]["dropped"][0],
            (nlohmann::json{{"from", from}, {"to", to}}));
  for (const std::string& spec : std::vector<std::string>{"a-b", "a->", "a->b->c"}) {
    CliResult bad = RunCli("graph " + kExample + " --drop-edge '" + spec + "'");
    EXPECT_EQ(bad.status, 2) << spec;
    EXPECT_EQ(bad.err, "htpscope: error: --drop-edge \"" + spec + "\": expected A->B\n");
  }
}

TEST(FirstHourCli, BashCompletionCompletesCommandsOptionsAndChoices) {
  const std::string bin = std::string("'") + HTPSCOPE_BINARY + "'";
  auto complete = [&](const std::string& words, int cword) {
    std::string script = "source <(" + bin + " completions bash); COMP_WORDS=(" + words +
                         "); COMP_CWORD=" + std::to_string(cword) +
                         "; _htpscope; printf '%s\\n' \"${COMPREPLY[@]}\"";
    std::string dir = testing_support::TempDir("cli_completion");
    std::ofstream(dir + "/complete.sh") << script;
    return RunCaptured("bash " + dir + "/complete.sh", "cli_completion_out");
  };
  CliResult r = complete("htpscope sum", 1);
  EXPECT_EQ(r.out, "summary\n") << r.err;
  r = complete("htpscope timeline run --wi", 3);
  EXPECT_EQ(r.out, "--width\n") << r.err;
  r = complete("htpscope graph run --group-by h", 4);
  EXPECT_EQ(r.out, "htp\n") << r.err;
  r = complete("htpscope --color n", 2);
  EXPECT_EQ(r.out, "never\n") << r.err;
  EXPECT_EQ(RunCli("completions zsh").out.rfind("#compdef htpscope\n", 0), 0u);
  EXPECT_NE(RunCli("completions fish")
                .out.find("complete -c htpscope -f -n __fish_use_subcommand -a graph"),
            std::string::npos);
  EXPECT_EQ(RunCli("completions tcsh").status, 2);
}

TEST(FirstHourCli, ManPageComesFromTheHelpTexts) {
  CliResult r = RunCli("manpage");
  ASSERT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind(".TH HTPSCOPE 1 ", 0), 0u) << r.out.substr(0, 200);
  EXPECT_NE(r.out.find(".SS \"htpscope graph\""), std::string::npos);
  EXPECT_NE(r.out.find("\\fB\\-\\-expect\\fR"), std::string::npos);
  EXPECT_NE(r.out.find(".SH EXIT STATUS"), std::string::npos);
  // Flags take no value; options show CLI11's value type.
  EXPECT_NE(r.out.find(".TP\n\\fB\\-\\-json\\fR\n"), std::string::npos);
  EXPECT_NE(r.out.find(".TP\n\\fB\\-\\-top\\fR \\fIUINT\\fR\n"), std::string::npos);
  EXPECT_NE(r.out.find(".SH NAME\nhtpscope \\- the true speed"), std::string::npos);
  // Hidden from the command list, and never a line starting with a roff
  // control character by accident.
  EXPECT_EQ(RunCli("--help").out.find("manpage"), std::string::npos);
}

}  // namespace
}  // namespace htpscope::first_hour_cli_test
