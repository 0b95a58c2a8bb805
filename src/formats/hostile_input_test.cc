// Every reader through the input layer on odd but legal input (a UTF-8 byte
// order mark, gzip with trailing bytes) and on artifacts cut short: the
// error is located at the cut, not at the start of the file.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <functional>
#include <optional>
#include <string>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "base/test_paths.h"
#include "formats/byte_source.h"
#include "formats/heap_profile.h"
#include "formats/htp_graph.h"
#include "formats/input_error_test_util.h"
#include "formats/optrace.h"
#include "formats/profile_text.h"
#include "formats/qhas.h"
#include "formats/runtrace.h"

namespace htpscope::hostile_input_test {
namespace {

const std::string kExample = std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run";
const std::string kBom = "\xEF\xBB\xBF";

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string Write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string WriteGzip(const std::string& path, const std::string& bytes) {
  gzFile gz = gzopen(path.c_str(), "wb");
  gzwrite(gz, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(gz);
  return path;
}

using testing_support::ErrorOf;

// One reader of the example run: its file and what it read, as a number a
// test can compare.
struct Reader {
  std::string name, file;
  std::function<size_t(const std::string&)> read;  // a count of what it read
};

std::vector<Reader> ExampleReaders() {
  return {
      {"optrace", "chrometrace.json",
       [](const std::string& p) { return ReadOptrace(p).slices.size(); }},
      {"runtrace", "chrometrace_runtrace.json",
       [](const std::string& p) { return ReadRuntrace(p).executions.size(); }},
      {"htp graph", "chrometrace_htp.json",
       [](const std::string& p) { return ReadHtpGraph(p).nodes.size(); }},
      {"qhas", "chrometrace_qnn_htp_analysis_summary.json",
       [](const std::string& p) { return ReadQhas(p).htp_op_instances.size(); }},
      {"profile text", "profile_text.txt",
       [](const std::string& p) { return ReadProfileText(p).raw.size(); }},
  };
}

TEST(HostileInput, EveryReaderAcceptsAByteOrderMarkPlainAndGzipped) {
  std::string dir = testing_support::TempDir("hostile_bom");
  for (const auto& r : ExampleReaders()) {
    SCOPED_TRACE(r.name);
    const std::string original = Slurp(kExample + "/" + r.file);
    const size_t expected = r.read(kExample + "/" + r.file);
    ASSERT_GT(expected, 0u);
    EXPECT_EQ(r.read(Write(dir + "/bom", kBom + original)), expected);
    EXPECT_EQ(r.read(WriteGzip(dir + "/bom.gz", kBom + original)), expected);
  }
  const std::string qnn_profile =
      R"({"header": {"artifact_type": "QNN_PROFILE"}, "messages": [{"method": "BACKEND_DEINIT",
       "profilingEvents": [{"identifier": "DSP:after_context_freed", "unit": "BYTES",
       "type": "DEINIT", "value": 4096}]}]})";
  HeapCheckpoints heap = ReadHeapCheckpoints(Write(dir + "/heap.json", kBom + qnn_profile));
  ASSERT_EQ(heap.checkpoints.size(), 1u);
  EXPECT_EQ(heap.checkpoints[0].value_bytes, 4096);
  EXPECT_EQ(ParseQnnProfileJson("p", kBom + qnn_profile).messages.size(), 1u);
  // The in-memory parses accept what the file reads accept.
  auto slurp = [](const char* file) { return kBom + Slurp(kExample + "/" + file); };
  const std::string optrace = slurp("chrometrace.json");
  EXPECT_EQ(ParseOptrace("p", optrace.data(), optrace.size()).slices.size(),
            ReadOptrace(kExample + "/chrometrace.json").slices.size());
  EXPECT_EQ(ParseRuntrace("p", slurp("chrometrace_runtrace.json")).executions.size(),
            ReadRuntrace(kExample + "/chrometrace_runtrace.json").executions.size());
  EXPECT_EQ(ParseHtpGraph("p", slurp("chrometrace_htp.json")).nodes.size(),
            ReadHtpGraph(kExample + "/chrometrace_htp.json").nodes.size());
  EXPECT_EQ(
      ParseQhas("p", slurp("chrometrace_qnn_htp_analysis_summary.json")).htp_op_instances.size(),
      ReadQhas(kExample + "/chrometrace_qnn_htp_analysis_summary.json").htp_op_instances.size());
}

// A JSON artifact cut short is an error at (about) the cut, whether the
// cut falls inside a string, a number or between tokens.
TEST(HostileInput, JsonCutShortIsLocatedAtTheCut) {
  std::string dir = testing_support::TempDir("hostile_cut");
  for (const auto& r : ExampleReaders()) {
    if (r.file == "profile_text.txt") continue;
    SCOPED_TRACE(r.name);
    const std::string original = Slurp(kExample + "/" + r.file);
    const size_t cut_at = std::min<size_t>(50000, original.size() * 2 / 3);
    for (size_t cut = cut_at; cut < cut_at + 40; ++cut) {
      SCOPED_TRACE(cut);
      std::string path = Write(dir + "/cut.json", original.substr(0, cut));
      auto error = ErrorOf([&] { r.read(path); });
      ASSERT_TRUE(error);
      EXPECT_EQ(error->file(), path);
      ASSERT_TRUE(error->byte_offset()) << error->what();
      EXPECT_LE(*error->byte_offset(), cut) << error->what();
      EXPECT_GE(*error->byte_offset() + 600, cut) << error->what();
    }
  }
}

TEST(HostileInput, InvalidUtf8AndRawControlCharactersAreLocated) {
  std::string dir = testing_support::TempDir("hostile_utf8");
  const std::string runtrace = Slurp(kExample + "/chrometrace_runtrace.json");
  const size_t name = runtrace.find("\"name\"", 2000) + 9;  // inside a name string
  for (const std::string& bad :
       {std::string("\xFF"), std::string("\xC0\xAF"), std::string("\xED\xA0\x80"),
        std::string("\x01"), std::string("\t")}) {
    SCOPED_TRACE(static_cast<int>(static_cast<unsigned char>(bad[0])));
    std::string damaged = runtrace;
    damaged.insert(name, bad);
    auto error = ErrorOf([&] { ReadRuntrace(Write(dir + "/bad.json", damaged)); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->byte_offset(), name) << error->what();
  }
}

TEST(HostileInput, GzipMemberFollowedByGarbageIsReadWithAWarning) {
  std::string dir = testing_support::TempDir("hostile_trailing");
  const std::string original = Slurp(kExample + "/chrometrace_runtrace.json");
  std::string gz = Slurp(WriteGzip(dir + "/r.json.gz", original));
  for (const std::string& tail :
       {std::string("\n"), std::string("garbage\n"), std::string(4096, '\0')}) {
    std::string path = Write(dir + "/r.json.gz", gz + tail);
    TakeInputWarnings(path);
    EXPECT_EQ(ReadRuntrace(path).executions.size(),
              ReadRuntrace(kExample + "/chrometrace_runtrace.json").executions.size());
    std::vector<std::string> notes = TakeInputWarnings(path);
    if (tail[0] == '\0') {
      EXPECT_TRUE(notes.empty());
    } else {
      ASSERT_EQ(notes.size(), 1u);
      EXPECT_NE(notes[0].find(
                    fmt::format("trailing garbage ignored: the bytes from byte {} on", gz.size())),
                std::string::npos)
          << notes[0];
    }
  }
}

}  // namespace
}  // namespace htpscope::hostile_input_test
