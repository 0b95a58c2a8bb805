#include "formats/input_files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>

#include "base/corpus_test_util.h"
#include "formats/input_error_test_util.h"

namespace htpscope::input_files_test {
namespace {

namespace fs = std::filesystem;

using testing_support::ErrorOf;

struct Expanded {
  std::vector<RunInputFile> files;
  std::vector<std::string> skipped, warnings;
};

Expanded Expand(const std::vector<std::string>& inputs) {
  Expanded e;
  e.files = ExpandRunInputs(inputs, &e.skipped, &e.warnings);
  return e;
}

TEST(RunInputs, DirectoryGivesItsRegularFilesSortedAndReportsTheRestByName) {
  std::string dir = testing_support::TempDir("run_inputs");
  std::ofstream(dir + "/b.json") << "{}";
  std::ofstream(dir + "/a.json") << "{}";
  fs::create_symlink(dir + "/a.json", dir + "/c_link.json");
  fs::create_symlink(dir + "/gone.json", dir + "/d_dangling.json");
  fs::create_symlink(dir + "/e_loop", dir + "/e_loop");
  ASSERT_EQ(::mkfifo((dir + "/f_fifo").c_str(), 0600), 0);
  fs::create_directory(dir + "/sub");
  Expanded e = Expand({dir});
  ASSERT_EQ(e.files.size(), 3u);
  EXPECT_EQ(e.files[0].path, dir + "/a.json");
  EXPECT_EQ(e.files[1].path, dir + "/b.json");
  EXPECT_EQ(e.files[2].path, dir + "/c_link.json");
  EXPECT_FALSE(e.files[0].named);
  ASSERT_EQ(e.warnings.size(), 3u);
  EXPECT_EQ(e.warnings[0], dir + "/d_dangling.json: not read: a dangling symbolic link (to \"" +
                               dir + "/gone.json\", which does not exist)");
  EXPECT_EQ(e.warnings[1], dir +
                               "/e_loop: not read: a symbolic link loop (too many levels of "
                               "symbolic links)");
  EXPECT_EQ(e.warnings[2], dir + "/f_fifo: not read: a named pipe (FIFO)");
  ASSERT_EQ(e.skipped.size(), 1u);
  EXPECT_EQ(e.skipped[0], dir + "/sub: a directory (run directories are not read recursively)");
}

TEST(RunInputs, EmptyDirectoryOrOneWithoutFilesIsAnErrorNamingIt) {
  std::string dir = testing_support::TempDir("run_inputs_empty");
  auto empty = ErrorOf([&] { Expand({dir}); });
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->file(), dir);
  EXPECT_EQ(empty->problem(), "an empty directory: no profiling artifacts to read");
  fs::create_directory(dir + "/sub");
  fs::create_symlink(dir + "/gone", dir + "/dangling");
  auto no_files = ErrorOf([&] { Expand({dir}); });
  ASSERT_TRUE(no_files);
  EXPECT_EQ(no_files->problem(),
            "a directory without regular files (1 subdirectory, 1 other entry): no profiling "
            "artifacts to read");
}

TEST(RunInputs, NamedFilesPassThroughAndMissingOnesAreErrors) {
  std::string dir = testing_support::TempDir("run_inputs_named");
  std::ofstream(dir + "/a.json") << "{}";
  fs::create_symlink(dir + "/gone.json", dir + "/dangling.json");
  fs::create_symlink(dir + "/loop", dir + "/loop");
  Expanded e = Expand({dir + "/a.json", "-", "/dev/zero"});
  ASSERT_EQ(e.files.size(), 3u);
  EXPECT_TRUE(e.files[0].named);
  EXPECT_EQ(e.files[1].path, "/dev/stdin");
  EXPECT_EQ(e.files[2].path, "/dev/zero");  // refused by name when opened
  auto missing = ErrorOf([&] { Expand({dir + "/absent.json"}); });
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->problem(), "no such file or directory");
  auto dangling = ErrorOf([&] { Expand({dir + "/dangling.json"}); });
  ASSERT_TRUE(dangling);
  EXPECT_NE(dangling->problem().find("a dangling symbolic link"), std::string::npos);
  auto loop = ErrorOf([&] { Expand({dir + "/loop"}); });
  ASSERT_TRUE(loop);
  EXPECT_EQ(loop->file(), dir + "/loop");
  EXPECT_NE(loop->problem().find("symbolic link loop"), std::string::npos);
}

TEST(RunInputs, OutOfMemoryWhileReadingNamesTheFile) {
  auto error = ErrorOf(
      [] { ReadNamingFileOnOutOfMemory("big.json", []() -> int { throw std::bad_alloc(); }); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->file(), "big.json");
  EXPECT_NE(error->problem().find("ran out of memory while reading it"), std::string::npos);
  EXPECT_NE(error->problem().find("HTPSCOPE_MAX_IN_MEMORY_BYTES"), std::string::npos);
  EXPECT_EQ(ReadNamingFileOnOutOfMemory("x", [] { return 7; }), 7);
}

}  // namespace
}  // namespace htpscope::input_files_test
