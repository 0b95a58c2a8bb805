#include "base/suggest.h"

#include <gtest/gtest.h>

namespace htpscope::suggest_test {
namespace {

const std::vector<std::string> kCommands = {"summary", "timeline", "graph",  "numerics", "diff",
                                            "lint",    "heap",     "memory", "report",   "aot"};

TEST(EditDistance, CountsInsertionsDeletionsSubstitutionsAndSwaps) {
  EXPECT_EQ(EditDistance("", ""), 0u);
  EXPECT_EQ(EditDistance("abc", ""), 3u);
  EXPECT_EQ(EditDistance("", "ab"), 2u);
  EXPECT_EQ(EditDistance("sumary", "summary"), 1u);    // one insertion
  EXPECT_EQ(EditDistance("summmary", "summary"), 1u);  // one deletion
  EXPECT_EQ(EditDistance("grafh", "graph"), 1u);       // one substitution
  EXPECT_EQ(EditDistance("garph", "graph"), 1u);       // one swap of neighbours
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(EditDistance("heap", "lint"), 4u);
}

TEST(ClosestName, SuggestsTyposOnly) {
  EXPECT_EQ(ClosestName("sumary", kCommands), "summary");
  EXPECT_EQ(ClosestName("timline", kCommands), "timeline");
  EXPECT_EQ(ClosestName("garph", kCommands), "graph");
  EXPECT_EQ(ClosestName("numeric", kCommands), "numerics");
  // Too far from every name: no suggestion rather than a wild one.
  EXPECT_EQ(ClosestName("xyzzy", kCommands), std::nullopt);
  EXPECT_EQ(ClosestName("", kCommands), std::nullopt);
  // A name that exists is not a typo.
  EXPECT_EQ(ClosestName("diff", kCommands), std::nullopt);
  // A unique prefix, however short, names its command.
  EXPECT_EQ(ClosestName("num", kCommands), "numerics");
  EXPECT_EQ(ClosestName("mem", kCommands), "memory");
}

TEST(DidYouMean, FormatsTheSuggestion) {
  EXPECT_EQ(DidYouMean("sumary", kCommands), " (did you mean \"summary\"?)");
  EXPECT_EQ(DidYouMean("qqqqqq", kCommands), "");
  EXPECT_EQ(DidYouMean("wal_us", {"wall_us", "work_cycles"}), " (did you mean \"wall_us\"?)");
}

}  // namespace
}  // namespace htpscope::suggest_test
