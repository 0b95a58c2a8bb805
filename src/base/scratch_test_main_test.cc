#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

namespace htpscope::scratch_test_main_test {

// The test main (scratch_test_main.cc) points every temp path of this process
// at one fresh directory of its own, which it removes at exit.
TEST(ScratchTestMain, TempPathsOfThisProcessShareOneFreshDirectory) {
  const std::string temp_dir = ::testing::TempDir();
  const char* tmpdir = std::getenv("TMPDIR");
  ASSERT_NE(tmpdir, nullptr);
  EXPECT_EQ(temp_dir, std::string(tmpdir) + "/");
  EXPECT_EQ(std::filesystem::temp_directory_path(), std::filesystem::path(tmpdir));
  EXPECT_EQ(std::filesystem::path(tmpdir).filename().string().rfind("htpscope-test-", 0), 0u)
      << tmpdir;
  EXPECT_TRUE(std::filesystem::is_directory(tmpdir));
}

}  // namespace htpscope::scratch_test_main_test
