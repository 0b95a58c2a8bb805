#include "base/gather.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <thread>

namespace htpscope::gather_test {
namespace {

TEST(AppendGathered, ValuesInOrderAtTheirExactSize) {
  std::vector<int64_t> three;
  AppendGathered(three, [](auto add) {
    for (int64_t v : {7, -1, 42}) add(v);
  });
  EXPECT_EQ(three, (std::vector<int64_t>{7, -1, 42}));
  EXPECT_EQ(three.capacity(), 3u);
  std::vector<int64_t> none;
  AppendGathered(none, [](auto) {});
  EXPECT_TRUE(none.empty());
  // A call after a longer one gets only its own values.
  std::vector<int64_t> one;
  AppendGathered(one, [](auto add) { add(5); });
  EXPECT_EQ(one, (std::vector<int64_t>{5}));
  // A vector that holds values already keeps them, the new ones after.
  AppendGathered(three, [](auto add) { add(9); });
  EXPECT_EQ(three, (std::vector<int64_t>{7, -1, 42, 9}));
}

// A fill that throws leaves nothing behind for the next call.
TEST(AppendGathered, AThrowingFillLeavesNothingForTheNext) {
  std::vector<uint64_t> out;
  EXPECT_THROW(AppendGathered(out,
                              [](auto add) {
                                add(1);
                                throw std::runtime_error("bad element");
                              }),
               std::runtime_error);
  EXPECT_TRUE(out.empty());
  AppendGathered(out, [](auto add) { add(2); });
  EXPECT_EQ(out, (std::vector<uint64_t>{2}));
}

// Each thread gathers in its own buffer.
TEST(AppendGathered, ThreadsDoNotShareTheirBuffers) {
  std::vector<uint64_t> a, b;
  std::thread ta([&] {
    AppendGathered(a, [](auto add) {
      for (uint64_t v = 0; v < 1000; ++v) add(v);
    });
  });
  std::thread tb([&] {
    AppendGathered(b, [](auto add) {
      for (uint64_t v = 0; v < 1000; ++v) add(v + 5000);
    });
  });
  ta.join();
  tb.join();
  ASSERT_EQ(a.size(), 1000u);
  ASSERT_EQ(b.size(), 1000u);
  for (uint64_t v = 0; v < 1000; ++v) {
    EXPECT_EQ(a[v], v);
    EXPECT_EQ(b[v], v + 5000);
  }
}

}  // namespace
}  // namespace htpscope::gather_test
