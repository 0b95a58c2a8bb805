#include "formats/json_structure.h"

#include <gtest/gtest.h>

#include <string>

namespace htpscope::json_structure_test {
namespace {

// `text` through MinifyJson; "REFUSED" when it refuses.
std::string Minified(const std::string& text) {
  std::string out(text.size() + 8, '\0');
  const size_t length = MinifyJson(text.data(), text.size(), out.data());
  if (length == kMinifyRefused) return "REFUSED";
  out.resize(length);
  return out;
}

TEST(MinifyJson, DropsTheWhiteSpaceOutsideStrings) {
  EXPECT_EQ(Minified("{ \"a b\" : [ 1 ,\n\t2 ] ,\r\n \"c\\\" d\": \"x \\\\\" }  "),
            "{\"a b\":[1,2],\"c\\\" d\":\"x \\\\\"}");
  // Runs of white space across the 64-byte blocks, values beside structure.
  const std::string spaces(100, ' ');
  EXPECT_EQ(Minified("[" + spaces + "true" + spaces + "," + spaces + "-1.5e3" + spaces + "]"),
            "[true,-1.5e3]");
  EXPECT_EQ(Minified("{\"k\"" + spaces + ":" + spaces + "null" + spaces + "}"), "{\"k\":null}");
  EXPECT_EQ(Minified(""), "");
}

// White space alone between two values: no JSON, which minified would read
// as one value (1 2 as 12), whatever run of white space and wherever it
// falls in a 64-byte block.
TEST(MinifyJson, RefusesValuesJoinedOnlyByWhiteSpace) {
  for (const std::string& gap :
       {std::string(" "), std::string("\n"), std::string(" \r\n\t "), std::string(63, ' '),
        std::string(64, ' '), std::string(130, ' ')}) {
    for (size_t pad = 0; pad < 70; pad += 3) {
      const std::string before = "[" + std::string(pad, ' ');
      SCOPED_TRACE(::testing::Message() << "gap " << gap.size() << " pad " << pad);
      EXPECT_EQ(Minified(before + "1" + gap + "2]"), "REFUSED");
      EXPECT_EQ(Minified(before + "tr" + gap + "ue]"), "REFUSED");
      EXPECT_EQ(Minified(before + "\"a\"" + gap + "\"b\"]"), "REFUSED");
      EXPECT_EQ(Minified(before + "\"a\"" + gap + "3]"), "REFUSED");
      EXPECT_EQ(Minified("{\"k\":" + std::string(pad, ' ') + "1" + gap + "e5}"), "REFUSED");
      // Structure on either side: fine.
      EXPECT_EQ(Minified(before + "1" + gap + "," + gap + "2" + gap + "]"), "[1,2]");
      EXPECT_EQ(Minified("{\"k\"" + gap + ":" + gap + "\"v\"" + gap + "}"), "{\"k\":\"v\"}");
    }
  }
}

}  // namespace
}  // namespace htpscope::json_structure_test
