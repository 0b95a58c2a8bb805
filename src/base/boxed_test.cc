#include "base/boxed.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace htpscope::boxed_test {
namespace {

struct Part {
  int count = 0;
  std::string name;
};

TEST(Boxed, EmptyUntilMadeThenHoldsItsValue) {
  Boxed<Part> box;
  EXPECT_FALSE(box);
  EXPECT_EQ(box.ValueOrEmpty().count, 0);
  EXPECT_EQ(box.ValueOrEmpty().name, "");
  box.Make().count = 3;
  box.Make().name = "x";  // the same value, not a new one
  ASSERT_TRUE(box);
  EXPECT_EQ(box.ValueOrEmpty().count, 3);
  EXPECT_EQ(box.ValueOrEmpty().name, "x");
}

TEST(Boxed, CopiesAreIndependentAndMovesTakeTheValue) {
  Boxed<Part> a;
  a.Make() = {7, "seven"};
  Boxed<Part> b = a;
  b.Make().count = 8;
  EXPECT_EQ(a.ValueOrEmpty().count, 7);
  EXPECT_EQ(b.ValueOrEmpty().count, 8);
  a = b;
  EXPECT_EQ(a.ValueOrEmpty().count, 8);
  a = Boxed<Part>();  // copying an empty box empties
  EXPECT_FALSE(a);
  Boxed<Part> c = std::move(b);
  EXPECT_EQ(c.ValueOrEmpty().name, "seven");
  EXPECT_LT(sizeof(Boxed<Part>), sizeof(Part));
}

}  // namespace
}  // namespace htpscope::boxed_test
