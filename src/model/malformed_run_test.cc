// Malformed runs: directories whose files are damaged, ambiguous, or from
// different runs.  Loading names the offending file; what cannot be told
// apart is an error, what can still be read is read with a warning.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "model/fake_qhas_test_util.h"
#include "model/fake_run_test_util.h"
#include "model/run.h"

namespace htpscope::malformed_run_test {
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

TEST(MalformedRun, CorpusTwoOfAKindInOneDirectoryNamesBothFiles) {
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

TEST(MalformedRun, CorpusTruncatedArtifactInADirectoryIsALocatedError) {
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

TEST(MalformedRun, CorpusGzipCutShortInADirectoryIsAnError) {
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

TEST(MalformedRun, CorpusQhasFromAnotherRunIsRefusedUnlessAllowed) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  // Which run a QHAS belongs to is told by its op IDs: none of this one's
  // occur in the optrace.
  std::string dir = testing_support::TempDir("otherqhas");
  fs::copy_file(testing_support::CorpusFile("v8c8_256", "chrometrace.json"),
                dir + "/chrometrace.json");
  Write(dir + "/summary.json", kQhasOfAnotherRun);
  try {
    LoadRun({dir});
    FAIL() << "a QHAS of another run was joined";
  } catch (const MismatchedArtifactsError& e) {
    EXPECT_EQ(e.file(), dir + "/summary.json");
    EXPECT_NE(e.problem().find("0 of 1 QHAS op IDs occur in the optrace chrometrace.json"),
              std::string::npos)
        << e.what();
  }
  LoadOptions allow;
  allow.allow_mismatch = true;
  htpscope::Run run = LoadRun({dir}, allow);
  ASSERT_TRUE(run.Has(ArtifactKind::kOptrace) && run.Has(ArtifactKind::kQhas));
  EXPECT_TRUE(std::any_of(run.warnings.begin(), run.warnings.end(), [](const WarningRow& w) {
    return w.code == WarningCode::mismatched_artifacts;
  }));
}

// native_256's optrace beside chain8's compiled graph: only 2 of the graph's
// 29 node IDs occur in the optrace.
TEST(MalformedRun, CorpusHtpGraphOfAnotherRunIsRefusedWithTheEvidence) {
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  HTPSCOPE_REQUIRE_CORPUS("chain8_archive");
  std::string dir = testing_support::TempDir("othergraph");
  fs::copy_file(testing_support::CorpusFile("native_256", "chrometrace.json"),
                dir + "/chrometrace.json");
  fs::copy_file(testing_support::CorpusFile("chain8_archive", "chrometrace_htp.json"),
                dir + "/chrometrace_htp.json");
  try {
    LoadRun({dir});
    FAIL() << "an HTP graph of another run was joined";
  } catch (const MismatchedArtifactsError& e) {
    EXPECT_EQ(e.file(), dir + "/chrometrace_htp.json");
    EXPECT_NE(e.problem().find("2 of 29 HTP graph node IDs occur in the optrace"),
              std::string::npos)
        << e.what();
  }
  LoadOptions allow;
  allow.allow_mismatch = true;
  htpscope::Run run = LoadRun({dir}, allow);
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_EQ(WarningName(run.warnings[0].code), "mismatched_artifacts");
  EXPECT_NE(run.warnings[0].message.find("2 of 29 HTP graph node IDs"), std::string::npos);
}

// The runtrace's Graph Execute windows must hold the optrace's cycles.
TEST(MalformedRun, CorpusRuntraceOfAnotherRunIsRefused) {
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  std::string dir = testing_support::TempDir("otherruntrace");
  fs::copy_file(testing_support::CorpusFile("native_256", "chrometrace.json"),
                dir + "/chrometrace.json");
  fs::copy_file(testing_support::CorpusFile("v8c8_256", "chrometrace_runtrace.json"),
                dir + "/chrometrace_runtrace.json");
  try {
    LoadRun({dir});
    FAIL() << "a runtrace of another run was joined";
  } catch (const MismatchedArtifactsError& e) {
    EXPECT_EQ(e.file(), dir + "/chrometrace_runtrace.json");
    EXPECT_NE(e.problem().find("lie in none of its Graph Execute windows"), std::string::npos)
        << e.what();
  }
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
}  // namespace htpscope::malformed_run_test

namespace htpscope::malformed_run_test {
namespace {

// Twelve slices of 9·10^17 cycles, each within bounds, sum past 2^63: the
// work figure would wrap to a negative number, so the run is refused.
TEST(MalformedRun, CyclesSummingPast2To63AreAnErrorNotAWrappedFigure) {
  std::vector<testing_support::FakeSlice> slices;
  for (int i = 0; i < 12; ++i)
    slices.push_back({static_cast<uint64_t>(0x100 + i), "big", "q::Conv", "uses_hvx",
                      static_cast<uint32_t>(512 + i % 4), 0, 900000000000000000LL});
  try {
    testing_support::FakeRun(testing_support::OptraceJson(slices), "");
    FAIL() << "a wrapped sum was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(e.file().find("fake_trace.json"), std::string::npos) << e.what();
    EXPECT_NE(e.problem().find("sum past 2^63"), std::string::npos) << e.what();
  }
}

// The same refusal while the HTP graph of the run is still being imported
// beside the optrace: the error comes out whole, the graph's import is
// waited for (ASan would see its writes into a freed run).
TEST(MalformedRun, TheOptracesErrorWaitsForTheGraphImportedBesideIt) {
  std::vector<testing_support::FakeSlice> slices;
  std::vector<testing_support::FakeNode> nodes;
  for (int i = 0; i < 12; ++i)
    slices.push_back({static_cast<uint64_t>(0x100 + i), "big", "q::Conv", "uses_hvx",
                      static_cast<uint32_t>(512 + i % 4), 0, 900000000000000000LL});
  for (uint64_t i = 0; i < 20000; ++i) nodes.push_back({0x100 + i, "Conv", "big", {}});
  try {
    testing_support::FakeRun(testing_support::OptraceJson(slices),
                             testing_support::HtpGraphJson(nodes, {}));
    FAIL() << "a wrapped sum was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(e.file().find("fake_trace.json"), std::string::npos) << e.what();
    EXPECT_NE(e.problem().find("sum past 2^63"), std::string::npos) << e.what();
  }
}

// QHAS op instances are checked in one pass, their problems reported in a
// fixed order whatever rows they sit in: a cycles sum past 2^63 before an
// instance ending past the largest cycle count, and of those the first row.
TEST(MalformedRun, QhasInstanceProblemsComeInAFixedOrder) {
  using testing_support::FakeQhasInstance;
  const int64_t kNearMax = INT64_MAX - 5;
  std::vector<FakeQhasInstance> ends_past = {
      {0x10, "Conv", "a", "hvx", 512, 0, 100},
      {0x20, "Conv", "b", "hvx", 512, kNearMax, 10},  // the first row ending past
      {0x30, "Conv", "c", "hvx", 513, kNearMax, 20},
  };
  const testing_support::FakeQhasCore core{0, 1000, 0, {{"HVX", 512, 100}}, {}};
  auto error = ErrorOf(
      [&] { testing_support::FakeRun("", "", testing_support::FakeQhasJson({core}, ends_past)); });
  ASSERT_TRUE(error);
  EXPECT_NE(
      error->problem().find("op instance 0x0000000000000020 ends past the largest cycle count"),
      std::string::npos)
      << error->what();
  // Two rows whose cycles sum past 2^63, after the rows ending past.
  std::vector<FakeQhasInstance> both = ends_past;
  both.push_back({0x40, "Conv", "d", "hvx", 512, 0, 6000000000000000000});
  both.push_back({0x50, "Conv", "e", "hvx", 512, 0, 6000000000000000000});
  error = ErrorOf(
      [&] { testing_support::FakeRun("", "", testing_support::FakeQhasJson({core}, both)); });
  ASSERT_TRUE(error);
  EXPECT_NE(error->problem().find("the op instances' cycles sum past 2^63"), std::string::npos)
      << error->what();
}

// Rows of two cores interleaved: each core's listed rows are counted, so the
// lists read as complete (htp_nodes says how many each core has).
TEST(MalformedRun, QhasRowsOfInterleavedCoresAreCountedPerCore) {
  using testing_support::FakeQhasInstance;
  std::vector<FakeQhasInstance> rows;
  for (int i = 0; i < 7; ++i) {
    FakeQhasInstance r{static_cast<uint64_t>(0x100 + i), "Conv", "op", "hvx", 512, 10 * i, 5};
    r.htp = i % 3 == 0 ? 1 : 0;  // cores 1, 0, 0, 1, 0, 0, 1
    rows.push_back(r);
  }
  htpscope::Run run = testing_support::FakeRun(
      "", "",
      testing_support::FakeQhasJson(
          {{0, 100, 0, {{"HVX", 512, 20}}, {}}, {1, 100, 0, {{"HVX", 512, 15}}, {}}}, rows));
  ASSERT_EQ(run.qhas_cores.size(), 2u);
  EXPECT_EQ(run.qhas_cores[0].listed_htp_nodes, 4);
  EXPECT_EQ(run.qhas_cores[1].listed_htp_nodes, 3);
  EXPECT_TRUE(run.qhas_cores[0].lists_complete);
  EXPECT_TRUE(run.qhas_cores[1].lists_complete);
}

// The profile is imported on its reader's thread; its import error is still
// the one importing after the reads gives: after a QHAS file's own.
TEST(MalformedRun, AProfilesImportErrorComesAfterTheQhasImportError) {
  const std::string profile = R"(qnn-profile-viewer: v2.45.0.260326154327

Execute Stats: 

Execute Stat 1

Accelerator (execute) time (cycles) : 1000  cycles
    a:OpId_2 (cycles) : 6000000000000000000  cycles
    b:OpId_3 (cycles) : 6000000000000000000  cycles
)";
  const std::string dir = testing_support::TempDir("profile_import_error");
  testing_support::WriteTestFile(dir + "/profile.txt", profile);
  auto error = ErrorOf([&] { LoadRun({dir + "/profile.txt"}); });
  ASSERT_TRUE(error);
  EXPECT_NE(error->file().find("profile.txt"), std::string::npos) << error->what();
  EXPECT_NE(error->problem().find("a block's per-node cycles sum past 2^63"), std::string::npos)
      << error->what();
  // With a QHAS file whose cycles sum past 2^63 too, listed after the profile.
  testing_support::WriteTestFile(
      dir + "/qhas.json",
      testing_support::FakeQhasJson({{0, 1000, 0, {{"HVX", 512, 100}}, {}}},
                                    {{0x40, "Conv", "d", "hvx", 512, 0, 6000000000000000000},
                                     {0x50, "Conv", "e", "hvx", 512, 0, 6000000000000000000}}));
  error = ErrorOf([&] { LoadRun({dir + "/profile.txt", dir + "/qhas.json"}); });
  ASSERT_TRUE(error);
  EXPECT_NE(error->file().find("qhas.json"), std::string::npos) << error->what();
}

// The optrace is imported on its reader's thread while later files are
// still read; its import error still comes after every read's, as
// importing after the reads gives it: a QHAS file cut short, listed after
// the overflowing optrace, is the error reported.
TEST(MalformedRun, AReadErrorComesBeforeTheOptracesImportError) {
  std::vector<testing_support::FakeSlice> slices;
  for (int i = 0; i < 12; ++i)
    slices.push_back({static_cast<uint64_t>(0x100 + i), "big", "q::Conv", "uses_hvx",
                      static_cast<uint32_t>(512 + i % 4), 0, 900000000000000000LL});
  const std::string cut_qhas =
      R"({"header": {"artifact_type": "QHAS"}, "data": {"htp_op_instances": {"data": [{"op_id": )";
  auto error = ErrorOf(
      [&] { testing_support::FakeRun(testing_support::OptraceJson(slices), "", cut_qhas); });
  ASSERT_TRUE(error);
  EXPECT_NE(error->file().find("fake_qhas.json"), std::string::npos) << error->what();
  // Without the QHAS file the optrace's own error is the one.
  error = ErrorOf([&] { testing_support::FakeRun(testing_support::OptraceJson(slices), ""); });
  ASSERT_TRUE(error);
  EXPECT_NE(error->problem().find("sum past 2^63"), std::string::npos) << error->what();
}

}  // namespace
}  // namespace htpscope::malformed_run_test
