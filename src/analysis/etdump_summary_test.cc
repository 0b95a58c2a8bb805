#include "analysis/etdump_summary.h"

#include <gtest/gtest.h>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "formats/etdump_test_util.h"

namespace htpscope::etdump_summary_test {
namespace {

const EtdumpEventTotal* Find(const std::vector<EtdumpEventTotal>& totals, std::string_view name) {
  for (const auto& t : totals)
    if (t.name == name) return &t;
  return nullptr;
}

TEST(EtdumpSummary, TutorialEtdumpTotalsNeedSharedReference) {
  std::string path = testing_support::TutorialEtdump();
  if (path.empty()) GTEST_SKIP() << "../shared/reference/executorch absent";
  EtdumpRun run = LoadEtdumpRun(path);
  EtdumpSummary summary = SummarizeEtdump(run);
  ASSERT_EQ(summary.runs.size(), 2u);
  EXPECT_EQ(summary.runs[0].name, "Default");
  EXPECT_EQ(summary.runs[1].name, "Execute");
  EXPECT_EQ(summary.runs[1].events.size(), 29u);
  // Durations from `flatc --json` of the file: 971569 − 426786 and 2065062 − 1033343.
  const EtdumpEventTotal* conv = Find(summary.op_totals, "native_call_convolution.out");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->count, 2u);
  EXPECT_EQ(conv->total_ticks, 1576502u);
  EXPECT_FALSE(conv->delegate);
  const EtdumpEventTotal* execute = Find(summary.op_totals, "Method::execute");
  ASSERT_NE(execute, nullptr);
  EXPECT_EQ(execute->count, 1u);
  EXPECT_EQ(execute->total_ticks, 1898821u);
  EXPECT_EQ(summary.op_totals.front().name, "Method::execute");  // largest first
  for (size_t i = 1; i < summary.op_totals.size(); ++i)
    EXPECT_GE(summary.op_totals[i - 1].total_ticks, summary.op_totals[i].total_ticks);
}

TEST(EtdumpSummary, DelegateEventsKeepTheirIdsAndBackwardsEventsAreNotSummed) {
  std::string dir = testing_support::TempDir("etdump_summary");
  std::string path = testing_support::WriteEtdump(dir, "delegate", R"({"run_data": [
    {"name": "Execute", "events": [
      {"profile_event": {"name": "DELEGATE_CALL", "start_time": 10, "end_time": 1010}},
      {"profile_event": {"delegate_debug_id_str": "conv_0__debugID_3", "start_time": 0, "end_time": 700}},
      {"profile_event": {"delegate_debug_id_str": "conv_0__debugID_3", "start_time": 0, "end_time": 50}},
      {"profile_event": {"delegate_debug_id_int": 4, "start_time": 0, "end_time": 30}},
      {"profile_event": {"name": "backwards", "start_time": 90, "end_time": 10}}]},
    {"name": "Execute", "events": [
      {"profile_event": {"delegate_debug_id_str": "conv_0__debugID_3", "start_time": 0, "end_time": 250}}]}]})");
  ASSERT_FALSE(path.empty());
  EtdumpRun run = LoadEtdumpRun(path);
  EtdumpSummary summary = SummarizeEtdump(run);
  ASSERT_EQ(summary.runs.size(), 2u);
  const EtdumpEventTotal* conv = Find(summary.op_totals, "conv_0__debugID_3");
  ASSERT_NE(conv, nullptr);
  EXPECT_TRUE(conv->delegate);
  EXPECT_EQ(conv->count, 3u);
  EXPECT_EQ(conv->total_ticks, 1000u);
  EXPECT_EQ(conv->delegate_debug_id_str, "conv_0__debugID_3");
  EXPECT_EQ(Find(summary.runs[0].totals, "conv_0__debugID_3")->total_ticks, 750u);
  const EtdumpEventTotal* by_int = Find(summary.op_totals, "delegate_debug_id 4");
  ASSERT_NE(by_int, nullptr);
  EXPECT_EQ(by_int->delegate_debug_id_int, 4);
  const EtdumpEventTotal* backwards = Find(summary.op_totals, "backwards");
  ASSERT_NE(backwards, nullptr);
  EXPECT_EQ(backwards->count, 1u);
  EXPECT_EQ(backwards->uncounted, 1u);
  EXPECT_EQ(backwards->total_ticks, 0u);
  ASSERT_EQ(summary.warnings.size(), 1u);
  EXPECT_NE(summary.warnings[0].find("1 profile event(s) end before they start"),
            std::string::npos);
  EXPECT_EQ(summary.op_totals[0].name, "DELEGATE_CALL");
  EXPECT_EQ(summary.op_totals[1].name, "conv_0__debugID_3");
}

TEST(EtdumpSummary, TotalsPastTwoToTheSixtyFourAreAnInputError) {
  std::string dir = testing_support::TempDir("etdump_overflow");
  std::string path = testing_support::WriteEtdump(dir, "big", R"({"run_data": [
    {"name": "Execute", "events": [
      {"profile_event": {"name": "x", "start_time": 0, "end_time": 18446744073709551615}},
      {"profile_event": {"name": "x", "start_time": 0, "end_time": 18446744073709551615}}]}]})");
  ASSERT_FALSE(path.empty());
  EtdumpRun run = LoadEtdumpRun(path);
  try {
    SummarizeEtdump(run);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_NE(e.problem().find("add up past 2^64 ticks"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace htpscope::etdump_summary_test
