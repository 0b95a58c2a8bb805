#include "analysis/stage_timings.h"

#include <gtest/gtest.h>

#include "base/errors.h"

namespace htpscope::stage_timings_test {
namespace {

TEST(StageTimings, PrimerExamplePerStageAndTotal) {
  StageTimings a = ParseStageTimings("a.csv", "stage,seconds\nquantize,548\ncompile,929\n");
  StageTimings b = ParseStageTimings("b.csv", "stage,seconds\nquantize,469\ncompile,803\n");
  StageDiff d = DiffStages(a, b);
  ASSERT_EQ(d.stages.size(), 2u);
  EXPECT_EQ(d.stages[0].stage, "quantize");
  EXPECT_EQ(d.stages[0].seconds.change, -79);
  EXPECT_NEAR(*d.stages[0].improvement_pct, 79.0 / 548 * 100, 1e-12);  // 14.42 %
  EXPECT_EQ(d.stages[1].stage, "compile");
  EXPECT_NEAR(*d.stages[1].improvement_pct, 126.0 / 929 * 100, 1e-12);  // 13.56 %
  EXPECT_EQ(d.total.seconds.a_value(), 1477);
  EXPECT_EQ(d.total.seconds.b_value(), 1272);
  EXPECT_NEAR(*d.total.improvement_pct, 205.0 / 1477 * 100, 1e-12);  // 13.88 %
  EXPECT_TRUE(d.notes.empty());

  // Gates: per stage and on the total.
  auto subjects = GateSubjects(d);
  EXPECT_TRUE(EvaluateGate(ParseGate("total_seconds>+0%"), subjects).passed);
  EXPECT_FALSE(EvaluateGate(ParseGate("total_seconds>-15%"), subjects).passed);  // -13.9 %
  GateResult r = EvaluateGate(ParseGate("stage:*:seconds>-14%"), subjects);
  EXPECT_FALSE(r.passed);  // compile improved 13.6 % only
  ASSERT_EQ(r.exceeded.size(), 1u);
  EXPECT_EQ(r.exceeded[0].subject, "stage:compile:seconds");
}

TEST(StageTimings, HeaderCommentsBlankLinesSpacesAndCrlf) {
  StageTimings t = ParseStageTimings(
      "t.csv", "# lowering of model X\r\n\r\nquantize , 548.5\r\nexport, model,12\r\n");
  ASSERT_EQ(t.stages.size(), 2u);
  EXPECT_EQ(t.stages[0].stage, "quantize");
  EXPECT_EQ(t.stages[0].seconds, 548.5);
  EXPECT_EQ(t.stages[0].line, 3);
  EXPECT_EQ(t.stages[1].stage, "export, model");  // everything before the last comma
  EXPECT_EQ(t.stages[1].seconds, 12);
}

TEST(StageTimings, StagesOnOneSideOnlyAreListedAndNoted) {
  StageDiff d = DiffStages(ParseStageTimings("a.csv", "quantize,10\ncompile,20\n"),
                           ParseStageTimings("b.csv", "compile,15\nlink,5\n"));
  ASSERT_EQ(d.stages.size(), 3u);
  EXPECT_EQ(d.stages[0].stage, "quantize");
  EXPECT_FALSE(d.stages[0].seconds.b.has_value());
  EXPECT_FALSE(d.stages[0].improvement_pct.has_value());
  EXPECT_EQ(d.stages[2].stage, "link");
  EXPECT_FALSE(d.stages[2].seconds.a.has_value());
  EXPECT_EQ(d.total.seconds.a_value(), 30);
  EXPECT_EQ(d.total.seconds.b_value(), 20);
  EXPECT_EQ(d.notes.size(), 3u);  // two one-sided stages + the totals caveat
}

void ExpectError(std::string_view text, uint64_t line, std::string_view words) {
  try {
    ParseStageTimings("s.csv", text);
    ADD_FAILURE() << "parsed: " << text;
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "s.csv");
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(e.problem().find(words), std::string::npos) << e.problem();
  }
}

TEST(StageTimings, MalformedRowsNameFileAndLine) {
  ExpectError("quantize,548\ncompile\n", 2, "expected \"stage,seconds\"");
  ExpectError("quantize,abc\n", 1, "not a number of seconds");
  ExpectError("quantize,-3\n", 1, "negative duration");
  ExpectError("quantize,1\nquantize,2\n", 2, "listed twice");
  ExpectError(",5\n", 1, "empty stage name");
  ExpectError("quantize,nan\n", 1, "not a number of seconds");
  ExpectError("stage,seconds\n# nothing\n", 2, "no \"stage,seconds\" rows");
  ExpectError("quantize,5\nstage,seconds\n", 2, "not a number of seconds");  // header only first
}

}  // namespace
}  // namespace htpscope::stage_timings_test
