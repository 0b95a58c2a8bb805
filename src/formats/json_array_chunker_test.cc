#include "formats/json_array_chunker.h"

#include <gtest/gtest.h>

#include <fstream>

#include "base/corpus_test_util.h"

namespace htpscope {
namespace {

std::vector<std::string> ChunksOf(const std::string& text, size_t chunk_bytes,
                                  std::string* others) {
  std::string dir = testing_support::TempDir("chunker");
  std::ofstream(dir + "/f.json") << text;
  auto source = OpenByteSource(dir + "/f.json");
  JsonArrayChunker chunker(*source, "events", chunk_bytes);
  std::vector<std::string> out;
  while (auto chunk = chunker.Next())
    out.emplace_back(chunk->storage.get() + chunk->begin, chunk->length);
  *others = chunker.other_members();
  return out;
}

TEST(JsonArrayChunker, CutsAtLineStartElementsAndKeepsOtherMembers) {
  std::string text =
      "{\"header\": {\"a\": \"x{y\"},\n\"events\": [\n{\"n\": 1},\n{\"n\": 2, \"s\": "
      "\"]}\"},\n{\"n\": 3}\n],\n\"tail\": 5}\n";
  std::string others;
  auto chunks = ChunksOf(text, 8, &others);
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[0], "[\n{\"n\": 1}]");
  EXPECT_EQ(chunks[1], "[{\"n\": 2, \"s\": \"]}\"}]");
  EXPECT_EQ(chunks[2], "[{\"n\": 3}\n]");
  EXPECT_EQ(others, "{\"header\": {\"a\": \"x{y\"},\"tail\": 5}");
}

TEST(JsonArrayChunker, EmptyArrayAndOneBigChunk) {
  std::string others;
  auto chunks = ChunksOf("{\"events\": [], \"header\": 1}", 1 << 20, &others);
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0], "[]");
  EXPECT_EQ(others, "{\"header\": 1}");
  chunks = ChunksOf("{\"events\": [{\"n\": 1},{\"n\": 2}]}", 1 << 20, &others);
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0], "[{\"n\": 1},{\"n\": 2}]");
  EXPECT_EQ(others, "{}");
}

TEST(JsonArrayChunker, LayoutsItCannotCutAreRefusedNotGuessed) {
  std::string others;
  EXPECT_THROW(ChunksOf("{\"other\": []}", 64, &others), ChunkingNotPossible);
  EXPECT_THROW(ChunksOf("{\"events\": [{\"n\": 1}]} trailing", 64, &others), ChunkingNotPossible);
  EXPECT_THROW(ChunksOf("{\"events\": [{\"n\": 1}", 64, &others), ChunkingNotPossible);
  EXPECT_THROW(ChunksOf("{\"events\": 5}", 64, &others), ChunkingNotPossible);
}

// Chunks of `text` read through a mapping, as (text, was a view) pairs;
// every chunk is recycled after it is read, as the optrace reader does.
std::vector<std::pair<std::string, bool>> MappedChunksOf(const std::string& text,
                                                         size_t chunk_bytes,
                                                         const std::string& path) {
  std::ofstream(path, std::ios::binary) << text;
  auto file = MappedFile::Open(path);
  EXPECT_TRUE(file);
  if (!file) return {};
  JsonArrayChunker chunker(*file, "events", chunk_bytes);
  std::vector<std::pair<std::string, bool>> out;
  while (auto chunk = chunker.Next()) {
    auto view = chunk->view();
    out.emplace_back(std::string(view.data(), view.length()), chunk->mapped != nullptr);
    chunker.Recycle(std::move(*chunk));
  }
  return out;
}

// {"header": 1, "events": [ {"n": 0}, ... ]} with one element per line,
// padded with spaces before the closing "]}" to exactly `total_bytes`.
std::string LinesText(int elements, size_t total_bytes) {
  std::string text = "{\"header\": 1,\n\"events\": [\n";
  for (int i = 0; i < elements; ++i)
    text += "{\"n\": " + std::to_string(i) + "}" + (i + 1 < elements ? ",\n" : "\n");
  EXPECT_LE(text.size() + 2, total_bytes);
  text.append(total_bytes - text.size() - 2, ' ');
  return text + "]}";
}

TEST(JsonArrayChunkerMapped, ViewsCoverEveryElementOnceAndTheFileIsUntouched) {
  const std::string text = LinesText(3000, 8192 * 5 + 100);
  const std::string path = testing_support::TempDir("chunker_mapped") + "/f.json";
  auto chunks = MappedChunksOf(text, 4096, path);
  ASSERT_GT(chunks.size(), 5u);
  std::string joined;
  for (const auto& [chunk, is_view] : chunks) {
    ASSERT_GE(chunk.size(), 2u);
    EXPECT_EQ(chunk.front(), '[');
    EXPECT_EQ(chunk.back(), ']');
    joined += chunk.substr(1, chunk.size() - 2);
    joined += ',';
  }
  // The elements in order, each once: n = 0, 1, 2, ...
  int expected = 0;
  for (size_t at = joined.find("\"n\": "); at != std::string::npos;
       at = joined.find("\"n\": ", at + 1))
    EXPECT_EQ(std::stoi(joined.substr(at + 5)), expected++);
  EXPECT_EQ(expected, 3000);
  EXPECT_TRUE(chunks.front().second);  // bulk chunks are views, not copies
  // The patches were private: the file still reads as written.
  std::ifstream in(path, std::ios::binary);
  std::string on_disk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(on_disk == text);
}

TEST(JsonArrayChunkerMapped, LastChunkIsCopiedWhenThePaddingWouldPassTheMapping) {
  // The file ends 10 bytes before a page boundary: no room for simdjson's
  // padding after the last chunk inside the mapping, so it is copied.
  const std::string dir = testing_support::TempDir("chunker_mapped_end");
  auto near_end = MappedChunksOf(LinesText(500, 8192 - 10), 2048, dir + "/near.json");
  ASSERT_GT(near_end.size(), 1u);
  EXPECT_FALSE(near_end.back().second);
  EXPECT_EQ(near_end.back().first.back(), ']');
  // Room to spare: the last chunk is a view too.
  auto room = MappedChunksOf(LinesText(500, 8192 + 1000), 2048, dir + "/room.json");
  EXPECT_TRUE(room.back().second);
}

TEST(JsonArrayChunkerMapped, GzipAndEmptyFilesAreNotMapped) {
  std::string dir = testing_support::TempDir("chunker_mapped_none");
  std::ofstream(dir + "/empty.json");
  std::ofstream(dir + "/z.json", std::ios::binary) << std::string("\x1f\x8b\x08\x00", 4);
  EXPECT_FALSE(MappedFile::Open(dir + "/empty.json"));
  EXPECT_FALSE(MappedFile::Open(dir + "/z.json"));
  EXPECT_FALSE(MappedFile::Open(dir + "/missing.json"));
}

}  // namespace
}  // namespace htpscope
