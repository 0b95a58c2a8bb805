#include "analysis/graph_view.h"

#include <gtest/gtest.h>

namespace htpscope::graph_view_test {
namespace {

DominantSegmentRow PathRow(uint64_t op, int64_t cycles, bool idle = false) {
  DominantSegmentRow r;
  r.op_id = idle ? 0 : op;
  r.end_cycle = cycles;
  r.idle = idle;
  return r;
}

TEST(ComparePathOps, SplitsOpsByPathAndSumsQhasCyclesOffTheCriticalPath) {
  // QHAS: op 3 twice (10 + 7 cycles), an idle gap, ops 4, 9 and 12.
  const std::vector<DominantSegmentRow> qhas = {PathRow(3, 10), PathRow(0, 5, /*idle=*/true),
                                                PathRow(3, 7),  PathRow(4, 20),
                                                PathRow(9, 1),  PathRow(12, 2)};
  // The critical path, unsorted and with a repeat: ops 1, 3, 5, 9.
  PathAgreement a = ComparePathOps({5, 3, 3, 9, 1}, qhas);
  EXPECT_EQ(a.both, (std::vector<uint64_t>{3, 9}));
  EXPECT_EQ(a.only_critical, (std::vector<uint64_t>{1, 5}));
  EXPECT_EQ(a.only_qhas, (std::vector<uint64_t>{4, 12}));
  EXPECT_EQ(a.only_qhas_cycles, 22);  // op 4's 20 + op 12's 2; the idle row is no op
}

TEST(ComparePathOps, EmptySides) {
  PathAgreement none = ComparePathOps({}, {});
  EXPECT_TRUE(none.both.empty() && none.only_critical.empty() && none.only_qhas.empty());
  PathAgreement only_critical = ComparePathOps({2}, {PathRow(0, 9, /*idle=*/true)});
  EXPECT_EQ(only_critical.only_critical, (std::vector<uint64_t>{2}));
  EXPECT_TRUE(only_critical.only_qhas.empty());
  EXPECT_EQ(only_critical.only_qhas_cycles, 0);
}

}  // namespace
}  // namespace htpscope::graph_view_test
