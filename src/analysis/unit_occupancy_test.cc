#include "analysis/unit_occupancy.h"

#include <gtest/gtest.h>

#include "formats/corpus_test_util.h"

namespace htpscope {
namespace {

TEST(UnionLength, OverlapsCountOnce) {
  std::vector<std::pair<int64_t, int64_t>> v{{10, 20}, {0, 5}, {15, 30}, {30, 31}, {40, 40}};
  EXPECT_EQ(UnionLength(v), 5 + 21);
  std::vector<std::pair<int64_t, int64_t>> empty;
  EXPECT_EQ(UnionLength(empty), 0);
}

TEST(UnitOccupancy, GdnMatchesIndependentUnionOfSlices) {
  HTPSCOPE_REQUIRE_CORPUS("gdn_hvx_int16");
  Optrace t = ReadOptrace(testing_support::CorpusFile("gdn_hvx_int16", "chrometrace.json"));
  auto units = ComputeUnitOccupancy(t);
  ASSERT_EQ(units.size(), 5u);
  std::vector<int64_t> used;
  for (const auto& u : units) used.push_back(u.cycles_used);
  EXPECT_EQ(used, (std::vector<int64_t>{161318, 4932549, 4680342, 3198933, 3693108}));
  EXPECT_EQ(units[0].kind, UnitKind::kHmx);
  EXPECT_EQ(units[1].kind, UnitKind::kHvx);
}

}  // namespace
}  // namespace htpscope
