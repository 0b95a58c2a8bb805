#include "model/tables.h"

#include <gtest/gtest.h>

namespace htpscope::tables_test {
namespace {

// The classifier gives ClassifyOp's verdict for every triple, the flags
// included: one HTP type is system service under dma_wait and boundary
// or compute without it.
TEST(OpClassifier, GivesClassifyOpsVerdictForEachTriple) {
  StringPool strings;
  const StringId slice = strings.Intern("InputSlice"), conv = strings.Intern("ConvLayer.opt"),
                 qnn_conv = strings.Intern("Conv2d");
  OpClassifier classify(strings);
  for (int round = 0; round < 2; ++round) {  // the second round is answered from the cache
    for (StringId htp : {slice, conv})
      for (uint8_t flags : {uint8_t{0}, uint8_t{kFlagDmaWait}, uint8_t{kFlagUsesHmx}})
        EXPECT_EQ(classify(htp, qnn_conv, flags),
                  ClassifyOp(strings.View(htp), strings.View(qnn_conv), flags));
  }
  EXPECT_EQ(classify(conv, qnn_conv, kFlagDmaWait), OpCategory::kSystemService);
  EXPECT_EQ(classify(conv, qnn_conv, kFlagUsesHmx), OpCategory::kCompute);
}

}  // namespace
}  // namespace htpscope::tables_test
