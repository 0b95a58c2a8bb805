#include "model/input_text.h"

#include <gtest/gtest.h>

#include <fstream>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "formats/input_error_test_util.h"

namespace htpscope::input_text_test {
namespace {

using testing_support::ErrorOf;

TEST(InputText, ByteOrderMarkIsDroppedFromTextAndBlankedBeforeJson) {
  std::string dir = testing_support::TempDir("input_text");
  std::ofstream(dir + "/dag.txt", std::ios::binary) << "\xEF\xBB\xBFInput -> conv_0\n";
  std::ofstream(dir + "/a.json", std::ios::binary) << "\xEF\xBB\xBF{\"x\": 1}";
  EXPECT_EQ(ReadInputText(dir + "/dag.txt"), "Input -> conv_0\n");
  EXPECT_EQ(ReadInputText(dir + "/a.json"), "   {\"x\": 1}");
}

TEST(InputText, DevicesAndDirectoriesAreRefusedByName) {
  std::string dir = testing_support::TempDir("input_text_refused");
  auto zero = ErrorOf([] { ReadInputText("/dev/zero"); });
  ASSERT_TRUE(zero);
  EXPECT_EQ(zero->what(), std::string("/dev/zero: is a character device, not a file"));
  auto directory = ErrorOf([&] { ReadInputText(dir); });
  ASSERT_TRUE(directory);
  EXPECT_EQ(directory->problem(), "is a directory, not a file");
}

}  // namespace
}  // namespace htpscope::input_text_test
