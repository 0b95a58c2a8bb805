#include "report/timeline_report.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "base/corpus_test_util.h"
#include "model/fake_run_test_util.h"
#include "report/format_util.h"

namespace htpscope::timeline_report_test {
namespace {

using testing_support::FakeRun;
using testing_support::FakeSlice;
using testing_support::OptraceJson;

// Names from input files reach the SVG: they must not break the XML.  The
// JSON text below decodes to  a<b>&"c'  and a control character.
Run HostileNames() {
  return FakeRun(
      OptraceJson({
          {0x0000000100000002, "In<put>", "q::*InputSlice", "dma", 256, 0, 100},
          {0x0000000200000010, R"(a<b>&\"c'\u0001)", "q::Conv]]>", "uses_hvx", 512, 100, 400},
          {0x0000000300000010, "@Spill", "@Spill", "dma", 256, 100, 50},
      }),
      "");
}

// Runs xmllint --noout on `svg`; returns its exit status.
int XmlLint(const std::string& svg, const std::string& name) {
  std::string path = testing_support::TempDir("svg") + "/" + name + ".svg";
  std::ofstream(path) << svg;
  return std::system(("xmllint --noout '" + path + "'").c_str());
}

TEST(TimelineReport, XmlEscapeAndAsciiFit) {
  EXPECT_EQ(XmlEscape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(XmlEscape(std::string("x\x01y\xff", 4)), "x?y?");
  EXPECT_EQ(XmlEscape("µs ÷"), "µs ÷");  // valid UTF-8 is kept
  EXPECT_EQ(AsciiFit("abcdefgh", 5), "abc..");
  EXPECT_EQ(AsciiFit("µ", 5), "??");
  EXPECT_EQ(DescribeThreads({256, 512, 513, 515}), "HMX 256, HVX 512-513, 515");
}

TEST(TimelineReport, SvgIsWellFormedXmlEvenWithHostileNames) {
  ASSERT_EQ(std::system("command -v xmllint > /dev/null"), 0)
      << "xmllint (libxml2-utils, scripts/debian-packages.txt) is needed to check the SVG";
  htpscope::Run run = HostileNames();
  Timeline t = BuildTimeline(run, Grouping{}, {});
  std::string svg = RenderTimelineSvg(t, run);
  EXPECT_EQ(XmlLint(svg, "hostile"), 0) << svg;
  EXPECT_NE(svg.find("a&lt;b&gt;&amp;&quot;c&apos;?"), std::string::npos);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  // A deliberately broken document fails the same check: the check can fail.
  EXPECT_NE(XmlLint("<svg><rect></svg>", "broken"), 0);
}

TEST(TimelineReport, TextShowsRowsMarksAndGroupLines) {
  htpscope::Run run = HostileNames();
  Timeline t = BuildTimeline(run, Grouping{}, {});
  std::string text = RenderTimelineText(t, 50);
  // 500 cycles over 50 columns: 10 per column.  Row 256: input slice (/) for
  // 10 columns, the spill (%) for 5, then idle; row 512: idle 10, the op 40.
  EXPECT_NE(text.find("HMX 256    //////////%%%%%..................................."),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("HVX 512    ..........BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"),
            std::string::npos)
      << text;
  for (char c : text) ASSERT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7f)) << int(c);
  EXPECT_NE(text.find("a<b>&\"c'?"), std::string::npos);
}

TEST(TimelineReport, JsonCarriesTheDocumentedFields) {
  htpscope::Run run = HostileNames();
  Timeline t = BuildTimeline(run, Grouping{}, {});
  nlohmann::json j = Materialize(TimelineJson(t, run));
  ASSERT_EQ(j["groups"].size(), 3u);
  const auto& g = j["groups"][1];
  for (const char* key : {"name", "start_cycle", "end_cycle", "busy_cycles", "span_cycles",
                          "max_concurrency", "busy_over_span", "tids"})
    EXPECT_TRUE(g.contains(key)) << key;
  EXPECT_EQ(g["busy_cycles"], 400);
  EXPECT_EQ(g["max_concurrency"], 1);
  EXPECT_TRUE(j.contains("hmx_hvx_overlap_pct"));
  EXPECT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(j["rows"][0]["slices"][1]["mark"], "spill/fill");
}

TEST(TimelineReportCorpus, GdnSvgIsWellFormed) {
  HTPSCOPE_REQUIRE_CORPUS("gdn_hvx_int16");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("gdn_hvx_int16")});
  Timeline t = BuildTimeline(run, Grouping{}, {});
  std::string svg = RenderTimelineSvg(t, run);
  EXPECT_EQ(XmlLint(svg, "gdn"), 0);
  EXPECT_NE(svg.find("GdnSolve_0 (B, conc 4)"), std::string::npos);
}

}  // namespace
}  // namespace htpscope::timeline_report_test
