// The main of every test program.  Each test process writes its files under a
// scratch directory of its own (::testing::TempDir(), TMPDIR for the commands
// it runs and for std::filesystem::temp_directory_path), removed when the
// process ends: a run of the suite leaves nothing behind in the system's temp
// directory, which thousands of runs would otherwise fill.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

namespace {

class ScratchDirectory {
 public:
  ScratchDirectory() {
    std::error_code error;
    const std::filesystem::path base = std::filesystem::temp_directory_path(error);
    std::string pattern =
        ((error ? std::filesystem::path("/tmp") : base) / "htpscope-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      std::perror("htpscope tests: cannot make a scratch directory; using the temp directory");
      return;
    }
    path_ = pattern;
    ::setenv("TEST_TMPDIR", path_.c_str(), 1);
    ::setenv("TMPDIR", path_.c_str(), 1);
  }
  ~ScratchDirectory() {
    if (path_.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

 private:
  std::string path_;
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ScratchDirectory scratch;
  return RUN_ALL_TESTS();
}
