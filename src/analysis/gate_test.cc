#include "analysis/gate.h"

#include <gtest/gtest.h>

#include <cmath>

#include "base/errors.h"

namespace htpscope::gate_test {
namespace {

TEST(GateParse, RunLevelPercentAndAbsolute) {
  Gate g = ParseGate("wall_us>+5%");
  EXPECT_EQ(g.expr, "wall_us>+5%");
  EXPECT_EQ(g.family, "");
  EXPECT_EQ(g.field, "wall_us");
  EXPECT_EQ(g.direction, GateDirection::kAbove);
  EXPECT_EQ(g.threshold, 5);
  EXPECT_TRUE(g.percent);

  g = ParseGate("peak_vtcm_bytes>+0");
  EXPECT_EQ(g.field, "peak_vtcm_bytes");
  EXPECT_EQ(g.threshold, 0);
  EXPECT_FALSE(g.percent);

  g = ParseGate(" unit:*:utilization_pct < -12.5 ");
  EXPECT_EQ(g.family, "unit");
  EXPECT_EQ(g.pattern, "*");
  EXPECT_EQ(g.field, "utilization_pct");
  EXPECT_EQ(g.direction, GateDirection::kBelow);
  EXPECT_EQ(g.threshold, -12.5);

  g = ParseGate("work_cycles>10%");  // the sign is optional
  EXPECT_EQ(g.threshold, 10);
  EXPECT_TRUE(g.percent);
}

TEST(GateParse, FamilyGlobMayContainColonsAndAngles) {
  Gate g = ParseGate("op:*:dpc_cycles>+10%");
  EXPECT_EQ(g.family, "op");
  EXPECT_EQ(g.pattern, "*");
  EXPECT_EQ(g.field, "dpc_cycles");
  g = ParseGate("htp:q::ConvLayer*:work_cycles>+1000");
  EXPECT_EQ(g.family, "htp");
  EXPECT_EQ(g.pattern, "q::ConvLayer*");
  EXPECT_EQ(g.field, "work_cycles");
  EXPECT_EQ(g.threshold, 1000);
  g = ParseGate("htp:Foo<int>:dpc_cycles>+1");  // the threshold is read from the right
  EXPECT_EQ(g.pattern, "Foo<int>");
}

uint64_t OffsetOf(const char* expr) {
  try {
    ParseGate(expr);
  } catch (const GateSyntaxError& e) {
    EXPECT_NE(std::string(e.what()).find(std::string("'") + expr + "'"), std::string::npos);
    return e.offset();
  }
  ADD_FAILURE() << expr << " parsed";
  return 999;
}

TEST(GateParse, ErrorsNameTheExpressionAndOffset) {
  EXPECT_EQ(OffsetOf("wall_us>"), 8u);          // no number
  EXPECT_EQ(OffsetOf("wall_us=5%"), 8u);        // no comparison before the number
  EXPECT_EQ(OffsetOf(">5"), 0u);                // no metric
  EXPECT_EQ(OffsetOf("Wall_us>5"), 0u);         // not a metric name
  EXPECT_EQ(OffsetOf("foo:*:x>5"), 0u);         // unknown family
  EXPECT_EQ(OffsetOf("op:dpc_cycles>5"), 3u);   // no glob
  EXPECT_EQ(OffsetOf("op::dpc_cycles>5"), 3u);  // empty glob
  EXPECT_EQ(OffsetOf("wall_us>1.2.3"), 8u);     // not a number
}

TEST(GateNoise, MadBoundCombinesSidesWithThreeOrMoreSamples) {
  // A: 10 12 14 -> median 12, MAD 2; B: 20 21 -> n 2, no spread counted.
  MetricDelta d = CompareSamples({10, 12, 14}, {20, 21}, "us", "t");
  EXPECT_EQ(d.a->median, 12);
  EXPECT_EQ(d.a->mad, 2);
  EXPECT_EQ(d.b->median, 20.5);
  EXPECT_EQ(d.change, 8.5);
  EXPECT_NEAR(*d.change_pct, 70.8333, 1e-4);
  ASSERT_TRUE(d.noise_bound);
  EXPECT_NEAR(*d.noise_bound, 3 * 1.4826 * 2, 1e-12);  // 8.8956 ≥ 8.5
  EXPECT_TRUE(d.within_noise);

  // Both sides with spread: √(σa² + σb²) with σ = 1.4826 × MAD (2 and 1).
  d = CompareSamples({10, 12, 14}, {30, 31, 32}, "us", "t");
  EXPECT_NEAR(*d.noise_bound, 3 * 1.4826 * std::sqrt(5.0), 1e-12);
  EXPECT_FALSE(d.within_noise);  // 19 > 9.95

  // Two samples each: not assessed.
  d = CompareSamples({10, 12}, {30, 31}, "us", "t");
  EXPECT_FALSE(d.noise_bound.has_value());
  EXPECT_FALSE(d.within_noise);

  // A of 0: no relative change.
  d = CompareValues(0.0, 5.0, "bytes", "t");
  EXPECT_EQ(d.change, 5);
  EXPECT_FALSE(d.change_pct.has_value());
  // One side absent: no change at all.
  d = CompareValues(std::nullopt, 5.0, "bytes", "t");
  EXPECT_FALSE(d.change.has_value());
}

TEST(GateEvaluate, ThresholdDirectionsGlobsAndSkips) {
  MetricDelta wall = CompareValues(100.0, 106.0, "us", "t");
  MetricDelta vtcm = CompareValues(1000.0, 1000.0, "bytes", "t");
  MetricDelta op_a = CompareValues(50.0, 60.0, "cycles", "t");
  MetricDelta op_b = CompareValues(0.0, 7.0, "cycles", "t");
  MetricDelta added = CompareValues(std::nullopt, 9.0, "cycles", "t");
  MetricDelta util = CompareValues(80.0, 60.0, "pct", "t");
  std::vector<GateSubject> subjects = {{"", "", "wall_us", &wall},
                                       {"", "", "peak_vtcm_bytes", &vtcm},
                                       {"op", "conv_1", "dpc_cycles", &op_a},
                                       {"op", "reshape", "dpc_cycles", &op_b},
                                       {"op", "conv_new", "dpc_cycles", &added},
                                       {"unit", "256", "utilization_pct", &util}};
  EXPECT_FALSE(EvaluateGate(ParseGate("wall_us>+5%"), subjects).passed);  // +6 %
  EXPECT_TRUE(EvaluateGate(ParseGate("wall_us>+6%"), subjects).passed);   // not above
  EXPECT_FALSE(EvaluateGate(ParseGate("wall_us>+5"), subjects).passed);   // +6 µs
  EXPECT_TRUE(EvaluateGate(ParseGate("peak_vtcm_bytes>+0"), subjects).passed);
  // A "must improve" gate: fails unless B is at least 5 % faster.
  EXPECT_FALSE(EvaluateGate(ParseGate("wall_us>-5%"), subjects).passed);
  EXPECT_FALSE(EvaluateGate(ParseGate("unit:*:utilization_pct<-10"), subjects).passed);
  EXPECT_TRUE(EvaluateGate(ParseGate("unit:*:utilization_pct<-25"), subjects).passed);

  GateResult r = EvaluateGate(ParseGate("op:*:dpc_cycles>+10%"), subjects);
  EXPECT_TRUE(r.evaluated);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.compared, 1);  // conv_1 +20 %; reshape (A = 0) and conv_new (added) skipped
  ASSERT_EQ(r.exceeded.size(), 1u);
  EXPECT_EQ(r.exceeded[0].subject, "op:conv_1:dpc_cycles");
  EXPECT_EQ(r.skipped.size(), 2u);
  // An absolute gate does compare the zero-baseline op.
  r = EvaluateGate(ParseGate("op:*:dpc_cycles>+5"), subjects);
  EXPECT_EQ(r.compared, 2);
  EXPECT_EQ(r.exceeded.size(), 2u);
  // Globs pick the ops.
  EXPECT_TRUE(EvaluateGate(ParseGate("op:resh*:dpc_cycles>+5%"), subjects).passed);

  // Nothing the gate names: cannot be evaluated (exit 2), never a silent pass.
  r = EvaluateGate(ParseGate("op:nomatch*:dpc_cycles>+5%"), subjects);
  EXPECT_FALSE(r.evaluated);
  r = EvaluateGate(ParseGate("bogus_us>+5%"), subjects);
  EXPECT_FALSE(r.evaluated);
  EXPECT_EQ(GateExitStatus({EvaluateGate(ParseGate("wall_us>+6%"), subjects), r}), 2);

  // A misspelt metric, field or item name gets the closest real one.
  EXPECT_EQ(EvaluateGate(ParseGate("wal_us>+5%"), subjects).detail,
            "no run-level figure named \"wal_us\" (did you mean \"wall_us\"?)");
  EXPECT_EQ(EvaluateGate(ParseGate("op:*:dcp_cycles>+5%"), subjects).detail,
            "no op item matches \"*\" with a field \"dcp_cycles\" (did you mean \"dpc_cycles\"?)");
  EXPECT_EQ(EvaluateGate(ParseGate("op:conv_2:dpc_cycles>+5%"), subjects).detail,
            "no op item matches \"conv_2\" with a field \"dpc_cycles\" (did you mean \"conv_1\"?)");
  // Nothing close: no suggestion.
  EXPECT_EQ(EvaluateGate(ParseGate("bogus_us>+5%"), subjects).detail,
            "no run-level figure named \"bogus_us\"");
  try {
    ParseGate("ops:*:dpc_cycles>5");
    ADD_FAILURE() << "no error";
  } catch (const GateSyntaxError& e) {
    EXPECT_NE(std::string(e.what()).find("(did you mean \"op\"?)"), std::string::npos) << e.what();
  }
}

TEST(GateExit, RegressionBeatsPassAndInputErrorBeatsRegression) {
  GateResult pass, fail, error;
  pass.evaluated = fail.evaluated = true;
  fail.passed = false;
  error.evaluated = false;
  error.passed = false;
  EXPECT_EQ(GateExitStatus({}), 0);
  EXPECT_EQ(GateExitStatus({pass}), 0);
  EXPECT_EQ(GateExitStatus({pass, fail}), 1);
  EXPECT_EQ(GateExitStatus({fail, error}), 2);
}

TEST(GateGlob, StarsAndQuestionMarks) {
  EXPECT_TRUE(GlobMatch("*", ""));
  EXPECT_TRUE(GlobMatch("*", "MatMul_0"));
  EXPECT_TRUE(GlobMatch("MatMul_?", "MatMul_7"));
  EXPECT_FALSE(GlobMatch("MatMul_?", "MatMul_10"));
  EXPECT_TRUE(GlobMatch("q::*Slice", "q::*InputSlice"));
  EXPECT_TRUE(GlobMatch("*in*dep*", "bbb_indep0"));
  EXPECT_FALSE(GlobMatch("bbb", "bbb_indep0"));
  EXPECT_TRUE(GlobMatch("a*b*c", "aXbYbZc"));
  EXPECT_FALSE(GlobMatch("a*b*c", "aXbYbZ"));
}

}  // namespace
}  // namespace htpscope::gate_test
