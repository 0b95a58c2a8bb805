#include "cli/kept_until_exit.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace htpscope::cli::kept_until_exit_test {
namespace {

TEST(KeepUntilExit, KeepsTheMovedValueAtOneAddressAcrossLaterCalls) {
  std::vector<int> rows(1000, 7);
  const int* storage = rows.data();
  std::vector<int>& kept = KeepUntilExit(std::move(rows));
  EXPECT_EQ(kept.data(), storage);  // moved, not copied
  EXPECT_EQ(kept.size(), 1000u);
  for (int i = 0; i < 100; ++i) KeepUntilExit(std::vector<int>(3, i));
  EXPECT_EQ(&kept[0], storage);  // later calls move nothing already kept
  EXPECT_EQ(kept[999], 7);
  EXPECT_EQ(KeepUntilExit(std::string(40, 'x')), std::string(40, 'x'));
}

}  // namespace
}  // namespace htpscope::cli::kept_until_exit_test
