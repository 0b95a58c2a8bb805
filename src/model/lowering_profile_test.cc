#include "model/lowering_profile.h"

#include <gtest/gtest.h>

#include "formats/sampling_profile.h"

namespace htpscope::lowering_profile_test {
namespace {

TEST(LoweringProfile, SamplesBecomeSecondsAtTheRate) {
  SamplingProfile p = ParseSamplingProfile("raw.txt", "main;quantize 4690\nmain;compile 8030\n");
  LoweringProfileOptions options;
  LoweringProfile at100 = ToLoweringProfile(p, options);
  EXPECT_EQ(at100.sample_rate_hz, 100);
  EXPECT_DOUBLE_EQ(at100.total_seconds, 127.2);
  ASSERT_EQ(at100.stacks.size(), 2u);
  EXPECT_DOUBLE_EQ(at100.stacks[0].seconds, 46.9);
  EXPECT_NE(at100.source.find("samples ÷ 100 Hz"), std::string::npos) << at100.source;
  options.sample_rate_hz = 1000;
  EXPECT_DOUBLE_EQ(ToLoweringProfile(p, options).total_seconds, 12.72);
}

TEST(LoweringProfile, TimeWeightsAreKeptAndThreadsNoted) {
  SamplingProfile p = ParseSamplingProfile("austin.txt",
                                           "# austin: 3.6.0\n# interval: 1000\n# mode: wall\n"
                                           "P1;T0:1;a.py:main:1;a.py:quantize:2 3000000\n"
                                           "P1;T0:2;b.py:worker:1 1000000\n"
                                           "# duration: 3100000\n");
  LoweringProfile l = ToLoweringProfile(p, {});
  EXPECT_FALSE(l.sample_rate_hz);
  EXPECT_DOUBLE_EQ(l.total_seconds, 4.0);
  EXPECT_EQ(l.source, "austin 3.6.0 output, wall mode, interval 1000 µs");
  ASSERT_EQ(l.frames.size(), 3u);
  EXPECT_EQ(l.frames[1], "quantize (a.py)");
  bool threads_noted = false, duration_noted = false;
  for (const auto& n : l.notes) {
    threads_noted |= n.find("2 threads, summed") != std::string::npos &&
                     n.find("P1;T0:1 75.0 %") != std::string::npos;
    duration_noted |=
        n.find("sampled for 3.100 s; the samples sum to 4.000 s") != std::string::npos;
  }
  EXPECT_TRUE(threads_noted);
  EXPECT_TRUE(duration_noted);
}

}  // namespace
}  // namespace htpscope::lowering_profile_test
