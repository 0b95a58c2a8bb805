#include "base/read_progress.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace htpscope::read_progress_test {
namespace {

TEST(ReadProgress, CountsBytesFromManyThreadsAndKnowsWhenTheTotalIsKnown) {
  read_progress::Reset();
  EXPECT_FALSE(read_progress::Now().total_known);  // nothing expected yet
  read_progress::AddBytesExpected(4000);
  read_progress::AddBytesExpected(96000);
  std::vector<std::thread> readers;
  for (int t = 0; t < 4; ++t)
    readers.emplace_back([] {
      for (int i = 0; i < 1000; ++i) read_progress::AddBytesRead(25);
    });
  for (auto& r : readers) r.join();
  read_progress::Snapshot s = read_progress::Now();
  EXPECT_EQ(s.bytes_read, 100000u);
  EXPECT_EQ(s.bytes_expected, 100000u);
  EXPECT_TRUE(s.total_known);
  read_progress::MarkTotalUnknown();  // e.g. standard input joins the run
  EXPECT_FALSE(read_progress::Now().total_known);
  read_progress::Reset();
  EXPECT_EQ(read_progress::Now().bytes_read, 0u);
}

}  // namespace
}  // namespace htpscope::read_progress_test
