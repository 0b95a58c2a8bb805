#include "report/lazy_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace htpscope::lazy_json_test {
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
  for (int indent : {-1, 0, 2, 4}) {
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

// Rows of every value kind, given out of key order: doubles of every
// magnitude and the non-finite ones, integers at their limits, strings that
// need escaping, non-ASCII and DEL, and a row with no members.
void SampleRow(size_t i, JsonRow& row) {
  static const std::string kStrings[] = {"plain",
                                         "with \"quotes\"",
                                         "back\\slash",
                                         "tab\tnew\nline",
                                         "\x01control",
                                         "caf\xC3\xA9",
                                         "del\x7F",
                                         "",
                                         "/model/layers.1/conv"};
  std::mt19937_64 random(i);
  if (i % 11 == 10) return;  // an empty row
  row.String("zeta", kStrings[i % std::size(kStrings)]);
  row.Int("count", static_cast<int64_t>(random()) >> (i % 60));
  row.Unsigned("big", i % 3 ? std::numeric_limits<uint64_t>::max() - i : i);
  const double doubles[] = {std::ldexp(static_cast<double>(random() >> 11), -53 + int(i % 80) - 40),
                            -0.0,
                            1.0,
                            1e21,
                            1e-7,
                            123456.789,
                            std::numeric_limits<double>::quiet_NaN(),
                            std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::denorm_min(),
                            std::numeric_limits<double>::max()};
  row.Double("alpha", doubles[i % std::size(doubles)]);
  row.Double("alpha_raw", std::ldexp(static_cast<double>(random() >> 11), int(i % 200) - 150));
  row.Optional("maybe", i % 2 ? std::optional<double>(0.1 * static_cast<double>(i))
                              : std::optional<double>());
  row.Number("n32", static_cast<uint32_t>(i));
  row.Bool("Flag", i % 2 == 0);
  row.Null("middle");
  row.Int("min", std::numeric_limits<int64_t>::min());
}

TEST(LazyJson, RowArraysPrintAsTheirObjectsDump) {
  LazyObject doc;
  doc.members = {{"label", "rows"}};
  doc.AddRowArray("rows", 500, SampleRow);
  doc.AddRowArray("no_rows", 0, SampleRow);
  for (int indent : {-1, 0, 2, 3}) {
    std::string text;
    WriteLazyJson(doc, indent, [&](std::string_view piece) { text.append(piece); });
    EXPECT_EQ(text, Materialize(doc).dump(indent)) << "indent " << indent;
  }
  // The objects themselves, independently of the row machinery.
  json first = Materialize(doc)["rows"][1];
  EXPECT_EQ(first["zeta"], "with \"quotes\"");
  EXPECT_EQ(first["n32"], 1);
  EXPECT_EQ(first["big"], std::numeric_limits<uint64_t>::max() - 1);
  EXPECT_EQ(first["alpha"], -0.0);
  EXPECT_TRUE(first["middle"].is_null());
  EXPECT_EQ(Materialize(doc)["rows"][10], json::object());
}

// Rows of one array are sorted once while they give the same keys in the
// same order; a row that changes the keys, their order or their number
// must still print in its own key order.
TEST(LazyJson, RowsWhoseKeysChangeStillPrintInKeyOrder) {
  LazyObject doc;
  doc.AddRowArray("rows", 9, [](size_t i, JsonRow& row) {
    switch (i % 3) {
      case 0:  // "b", "a": as the row before it, when there is one
        row.Int("b", static_cast<int64_t>(i));
        row.Int("a", 1);
        break;
      case 1:  // the same keys, given in the other order
        row.Int("a", 2);
        row.Int("b", static_cast<int64_t>(i));
        break;
      default:  // as many keys, one of them new, and then one more
        row.String("c", "x");
        row.Int("a", 3);
        if (i == 5) row.Bool("0", true);
        break;
    }
  });
  std::string text;
  WriteLazyJson(doc, 2, [&](std::string_view piece) { text.append(piece); });
  EXPECT_EQ(text, Materialize(doc).dump(2));
  EXPECT_NE(text.find("{\n      \"0\": true,\n      \"a\": 3,\n      \"c\": \"x\"\n    }"),
            std::string::npos);

  // A key given twice is refused even after rows with the same first keys.
  LazyObject twice;
  twice.AddRowArray("rows", 3, [](size_t i, JsonRow& row) {
    row.Int("a", 1);
    row.Int(i == 2 ? "a" : "b", 2);
  });
  EXPECT_THROW(WriteLazyJson(twice, 2, [](std::string_view) {}), std::logic_error);
}

TEST(LazyJson, RowsRefuseAKeyGivenTwiceAndFollowTheErrorHandler) {
  LazyObject doc;
  doc.AddRowArray("rows", 1, [](size_t, JsonRow& row) {
    row.Int("a", 1);
    row.String("a", "again");
  });
  EXPECT_THROW(Materialize(doc), std::logic_error);
  EXPECT_THROW(WriteLazyJson(doc, 2, [](std::string_view) {}), std::logic_error);

  LazyObject bad;
  bad.AddRowArray("rows", 1, [](size_t, JsonRow& row) { row.String("name", "bad \xFF byte"); });
  std::string text;
  WriteLazyJson(
      bad, 2, [&](std::string_view piece) { text.append(piece); }, json::error_handler_t::replace);
  EXPECT_NE(text.find("bad \xEF\xBF\xBD byte"), std::string::npos);
  EXPECT_THROW(WriteLazyJson(bad, 2, [](std::string_view) {}), json::type_error);
}

// Long row arrays are formatted in blocks of rows, every other block on a
// second thread: the text is still the dump's, whatever the length (one
// block pair, an odd block at the end, a last block of one row), and an
// error in a row of either thread's block comes out as it does in order.
TEST(LazyJson, LongRowArraysFormattedInBlocksPrintAsTheirDump) {
  for (size_t rows : {size_t{4095}, size_t{4096}, size_t{6145}, size_t{12289}}) {
    LazyObject doc;
    doc.members = {{"label", "rows"}};
    doc.AddRowArray("rows", rows, SampleRow);
    doc.AddRowArray("after", 3, SampleRow);
    for (int indent : {-1, 0, 2}) {
      std::string text;
      WriteLazyJson(doc, indent, [&](std::string_view piece) { text.append(piece); });
      EXPECT_EQ(text, Materialize(doc).dump(indent)) << rows << " rows, indent " << indent;
    }
  }
  for (size_t bad_row : {size_t{5}, size_t{2048 + 5}, size_t{4096 + 2048 + 1}}) {
    LazyObject twice;
    twice.AddRowArray("rows", 8192, [bad_row](size_t i, JsonRow& row) {
      row.Int("a", 1);
      row.Int(i == bad_row ? "a" : "b", 2);
    });
    EXPECT_THROW(WriteLazyJson(twice, 2, [](std::string_view) {}), std::logic_error) << bad_row;
    LazyObject bad;
    bad.AddRowArray("rows", 8192, [bad_row](size_t i, JsonRow& row) {
      row.String("name", i == bad_row ? "bad \xFF byte" : "fine");
    });
    EXPECT_THROW(WriteLazyJson(bad, 2, [](std::string_view) {}), json::type_error) << bad_row;
    std::string text;
    WriteLazyJson(
        bad, 2, [&](std::string_view piece) { text.append(piece); },
        json::error_handler_t::replace);
    EXPECT_EQ(text, Materialize(bad).dump(2, ' ', false, json::error_handler_t::replace));
  }
}

}  // namespace
}  // namespace htpscope::lazy_json_test
