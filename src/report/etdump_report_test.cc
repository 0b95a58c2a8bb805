#include "report/etdump_report.h"

#include <gtest/gtest.h>

namespace htpscope::etdump_report_test {
namespace {

// A run built by hand: one block, a delegate event and an event whose name
// carries terminal control characters.
struct Sample {
  EtdumpRun run;
  EtdumpSummary summary;
  Sample() {
    run.path = "run.etdp";
    EtdumpBlock block;
    block.name = "Execute";
    block.debug_events = 2;
    EtdumpProfileRow a;
    a.name = run.strings.Intern("evil\x1b]0;title\x07\nrow");
    a.start_ticks = 5;
    a.end_ticks = 15;
    a.duration_ticks = 10;
    EtdumpProfileRow d;
    d.delegate = true;
    d.delegate_debug_id_int = 9;
    d.name = run.strings.Intern("delegate_debug_id 9");
    d.end_ticks = 300;
    d.duration_ticks = 300;
    block.profile_events = {a, d, d};
    run.blocks.push_back(block);
    summary = SummarizeEtdump(run);
  }
};

TEST(EtdumpReport, JsonHasRunsEventsAndSortedOpTotals) {
  Sample s;
  nlohmann::ordered_json j = EtdumpToJson(s.summary);
  EXPECT_EQ(j["file"], "run.etdp");
  ASSERT_EQ(j["runs"].size(), 1u);
  EXPECT_EQ(j["runs"][0]["name"], "Execute");
  EXPECT_EQ(j["runs"][0]["debug_events"], 2);
  ASSERT_EQ(j["runs"][0]["events"].size(), 3u);
  EXPECT_EQ(j["runs"][0]["events"][0]["duration_ticks"], 10);
  EXPECT_EQ(j["runs"][0]["events"][1]["delegate_debug_id_int"], 9);
  ASSERT_EQ(j["op_totals"].size(), 2u);
  EXPECT_EQ(j["op_totals"][0]["name"], "delegate_debug_id 9");
  EXPECT_EQ(j["op_totals"][0]["count"], 2);
  EXPECT_EQ(j["op_totals"][0]["total_ticks"], 600);
  EXPECT_EQ(j["op_totals"][0]["delegate"], true);
  EXPECT_EQ(j["op_totals"][1]["total_ticks"], 10);
  EXPECT_EQ(j["op_totals"][1]["delegate"], false);
}

TEST(EtdumpReport, TextEscapesControlCharactersAndCutsAtTop) {
  Sample s;
  std::string text = RenderEtdumpText(s.summary, 1);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find('\x07'), std::string::npos);
  EXPECT_NE(text.find("Run 'Execute': 3 profile events, 2 debug events"), std::string::npos);
  EXPECT_NE(text.find("delegate_debug_id 9        2               600  delegate id 9"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("... 1 more event names not shown"), std::string::npos);
  std::string all = RenderEtdumpText(s.summary, 10);
  EXPECT_NE(all.find("evil\\x1b]0;title\\x07\\x0arow"), std::string::npos) << all;
}

}  // namespace
}  // namespace htpscope::etdump_report_test
