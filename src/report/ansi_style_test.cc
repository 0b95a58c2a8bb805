#include "report/ansi_style.h"

#include <gtest/gtest.h>

namespace htpscope::ansi_style_test {
namespace {

TEST(StyleReportText, BoldTitlesYellowTagsRedFailures) {
  std::string plain =
      "Summary of run\n"
      "\nTop ops\n-------\n  a 1\n"
      "  [slow_clock] the clock is low\n"
      "  missing: A -> B (line 2)\n"
      "no newline at the end";
  std::string styled = StyleReportText(plain);
  EXPECT_NE(styled.find("\x1b[1mTop ops\x1b[0m\n-------\n"), std::string::npos) << styled;
  EXPECT_NE(styled.find("  \x1b[33m[slow_clock]\x1b[0m the clock is low\n"), std::string::npos);
  EXPECT_NE(styled.find("  \x1b[31mmissing:\x1b[0m A -> B"), std::string::npos);
  // "Summary of run" has no underline: left plain.
  EXPECT_EQ(styled.rfind("Summary of run\n", 0), 0u);
  // Styling only adds escape sequences.
  EXPECT_EQ(StripAnsi(styled), plain);
}

TEST(StyleReportText, PlainTextWithoutMarkersIsUnchanged) {
  std::string plain = "  op   cycles\n  Conv 1,024\n";
  EXPECT_EQ(StyleReportText(plain), plain);
  EXPECT_EQ(StyleReportText(""), "");
}

TEST(StripAnsi, RemovesCsiSequencesOnly) {
  EXPECT_EQ(StripAnsi(AnsiBoldRed("htpscope: error")), "htpscope: error");
  EXPECT_EQ(StripAnsi("a\x1b[1;31mb\x1b[0mc [x]"), "abc [x]");
}

}  // namespace
}  // namespace htpscope::ansi_style_test
