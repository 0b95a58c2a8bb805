#include "report/text_sanitize.h"

#include <gtest/gtest.h>

#include <string>

namespace htpscope::text_sanitize_test {
namespace {

TEST(TerminalSafeLines, KeepsLineBreaksEscapesTheRest) {
  EXPECT_EQ(TerminalSafeLines("a\nb\n"), "a\nb\n");
  EXPECT_EQ(TerminalSafeLines("x\x1b[2Jy\n\rz\t"), "x\\x1b[2Jy\n\\rz\\t");
  // Idempotent, and a no-op on what TerminalSafe wrote.
  const std::string once = TerminalSafeLines("\x07\n\xe2\x80\xae");
  EXPECT_EQ(TerminalSafeLines(once), once);
  EXPECT_EQ(TerminalSafeLines(TerminalSafe("a\x1b"
                                           "b")),
            TerminalSafe("a\x1b"
                         "b"));
}

TEST(TerminalSafe, PrintableTextIsUnchanged) {
  for (const std::string s : {"", "conv_1", "a b\\c", "Ünïcödé → µs", "名前", "emoji 😀",
                              "C:\\runs\\x.json", "~!@#$%^&*()_+{}|:\"<>?"}) {
    EXPECT_EQ(TerminalSafe(s), s);
    EXPECT_TRUE(IsTerminalSafe(s)) << s;
  }
}

TEST(TerminalSafe, ControlCharactersAreEscapedVisibly) {
  EXPECT_EQ(TerminalSafe("a\nb"), "a\\nb");
  EXPECT_EQ(TerminalSafe("a\rb\tc"), "a\\rb\\tc");
  EXPECT_EQ(TerminalSafe("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
  // OSC 0 (set the window title), ended by BEL or by ST (ESC \).
  EXPECT_EQ(TerminalSafe("\x1b]0;pwned\x07"), "\\x1b]0;pwned\\x07");
  EXPECT_EQ(TerminalSafe("\x1b]0;pwned\x1b\\"), "\\x1b]0;pwned\\x1b\\");
  EXPECT_EQ(TerminalSafe(std::string("nul\0byte", 8)), "nul\\x00byte");
  EXPECT_EQ(TerminalSafe("del\x7f"), "del\\x7f");
  EXPECT_EQ(TerminalSafe("\x01\x1f"), "\\x01\\x1f");
}

TEST(TerminalSafe, C1ControlsBidiOverridesAndSeparatorsAreEscaped) {
  EXPECT_EQ(TerminalSafe("\xC2\x9B"
                         "31m"),
            "\\u{009B}31m");                         // CSI as U+009B
  EXPECT_EQ(TerminalSafe("\xC2\x85"), "\\u{0085}");  // NEL
  EXPECT_EQ(TerminalSafe("a\xE2\x80\xAE"
                         "cba"),
            "a\\u{202E}cba");  // RIGHT-TO-LEFT OVERRIDE
  EXPECT_EQ(TerminalSafe("\xE2\x81\xA6x\xE2\x81\xA9"), "\\u{2066}x\\u{2069}");
  EXPECT_EQ(TerminalSafe("\xE2\x80\xA8"), "\\u{2028}");
  EXPECT_EQ(TerminalSafe("\xE2\x80\x8F"), "\\u{200F}");
  // Neighbours that are printable stay.
  EXPECT_EQ(TerminalSafe("\xC2\xA0"), "\xC2\xA0");          // NO-BREAK SPACE
  EXPECT_EQ(TerminalSafe("\xE2\x80\xAF"), "\xE2\x80\xAF");  // U+202F
}

TEST(TerminalSafe, BytesThatAreNotUtf8AreEscapedOneByOne) {
  EXPECT_EQ(TerminalSafe("\x9b"
                         "31m"),
            "\\x9b31m");  // a raw 8-bit CSI
  EXPECT_EQ(TerminalSafe("a\xff"), "a\\xff");
  EXPECT_EQ(TerminalSafe("\xC0\xAF"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(TerminalSafe("\xED\xA0\x80"), "\\xed\\xa0\\x80");           // a surrogate
  EXPECT_EQ(TerminalSafe("\xE2\x80"), "\\xe2\\x80");                    // cut short
  EXPECT_EQ(TerminalSafe("\xF4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
}

TEST(TerminalSafe, ResultHoldsNoControlByteWhateverTheInput) {
  std::string all;
  for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
  for (int i = 0; i < 256; ++i) all += "\xC2" + std::string(1, static_cast<char>(i));
  std::string safe = TerminalSafe(all);
  for (unsigned char c : safe) EXPECT_TRUE(c >= 0x20 && c != 0x7F) << static_cast<int>(c);
  EXPECT_TRUE(IsTerminalSafe(safe));
  EXPECT_GE(safe.size(), all.size());
}

}  // namespace
}  // namespace htpscope::text_sanitize_test
