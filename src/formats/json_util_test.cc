#include "formats/json_util.h"

#include <gtest/gtest.h>

namespace htpscope::json_util_test {
namespace {

TEST(ParseHexId, ReadsOptraceIdsAndRefusesTheRest) {
  EXPECT_EQ(ParseHexId("0x0000101200000002"), 0x0000101200000002u);
  EXPECT_EQ(ParseHexId("0XABCDEFabcdef0123"), 0xABCDEFABCDEF0123u);
  EXPECT_EQ(ParseHexId("ffffffffffffffff"), UINT64_MAX);  // the prefix is optional
  EXPECT_EQ(ParseHexId("0x1"), 1u);
  EXPECT_EQ(ParseHexId("0"), 0u);
  for (const char* bad : {"", "0x", "0x12345678901234567" /* 17 digits */, "0x12g4", "0x-1", "0x 1",
                          "x12", "0x1.0"}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(ParseHexId(bad).has_value());
  }
}

}  // namespace
}  // namespace htpscope::json_util_test
