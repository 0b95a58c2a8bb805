#include "formats/json_structure.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "formats/simd_variant_test_util.h"

namespace htpscope::json_structure_test {
namespace {

// --- JsonContainerScanner against a byte-at-a-time reference --------------

struct ReferenceStop {
  JsonContainerScanner::Stop stop;
  size_t offset;
};

// The first separator at or after min_offset, or the closing bracket, found
// one byte at a time (inside the container, depth 1, outside strings).  As
// in the scanner (and simdjson's stage 1), a quote preceded by an odd run of
// backslashes is escaped wherever it is: valid JSON has backslashes only in
// strings, and invalid text fails its chunk's parse whatever the cut.
ReferenceStop ReferenceScan(const std::string& text, size_t min_offset) {
  int64_t depth = 1;
  bool in_string = false;
  size_t backslashes = 0;  // the run just before the byte
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool escaped = backslashes % 2 == 1;
    backslashes = c == '\\' ? backslashes + 1 : 0;
    if (c == '"' && !escaped) in_string = !in_string;
    if (in_string || c == '"') continue;
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']')
      if (--depth == 0) return {JsonContainerScanner::Stop::kClose, i};
    if (c == ',' && depth == 1 && i >= min_offset)
      return {JsonContainerScanner::Stop::kSeparator, i};
  }
  return {JsonContainerScanner::Stop::kNeedMoreData, text.size()};
}

// Random text dense in quotes, backslashes and brackets.
std::string RandomText(std::mt19937_64& rng, size_t length) {
  static const char kAlphabet[] = "\"\\\\\\{}[],a   \"";
  std::uniform_int_distribution<size_t> pick(0, sizeof(kAlphabet) - 2);
  std::string text(length, ' ');
  for (char& c : text) c = kAlphabet[pick(rng)];
  return text;
}

TEST(JsonContainerScanner, FindsWhatAByteAtATimeScanFinds) {
  SKIP_WITHOUT_THE_SIMD_VARIANTS_INSTRUCTIONS();
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 4000; ++trial) {
    const std::string text = RandomText(rng, 1 + rng() % 400);
    const size_t min_offset = rng() % (text.size() + 1);
    const ReferenceStop expected = ReferenceScan(text, min_offset);
    // Given in pieces (each call sees more), as streamed input arrives.
    JsonContainerScanner scanner;
    size_t at = 0, available = 0;
    JsonContainerScanner::Found found{JsonContainerScanner::Stop::kNeedMoreData, 0};
    while (true) {
      available = std::min(text.size(), available + 1 + rng() % 150);
      const bool final = available == text.size();
      found = scanner.Scan(text.data(), at, available, min_offset, final);
      if (found.stop != JsonContainerScanner::Stop::kNeedMoreData || final) break;
      at = found.offset;
    }
    SCOPED_TRACE(::testing::Message() << "trial " << trial << " text " << text);
    ASSERT_EQ(found.stop, expected.stop);
    if (expected.stop != JsonContainerScanner::Stop::kNeedMoreData) {
      ASSERT_EQ(found.offset, expected.offset);
    }
  }
}

TEST(JsonContainerScanner, EscapesCarryAcrossBlocks) {
  SKIP_WITHOUT_THE_SIMD_VARIANTS_INSTRUCTIONS();
  // Runs of 1..130 backslashes before a quote, placed across the 64-byte
  // block boundary: an odd run escapes the quote, an even one does not.
  for (size_t run = 1; run <= 130; ++run) {
    for (size_t lead = 0; lead < 70; lead += 3) {
      std::string text = std::string(lead, ' ') + "\"" + std::string(run, '\\') + "\", ]";
      JsonContainerScanner scanner;
      auto found = scanner.Scan(text.data(), 0, text.size(), 0, true);
      const ReferenceStop expected = ReferenceScan(text, 0);
      ASSERT_EQ(found.stop, expected.stop) << run << " " << lead;
      ASSERT_EQ(found.offset, expected.offset) << run << " " << lead;
      // Odd runs leave the string open through the comma and the bracket.
      EXPECT_EQ(found.stop, run % 2 ? JsonContainerScanner::Stop::kNeedMoreData
                                    : JsonContainerScanner::Stop::kSeparator);
    }
  }
}

// --- MinifyJson ---------------------------------------------------------------

// `text` through MinifyJson; "REFUSED" when it refuses.
std::string Minified(const std::string& text) {
  std::string out(text.size() + 64, '\0');
  const size_t length = MinifyJson(text.data(), text.size(), out.data());
  if (length == kMinifyRefused) return "REFUSED";
  out.resize(length);
  return out;
}

TEST(MinifyJson, DropsTheWhiteSpaceOutsideStrings) {
  SKIP_WITHOUT_THE_SIMD_VARIANTS_INSTRUCTIONS();
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
  SKIP_WITHOUT_THE_SIMD_VARIANTS_INSTRUCTIONS();
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

// A random JSON value written twice: with random white space between its
// tokens (`spaced`) and without (`tight`).  Strings hold spaces, brackets,
// commas, colons and escaped quotes and backslashes.
void WriteRandomValue(std::mt19937_64& rng, int depth, std::string& spaced, std::string& tight) {
  auto space = [&] {
    static const char kSpaces[] = " \n\r\t";
    for (size_t n = rng() % 4 == 0 ? rng() % 70 : 0; n > 0; --n) spaced += kSpaces[rng() % 4];
  };
  auto both = [&](std::string_view text) {
    spaced += text;
    tight += text;
  };
  space();
  switch (depth > 3 ? rng() % 3 : rng() % 5) {
    case 0:
      both(std::to_string(static_cast<int64_t>(rng() % 2000000) - 1000000));
      break;
    case 1: {
      static const char* const kPieces[] = {"a", " ", "\\\"", "\\\\", "{", "]", ",", ":", "xyz"};
      std::string text = "\"";
      for (size_t n = rng() % 12; n > 0; --n) text += kPieces[rng() % 9];
      both(text + "\"");
      break;
    }
    case 2:
      both(rng() % 2 ? "true" : "null");
      break;
    case 3:
    case 4: {
      const bool object = rng() % 2;
      both(object ? "{" : "[");
      for (size_t n = rng() % 5, i = 0; i < n; ++i) {
        if (i > 0) {
          space();
          both(",");
        }
        if (object) {
          space();
          both("\"k" + std::to_string(i) + "\"");
          space();
          both(":");
        }
        WriteRandomValue(rng, depth + 1, spaced, tight);
      }
      space();
      both(object ? "}" : "]");
      break;
    }
  }
  space();
}

TEST(MinifyJson, MatchesTheValueWrittenWithoutWhiteSpace) {
  SKIP_WITHOUT_THE_SIMD_VARIANTS_INSTRUCTIONS();
  std::mt19937_64 rng(29);
  for (int trial = 0; trial < 3000; ++trial) {
    std::string spaced, tight;
    WriteRandomValue(rng, 0, spaced, tight);
    SCOPED_TRACE(spaced);
    EXPECT_EQ(Minified(spaced), tight);
  }
}

// The check a chunk cut by a guess gets: elements that close what they open.
TEST(IsArrayOfClosedElements, AcceptsWholeElementsOnly) {
  auto closed = [](std::string text) {
    // Long texts too: the scan goes 64 bytes at a time.
    return IsArrayOfClosedElements(text.data(), text.size());
  };
  EXPECT_TRUE(closed("[]"));
  EXPECT_TRUE(closed(R"([{"a": 1}, {"b": [2, {"c": "]}"}]}, 3])"));
  EXPECT_TRUE(closed(R"([{"s": "\\"}, "\"]"])"));
  EXPECT_TRUE(
      closed("[" + std::string(200, ' ') + "{\"k\": [[[]]]}" + std::string(100, ' ') + "]"));
  // Cut inside a nested container, or inside a string.
  EXPECT_FALSE(closed(R"([{"a": 1}, {"b": [{"x": 1}])"));
  EXPECT_FALSE(closed(R"([{"a": 1}, {"b": "x, {])"));
  EXPECT_FALSE(closed(R"([{"s": "\"])"));
  // Closed before its end, or no brackets.
  EXPECT_FALSE(closed(R"([{"a": 1}], [{"b": 2}])"));
  EXPECT_FALSE(closed(R"({"a": 1})"));
  EXPECT_FALSE(closed("["));
}

}  // namespace
}  // namespace htpscope::json_structure_test
