#include "formats/json_chunker.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>

#include "base/corpus_test_util.h"
#include "formats/byte_source_open.h"
#include "formats/json_layout_test_util.h"

namespace htpscope::json_chunker_test {
namespace {

// --- JsonChunker -------------------------------------------------------------

struct Chunked {
  std::vector<std::string> chunks;  // each chunk's text
  std::vector<uint32_t> containers;
  std::string skeleton;
  std::vector<size_t> streamed_offsets;
};

JsonStreamSelector SelectKey(const std::string& key) {
  return [key](const std::vector<std::string>& path, bool) {
    return !path.empty() && path.back() == key ? 1 : 0;
  };
}

template <typename Chunker>
Chunked Drain(Chunker& chunker) {
  Chunked out;
  while (auto chunk = chunker.Next()) {
    auto view = chunk->view();
    out.chunks.emplace_back(view.data(), view.length());
    out.containers.push_back(chunk->container);
    chunker.Recycle(std::move(*chunk));
  }
  out.skeleton = chunker.skeleton();
  out.streamed_offsets = chunker.streamed_offsets();
  return out;
}

std::string WriteText(const std::string& name, const std::string& text, bool gzip) {
  return testing_support::WriteTestFile("chunker_" + name, text, gzip);
}

// The elements of the chunks (brackets dropped), joined with commas.
std::string Joined(const std::vector<std::string>& chunks) {
  std::string joined;
  for (const std::string& chunk : chunks) {
    if (!joined.empty()) joined += ',';
    joined += chunk.substr(1, chunk.size() - 2);
  }
  return joined;
}

std::string WithoutSpace(std::string text) {
  text.erase(std::remove_if(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\n'; }),
             text.end());
  return text;
}

// Chunks `text` streamed (plain and gzip) and mapped; all three must agree.
Chunked ChunksOf(const std::string& text, size_t chunk_bytes, const JsonStreamSelector& select) {
  std::vector<Chunked> runs;
  for (bool gzip : {false, true}) {
    auto source = OpenByteSource(WriteText(gzip ? "gz" : "plain", text, gzip));
    JsonChunker chunker(*source, select, chunk_bytes);
    runs.push_back(Drain(chunker));
  }
  auto file = MappedFile::Open(WriteText("mapped", text, false));
  EXPECT_TRUE(file);
  JsonChunker mapped(*file, select, chunk_bytes);
  Chunked from_mapping = Drain(mapped);
  // Mapped chunks may split differently (copied elements), but hold the
  // same elements; the streamed ones match exactly.
  EXPECT_EQ(runs[0].chunks, runs[1].chunks);
  EXPECT_EQ(runs[0].skeleton, from_mapping.skeleton);
  EXPECT_EQ(runs[0].streamed_offsets, from_mapping.streamed_offsets);
  EXPECT_EQ(WithoutSpace(Joined(runs[0].chunks)), WithoutSpace(Joined(from_mapping.chunks)));
  return runs[0];
}

TEST(JsonChunker, CutsAtElementBoundariesInAnyLayoutAndKeepsTheSkeleton) {
  const std::string elements[] = {R"({"n": 1, "s": "a,b]}"})", R"({"n": [2, {"x": "\"}"}]})",
                                  R"({"n": 3})", R"("x\\")", R"([1, [2, [3]]])"};
  for (const char* separator : {",", ", ", ",\n", ",\n    "}) {
    std::string body;
    for (const std::string& e : elements) body += (body.empty() ? "" : separator) + e;
    const std::string text =
        "{\"header\": {\"a\": \"x{y\"},\n\"events\": [" + body + "],\"tail\": 5}\n";
    for (size_t chunk_bytes : {size_t{1}, size_t{9}, size_t{30}, size_t{1} << 20}) {
      SCOPED_TRACE(::testing::Message() << "separator '" << separator << "' chunk " << chunk_bytes);
      Chunked c = ChunksOf(text, chunk_bytes, SelectKey("events"));
      ASSERT_FALSE(c.chunks.empty());
      for (const std::string& chunk : c.chunks) {
        EXPECT_EQ(chunk.front(), '[');
        EXPECT_EQ(chunk.back(), ']');
      }
      if (chunk_bytes == 1) {
        EXPECT_EQ(c.chunks.size(), 5u);
      } else if (chunk_bytes < 1024) {
        EXPECT_GT(c.chunks.size(), 1u);
      } else {
        EXPECT_EQ(c.chunks.size(), 1u);
      }
      // Every element once, in order, with the bytes between them.
      EXPECT_EQ(WithoutSpace(Joined(c.chunks)), WithoutSpace(body));
      // White space outside strings is left out.
      EXPECT_EQ(c.skeleton, "{\"header\":{\"a\":\"x{y\"},\"events\":[],\"tail\":5}");
      ASSERT_EQ(c.streamed_offsets.size(), 1u);
      EXPECT_EQ(c.skeleton[c.streamed_offsets[0]], '[');
    }
  }
}

TEST(JsonChunker, StreamsObjectMembersAndSeveralContainers) {
  const std::string text =
      R"({"graph": {"nodes": {"0x1": {"t": "a"},"0x2": {"t": "{"}}, "tensors": {}, "more": [1]},)"
      R"( "nodes": {"0x3": [1,2]}})";
  auto select = [](const std::vector<std::string>& path, bool is_array) {
    return !is_array && !path.empty() && (path.back() == "nodes" || path.back() == "tensors") ? 7
                                                                                              : 0;
  };
  Chunked c = ChunksOf(text, 1, select);
  const std::vector<std::string> expected = {R"({"0x1": {"t": "a"}})", R"({"0x2": {"t": "{"}})",
                                             R"({"0x3": [1,2]})"};
  EXPECT_EQ(c.chunks, expected);
  EXPECT_EQ(c.containers, (std::vector<uint32_t>{0, 0, 2}));  // container 1 is empty
  EXPECT_EQ(c.skeleton, R"({"graph":{"nodes":{},"tensors":{},"more":[1]},"nodes":{}})");
  EXPECT_EQ(c.streamed_offsets.size(), 3u);
}

TEST(JsonChunker, HostileTextStaysInsideItsElement) {
  // Strings full of brackets, commas, escaped quotes and backslashes, a huge
  // string, deep nesting and megabytes of white space between elements.
  std::string tricky = R"("\\\"],[{,\\",)";
  std::string deep(3000, '[');
  deep += std::string(3000, ']');
  const std::string huge = "\"" + std::string(3 << 20, 'x') + "\"";
  const std::vector<std::string> elements = {"{\"s\": " + tricky + "}", deep,
                                             "{\"h\": " + huge + "}", "{\"t\": " + tricky + "}"};
  std::string body;
  for (const std::string& e : elements)
    body += (body.empty() ? "" : "," + std::string(2 << 20, ' ')) + e;
  const std::string text = "{\"events\": [" + body + "]}";
  for (size_t chunk_bytes : {size_t{1}, size_t{4096}}) {
    Chunked c = ChunksOf(text, chunk_bytes, SelectKey("events"));
    // A cut after every element, or (4096) after the first two.
    ASSERT_EQ(c.chunks.size(), chunk_bytes == 1 ? 4u : 3u);
    std::string joined;
    for (const std::string& e : elements) joined += (joined.empty() ? "" : ",") + e;
    EXPECT_EQ(WithoutSpace(Joined(c.chunks)), WithoutSpace(joined));
  }
}

TEST(JsonChunker, TextThatIsNoContainerListIsRefusedNotGuessed) {
  auto refused = [](const char* text, size_t chunk_bytes) {
    auto source = OpenByteSource(WriteText("refused", text, false));
    JsonChunker chunker(*source, SelectKey("events"), chunk_bytes);
    EXPECT_THROW(Drain(chunker), ChunkingNotPossible) << text << " " << chunk_bytes;
  };
  for (const char* text : {"{\"events\": [1, 2", "{\"events\": [1]} trailing", "[1] [2]",
                           "\"text\"", "{\"events\": [1]", "{\"events\": [\"1]}"})
    for (size_t chunk_bytes : {size_t{1}, size_t{64}}) refused(text, chunk_bytes);
  // A cut at a comma with no element beside it would make a valid chunk of
  // invalid text: refused.  (Uncut, such a chunk fails its own parse.)
  for (const char* text : {"{\"events\": [,1]}", "{\"events\": [1,]}", "{\"events\": [1,,2]}",
                           "{\"events\": [1, ,2]}"})
    refused(text, 1);
  // An empty container is no error: no chunk, an empty one in the skeleton.
  Chunked empty = ChunksOf("{\"events\": [ ], \"h\": 1}", 1, SelectKey("events"));
  EXPECT_TRUE(empty.chunks.empty());
  EXPECT_EQ(empty.skeleton, "{\"events\":[],\"h\":1}");
}

TEST(JsonChunker, WhiteSpaceOutsideStringsIsNotKept) {
  // 8 MiB of white space around the members: none of it is kept in the
  // skeleton (it counts against the cap all the same); white space inside
  // strings is kept.
  InputLimits limits;
  limits.max_in_memory_bytes = 64 << 20;
  ScopedInputLimits scoped(limits);
  const std::string blanks(8 << 20, ' ');
  const std::string text = "{\"a\":" + blanks + "\"x  y\"," + blanks + "\"events\": [1," + blanks +
                           "2]" + blanks + ",\n\"t\":\t[ 3 , 4 ]}" + blanks;
  Chunked c = ChunksOf(text, 1, SelectKey("events"));
  EXPECT_EQ(c.skeleton, "{\"a\":\"x  y\",\"events\":[],\"t\":[3,4]}");
  EXPECT_EQ(WithoutSpace(Joined(c.chunks)), "1,2");
}

TEST(JsonChunker, TextHeldInMemoryOverTheCapIsRefusedNamingTheFile) {
  InputLimits limits;
  limits.max_in_memory_bytes = 1 << 20;
  ScopedInputLimits scoped(limits);
  const std::string long_string = "\"" + std::string(3 << 20, 'x') + "\"";
  struct Case {
    std::string text;
    const char* what;
  };
  const Case cases[] = {
      // One long line outside the streamed containers: the skeleton.
      {"{\"s\": " + long_string + ", \"events\": [1]}",
       "its JSON outside the streamed containers, read whole, exceed the cap of 1.0 MiB "
       "(1048576 bytes); set HTPSCOPE_MAX_IN_MEMORY_BYTES"},
      // White space outside the streamed containers: not kept, but counted.
      {"{\"s\": 1," + std::string(3 << 20, ' ') + "\"events\": [1]}",
       "its JSON outside the streamed containers, read whole, exceed the cap of 1.0 MiB"},
      // One element far bigger than a chunk, and white space after an element.
      {"{\"events\": [1, " + long_string + ", 2]}",
       "the bytes of one element of a streamed container, held in memory, exceed the cap of "
       "1.0 MiB"},
      {"{\"events\": [1 " + std::string(3 << 20, ' ') + ", 2]}",
       "the bytes of one element of a streamed container, held in memory, exceed the cap of "
       "1.0 MiB"},
  };
  for (const Case& c : cases) {
    for (bool gzip : {false, true}) {
      SCOPED_TRACE(c.what);
      const std::string path = WriteText(gzip ? "cap_gz" : "cap", c.text, gzip);
      auto source = OpenByteSource(path);
      JsonChunker chunker(*source, SelectKey("events"), 4096);
      try {
        Drain(chunker);
        ADD_FAILURE() << "no error";
      } catch (const InputCapError& e) {
        EXPECT_EQ(e.file(), path);
        EXPECT_NE(e.problem().find(c.what), std::string::npos) << e.what();
        ASSERT_TRUE(e.byte_offset());
        EXPECT_LT(*e.byte_offset(), c.text.size());
      }
    }
  }
  // Mapped, the skeleton is capped too (elements are views of the file).
  auto file = MappedFile::Open(WriteText("cap_mapped", cases[0].text, false));
  ASSERT_TRUE(file);
  JsonChunker mapped(*file, SelectKey("events"), 4096);
  EXPECT_THROW(Drain(mapped), InputCapError);
}

// {"header": 1, "events": [ {"n": 0}, ... ]} with one element per line,
// padded with spaces before the closing "]}" to exactly `total_bytes`.
std::string LinesText(int elements, size_t total_bytes, const char* separator = ",\n") {
  std::string text = "{\"header\": 1,\n\"events\": [\n";
  for (int i = 0; i < elements; ++i)
    text += "{\"n\": " + std::to_string(i) + "}" + (i + 1 < elements ? separator : "\n");
  EXPECT_LE(text.size() + 2, total_bytes);
  text.append(total_bytes - text.size() - 2, ' ');
  return text + "]}";
}

// Chunks of `path` read through a mapping, as (text, was a view) pairs;
// every chunk is recycled after it is read, as the readers do.
std::vector<std::pair<std::string, bool>> MappedChunksOf(const std::string& path,
                                                         size_t chunk_bytes) {
  auto file = MappedFile::Open(path);
  EXPECT_TRUE(file);
  if (!file) return {};
  JsonChunker chunker(*file, SelectKey("events"), chunk_bytes);
  std::vector<std::pair<std::string, bool>> out;
  while (auto chunk = chunker.Next()) {
    auto view = chunk->view();
    out.emplace_back(std::string(view.data(), view.length()), chunk->mapped != nullptr);
    chunker.Recycle(std::move(*chunk));
  }
  return out;
}

TEST(JsonChunkerMapped, ViewsCoverEveryElementOnceAndTheFileIsUntouched) {
  for (const char* separator : {",\n", ","}) {
    SCOPED_TRACE(separator);
    const std::string text = LinesText(3000, 8192 * 5 + 100, separator);
    const std::string path = WriteText("mapped_views", text, false);
    auto chunks = MappedChunksOf(path, 4096);
    ASSERT_GT(chunks.size(), 5u);
    std::string joined;
    size_t views = 0;
    for (const auto& [chunk, is_view] : chunks) {
      ASSERT_GE(chunk.size(), 2u);
      EXPECT_EQ(chunk.front(), '[');
      EXPECT_EQ(chunk.back(), ']');
      joined += chunk.substr(1, chunk.size() - 2);
      joined += ',';
      views += is_view;
    }
    // The elements in order, each once: n = 0, 1, 2, ...
    int expected = 0;
    for (size_t at = joined.find("\"n\": "); at != std::string::npos;
         at = joined.find("\"n\": ", at + 1))
      EXPECT_EQ(std::stoi(joined.substr(at + 5)), expected++);
    EXPECT_EQ(expected, 3000);
    // Bulk chunks are views, not copies (with no white space after a comma,
    // one element per cut is copied).
    EXPECT_GE(views, chunks.size() / 2 - 1);
    // The patches were private: the file still reads as written.
    std::ifstream in(path, std::ios::binary);
    std::string on_disk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(on_disk == text);
  }
}

// Cuts guessed on a mapped array (set_guess_cuts) hold the elements the
// scanned cuts hold, in both layouts; where objects nest inside elements
// with the same first bytes as the elements, some guesses land inside an
// element, and the chunk cut there is not whole elements: the check its
// parser makes (IsArrayOfClosedElements) tells.
TEST(JsonChunkerMapped, GuessedCutsHoldTheElementsOrShowTheyAreNotWhole) {
  for (const bool nested : {false, true}) {
    for (const std::string separator : {",\n", ","}) {
      SCOPED_TRACE(testing::Message() << "nested " << nested << ", separator " << separator.size());
      std::string elements;
      for (int i = 0; i < 3000; ++i) {
        if (i) elements += separator;
        // A second section of elements that begin otherwise (counters
        // after ops): guessed anew once a scanned cut shows them.
        elements += (i < 1500 ? "{\"kind\": \"e\", \"n\": " : "{\"type\": \"f\", \"n\": ") +
                    std::to_string(i);
        if (nested) elements += ", \"inner\": [{\"kind\": \"d\"}" + separator + "{\"kind\": 2}]";
        elements += "}";
      }
      const std::string text = "{\"header\": 1,\n\"events\": [\n" + elements + "\n]}";
      auto file = MappedFile::Open(WriteText("guessed", text, false));
      ASSERT_TRUE(file);
      JsonChunker chunker(*file, SelectKey("events"), 1024);
      chunker.set_guess_cuts(true);
      std::vector<std::string> chunks;
      size_t guessed = 0, not_whole = 0, guessed_in_second_section = 0;
      try {
        while (auto chunk = chunker.Next()) {
          auto view = chunk->view();
          chunks.emplace_back(view.data(), view.length());
          if (chunk->end_guessed) {
            ++guessed;
            not_whole += !IsArrayOfClosedElements(view.data(), view.length());
            guessed_in_second_section += view.data()[1] == '{' && view.data()[3] == 't';
          }
          chunker.Recycle(std::move(*chunk));
        }
      } catch (const ChunkingNotPossible&) {
        // After a wrong guess the rest is cut from no element boundary.
        EXPECT_TRUE(nested);
      }
      EXPECT_EQ(chunker.guessed_cuts(), guessed);
      if (nested) {
        EXPECT_GT(not_whole, 0u);
      } else {
        EXPECT_GT(guessed, 20u);
        EXPECT_GT(guessed_in_second_section, 10u);
        EXPECT_EQ(not_whole, 0u);
        EXPECT_EQ(WithoutSpace(Joined(chunks)), WithoutSpace(elements));
        EXPECT_EQ(chunker.skeleton(), "{\"header\":1,\"events\":[]}");
      }
    }
  }
}

// A guess can cross the end of a container that does not run to near the
// file's end (here into a second array whose elements begin alike): the
// chunk cut there is not whole elements, which its parser's check tells.
TEST(JsonChunkerMapped, AGuessPastAContainersEndShowsItIsNotWhole) {
  std::string elements;
  for (int i = 0; i < 2000; ++i)
    elements += (i ? "," : "") + std::string("{\"kind\": ") + std::to_string(i) + "}";
  const std::string text = "{\"a\": [" + elements + "], \"b\": [" + elements + "]}";
  auto file = MappedFile::Open(WriteText("guessed_two", text, false));
  ASSERT_TRUE(file);
  JsonChunker chunker(
      *file, [](const std::vector<std::string>& path, bool) { return path.size() == 1 ? 1 : 0; },
      512);
  chunker.set_guess_cuts(true);
  size_t guessed = 0, not_whole = 0;
  try {
    while (auto chunk = chunker.Next()) {
      auto view = chunk->view();
      if (chunk->end_guessed) {
        ++guessed;
        not_whole += !IsArrayOfClosedElements(view.data(), view.length());
      }
      chunker.Recycle(std::move(*chunk));
    }
  } catch (const ChunkingNotPossible&) {
    // After a wrong guess the rest is cut from no element boundary.
  }
  EXPECT_GT(guessed, 5u);
  EXPECT_EQ(not_whole, 1u);  // the one chunk that holds "], \"b\": ["
}

TEST(JsonChunkerMapped, LastChunkIsCopiedWhenThePaddingWouldPassTheMapping) {
  // The file ends 10 bytes before a page boundary: no room for simdjson's
  // padding after the last chunk inside the mapping, so it is copied.
  auto near_end = MappedChunksOf(WriteText("near_end", LinesText(500, 8192 - 10), false), 2048);
  ASSERT_GT(near_end.size(), 1u);
  EXPECT_FALSE(near_end.back().second);
  EXPECT_EQ(near_end.back().first.back(), ']');
  // Room to spare: the last chunk is a view too.
  auto room = MappedChunksOf(WriteText("room", LinesText(500, 8192 + 1000), false), 2048);
  EXPECT_TRUE(room.back().second);
}

TEST(JsonChunkerMapped, GzipAndEmptyFilesAreNotMapped) {
  std::string dir = testing_support::TempDir("chunker_mapped_none");
  std::ofstream(dir + "/empty.json");
  std::ofstream(dir + "/z.json", std::ios::binary) << std::string("\x1f\x8b\x08\x00", 4);
  EXPECT_FALSE(MappedFile::Open(dir + "/empty.json"));
  EXPECT_FALSE(MappedFile::Open(dir + "/z.json"));
  EXPECT_FALSE(MappedFile::Open(dir + "/missing.json"));
}

}  // namespace
}  // namespace htpscope::json_chunker_test

namespace htpscope::json_chunker_test {
namespace {

// Work done chunking `text` streamed from a gzip file (as any gzip input
// is) in chunks of 4 KiB, with the number of chunks.
std::pair<JsonChunker::Work, size_t> WorkOf(const std::string& name, const std::string& text) {
  auto source = OpenByteSource(WriteText("work_" + name, text, true));
  JsonChunker chunker(*source, SelectKey("events"), 4096);
  size_t chunks = 0;
  while (auto chunk = chunker.Next()) {
    ++chunks;
    chunker.Recycle(std::move(*chunk));
  }
  return {chunker.work(), chunks};
}

// Each byte is scanned once and copied a bounded number of times whatever
// the line structure: one line, a container or an element of nothing but
// white space, an element far bigger than a chunk followed by small ones
// (the buffer grown for it must not make every later chunk carry the rest
// of a huge read-ahead).  Re-scanning or re-copying the buffer at every
// fill would cost about size^2 / 4 KiB here, hundreds of times the size.
TEST(JsonChunker, WorkIsLinearInTheInputWhateverItsLayout) {
  constexpr size_t kBig = 4u << 20;
  std::string small;
  while (small.size() < kBig) small += R"({"n": 1, "s": "a,b"},)";
  small.pop_back();
  const std::string element = R"({"n": 2})";
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {"one_line", "{\"events\": [" + small + "]}"},
      {"blank_body", "{\"events\": [" + std::string(kBig, ' ') + "]}"},
      {"blank_element", "{\"events\": [{\"n\":" + std::string(kBig, '\n') + "1}," + small + "]}"},
      {"big_then_small",
       "{\"events\": [{\"s\": \"" + std::string(kBig, 'x') + "\"}," + small + "]}"},
      {"small_big_small", "{\"events\": [" + small + ",\"" + std::string(kBig, 'y') + "\"," +
                              small + "," + element + "]}"},
  };
  for (const auto& [name, text] : inputs) {
    SCOPED_TRACE(name);
    const auto [work, chunks] = WorkOf(name, text);
    if (name != "blank_body") {
      EXPECT_GT(chunks, 100u);
    }
    // 64-byte blocks: a partial block is scanned once more at most per fill
    // and per chunk.
    EXPECT_LE(work.bytes_scanned, text.size() + 128 * (chunks + text.size() / 4096 + 2));
    EXPECT_LE(work.bytes_moved, 2 * text.size());
  }
}

}  // namespace
}  // namespace htpscope::json_chunker_test
