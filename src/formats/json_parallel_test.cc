#include "formats/json_parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <new>
#include <string>

#include "base/corpus_test_util.h"
#include "formats/byte_source_open.h"
#include "formats/gzip_bomb_test_util.h"
#include "formats/htp_graph.h"
#include "formats/json_layout_test_util.h"
#include "formats/optrace.h"
#include "formats/qhas.h"
#include "formats/runtrace.h"

namespace htpscope::json_parallel_test {
namespace {

// --- Every thread joined, whatever fails where --------------------------------

struct Count {
  size_t elements = 0;
};

// A document of `n` small elements in "items", cut into one chunk each.
std::string Items(int n) {
  std::string text = "{\"items\": [";
  for (int i = 0; i < n; ++i) text += (i ? ", " : "") + std::string("{\"v\": 1}");
  return text + "]}";
}

JsonStreamSelector SelectItems() {
  return [](const std::vector<std::string>& path, bool is_array) {
    return is_array && path.size() == 1 && path[0] == "items" ? 1 : 0;
  };
}

// Parses the chunks of `path` on 3 threads with a worker whose Parse calls
// `on_parse(chunk index)`; merges count the elements' chunks.
template <typename OnParse, typename OnMerge>
bool ParseItems(const std::string& path, OnParse on_parse, OnMerge on_merge) {
  ChunkedFile file = OpenChunkedFile(path, SelectItems(), 1);
  struct Worker {
    OnParse* on_parse;
    std::unique_ptr<Count> Parse(const JsonChunk& chunk) {
      (*on_parse)(chunk.index);
      auto part = std::make_unique<Count>();
      part->elements = 1;
      return part;
    }
  };
  return ParseChunksInParallel<Count>(
      *file.chunker, 3, file.size, [&] { return Worker{&on_parse}; },
      [&](Count&& part, const ChunkMergeInfo& info) { on_merge(part, info); });
}

TEST(ParseChunksInParallel, MergesEveryChunkInOrder) {
  for (bool gzip : {false, true}) {
    const std::string path = testing_support::WriteTestFile("parallel_ok", Items(200), gzip);
    uint64_t next = 0;
    size_t elements = 0;
    EXPECT_TRUE(ParseItems(
        path, [](uint64_t) {},
        [&](const Count& part, const ChunkMergeInfo& info) {
          EXPECT_EQ(info.index, next++);
          elements += part.elements;
        }));
    EXPECT_EQ(elements, 200u);
  }
}

TEST(ParseChunksInParallel, AnInputErrorInAWorkerMeansParseItWhole) {
  const std::string path = testing_support::WriteTestFile("parallel_input", Items(200), false);
  EXPECT_FALSE(ParseItems(
      path,
      [&](uint64_t index) {
        if (index == 57) throw InputError(path, "bad chunk");
      },
      [](const Count&, const ChunkMergeInfo&) {}));
}

// Before, an exception other than InputError in a worker, a merge or the
// cutting thread ended the process in std::terminate (a thread left
// joinable, or an exception leaving a thread).  Now every thread is joined
// and the exception reaches the caller.
TEST(ParseChunksInParallel, OtherExceptionsReachTheCallerOnceEveryThreadIsJoined) {
  for (bool gzip : {false, true}) {
    const std::string path = testing_support::WriteTestFile("parallel_fatal", Items(300), gzip);
    EXPECT_THROW(ParseItems(
                     path,
                     [](uint64_t index) {
                       if (index == 120) throw std::bad_alloc();
                     },
                     [](const Count&, const ChunkMergeInfo&) {}),
                 std::bad_alloc);
    EXPECT_THROW(ParseItems(
                     path, [](uint64_t) {},
                     [](const Count&, const ChunkMergeInfo& info) {
                       if (info.index == 30) throw InternalError("merge failed");
                     }),
                 InternalError);
    // An InputCapError from a merge is final too (a whole read would meet it).
    EXPECT_THROW(ParseItems(
                     path, [](uint64_t) {},
                     [&](const Count&, const ChunkMergeInfo& info) {
                       if (info.index == 5) throw InputCapError(path, "over the cap");
                     }),
                 InputCapError);
  }
}

TEST(ParseChunksInParallel, AWorkerThatCannotBeMadeIsAnError) {
  const std::string path = testing_support::WriteTestFile("parallel_make", Items(50), false);
  ChunkedFile file = OpenChunkedFile(path, SelectItems(), 1);
  struct Worker {
    std::unique_ptr<Count> Parse(const JsonChunk&) { return std::make_unique<Count>(); }
  };
  std::atomic<int> made{0};
  EXPECT_THROW(ParseChunksInParallel<Count>(
                   *file.chunker, 3, file.size,
                   [&] {
                     if (made++ == 1) throw std::bad_alloc();
                     return Worker{};
                   },
                   [](Count&&, const ChunkMergeInfo&) {}),
               std::bad_alloc);
}

// --- Inflation bombs against the streamed JSON readers ------------------------

// White space after a valid start, as the readers' streamed paths meet it.
struct Bomb {
  const char* reader;
  std::string prefix;
};

// 64 MiB of white space in 64 KiB of gzip, with caps of 1 MiB held in
// memory and 16 MiB streamed: the readers of artifacts read whole stop at
// 1 MiB of the file, the optrace (streamed) at 1 MiB of its JSON outside
// "traceEvents" or of one event; each with an InputCapError naming the
// file, the cap and its variable, never the fallback whole read.
TEST(StreamedReaders, InflationBombsStopAtTheirCap) {
  InputLimits limits;
  limits.max_in_memory_bytes = 1 << 20;
  limits.max_input_bytes = 16 << 20;
  ScopedInputLimits scoped(limits);
  const std::string dir = testing_support::TempDir("parallel_bombs");
  const Bomb bombs[] = {
      {"qhas", R"({"header": {"artifact_type": "QHAS", "version": "1.0"}, )"},
      {"qhas_rows", R"({"header": {"artifact_type": "QHAS"}, "data": {"htp_op_types": {"data": [)"},
      {"graph", R"({"header": {"artifact_type": "HTP_GRAPH"}, "graph": {"nodes": {)"},
      {"runtrace", R"({"header": {"artifact_type": "RUN_TRACE"}, "traceEvents": [)"},
      {"optrace", R"({"header": {"artifact_type": "OP_TRACE"}, )"},
      {"optrace_events", R"({"header": {"artifact_type": "OP_TRACE"}, "traceEvents": [{}, )"},
  };
  for (const Bomb& bomb : bombs) {
    SCOPED_TRACE(bomb.reader);
    const std::string path = dir + "/" + bomb.reader + ".json.gz";
    testing_support::WriteWhiteSpaceGzipBomb(path, bomb.prefix, 64);
    const std::string reader = bomb.reader;
    try {
      if (reader.starts_with("qhas")) {
        ReadQhas(path);
      } else if (reader == "graph") {
        ReadHtpGraph(path);
      } else if (reader == "runtrace") {
        ReadRuntrace(path);
      } else {
        ReadOptrace(path);
      }
      ADD_FAILURE() << "read without error";
    } catch (const InputCapError& e) {
      EXPECT_EQ(e.file(), path);
      EXPECT_NE(e.problem().find("exceed the cap of 1.0 MiB (1048576 bytes); set "
                                 "HTPSCOPE_MAX_IN_MEMORY_BYTES"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace htpscope::json_parallel_test
