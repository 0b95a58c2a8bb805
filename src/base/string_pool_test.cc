#include "base/string_pool.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace htpscope {
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

}  // namespace
}  // namespace htpscope
