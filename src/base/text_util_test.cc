#include "base/text_util.h"

#include <gtest/gtest.h>

namespace htpscope::text_util_test {
namespace {

TEST(TextUtil, TrimRemovesAsciiWhiteSpaceAtBothEndsOnly) {
  EXPECT_EQ(Trim("  Graph Execute \t\r\n"), "Graph Execute");
  EXPECT_EQ(Trim("\f\va b\v"), "a b");
  EXPECT_EQ(Trim(" \t "), "");
  EXPECT_EQ(Trim(""), "");
  EXPECT_EQ(Trim("x"), "x");
  EXPECT_EQ(Trim("\xc2\xa0x"), "\xc2\xa0x");  // a UTF-8 no-break space is not ASCII space
}

TEST(TextUtil, CaseFoldingIsAsciiOnly) {
  EXPECT_EQ(ToLower("Accelerator (execute) TIME"), "accelerator (execute) time");
  EXPECT_EQ(ToLower("\xc3\x89t\xc3\xa9"), "\xc3\x89t\xc3\xa9");  // bytes ≥ 0x80 untouched
  EXPECT_TRUE(EqualsIgnoreCase("Graph_Execute", "gRAPH_eXECUTE"));
  EXPECT_FALSE(EqualsIgnoreCase("abc", "abd"));
  EXPECT_FALSE(EqualsIgnoreCase("abc", "ab"));
  EXPECT_TRUE(EqualsIgnoreCase("", ""));
}

}  // namespace
}  // namespace htpscope::text_util_test
