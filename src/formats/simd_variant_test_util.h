// The test programs of the JSON structure scanner's SIMD variants
// (CMakeLists.txt: json_structure_avx2_tests, json_structure_avx512_tests)
// run json_structure_test.cc against a build of the scanner for instructions
// a portable build leaves out.  On a CPU without them each test is skipped
// (reported as such) before the scanner runs; in the main test program the
// check is empty.
#pragma once

#include <gtest/gtest.h>

#if defined(HTPSCOPE_SIMD_VARIANT)
#define SKIP_WITHOUT_THE_SIMD_VARIANTS_INSTRUCTIONS()                                           \
  do {                                                                                          \
    if (!(HTPSCOPE_SIMD_VARIANT_ON_THIS_CPU))                                                   \
      GTEST_SKIP() << "this CPU lacks the instructions of the " HTPSCOPE_SIMD_VARIANT " build"; \
  } while (false)
#else
#define SKIP_WITHOUT_THE_SIMD_VARIANTS_INSTRUCTIONS() \
  do {                                                \
  } while (false)
#endif
