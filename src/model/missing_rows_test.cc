#include "model/missing_rows.h"

#include <gtest/gtest.h>

namespace htpscope::missing_rows_test {
namespace {

htpscope::Run RunMissing(std::vector<MissingRow> missing) {
  htpscope::Run run;
  run.missing = std::move(missing);
  return run;
}

TEST(MissingRows, TheRunsRowsOfTheDataAskedForInTheRunsOrder) {
  const htpscope::Run run = RunMissing({
      {"optrace (chrometrace.json, OP_TRACE)", "graph wall cycles, per-op DPC, per-unit occupancy"},
      {"profile-viewer text or CSV", "coarse view"},
      {"QHAS summary (*_qnn_htp_analysis_summary.json)", "cross-checks"},
  });
  const std::vector<MissingRow> rows =
      MissingRowsOf(run, {RunData::kQhasAnalysis, RunData::kTimedSlices});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].artifact, "optrace (chrometrace.json, OP_TRACE)");
  EXPECT_EQ(rows[0].withholds, "graph wall cycles, per-op DPC, per-unit occupancy");
  EXPECT_EQ(rows[1].artifact, "QHAS summary (*_qnn_htp_analysis_summary.json)");
  EXPECT_EQ(rows[1].withholds, "cross-checks");
  ASSERT_EQ(MissingRowsOf(run, {RunData::kProfileExecutions}).size(), 1u);
  EXPECT_TRUE(MissingRowsOf(run, {RunData::kCompiledGraph}).empty());
  // Device profiles are never missing: no row names them.
  EXPECT_TRUE(MissingRowsOf(run, {RunData::kAihubProfile, RunData::kGenieProfile}).empty());
  EXPECT_TRUE(MissingRowsOf(RunMissing({}), {RunData::kTimedSlices}).empty());
}

}  // namespace
}  // namespace htpscope::missing_rows_test
