#include "formats/json_array_chunker.h"

#include <gtest/gtest.h>

#include <fstream>

#include "formats/corpus_test_util.h"

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

}  // namespace
}  // namespace htpscope
