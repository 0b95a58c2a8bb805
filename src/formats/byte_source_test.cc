#include "formats/byte_source.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>

#include "base/corpus_test_util.h"
#include "base/errors.h"

namespace htpscope {
namespace {

std::string WriteGzip(const std::string& path, const std::string& content,
                      const char* mode = "wb") {
  gzFile gz = gzopen(path.c_str(), mode);
  gzwrite(gz, content.data(), static_cast<unsigned>(content.size()));
  gzclose(gz);
  return path;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(ByteSource, PlainAndGzipGiveTheSameBytes) {
  std::string dir = testing_support::TempDir("bytes");
  std::string content;
  for (int i = 0; i < 200000; ++i) content += std::to_string(i * 7919 % 1000) + ",";
  { std::ofstream(dir + "/plain") << content; }
  WriteGzip(dir + "/packed", content);
  LoadedFile plain = ReadWholeFile(dir + "/plain");
  LoadedFile packed = ReadWholeFile(dir + "/packed");
  EXPECT_FALSE(plain.compressed);
  EXPECT_TRUE(packed.compressed);
  EXPECT_EQ(std::string(plain.bytes.data(), plain.bytes.size()), content);
  EXPECT_EQ(std::string(packed.bytes.data(), packed.bytes.size()), content);
  EXPECT_EQ(ReadPrefix(dir + "/packed", 10), content.substr(0, 10));
}

TEST(ByteSource, ConcatenatedGzipMembersAreAllRead) {
  std::string dir = testing_support::TempDir("members");
  WriteGzip(dir + "/a", "hello ");
  WriteGzip(dir + "/b", "world");
  std::ofstream(dir + "/ab", std::ios::binary) << ReadAll(dir + "/a") << ReadAll(dir + "/b");
  LoadedFile f = ReadWholeFile(dir + "/ab");
  EXPECT_EQ(std::string(f.bytes.data(), f.bytes.size()), "hello world");
}

TEST(ByteSource, TruncatedAndCorruptGzipAreErrorsNotShortData) {
  std::string dir = testing_support::TempDir("corrupt");
  std::string content(100000, 'x');
  for (size_t i = 0; i < content.size(); i += 7) content[i] = static_cast<char>('a' + i % 26);
  std::string gz = ReadAll(WriteGzip(dir + "/full", content));
  std::ofstream(dir + "/cut", std::ios::binary) << gz.substr(0, gz.size() / 2);
  try {
    ReadWholeFile(dir + "/cut");
    FAIL() << "truncated gzip accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
    EXPECT_EQ(e.file(), dir + "/cut");
  }
  std::string corrupt = gz;
  for (size_t i = 20; i < 60; ++i) corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5a);
  std::ofstream(dir + "/bad", std::ios::binary) << corrupt;
  EXPECT_THROW(ReadWholeFile(dir + "/bad"), InputError);
  EXPECT_THROW(ReadWholeFile(dir + "/does-not-exist"), InputError);
}

}  // namespace
}  // namespace htpscope
