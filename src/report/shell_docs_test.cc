#include "report/shell_docs.h"

#include <gtest/gtest.h>

namespace htpscope::shell_docs_test {
namespace {

CliDoc SmallDoc() {
  CliDoc doc;
  doc.program = "tool";
  doc.version = "tool 1.0";
  doc.description = "does things";
  doc.global_options.push_back({{"--color"}, "TEXT", {"auto", "never"}, "Colour"});
  CliCommandDoc c;
  c.name = "show";
  c.help = "Show it. More words";
  c.positionals = {"RUN..."};
  c.options.push_back({{"--top", "-t"}, "INT", {}, "Rows [max]: it's 20"});
  c.options.push_back({{"--json"}, "", {}, ".dot files - and \\ too"});
  doc.commands.push_back(c);
  return doc;
}

TEST(ShellDocs, ManPageEscapesRoff) {
  std::string man = RenderManPage(SmallDoc());
  EXPECT_EQ(man.rfind(".TH TOOL 1 \"\" \"tool 1.0\" \"User Commands\"\n", 0), 0u) << man;
  EXPECT_NE(man.find(".SS \"tool show\"\n"), std::string::npos);
  EXPECT_NE(man.find(".TP\n\\fB\\-\\-top\\fR, \\fB\\-t\\fR \\fIINT\\fR\n"), std::string::npos)
      << man;
  // A help text starting with '.' would be a roff request: it is guarded.
  EXPECT_NE(man.find("\n\\&.dot files \\- and \\e too\n"), std::string::npos) << man;
  EXPECT_NE(man.find("(one of: auto never)"), std::string::npos);
  // UTF-8 the help texts use becomes roff glyphs; others pass through.
  CliDoc doc = SmallDoc();
  doc.commands[0].help = "cycles \u00f7 \u00b5s, B \u2212 A, caf\u00e9";
  man = RenderManPage(doc);
  EXPECT_NE(man.find("cycles \\(di \\(mcs, B \\- A, caf\u00e9\n"), std::string::npos) << man;
}

TEST(ShellDocs, CompletionsQuoteAndEscape) {
  std::string bash = RenderBashCompletion(SmallDoc());
  EXPECT_NE(bash.find("complete -o filenames -F _tool tool\n"), std::string::npos);
  EXPECT_NE(bash.find("    --color) COMPREPLY=($(compgen -W 'auto never' -- \"$cur\")); return;;"),
            std::string::npos)
      << bash;
  std::string zsh = RenderZshCompletion(SmallDoc());
  // Brackets and colons in descriptions are escaped; the quote closes and reopens.
  EXPECT_NE(zsh.find("'*--top[Rows \\[max\\]\\: it'\\''s 20]:INT:_files'"), std::string::npos)
      << zsh;
  EXPECT_NE(zsh.find("'show:Show it'"), std::string::npos) << zsh;
  std::string fish = RenderFishCompletion(SmallDoc());
  EXPECT_NE(fish.find("complete -c tool -n '__fish_seen_subcommand_from show' -l top -s t -r -d "
                      "'Rows [max]: it'\\''s 20'\n"),
            std::string::npos)
      << fish;
  EXPECT_NE(fish.find("complete -c tool -l color -x -a 'auto never' -d 'Colour'\n"),
            std::string::npos)
      << fish;
}

}  // namespace
}  // namespace htpscope::shell_docs_test
