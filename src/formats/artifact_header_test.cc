#include "formats/artifact_header.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "formats/artifact_kind.h"
#include "formats/byte_source.h"
#include "formats/json_layout_test_util.h"

namespace htpscope::artifact_header_test {
namespace {

// The artifact type `document` gives when fed to the finder `piece` bytes at
// a time, each call handed what the last one left over.
std::optional<std::string> FedInPieces(const std::string& document, size_t piece) {
  ArtifactTypeFinder finder;
  std::string pending;
  size_t at = 0;
  while (finder.state() == ArtifactTypeFinder::State::kNeedMoreData) {
    const size_t n = std::min(piece, document.size() - at);
    pending.append(document, at, n);
    at += n;
    const bool final = at == document.size();
    pending.erase(0, finder.Consume(pending.data(), pending.size(), final));
    if (final) {
      EXPECT_TRUE(pending.empty());
      break;
    }
  }
  EXPECT_NE(finder.state(), ArtifactTypeFinder::State::kNeedMoreData);
  if (finder.state() != ArtifactTypeFinder::State::kFound) return std::nullopt;
  return finder.artifact_type();
}

// Every way of feeding `document` gives `expected`.
void ExpectType(const std::string& document, const std::optional<std::string>& expected) {
  SCOPED_TRACE(document.substr(0, 200));
  for (size_t piece : {size_t{1}, size_t{7}, size_t{63}, size_t{64}, size_t{65}, document.size()})
    EXPECT_EQ(FedInPieces(document, std::max<size_t>(piece, 1)), expected) << "pieces " << piece;
}

// Events whose strings and nested members look like a header.
std::string DecoyEvents(int count) {
  std::string events = "[";
  for (int i = 0; i < count; ++i) {
    if (i) events += ",\n";
    events += R"({"name": "\"header\": {\"artifact_type\": \"QHAS\"} ]}{[", "ph": "X",)"
              R"( "args": {"header": {"artifact_type": "HTP_GRAPH"}, "list": [[1], {"a": "\\"}]}})";
  }
  return events + "]";
}

TEST(ArtifactTypeFinder, FindsTheHeaderWhereverItSitsInTheTopLevelObject) {
  const std::string header = R"({"version": {"major": 1}, "artifact_type": "OP_TRACE"})";
  ExpectType(R"({"header": )" + header + R"(, "traceEvents": []})", "OP_TRACE");
  ExpectType("\n\t {\r\n\"traceEvents\" : " + DecoyEvents(40) + " ,\n \"count\": -1.5e3, " +
                 R"("flag": true, "text": "a \"header\": {}", "header" : )" + header + "}",
             "OP_TRACE");
  // Keys and values are compared unescaped.
  ExpectType(R"({"traceEvents": [], "\u0068eader": {"artifact_\u0074ype": "QH\u0041S"}})", "QHAS");
  // The first header decides, whatever follows it.
  ExpectType(R"({"header": {"artifact_type": "RUN_TRACE"}, "header": {"artifact_type": "QHAS"})",
             "RUN_TRACE");
}

TEST(ArtifactTypeFinder, NoTopLevelHeaderWithATypeIsNotFound) {
  for (const std::string& document : std::vector<std::string>{
           std::string("[1, 2]"), std::string("{}"), std::string(R"({"a": 1})"),
           std::string(R"({"header": 5})"), std::string(R"({"header": {"artifact_type": 5}})"),
           std::string(R"({"header": {"version": 1}})"),
           std::string(R"({"x": {"header": {"artifact_type": "OP_TRACE"}}})"),
           R"({"traceEvents": )" + DecoyEvents(3) + "}",
           // Cut off before the header ends.
           std::string(R"({"traceEvents": [1, 2], "header": {"artifact_type": "OP_TR)"),
           std::string(R"({"traceEvents": [1, 2)"), std::string("not json"), std::string()})
    ExpectType(document, std::nullopt);
}

TEST(ArtifactTypeFinder, APrefixIsUndecidedUntilTheHeaderIsSeen) {
  bool decided = true;
  EXPECT_EQ(FindArtifactType(R"({"traceEvents": [{"a": 1}, )", false, &decided), std::nullopt);
  EXPECT_FALSE(decided);
  EXPECT_EQ(FindArtifactType(R"({"header": {"artifact_type": "QHAS"}, "rows": [)", false, &decided),
            "QHAS");
  EXPECT_TRUE(decided);
}

TEST(DetectArtifactKind, FindsAHeaderWrittenAfterMegabytesOfEvents) {
  const std::string text =
      R"({"traceEvents": )" + DecoyEvents(20000) + R"(, "header": {"artifact_type": "OP_TRACE"}})";
  ASSERT_GT(text.size(), 64 * kArtifactSniffBytes);
  for (bool gzip : {false, true}) {
    SCOPED_TRACE(gzip ? "gzip" : "plain");
    const std::string path = testing_support::WriteTestFile("header_last", text, gzip);
    std::string type;
    EXPECT_EQ(DetectArtifactKind(path, &type), ArtifactKind::kOptrace);
    EXPECT_EQ(type, "OP_TRACE");
    // From its first bytes alone the file is some other JSON.
    EXPECT_EQ(DetectArtifactKindFromPrefix(ReadPrefix(path, kArtifactSniffBytes)),
              ArtifactKind::kOtherJson);
  }
}

}  // namespace
}  // namespace htpscope::artifact_header_test
