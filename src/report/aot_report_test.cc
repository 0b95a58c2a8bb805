#include "report/aot_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace htpscope::aot_report_test {
namespace {

constexpr char kHostile[] = "<lambda> (a&b.py) | \"x\" 'y' `z`";

StageMap Map() { return {"test", {{"quantize", "^q"}}, ""}; }

StageAttribution Attribution(double quantize_seconds, double other_seconds) {
  StageAttribution a;
  a.path = "p";
  a.source = "collapsed stacks";
  a.samples = 10;
  a.total_seconds = quantize_seconds + other_seconds;
  a.gc_seconds = 0.5;
  a.stages = {{"quantize",
               "^q",
               quantize_seconds,
               quantize_seconds / a.total_seconds * 100,
               0.5,
               {{kHostile, quantize_seconds}}},
              {"other", "", other_seconds, other_seconds / a.total_seconds * 100, 0, {}}};
  a.self_seconds = {{kHostile, quantize_seconds}};
  return a;
}

TEST(AotReport, OneProfileTextMarkdownJson) {
  StageAttribution a = Attribution(3, 1);
  std::string text = RenderAotAttribution(a, Map(), AotFormat::kText);
  EXPECT_NE(text.find("  quantize       3.00   75.0 %  0.500 (16.7 %)\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  total          4.00  100.0 %  0.500 (12.5 %)\n"), std::string::npos)
      << text;
  std::string md = RenderAotAttribution(a, Map(), AotFormat::kMarkdown);
  // In a table cell: '|' escaped, the frame in a code span with its backtick replaced.
  EXPECT_NE(md.find("`<lambda> (a&b.py) \\| \"x\" 'y' 'z'`"), std::string::npos) << md;
  auto j = nlohmann::json::parse(RenderAotAttribution(a, Map(), AotFormat::kJson));
  EXPECT_EQ(j["schema"], "htpscope.aot/1");
  EXPECT_EQ(j["stages"][0]["top_self_frames"][0]["frame"], kHostile);
  EXPECT_DOUBLE_EQ(j["stages"][0]["gc_seconds"].get<double>(), 0.5);
}

TEST(AotReport, DiffJsonCarriesGcAndFrames) {
  StageAttribution a = Attribution(4, 1), b = Attribution(3, 1);
  AotDiff d = DiffAot(a, b, 10);
  auto j = nlohmann::json::parse(RenderAotDiff(d, a, b, Map(), {}, AotFormat::kJson));
  EXPECT_EQ(j["schema"], "htpscope.aot_diff/1");
  EXPECT_DOUBLE_EQ(j["stages"][0]["improvement_pct"].get<double>(), 25);
  EXPECT_DOUBLE_EQ(j["total"]["improvement_pct"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(j["stages"][0]["a_gc_seconds"].get<double>(), 0.5);
  EXPECT_EQ(j["frames"][0]["frame"], kHostile);
  EXPECT_DOUBLE_EQ(j["frames"][0]["change_seconds"].get<double>(), -1);
  EXPECT_EQ(j["exit_status"], 0);
}

TEST(AotReport, SvgEscapesFrameNamesAndColoursChanges) {
  FlameTree t;
  t.differential = true;
  t.stage_names = {"quantize"};
  t.nodes.resize(3);
  t.nodes[0] = {"", 4, 4, -1, {1, 2}};
  t.nodes[1] = {kHostile, 3, 1, 0, {}};  // B faster: blue
  t.nodes[2] = {"grows", 1, 3, -1, {}};  // B slower: red
  std::string svg = RenderAotFlameSvg(t, "A & B <diff>");
  EXPECT_NE(svg.find("A &amp; B &lt;diff&gt;"), std::string::npos);
  EXPECT_NE(svg.find("&lt;lambda&gt; (a&amp;b.py) | &quot;x&quot; &apos;y&apos;"),
            std::string::npos)
      << svg;
  EXPECT_EQ(svg.find("<lambda>"), std::string::npos);
  // The largest change (2 s either way) gets full intensity.
  EXPECT_NE(svg.find("fill=\"rgb(0,0,255)\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("fill=\"rgb(255,0,0)\""), std::string::npos) << svg;
  // Widths are B's seconds: 1 of 4 s and 3 of 4 s of the 1180 px.
  EXPECT_NE(svg.find("width=\"295.00\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("width=\"885.00\""), std::string::npos) << svg;
}

}  // namespace
}  // namespace htpscope::aot_report_test
