// Malformed runs: directories whose files are damaged, ambiguous, or from
// different runs.  Loading names the offending file; what cannot be told
// apart is an error, what can still be read is read with a warning.
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>

#include "base/errors.h"
#include "formats/corpus_test_util.h"
#include "model/run.h"

namespace htpscope {
namespace {

namespace fs = std::filesystem;

constexpr const char* kQhasOfAnotherRun = R"({"header": {"artifact_type": "QHAS"},
 "data": {"htp_op_instances": {"data": [{"op_id": "0x00000000deadbeef", "cycles": 5}]}}})";

std::optional<InputError> ErrorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void Write(const std::string& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

TEST(MalformedRun, TwoOfAKindInOneDirectoryNamesBothFiles) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  for (const std::string file :
       {"chrometrace.json", "chrometrace_runtrace.json", "chrometrace_htp.json",
        "chrometrace_qnn_htp_analysis_summary.json"}) {
    SCOPED_TRACE(file);
    std::string dir = testing_support::TempDir("twokind");
    fs::copy_file(testing_support::CorpusFile("v8c8_256", file), dir + "/a_" + file);
    fs::copy_file(testing_support::CorpusFile("native_256", file), dir + "/b_" + file);
    auto error = ErrorOf([&] { LoadRun({dir}); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->file(), dir + "/b_" + file);
    EXPECT_NE(error->problem().find("(the first is " + dir + "/a_" + file + ")"), std::string::npos)
        << error->what();
    EXPECT_NE(error->problem().find("give the files of one run explicitly"), std::string::npos);
  }
}

TEST(MalformedRun, TruncatedArtifactInADirectoryIsALocatedError) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  std::string dir = testing_support::TempDir("truncrun");
  std::string trace = Slurp(testing_support::CorpusFile("v8c8_256", "chrometrace.json"));
  Write(dir + "/chrometrace.json", trace.substr(0, trace.size() / 3));
  fs::copy_file(testing_support::CorpusFile("v8c8_256", "chrometrace_runtrace.json"),
                dir + "/chrometrace_runtrace.json");
  auto error = ErrorOf([&] { LoadRun({dir}); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->file(), dir + "/chrometrace.json");
  ASSERT_TRUE(error->byte_offset());
  EXPECT_LE(*error->byte_offset(), trace.size() / 3);
}

TEST(MalformedRun, GzipCutShortInADirectoryIsAnError) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  std::string dir = testing_support::TempDir("gzrun");
  std::string trace = Slurp(testing_support::CorpusFile("v8c8_256", "chrometrace_runtrace.json"));
  gzFile gz = gzopen((dir + "/full.gz").c_str(), "wb");
  gzwrite(gz, trace.data(), static_cast<unsigned>(trace.size()));
  gzclose(gz);
  std::string packed = Slurp(dir + "/full.gz");
  fs::remove(dir + "/full.gz");
  // Copied while still being written: the header (and so the kind) is there, the end is not.
  Write(dir + "/runtrace.json.gz", packed.substr(0, packed.size() / 2));
  auto error = ErrorOf([&] { LoadRun({dir}); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->file(), dir + "/runtrace.json.gz");
  EXPECT_NE(error->problem().find("gzip stream is truncated"), std::string::npos) << error->what();
}

TEST(MalformedRun, QhasFromAnotherRunStillLoads) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  // Which run a QHAS belongs to is only told by its op IDs; the summary
  // flags the mismatch (qhas_mismatch, checked at the CLI level).
  std::string dir = testing_support::TempDir("otherqhas");
  fs::copy_file(testing_support::CorpusFile("v8c8_256", "chrometrace.json"),
                dir + "/chrometrace.json");
  Write(dir + "/summary.json", kQhasOfAnotherRun);
  ProfiledRun run = LoadRun({dir});
  ASSERT_TRUE(run.optrace && run.qhas);
  EXPECT_EQ(run.qhas->htp_op_instances.size(), 1u);
}

TEST(MalformedRun, EmptyAndUnreadableFiles) {
  std::string dir = testing_support::TempDir("emptyrun");
  Write(dir + "/empty.json", "");
  // Inside a directory an empty file is no artifact: skipped and listed (in
  // the error, as the run has nothing else).
  auto error = ErrorOf([&] { LoadRun({dir}); });
  ASSERT_TRUE(error);
  EXPECT_NE(error->problem().find("empty.json: not a recognised profiling artifact"),
            std::string::npos)
      << error->what();
  // Named explicitly it is an error.
  error = ErrorOf([&] { LoadRun({dir + "/empty.json"}); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->file(), dir + "/empty.json");
  // A JSON artifact header followed by nothing usable.
  Write(dir + "/cut.json", R"({"header": {"artifact_type": "OP_TRACE"}, "traceEvents": [{"ph)");
  error = ErrorOf([&] { LoadRun({dir + "/cut.json"}); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->file(), dir + "/cut.json");
  ASSERT_TRUE(error->byte_offset());
  error = ErrorOf([&] { LoadRun({dir + "/no-such-file.json"}); });
  ASSERT_TRUE(error);
  EXPECT_NE(error->problem().find("no such file or directory"), std::string::npos);
}

}  // namespace
}  // namespace htpscope
