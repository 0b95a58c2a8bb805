#include "model/run.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/errors.h"
#include "formats/corpus_test_util.h"

namespace htpscope {
namespace {

namespace fs = std::filesystem;

TEST(LoadRun, V8c8DirectoryByContent) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  ProfiledRun run = LoadRun({testing_support::CorpusRun("v8c8_256")});
  EXPECT_TRUE(run.optrace && run.runtrace && run.htp_graph && run.qhas && run.profile);
  EXPECT_EQ(run.artifacts.size(), 5u);
  // The viewer config (JSON without a header) and the console log are not artifacts.
  ASSERT_EQ(run.skipped.size(), 2u);
  EXPECT_NE(run.skipped[0].find("_optrace_config.json: JSON that is not a run artifact"),
            std::string::npos);
  EXPECT_NE(run.skipped[1].find("optrace_run.log: not a recognised profiling artifact"),
            std::string::npos);
  EXPECT_EQ(run.ops.size(), 53u);
}

TEST(LoadRun, RecognisesArtifactsWhateverTheirNames) {
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  std::string dir = testing_support::TempDir("renamed");
  fs::copy_file(testing_support::CorpusFile("native_256", "chrometrace_runtrace.json"),
                dir + "/a.json");
  fs::copy_file(testing_support::CorpusFile("native_256", "chrometrace.json"), dir + "/b.txt");
  ProfiledRun run = LoadRun({dir + "/b.txt", dir + "/a.json"});
  EXPECT_TRUE(run.optrace.has_value());
  EXPECT_TRUE(run.runtrace.has_value());
  EXPECT_FALSE(run.qhas.has_value());
  EXPECT_EQ(run.ops.size(), 99u);
}

TEST(LoadRun, TwoTracesInOneDirectoryIsAnError) {
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  std::string dir = testing_support::TempDir("twotraces");
  fs::copy_file(testing_support::CorpusFile("native_256", "chrometrace.json"), dir + "/one.json");
  fs::copy_file(testing_support::CorpusFile("v8c8_256", "chrometrace.json"), dir + "/two.json");
  try {
    LoadRun({dir});
    FAIL() << "two optraces accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("a second optrace (OP_TRACE) artifact"), std::string::npos)
        << e.what();
  }
}

TEST(LoadRun, NamedFileThatIsNoArtifactIsAnError) {
  std::string dir = testing_support::TempDir("notartifact");
  std::ofstream(dir + "/notes.txt") << "just some notes\n";
  EXPECT_THROW(LoadRun({dir + "/notes.txt"}), InputError);
  EXPECT_THROW(LoadRun({dir + "/missing"}), InputError);
  // In a directory it is skipped; a run of nothing else is an error.
  try {
    LoadRun({dir});
    FAIL() << "a run without artifacts was read";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), dir);
    EXPECT_EQ(e.problem(), "no profiling artifact among the 1 file(s) read (skipped " + dir +
                               "/notes.txt: not a recognised profiling artifact)");
  }
}

}  // namespace
}  // namespace htpscope
