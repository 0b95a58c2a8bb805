#include "formats/byte_source.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "formats/byte_source_open.h"
#include "formats/input_error_test_util.h"

namespace htpscope::byte_source_test {
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

std::string WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// The gzip encoding of `content`, one member.
std::string Gzipped(const std::string& content) {
  std::string dir = testing_support::TempDir("gzipped");
  return ReadAll(WriteGzip(dir + "/g", content));
}

using testing_support::ErrorOf;

std::string Text(const LoadedFile& f) { return std::string(f.bytes.data(), f.bytes.size()); }

// The bytes of `path` as streamed in blocks of `block` bytes.
std::string Streamed(const std::string& path, size_t block) {
  auto source = OpenByteSource(path);
  std::string out, buffer(block, '\0');
  while (size_t n = source->Read(buffer.data(), block)) out.append(buffer.data(), n);
  return out;
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
  EXPECT_EQ(Text(plain), content);
  EXPECT_EQ(Text(packed), content);
  EXPECT_EQ(ReadPrefix(dir + "/packed", 10), content.substr(0, 10));
  for (size_t block : {1u, 7u, 4096u, 1u << 20}) {
    EXPECT_EQ(Streamed(dir + "/packed", block), content) << block;
    EXPECT_EQ(Streamed(dir + "/plain", block), content) << block;
  }
}

TEST(ByteSource, ConcatenatedGzipMembersAreAllRead) {
  std::string dir = testing_support::TempDir("members");
  WriteGzip(dir + "/a", "hello ");
  WriteGzip(dir + "/b", "world");
  std::ofstream(dir + "/ab", std::ios::binary) << ReadAll(dir + "/a") << ReadAll(dir + "/b");
  LoadedFile f = ReadWholeFile(dir + "/ab");
  EXPECT_EQ(Text(f), "hello world");
  EXPECT_TRUE(f.warnings.empty());
  // An empty member in between and at the end changes nothing.
  WriteBytes(dir + "/a0b0", Gzipped("hello ") + Gzipped("") + Gzipped("world") + Gzipped(""));
  EXPECT_EQ(Text(ReadWholeFile(dir + "/a0b0")), "hello world");
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

// What follows the last member, as GNU gzip 1.12 (gzip -t / gzip -d) takes
// it: zero padding silently, other bytes "trailing garbage ignored" (a
// warning, the data kept), bytes starting with the magic a member that must
// be whole.
TEST(ByteSource, BytesAfterTheLastGzipMemberFollowGzip) {
  std::string dir = testing_support::TempDir("trailing");
  const std::string member = Gzipped("{\"a\": 1}\n");
  const uint64_t end = member.size();
  struct Case {
    std::string name, tail;
    bool ok;
    bool warned;
    std::string error;  // part of the message when not ok
    uint64_t offset;    // of the warning's first garbage byte, or of the error
  };
  const std::vector<Case> cases = {
      {"nothing", "", true, false, "", 0},
      {"newline", "\n", true, true, "", end},
      {"two newlines", "\n\n", true, true, "", end},
      {"crlf", "\r\n", true, true, "", end},
      {"text", "garbage", true, true, "", end},
      {"one zero", std::string(1, '\0'), true, false, "", 0},
      {"zero padding", std::string(10000, '\0'), true, false, "", 0},
      {"zeros then newline", std::string(3, '\0') + "\n", true, true, "", end},
      {"magic byte then other", "\x1fx", true, true, "", end},
      {"magic byte alone", "\x1f", false, false, "header of another gzip member", end + 1},
      {"magic alone", "\x1f\x8b", false, false, "truncated", end + 2},
      {"bad method", "\x1f\x8bxx", false, false, "unknown compression method", end + 2},
      {"member cut", Gzipped("more").substr(0, 12), false, false, "truncated", end + 12},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::string path = WriteBytes(dir + "/f.gz", member + c.tail);
    TakeInputWarnings(path);
    if (c.ok) {
      LoadedFile f = ReadWholeFile(path);
      EXPECT_EQ(Text(f), "{\"a\": 1}\n");
      ASSERT_EQ(f.warnings.size(), c.warned ? 1u : 0u);
      if (c.warned) {
        EXPECT_NE(f.warnings[0].find("trailing garbage ignored"), std::string::npos);
        EXPECT_NE(f.warnings[0].find(fmt::format("from byte {} on", c.offset)), std::string::npos)
            << f.warnings[0];
        // Noted for the run, once however often the file is read.
        ReadWholeFile(path);
        EXPECT_EQ(TakeInputWarnings(path), f.warnings);
        EXPECT_TRUE(TakeInputWarnings(path).empty());
      }
      EXPECT_EQ(Streamed(path, 3), "{\"a\": 1}\n");
    } else {
      auto error = ErrorOf([&] { ReadWholeFile(path); });
      ASSERT_TRUE(error);
      EXPECT_EQ(error->file(), path);
      EXPECT_NE(error->problem().find(c.error), std::string::npos) << error->what();
      if (c.offset) {
        EXPECT_EQ(error->byte_offset(), c.offset) << error->what();
      }
    }
  }
}

TEST(ByteSource, GzipOutputOverTheCapIsRefusedNamingTheFileAndTheCap) {
  std::string dir = testing_support::TempDir("gzip_cap");
  // 8 MiB of white space in 8 KiB: an inflation bomb in miniature.
  std::string path = WriteGzip(dir + "/bomb.json.gz", "{\"a\": [" + std::string(8 << 20, ' '));
  InputLimits limits;
  limits.max_in_memory_bytes = 1 << 20;
  limits.max_input_bytes = 4 << 20;
  ScopedInputLimits scoped(limits);
  auto whole = ErrorOf([&] { ReadWholeFile(path); });
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->file(), path);
  EXPECT_NE(whole->problem().find("its inflated bytes, held whole in memory, exceed the cap"),
            std::string::npos)
      << whole->what();
  EXPECT_NE(whole->problem().find("1.0 MiB (1048576 bytes)"), std::string::npos) << whole->what();
  EXPECT_NE(whole->problem().find("HTPSCOPE_MAX_IN_MEMORY_BYTES"), std::string::npos);
  auto streamed = ErrorOf([&] { Streamed(path, 65536); });
  ASSERT_TRUE(streamed);
  EXPECT_NE(streamed->problem().find("4.0 MiB"), std::string::npos) << streamed->what();
  EXPECT_NE(streamed->problem().find("HTPSCOPE_MAX_INPUT_BYTES"), std::string::npos);
  // Exactly at the cap is still read.
  limits.max_in_memory_bytes = limits.max_input_bytes = 7 + (8 << 20);
  ScopedInputLimits exact(limits);
  EXPECT_EQ(ReadWholeFile(path).bytes.size(), 7u + (8 << 20));
}

TEST(ByteSource, PlainFileOverTheCapIsRefusedBeforeItIsRead) {
  std::string dir = testing_support::TempDir("plain_cap");
  std::string path = WriteBytes(dir + "/big.json", std::string(5000, ' ') + "{}");
  InputLimits limits;
  limits.max_in_memory_bytes = 4096;
  limits.max_input_bytes = 4096;
  ScopedInputLimits scoped(limits);
  for (const auto& read : std::vector<std::function<void()>>{[&] { ReadWholeFile(path); },
                                                             [&] { Streamed(path, 100); }}) {
    auto error = ErrorOf(read);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->file(), path);
    EXPECT_NE(error->problem().find("is 5002 bytes"), std::string::npos) << error->what();
    EXPECT_NE(error->problem().find("4.0 KiB (4096 bytes)"), std::string::npos) << error->what();
  }
  EXPECT_FALSE(MappedFile::Open(path));
}

TEST(ByteSource, ByteOrderMarkBeforeJsonReadsAsSpaces) {
  std::string dir = testing_support::TempDir("bom");
  const std::string bom = "\xEF\xBB\xBF";
  const std::string json = bom + "\n {\"header\": {}}";
  const std::string blanked = "   \n {\"header\": {}}";
  std::string plain = WriteBytes(dir + "/plain.json", json);
  std::string packed = WriteGzip(dir + "/packed.json.gz", json);
  EXPECT_EQ(Text(ReadWholeFile(plain)), blanked);
  EXPECT_EQ(Text(ReadWholeFile(packed)), blanked);
  EXPECT_EQ(Streamed(plain, 4096), blanked);
  EXPECT_EQ(Streamed(packed, 4096), blanked);
  EXPECT_EQ(ReadPrefix(plain, 6), blanked.substr(0, 6));
  auto mapped = MappedFile::Open(plain);
  ASSERT_TRUE(mapped);
  EXPECT_EQ(std::string(mapped->data(), mapped->size()), blanked);
  // Text keeps its mark (the text readers skip it); so does a lone mark.
  for (const std::string& kept : {bom + "Msg Timestamp,x\n", bom, bom + "  ", bom + "x{"}) {
    std::string path = WriteBytes(dir + "/text", kept);
    EXPECT_EQ(Text(ReadWholeFile(path)), kept);
    EXPECT_EQ(Streamed(path, 4096), kept);
  }
  EXPECT_EQ(SkipByteOrderMark(bom + "x"), "x");
  EXPECT_EQ(SkipByteOrderMark("x"), "x");
}

// A text reader's whole file: mapped when plain, else read; the same bytes
// as ReadWholeFile gives in every case, and the same refusal over the cap.
TEST(WholeText, SameBytesAsReadWholeFile) {
  std::string dir = testing_support::TempDir("whole_text");
  const std::string bom = "\xEF\xBB\xBF";
  std::string long_text;
  for (int i = 0; i < 20000; ++i)
    long_text += fmt::format("node_{}:OpId_{} : {} cycles\n", i, i, i);
  const std::vector<std::string> paths = {WriteBytes(dir + "/plain.txt", long_text),
                                          WriteGzip(dir + "/packed.txt.gz", long_text),
                                          WriteBytes(dir + "/bom.json", bom + " {\"header\": {}}"),
                                          WriteBytes(dir + "/bom.txt", bom + "Msg Timestamp,x\n"),
                                          WriteBytes(dir + "/empty.txt", ""),
                                          WriteBytes(dir + "/short.txt", "x")};
  for (const std::string& path : paths) {
    const WholeText whole = WholeText::Read(path);
    EXPECT_EQ(std::string(whole.text()), Text(ReadWholeFile(path))) << path;
    EXPECT_EQ(whole.loaded().path, path);
  }
  EXPECT_EQ(WholeText::Read(paths[0]).text(), long_text);
  EXPECT_EQ(WholeText::Read(paths[1]).text(), long_text);
  EXPECT_EQ(WholeText::Read(paths[2]).text(), "    {\"header\": {}}");

  InputLimits limits;
  limits.max_in_memory_bytes = 4096;
  ScopedInputLimits scoped(limits);
  auto error = ErrorOf([&] { WholeText::Read(paths[0]); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->file(), paths[0]);
  EXPECT_NE(error->problem().find(fmt::format("is {} bytes", long_text.size())), std::string::npos)
      << error->what();
  EXPECT_EQ(WholeText::Read(paths[5]).text(), "x");  // under the cap: still read
}

// Done ranges are dropped together once a batch is pending: a patched byte
// reads as the file again only then, the page two done ranges share
// included; a page shared with a range still in use keeps its patch.
TEST(MappedFile, ReleasedRangesAreDroppedTogetherOnceABatchIsPending) {
  std::string dir = testing_support::TempDir("mapped_release");
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t size = MappedFile::kReleaseBatchBytes + 8 * page;
  std::string text(size, 'f');
  auto mapped = MappedFile::Open(WriteBytes(dir + "/file.json", text));
  ASSERT_TRUE(mapped);
  char* data = mapped->data();
  const size_t shared = 3 * page + 100;         // the cut between the first two ranges
  const size_t in_use = size - 2 * page + 100;  // the cut before the range still parsed
  for (size_t at : {size_t{10}, shared, 5 * page, in_use}) data[at] = 'p';
  mapped->Release(50, shared + 1);  // ranges share their cut byte, as chunks do
  mapped->Release(shared, 6 * page);
  EXPECT_EQ(data[10], 'p');  // not yet: far less than a batch is pending
  EXPECT_EQ(data[shared], 'p');
  EXPECT_EQ(data[5 * page], 'p');
  mapped->Release(6 * page, in_use + 1);  // now a batch
  EXPECT_EQ(data[10], 'p');               // on the page the first range starts inside: kept
  EXPECT_EQ(data[shared], 'f');           // both ranges on it are done: dropped
  EXPECT_EQ(data[5 * page], 'f');
  EXPECT_EQ(data[in_use], 'p');  // shared with the range still in use
}

}  // namespace
}  // namespace htpscope::byte_source_test
