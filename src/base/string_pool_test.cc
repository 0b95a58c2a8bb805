#include "base/string_pool.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace htpscope::string_pool_test {
namespace {

TEST(StringPool, InternsOnceAndViewsStayValidAcrossBlocksAndMoves) {
  StringPool pool;
  EXPECT_EQ(pool.Intern(""), StringPool::kEmpty);
  std::vector<std::string_view> first_views;
  // 20000 names of ~20 bytes span several 64 KB blocks.
  for (int i = 0; i < 20000; ++i) {
    StringId id = pool.Intern("QNN::layer_" + std::to_string(i) + "_conv");
    EXPECT_EQ(id, static_cast<StringId>(i + 1));
    first_views.push_back(pool.View(id));
  }
  const std::string long_name(200000, 'x');  // longer than a block
  StringId long_id = pool.Intern(long_name);
  EXPECT_EQ(pool.Intern("QNN::layer_7_conv"), 8u);  // found, not added
  EXPECT_EQ(pool.size(), 20002u);

  StringPool moved = std::move(pool);
  EXPECT_EQ(moved.View(8), "QNN::layer_7_conv");
  EXPECT_EQ(moved.View(8).data(), first_views[7].data());  // same bytes, not copied
  EXPECT_EQ(moved.View(long_id), long_name);
  bool found = false;
  EXPECT_EQ(moved.Find("QNN::layer_19999_conv", &found), 20000u);
  EXPECT_TRUE(found);
  moved.Find("QNN::layer_20000_conv", &found);
  EXPECT_FALSE(found);
}

TEST(StringPool, CopiesOwnTheirStrings) {
  auto copy = std::make_unique<StringPool>();
  {
    StringPool original;
    original.Reserve(4);
    original.Intern("Conv2d");
    original.Intern("HTP::Relu");
    *copy = original;
    StringPool constructed(original);
    EXPECT_EQ(constructed.View(2), "HTP::Relu");
    EXPECT_NE(constructed.View(2).data(), original.View(2).data());
  }
  // The original is gone: the copy's views must not point into it.
  EXPECT_EQ(copy->size(), 3u);
  EXPECT_EQ(copy->View(1), "Conv2d");
  EXPECT_EQ(copy->View(2), "HTP::Relu");
  EXPECT_EQ(copy->Intern("Conv2d"), 1u);
}

// The index holds ids and finds their texts through the pool: after a move
// (construction or assignment), growing the pool rehashes every id, which
// must still read the moved texts.
TEST(StringPool, InternsAfterMovesWithIdsThatFollowTheTexts) {
  StringPool pool;
  for (int i = 1; i <= 1000; ++i) pool.Intern("op_" + std::to_string(i));
  StringPool moved(std::move(pool));
  for (int i = 1001; i <= 50000; ++i)  // several rehashes
    ASSERT_EQ(moved.Intern("op_" + std::to_string(i)), static_cast<StringId>(i));
  StringPool assigned;
  assigned.Intern("something else");
  assigned = std::move(moved);
  EXPECT_EQ(assigned.size(), 50001u);
  EXPECT_EQ(assigned.Intern("op_1"), 1u);
  EXPECT_EQ(assigned.Intern("op_50000"), 50000u);
  EXPECT_EQ(assigned.Intern("op_50001"), 50001u);
  bool found = true;
  EXPECT_EQ(assigned.Find("something else", &found), StringPool::kEmpty);
  EXPECT_FALSE(found);
  EXPECT_EQ(assigned.Find("op_777", &found), 777u);
  EXPECT_TRUE(found);
  EXPECT_EQ(assigned.View(777), "op_777");
}

}  // namespace
}  // namespace htpscope::string_pool_test
