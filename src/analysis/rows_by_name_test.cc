#include "analysis/rows_by_name.h"

#include <gtest/gtest.h>

namespace htpscope::rows_by_name_test {
namespace {

struct NamedCount {
  StringId name = StringPool::kEmpty;
  int count = 0;
};

// Rows come in first-seen order, each named once; a name seen again finds
// its row; the empty name is a row like any other.
TEST(RowsByName, FirstSeenOrderAndOneRowPerName) {
  htpscope::Run run;
  const StringId b = run.strings.Intern("b"), a = run.strings.Intern("a");
  std::vector<NamedCount> rows;
  RowsByName<NamedCount> by_name(run, rows);
  for (StringId name : {b, a, b, StringPool::kEmpty, b}) ++by_name[name].count;
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].name, b);
  EXPECT_EQ(rows[0].count, 3);
  EXPECT_EQ(rows[1].name, a);
  EXPECT_EQ(rows[1].count, 1);
  EXPECT_EQ(rows[2].name, StringPool::kEmpty);
  EXPECT_EQ(rows[2].count, 1);
}

}  // namespace
}  // namespace htpscope::rows_by_name_test
