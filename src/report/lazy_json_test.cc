#include "report/lazy_json.h"

#include <gtest/gtest.h>

#include <string>

namespace htpscope {
namespace {

using nlohmann::json;

// A document with every kind of member: small values of each type, a nested
// lazy object, an empty and a long lazy array whose elements hold arrays.
LazyObject SampleDocument(size_t* elements_built) {
  LazyObject doc;
  doc.members = {{"label", "run \"a\"\n\xC3\xA9"},
                 {"count", 3},
                 {"ratio", 0.125},
                 {"none", nullptr},
                 {"empty_object", json::object()},
                 {"small", json::array({1, 2, 3, 4, 5})},
                 {"Upper", true}};
  doc.AddArray("rows", 7, [elements_built](size_t i) {
    ++*elements_built;
    return json{{"i", i}, {"ids", json::array({i, i + 1, i + 2, i + 3})}, {"nested", {{"x", i}}}};
  });
  doc.AddArray("empty_rows", 0, [](size_t) { return json(); });
  doc.AddObjectArray("threads", 2, [](size_t t) {
    LazyObject thread;
    thread.members = {{"tid", 512 + t}};
    thread.AddArray("slices", 5, [t](size_t i) { return json{{"start", t * 100 + i}}; });
    return thread;
  });
  LazyObject inner;
  inner.members = {{"wall_cycles", 100}};
  inner.AddArray("segments", 2, [](size_t i) { return json{{"start", i * 10}}; });
  doc.AddObject("dominant_path", std::move(inner));
  return doc;
}

TEST(LazyJson, WrittenTextIsTheMaterializedDump) {
  size_t built = 0;
  LazyObject doc = SampleDocument(&built);
  for (int indent : {0, 2, 4}) {
    std::string text;
    WriteLazyJson(doc, indent, [&](std::string_view piece) { text.append(piece); });
    EXPECT_EQ(text, Materialize(doc).dump(indent)) << "indent " << indent;
  }
}

TEST(LazyJson, MaterializeHoldsEveryMemberInKeyOrder) {
  size_t built = 0;
  json j = Materialize(SampleDocument(&built));
  EXPECT_EQ(built, 7u);
  ASSERT_EQ(j["rows"].size(), 7u);
  EXPECT_EQ(j["rows"][6]["ids"], json::array({6, 7, 8, 9}));
  EXPECT_EQ(j["dominant_path"]["segments"][1]["start"], 10);
  EXPECT_EQ(j["dominant_path"]["wall_cycles"], 100);
  EXPECT_EQ(j["empty_rows"], json::array());
  EXPECT_EQ(j["threads"][1]["slices"][4]["start"], 104);
  EXPECT_EQ(j["threads"][1]["tid"], 513);
  EXPECT_FALSE(j.contains("_truncated"));
  // "Upper" < "_truncated" < "count" < ... byte-wise, as nlohmann orders keys.
  EXPECT_EQ(j.begin().key(), "Upper");
}

TEST(LazyJson, CappedMaterializeEqualsCappingTheWholeAndBuildsOnlyWhatIsKept) {
  size_t built = 0;
  LazyObject doc = SampleDocument(&built);
  json whole = Materialize(doc);
  built = 0;
  json capped = Materialize(doc, 3);
  EXPECT_EQ(built, 3u);
  EXPECT_EQ(capped, CapArrays(whole, 3));
  EXPECT_EQ(capped["_truncated"], (json{{"rows", 7}, {"small", 5}}));
  EXPECT_EQ(capped["rows"][2]["_truncated"], (json{{"ids", 4}}));
  EXPECT_EQ(capped["rows"][2]["ids"], json::array({2, 3, 4}));
  EXPECT_EQ(capped["threads"][0]["_truncated"], (json{{"slices", 5}}));
}

TEST(LazyJson, LongOutputComesInPieces) {
  LazyObject doc;
  doc.AddArray("rows", 100000, [](size_t i) { return json{{"name", "row"}, {"i", i}}; });
  std::string text;
  size_t pieces = 0;
  WriteLazyJson(doc, 2, [&](std::string_view piece) {
    text.append(piece);
    ++pieces;
    EXPECT_LE(piece.size(), (1u << 20) + 4096);
  });
  EXPECT_GT(pieces, 1u);
  EXPECT_EQ(text, Materialize(doc).dump(2));
}

// A nested lazy object is found by key (and its arrays can be taken from
// it); small members and absent keys are not nested objects.
TEST(LazyJson, FindObjectReachesNestedLazyObjects) {
  size_t built = 0;
  LazyObject doc = SampleDocument(&built);
  LazyObject* path = FindObject(doc, "dominant_path");
  ASSERT_NE(path, nullptr);
  EXPECT_EQ(path->members["wall_cycles"], 100);
  LazyArray segments = TakeArray(*path, "segments");
  EXPECT_EQ(segments.size, 2u);
  path->members["segments"] = FirstElements(segments, 1);
  EXPECT_EQ(Materialize(doc)["dominant_path"]["segments"], json::array({{{"start", 0}}}));
  EXPECT_EQ(FindObject(doc, "small"), nullptr);
  EXPECT_EQ(FindObject(doc, "absent"), nullptr);
}

TEST(LazyJson, TwoMembersOfOneNameAreRefused) {
  LazyObject doc;
  doc.members["rows"] = 1;
  doc.AddArray("rows", 1, [](size_t) { return json(1); });
  EXPECT_THROW(Materialize(doc), std::logic_error);
  EXPECT_THROW(WriteLazyJson(doc, 2, [](std::string_view) {}), std::logic_error);
}

TEST(LazyJson, InvalidUtf8FollowsTheErrorHandler) {
  LazyObject doc;
  doc.AddArray("names", 1, [](size_t) { return json("bad \xFF byte"); });
  std::string text;
  WriteLazyJson(
      doc, 2, [&](std::string_view piece) { text.append(piece); }, json::error_handler_t::replace);
  EXPECT_NE(text.find("bad \xEF\xBF\xBD byte"), std::string::npos);
  EXPECT_THROW(WriteLazyJson(doc, 2, [](std::string_view) {}), json::type_error);
}

}  // namespace
}  // namespace htpscope
