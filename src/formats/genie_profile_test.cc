// The Genie profile reader against inputs written from the definition
// (QAIRT Genie's Profile.cpp serialisation, docs "Genie Profile").
#include "formats/genie_profile.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "base/errors.h"
#include "formats/artifact_kind.h"
#include "formats/linting_example_test_util.h"

namespace htpscope::genie_profile_test {
namespace {

std::string ErrorOf(const std::string& text) {
  try {
    simdjson::padded_string json(text);
    ParseGenieProfile("g.json", json);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

constexpr char kHeader[] =
    R"("header": {"header_version": {"major": 0, "minor": 1, "patch": 0},
        "version": {"major": 0, "minor": 1, "patch": 0}, "artifact_type": "GENIE_PROFILE"})";

TEST(GenieProfile, ReadsEveryField) {
  const std::string path = testing_support::ProfileTestdata("genie_profile.json");
  EXPECT_EQ(DetectArtifactKind(path), ArtifactKind::kGenieProfile);
  const GenieProfile p = ReadGenieProfile(path);
  EXPECT_EQ(p.header_version, "0.1.0");
  EXPECT_EQ(p.version, "0.1.0");
  EXPECT_EQ(p.timestamp_us, 8123400000);
  EXPECT_FALSE(p.has_trace_events);
  ASSERT_EQ(p.components.size(), 1u);
  const GenieComponent& c = p.components[0];
  EXPECT_EQ(c.name, "dialog0");
  EXPECT_EQ(c.type, "dialog");
  ASSERT_EQ(c.events.size(), 5u);
  EXPECT_EQ(c.events[0].type, "GenieDialog_create");
  EXPECT_EQ(c.events[0].duration_us, 1184210);
  EXPECT_EQ(c.events[0].start_us, 8123401000);
  EXPECT_EQ(c.events[0].stop_us, 8124585210);
  ASSERT_NE(c.events[0].Find("init-time"), nullptr);
  EXPECT_EQ(c.events[0].Find("init-time")->value, 1180345);
  EXPECT_EQ(c.events[0].Find("init-time")->unit, "us");
  const GenieEvent& q = c.events[1];
  EXPECT_EQ(q.type, "GenieDialog_query");
  ASSERT_EQ(q.metrics.size(), 6u);
  EXPECT_EQ(q.metrics[0].name, "num-prompt-tokens");
  EXPECT_EQ(q.metrics[0].unit, "");
  EXPECT_DOUBLE_EQ(q.Find("prompt-processing-rate")->value, 412.5);
  EXPECT_EQ(q.Find("prompt-processing-rate")->unit, "toks/sec");
  EXPECT_EQ(q.Find("time-to-first-token")->value, 29090);
  EXPECT_EQ(q.Find("num-generated-tokens")->value, 100);
  EXPECT_DOUBLE_EQ(q.Find("token-generation-rate")->value, 21.7);
  EXPECT_EQ(q.Find("token-generation-time")->value, 4608000);
  EXPECT_EQ(c.events[3].Find("token-acceptance-rate")->unit, "toks/iteration");
  EXPECT_EQ(c.events[4].type, "GenieDialog_free");
  EXPECT_TRUE(c.events[4].metrics.empty());
}

TEST(GenieProfile, TraceEventsAndUnknownMetricsAreKept) {
  const std::string text = std::string("{") + kHeader +
                           R"(, "metadata": {"timestamp": 1}, "components": [{"name": "e0",
      "type": "embedding", "events": [{"type": "GenieEmbedding_generate", "duration": 9,
      "start": 2, "stop": 11, "future-metric": {"value": 4, "unit": "bytes"}}]}],
      "traceEvents": [{"name": "x", "ph": "X"}]})";
  simdjson::padded_string json(text);
  const GenieProfile p = ParseGenieProfile("g.json", json);
  EXPECT_TRUE(p.has_trace_events);
  ASSERT_EQ(p.components[0].events[0].metrics.size(), 1u);
  EXPECT_EQ(p.components[0].events[0].metrics[0].unit, "bytes");
}

TEST(GenieProfile, AlmostAGenieProfileIsRefusedNamingWhatIsMissing) {
  EXPECT_NE(ErrorOf(std::string("{") + kHeader + "}").find("no \"components\""), std::string::npos);
  EXPECT_NE(ErrorOf(R"({"components": []})").find("no \"header\""), std::string::npos);
  EXPECT_NE(ErrorOf(R"({"header": {"artifact_type": "OP_TRACE"}, "components": []})")
                .find("not GENIE_PROFILE"),
            std::string::npos);
  EXPECT_NE(ErrorOf(std::string("{") + kHeader +
                    R"(, "components": [{"name": "d", "type": "dialog", "events": [
                        {"type": "GenieDialog_query", "start": 1}]}]})")
                .find("components[0].events[0]: an event has type, start and duration; this "
                      "one lacks duration"),
            std::string::npos);
  EXPECT_NE(ErrorOf(std::string("{") + kHeader +
                    R"(, "components": [{"name": "d", "type": "dialog", "events": [
                        {"type": "GenieDialog_query", "start": 1, "duration": 2,
                         "time-to-first-token": {"value": 3, "unit": "ms"}}]}]})")
                .find("unit \"ms\", where the Genie profile writes \"us\""),
            std::string::npos);
  EXPECT_NE(ErrorOf(std::string("{") + kHeader +
                    R"(, "components": [{"name": "d", "type": "dialog", "events": [
                        {"type": "GenieDialog_query", "start": 1, "duration": 2,
                         "time-to-first-token": {"value": 3}}]}]})")
                .find("has no \"unit\""),
            std::string::npos);
  EXPECT_NE(ErrorOf(std::string("{") + kHeader + R"(, "components": [{"type": "dialog"}]})")
                .find("lacks name"),
            std::string::npos);
}

TEST(GenieProfile, TruncatedAtEveryByteIsALocatedError) {
  std::ifstream in(testing_support::ProfileTestdata("genie_profile.json"));
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  for (size_t n = 1; n + 1 < text.size(); ++n) {  // the last byte is a newline
    try {
      simdjson::padded_string json(text.substr(0, n));
      ParseGenieProfile("g.json", json);
      ADD_FAILURE() << "a prefix of " << n << " bytes was read";
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), "g.json");
      ASSERT_TRUE(e.byte_offset()) << e.what();
      EXPECT_LE(*e.byte_offset(), n) << e.what();
    }
  }
}

}  // namespace
}  // namespace htpscope::genie_profile_test
