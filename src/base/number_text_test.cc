#include "base/number_text.h"

#include <gtest/gtest.h>

#include <limits>

namespace htpscope::number_text_test {
namespace {

TEST(NumberText, GroupsDigitsOfCountsAndMeasures) {
  EXPECT_EQ(GroupDigits(0), "0");
  EXPECT_EQ(GroupDigits(-1234567), "-1,234,567");
  EXPECT_EQ(GroupDigits(std::numeric_limits<int64_t>::min()), "-9,223,372,036,854,775,808");
  // The steady-state median of four work-cycle figures (225,356 .. 250,357).
  EXPECT_EQ(FormatMeasure(239508.5, 1), "239,508.5");
  EXPECT_EQ(FormatMeasure(225356.0, 1), "225,356.0");
  EXPECT_EQ(FormatMeasure(-0.04, 1), "0.0");
  EXPECT_EQ(FormatMeasure(1126400.0, 0), "1,126,400");
  EXPECT_EQ(FormatFigure(1126400.0), "1,126,400");
  EXPECT_EQ(FormatFigure(1132.25), "1,132.25");
}

TEST(NumberText, SignificantDigitsWithoutAnExponent) {
  EXPECT_EQ(FormatSignificant(0.123456789, 6), "0.123457");
  EXPECT_EQ(FormatSignificant(3.0555555, 6), "3.05556");
  EXPECT_EQ(FormatSignificant(-0.98823529, 4), "-0.9882");
  EXPECT_EQ(FormatSignificant(2.5, 4), "2.5");
  EXPECT_EQ(FormatSignificant(4.0, 6), "4");
  EXPECT_EQ(FormatSignificant(0, 6), "0");
  // Where "%g" switches to an exponent.
  EXPECT_EQ(FormatSignificant(1126400.0, 4), "1,126,000");
  EXPECT_EQ(FormatSignificant(0.000012345, 4), "0.00001235");
  EXPECT_EQ(FormatSignificant(9.99996, 4), "10");
  EXPECT_EQ(FormatSignificant(1e-9, 6), "0.000000001");
  EXPECT_EQ(FormatSignificant(std::numeric_limits<double>::infinity(), 6), "inf");
}

}  // namespace
}  // namespace htpscope::number_text_test
