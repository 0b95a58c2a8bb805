// The readers add what they consume to base/read_progress.h: every file byte
// once (compressed bytes for gzip), the kind-recognising prefix read not at
// all, and a run's inputs announce their sizes.
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/corpus_test_util.h"
#include "base/read_progress.h"
#include "formats/byte_source.h"
#include "formats/input_files.h"

namespace htpscope::read_progress_count_test {
namespace {

uint64_t FileSize(const std::string& path) { return std::filesystem::file_size(path); }

std::string Write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string WriteGzip(const std::string& path, const std::string& content) {
  gzFile gz = gzopen(path.c_str(), "wb");
  gzwrite(gz, content.data(), static_cast<unsigned>(content.size()));
  gzclose(gz);
  return path;
}

// 300,000 bytes of text that compress well but not to nothing.
std::string Content() {
  std::string s;
  for (int i = 0; s.size() < 300000; ++i) s += "line " + std::to_string(i * 7919 % 100003) + "\n";
  s.resize(300000);
  return s;
}

TEST(ReadProgressCount, StreamedPlainAndGzipFilesCountTheirFileBytesOnce) {
  std::string dir = testing_support::TempDir("read_progress_count");
  std::string plain = Write(dir + "/plain.txt", Content());
  std::string packed = WriteGzip(dir + "/packed.txt.gz", Content());
  for (const std::string& path : {plain, packed}) {
    read_progress::Reset();
    EXPECT_EQ(ReadPrefix(path, 4096).size(), 4096u);
    EXPECT_EQ(read_progress::Now().bytes_read, 0u) << path;  // the prefix is not counted
    auto source = OpenByteSource(path);
    std::string buffer(10000, '\0');
    uint64_t inflated = 0;
    while (size_t n = source->Read(buffer.data(), buffer.size())) inflated += n;
    EXPECT_EQ(inflated, 300000u);
    EXPECT_EQ(read_progress::Now().bytes_read, FileSize(path)) << path;
  }
  EXPECT_LT(FileSize(packed), 300000u);  // so the gzip case counts file bytes, not inflated ones
}

TEST(ReadProgressCount, WholeFileReadsCountTheFile) {
  std::string dir = testing_support::TempDir("read_progress_whole");
  std::string plain = Write(dir + "/plain.txt", Content());
  std::string packed = WriteGzip(dir + "/packed.txt.gz", Content());
  read_progress::Reset();
  EXPECT_EQ(ReadWholeFile(plain).bytes.size(), 300000u);
  EXPECT_EQ(read_progress::Now().bytes_read, 300000u);
  read_progress::Reset();
  EXPECT_EQ(ReadWholeFile(packed).bytes.size(), 300000u);
  EXPECT_EQ(read_progress::Now().bytes_read, FileSize(packed));
}

TEST(ReadProgressCount, RunInputsAnnounceTheirSizesAndStandardInputHasNone) {
  std::string dir = testing_support::TempDir("read_progress_inputs");
  Write(dir + "/a.json", std::string(1234, ' '));
  Write(dir + "/b.txt", std::string(766, ' '));
  std::vector<std::string> skipped, warnings;
  read_progress::Reset();
  ExpandRunInputs({dir}, &skipped, &warnings);
  EXPECT_EQ(read_progress::Now().bytes_expected, 2000u);
  EXPECT_TRUE(read_progress::Now().total_known);
  ExpandRunInputs({"-"}, &skipped, &warnings);
  EXPECT_FALSE(read_progress::Now().total_known);
  read_progress::Reset();
}

}  // namespace
}  // namespace htpscope::read_progress_count_test
