#include "report/html_report.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include "base/corpus_test_util.h"
#include "model/fake_run_test_util.h"
#include "model/figures.h"
#include "report/device_profile_report.h"
#include "report/summary_report.h"

namespace htpscope::html_report_test {
namespace {

using nlohmann::json;
using testing_support::CorpusRun;
using testing_support::TempDir;

const char kHostile[] = "</script><img src=x onerror=alert(1)>&amp;\xE2\x80\xA8\xE2\x80\xA9";

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// The text between <script type="application/json" id="data"> and </script>.
std::string EmbeddedData(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"data\">";
  size_t begin = page.find(open);
  EXPECT_NE(begin, std::string::npos);
  begin += open.size();
  size_t end = page.find("</script>", begin);
  EXPECT_NE(end, std::string::npos);
  return page.substr(begin, end - begin);
}

TEST(HtmlReportEscaping, ScriptJsonHasNoMarkupCharactersAndParsesBack) {
  json value = {{"name", kHostile}, {"list", {kHostile, "a<b", "x>y&z"}}};
  std::string text = JsonForHtmlScript(value);
  EXPECT_EQ(text.find('<'), std::string::npos);
  EXPECT_EQ(text.find('>'), std::string::npos);
  EXPECT_EQ(text.find('&'), std::string::npos);
  EXPECT_EQ(text.find("\xE2\x80\xA8"), std::string::npos);
  EXPECT_EQ(text.find("\xE2\x80\xA9"), std::string::npos);
  EXPECT_NE(text.find("\\u003c/script\\u003e\\u003cimg src=x onerror=alert(1)\\u003e\\u0026amp;"
                      "\\u2028\\u2029"),
            std::string::npos)
      << text;
  EXPECT_EQ(json::parse(text), value);
}

TEST(HtmlReportEscaping, InvalidUtf8BecomesReplacementCharacter) {
  json value = {{"name", std::string("op\xFF\xFEname")}};
  json back = json::parse(JsonForHtmlScript(value));
  EXPECT_EQ(back["name"], "op\xEF\xBF\xBD\xEF\xBF\xBDname");
}

TEST(HtmlReportEscaping, PageCarriesHostileStringsOnlyInsideTheJson) {
  json model = {{"schema", "htpscope.report/1"},
                {"title", std::string("run ") + kHostile},
                {"lint", {{"op", kHostile}}}};
  std::string page = RenderHtmlReport(model);
  EXPECT_EQ(Count(page, "<img"), 0u);
  EXPECT_EQ(Count(page, "onerror=alert"), 3u);  // <title> + the JSON's title and op
  EXPECT_NE(page.find("<title>run &lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&amp;amp;"),
            std::string::npos);
  // Exactly the data script and the page script end.
  EXPECT_EQ(Count(page, "</script>"), 2u);
  EXPECT_EQ(json::parse(EmbeddedData(page)), model);
}

TEST(HtmlReportEscaping, DiffPageHoldsTheDiffSection) {
  json diff = {{"schema", "htpscope.diff/1"}, {"ops", {{{"name", "conv<1>"}}}}};
  std::string page = RenderDiffHtml(diff, "A <vs> B");
  json data = json::parse(EmbeddedData(page));
  EXPECT_EQ(data["diff"], diff);
  EXPECT_EQ(data["title"], "A <vs> B");
  EXPECT_NE(page.find("<title>A &lt;vs&gt; B</title>"), std::string::npos);
}

SliceRow Slice(int64_t start, int64_t dur) {
  SliceRow s;
  s.start_cycle = start;
  s.dur_cycles = dur;
  return s;
}

std::vector<uint32_t> All(const std::vector<SliceRow>& slices) {
  std::vector<uint32_t> out(slices.size());
  for (uint32_t i = 0; i < out.size(); ++i) out[i] = i;
  return out;
}

TEST(HtmlReportTimeline, WideSlicesStayExactNarrowOnesMergePerPixel) {
  // pixel = 50 cycles.  Slice 0 is wide; slices 1..10 are 1 cycle each at
  // 200..209 (column 4); slice 11 is alone in column 6; 12 and 13 share
  // column 8 and are given out of order.
  std::vector<SliceRow> slices = {Slice(1000, 100)};
  for (int i = 0; i < 10; ++i) slices.push_back(Slice(1200 + i, 1));
  slices.push_back(Slice(1300, 20));
  slices.push_back(Slice(1420, 30));
  slices.push_back(Slice(1400, 10));
  auto bars = DownsampleThreadSlices(slices, All(slices), 1000, 50.0);
  ASSERT_EQ(bars.size(), 4u);
  EXPECT_EQ(bars[0].slice_count, 1u);
  EXPECT_EQ(bars[0].slice_index, 0u);
  EXPECT_EQ(bars[0].busy_cycles, 100);
  EXPECT_EQ(bars[1].start_cycles, 1200);
  EXPECT_EQ(bars[1].end_cycles, 1210);
  EXPECT_EQ(bars[1].slice_count, 10u);
  EXPECT_EQ(bars[1].busy_cycles, 10);
  EXPECT_EQ(bars[2].slice_count, 1u);  // alone in its column: exact
  EXPECT_EQ(bars[2].slice_index, 11u);
  EXPECT_EQ(bars[2].end_cycles, 1320);
  EXPECT_EQ(bars[3].start_cycles, 1400);
  EXPECT_EQ(bars[3].end_cycles, 1450);
  EXPECT_EQ(bars[3].slice_count, 2u);
  EXPECT_EQ(bars[3].busy_cycles, 40);
  EXPECT_EQ(bars[3].slice_index, 12u);  // the longest merged slice names the bar
}

TEST(HtmlReportTimeline, DownsamplingPreservesBusyCyclesAndBoundsBars) {
  // 200,000 back-to-back slices, mostly far narrower than a pixel.
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> dur(1, 40), gap(0, 5);
  std::vector<SliceRow> slices;
  int64_t t = 5000, busy = 0;
  for (int i = 0; i < 200000; ++i) {
    int64_t d = i % 1000 == 0 ? 60000 : dur(rng);  // every 1000th slice is wide
    slices.push_back(Slice(t, d));
    busy += d;
    t += d + gap(rng);
  }
  const int width_px = 4000;
  const double pixel = static_cast<double>(t - 5000) / width_px;
  auto bars = DownsampleThreadSlices(slices, All(slices), 5000, pixel);
  int64_t bar_busy = 0;
  size_t exact = 0, merged_slices = 0;
  for (size_t i = 0; i < bars.size(); ++i) {
    bar_busy += bars[i].busy_cycles;
    if (i) {
      EXPECT_LE(bars[i - 1].start_cycles, bars[i].start_cycles);
    }
    if (bars[i].slice_count == 1) ++exact;
    merged_slices += bars[i].slice_count;
  }
  EXPECT_EQ(bar_busy, busy);
  EXPECT_EQ(merged_slices, slices.size());
  // Non-overlapping slices: at most one per pixel is wide, and at most one
  // aggregate per column.
  EXPECT_LE(bars.size(), 2u * width_px + 2);
  EXPECT_GE(exact, 200u);  // the wide slices survive exactly
  EXPECT_LT(bars.size(), slices.size() / 10);
}

TEST(HtmlReportTimeline, CounterKeepsItsPeakPerPixel) {
  std::vector<CounterSampleRow> samples;
  for (int i = 0; i < 10000; ++i) samples.push_back({100 + i, (i * 37) % 1000});
  samples.push_back({5555, 123456});  // the peak, given out of order
  auto points = DownsampleCounter(samples, 100, 10.0);
  EXPECT_LE(points.size(), 1001u);
  int64_t peak = 0;
  for (const auto& p : points) peak = std::max(peak, p.max_value);
  EXPECT_EQ(peak, 123456);
  EXPECT_EQ(points.front().ts_cycle, 100);
  EXPECT_EQ(points.back().last_value, (9999 * 37) % 1000);
}

// In time order (no copy sorted) and shuffled (sorted stably), the same
// columns: samples sharing a timestamp keep their order, so the last one
// given is the column's last value.
TEST(HtmlReportTimeline, CounterInTimeOrderOrNotGivesTheSameColumns) {
  const std::vector<CounterSampleRow> in_order = {{100, 5}, {104, 9}, {109, 2}, {110, 7},
                                                  {110, 3}, {125, 4}, {125, 8}};
  const std::vector<CounterSampleRow> shuffled = {{125, 4}, {110, 7}, {100, 5}, {125, 8},
                                                  {109, 2}, {110, 3}, {104, 9}};
  // Columns [100, 110), [110, 120), [120, 130): (first ts, min, max, last).
  const std::vector<std::array<int64_t, 4>> expected = {
      {100, 2, 9, 2}, {110, 3, 7, 3}, {125, 4, 8, 8}};
  for (const auto& samples : {in_order, shuffled}) {
    std::vector<std::array<int64_t, 4>> columns;
    for (const auto& p : DownsampleCounter(samples, 100, 10.0))
      columns.push_back({p.ts_cycle, p.min_value, p.max_value, p.last_value});
    EXPECT_EQ(columns, expected);
  }
}

// The escaper on a text cut into two and three pieces at every position
// equals the escaper on the whole text, which equals the escapes written out
// by hand: separators split between pieces are still escaped, and bytes held
// back that do not complete one are written as they are.
TEST(ScriptJsonEscaper, PiecesCutAnywhereGiveTheWholeTextsEscapes) {
  const std::string text =
      "a<b>\xE2\x80\xA8&c\xE2\x80\xA9\xE2\x80x\xE2\xE2\x80\xA8\xE2\x80\xE2\x80\xA9</s>\xE2";
  const std::string expected =
      "a\\u003cb\\u003e\\u2028\\u0026c\\u2029\xE2\x80x\xE2\\u2028\xE2\x80\\u2029\\u003c/s\\u003e"
      "\xE2";
  auto escape = [](const std::vector<std::string_view>& pieces) {
    std::string out;
    ScriptJsonEscaper escaper(&out);
    for (auto piece : pieces) escaper.Append(piece);
    escaper.Finish();
    return out;
  };
  const std::string_view all(text);
  EXPECT_EQ(escape({all}), expected);
  for (size_t cut = 0; cut <= text.size(); ++cut) {
    EXPECT_EQ(escape({all.substr(0, cut), all.substr(cut)}), expected) << "cut at " << cut;
    for (size_t second = cut; second <= text.size(); ++second)
      EXPECT_EQ(escape({all.substr(0, cut), all.substr(cut, second - cut), all.substr(second)}),
                expected)
          << "cut at " << cut << " and " << second;
  }
}

// Long texts (the escaper looks for bytes to escape 16 at a time) with
// escapes at every offset of a block, whole and cut into three pieces,
// against the escapes written out one byte at a time.
TEST(ScriptJsonEscaper, LongTextsMatchAByteByByteEscape) {
  auto by_hand = [](std::string_view t) {
    std::string out;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] == '<') {
        out += "\\u003c";
      } else if (t[i] == '>') {
        out += "\\u003e";
      } else if (t[i] == '&') {
        out += "\\u0026";
      } else if (t.substr(i, 3) == "\xE2\x80\xA8" || t.substr(i, 3) == "\xE2\x80\xA9") {
        out += t[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
        i += 2;
      } else {
        out += t[i];
      }
    }
    return out;
  };
  const std::vector<std::string> specials = {"<",        ">",   "&", "\xE2\x80\xA8", "\xE2\x80\xA9",
                                             "\xE2\x80", "\xE2"};
  std::mt19937 rng(3);
  for (int round = 0; round < 400; ++round) {
    std::string text;
    const size_t length = rng() % 120;
    while (text.size() < length)
      text += rng() % 6 == 0 ? specials[rng() % specials.size()] : std::string(1, 'a' + rng() % 26);
    const size_t cut1 = rng() % (text.size() + 1), cut2 = cut1 + rng() % (text.size() - cut1 + 1);
    std::string whole, pieces;
    {
      ScriptJsonEscaper escaper(&whole);
      escaper.Append(text);
      escaper.Finish();
    }
    {
      ScriptJsonEscaper escaper(&pieces);
      const std::string_view t(text);
      escaper.Append(t.substr(0, cut1));
      escaper.Append(t.substr(cut1, cut2 - cut1));
      escaper.Append(t.substr(cut2));
      escaper.Finish();
    }
    EXPECT_EQ(whole, by_hand(text)) << "round " << round;
    EXPECT_EQ(pieces, whole) << "round " << round << ", cut at " << cut1 << " and " << cut2;
  }
}

// Profile text of three executions of 30 nodes op_<n><suffix>:OpId_<n + 5>,
// node n of execution e taking 100 e + n cycles.
std::string ThirtyNodesThreeTimes(std::string_view suffix = "") {
  std::string text;
  for (int e = 1; e <= 3; ++e) {
    text +=
        fmt::format("Execute Stat {}:\n    Accelerator (execute) time (cycles): 1000 cycles\n", e);
    for (int n = 0; n < 30; ++n)
      text += fmt::format("        op_{}{}:OpId_{} (cycles) : {}  cycles\n", n, suffix, n + 5,
                          100 * e + n);
  }
  return text;
}

TEST(HtmlReportModel, OpWarmupIsCappedAtTheTableRows) {
  htpscope::Run run = testing_support::RunOfText("profile.txt", ThirtyNodesThreeTimes());
  Summary summary = Summarize(run);
  ASSERT_EQ(summary.op_warmup.size(), 30u);
  HtmlReportOptions options;
  options.max_table_rows = 10;
  json model = BuildReportModel(summary, options);
  EXPECT_EQ(model["overview"]["op_warmup"].size(), 10u);
  EXPECT_EQ(model["overview"]["op_warmup_total_rows"], 30);
}

// The report command writes the lazy model straight into the page: the page
// must be the one the built model gives, lists cut and all.
TEST(HtmlReportModel, LazyModelRendersTheBuiltModelsPage) {
  htpscope::Run run = testing_support::RunOfText("profile.txt", ThirtyNodesThreeTimes("<&>\u2028"));
  Summary summary = Summarize(run);
  for (size_t max_rows : {size_t{4}, kDefaultMaxTableRows}) {
    SCOPED_TRACE(max_rows);
    HtmlReportOptions options;
    options.max_table_rows = max_rows;
    const std::string page = RenderHtmlReport(BuildLazyReportModel(summary, options));
    EXPECT_EQ(page, RenderHtmlReport(BuildReportModel(summary, options)));
    const json data = json::parse(EmbeddedData(page));
    EXPECT_EQ(data["overview"]["op_warmup"].size(), std::min<size_t>(max_rows, 30));
    EXPECT_EQ(Count(page, "op_0<&>"), 0u);  // escaped inside the page's JSON
    EXPECT_EQ(data["overview"]["op_warmup"][0]["name"].get<std::string>().find("<&>\u2028"), 4u);
  }
}

// A profile CSV given with an AI Hub profile, a Genie profile and a runner's
// log: the page keeps its HTP sections and carries each profile's view, the
// very one the device-only page prints.
TEST(HtmlReportModel, MixedRunCarriesTheDeviceProfileViews) {
  const std::string testdata = std::string(HTPSCOPE_SOURCE_DIR) + "/src/formats/testdata/";
  htpscope::Run run = LoadRun({testdata + "netrun_phases.csv", testdata + "aihub_profile.json",
                               testdata + "genie_profile.json", testdata + "llm_runner_stats.log"});
  Summary summary = Summarize(run);
  HtmlReportOptions options;
  options.max_table_rows = 2;
  const std::string page = RenderHtmlReport(BuildLazyReportModel(summary, options));
  const json data = json::parse(EmbeddedData(page));
  EXPECT_TRUE(data.contains("overview"));
  EXPECT_EQ(data["overview"]["profile_phases"].size(), 2u);  // capped as before
  const json views = DeviceProfileViews(run, 2);
  for (const char* key : {"aihub", "genie", "llm_runner"}) {
    SCOPED_TRACE(key);
    ASSERT_TRUE(data.contains(key));
    EXPECT_EQ(data[key], views[key]);
  }
  // The AI Hub layers are capped as the op tables: the 2 slowest of 8.
  const json* layers = nullptr;
  for (const json& b : data["aihub"]["blocks"])
    if (b["kind"] == "table" && b["table"]["id"] == "aihub_layers") layers = &b["table"];
  ASSERT_NE(layers, nullptr);
  EXPECT_EQ((*layers)["rows"].size(), 2u);
  EXPECT_EQ((*layers)["rows"][0][1], "resize");   // 1,250 µs
  EXPECT_EQ((*layers)["rows"][1][1], "softmax");  // 2,900 µs
  EXPECT_EQ((*layers)["total_rows"], 8);
  // A run without them has none of their keys.
  htpscope::Run csv = LoadRun({testdata + "netrun_phases.csv"});
  const json plain = BuildReportModel(Summarize(csv));
  EXPECT_FALSE(plain.contains("aihub") || plain.contains("genie") || plain.contains("llm_runner"));
}

// The page explains each warning code the run has in the warning registry's
// words (the example run warns multi_slice_dpc and single_execution_trace).
TEST(HtmlReportModel, WarningExplanationsAreTheRegistrys) {
  htpscope::Run run = LoadRun({std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run"});
  Summary summary = Summarize(run);
  ASSERT_FALSE(summary.warnings.empty());
  const json model = BuildReportModel(summary);
  const json& explanations = model["warning_explanations"];
  std::set<std::string> codes;
  for (const WarningRow& w : summary.warnings) {
    const std::string code(WarningName(w.code));
    codes.insert(code);
    std::string want(WarningInfo(w.code).description);
    std::erase(want, '`');
    EXPECT_EQ(explanations.value(code, ""), want) << code;
  }
  EXPECT_TRUE(codes.count("multi_slice_dpc"));
  EXPECT_EQ(explanations.size(), codes.size());
}

// The overview's cards say what their figure is in the figure registry's
// words: the model carries every run-level figure's description.
TEST(HtmlReportModel, FigureDescriptionsAreTheRegistrys) {
  htpscope::Run run = LoadRun({std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run"});
  const json model = BuildReportModel(Summarize(run));
  const json& descriptions = model["figure_descriptions"];
  ASSERT_TRUE(descriptions.is_object());
  EXPECT_EQ(descriptions.size(), kFigureCount);
  // The figures of the overview's cards (the work card shows the traced
  // execution's work).
  for (Figure f : {Figure::kWallUs, Figure::kColdWallUs, Figure::kComputeBusyUs,
                   Figure::kOverheadUs, Figure::kGraphWallCycles, Figure::kDomainCycles,
                   Figure::kTracedWorkCycles, Figure::kDpcSumCycles, Figure::kPeakVtcmBytes}) {
    const std::string name = FigureName(f);
    ASSERT_TRUE(descriptions.contains(name)) << name;
    std::string want(InfoOf(f).description);
    std::erase(want, '`');  // the page shows no Markdown
    EXPECT_EQ(descriptions[name], want) << name;
  }
  EXPECT_EQ(descriptions["domain_cycles"],
            "traced execution: the busiest thread's cycles_used (threads run in parallel: real "
            "time follows the busiest)");
}

TEST(HtmlReportModel, CorpusRunKeepsSummaryFiguresAndEveryCycle) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({CorpusRun("v8c8_256")});
  Summary summary = Summarize(run);
  json model = BuildReportModel(summary);
  json expected = SummaryToJson(summary);
  ASSERT_EQ(expected["ops"].size(), 13u);
  EXPECT_EQ(model["tables"]["qnn_ops"]["total_rows"], 13);
  EXPECT_EQ(model["tables"]["htp_op_types"]["rows"].size(), 7u);
  EXPECT_EQ(model["tables"]["instances"]["rows"].size(), 53u);
  expected.erase("ops");
  expected.erase("htp_op_types");
  EXPECT_EQ(model["overview"], expected);
  EXPECT_EQ(model["overview"]["graph_wall_cycles"], 186647);

  // Every slice's cycles land in exactly one bar of its thread.
  const json& tl = model["timeline"];
  EXPECT_EQ(tl["wall_cycles"], 186647);
  std::map<uint32_t, int64_t> busy_by_tid;
  int64_t total = 0, slices = 0;
  for (const auto& th : tl["threads"]) {
    for (const auto& b : th["bars"]) {
      busy_by_tid[th["tid"].get<uint32_t>()] += b[2].get<int64_t>();
      total += b[2].get<int64_t>();
      slices += b[3].get<int64_t>();
    }
  }
  EXPECT_EQ(total, 317483);  // work cycles
  EXPECT_EQ(slices, static_cast<int64_t>(run.slices.size()));
  for (const auto& u : run.units) EXPECT_EQ(busy_by_tid[u.tid], u.busy_cycles) << u.tid;
  const json& um = model["units_memory"];
  EXPECT_EQ(um["peak_vtcm_bytes"], 919552);
  bool vtcm = false;
  for (const auto& c : um["counters"]) {
    if (c["name"] != "VTCM alloc") continue;
    vtcm = true;
    EXPECT_EQ(c["peak_bytes"], 919552);
  }
  EXPECT_TRUE(vtcm);
}

TEST(HtmlReportModel, CorpusTablesAreCappedToTheBiggestRows) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({CorpusRun("v8c8_256")});
  Summary summary = Summarize(run);
  HtmlReportOptions options;
  options.max_table_rows = 5;
  json model = BuildReportModel(summary, options);
  const json& ops = model["tables"]["qnn_ops"];
  EXPECT_EQ(ops["rows"].size(), 5u);
  EXPECT_EQ(ops["total_rows"], 13);
  EXPECT_EQ(ops["rows"][0][0], "bbb_indep0");  // the most DPC cycles
  const json& inst = model["tables"]["instances"];
  ASSERT_EQ(inst["rows"].size(), 5u);
  int64_t last_start = -1;
  for (const auto& r : inst["rows"]) {  // still in start order
    EXPECT_GE(r[5].get<int64_t>(), last_start);
    last_start = r[5].get<int64_t>();
  }
}

// The minimal optrace a hostile tool could write: one op whose name,
// types and description are markup.
std::string HostileTrace() {
  json op = {{"name", "<img src=x onerror=alert(1)>"},
             {"ph", "X"},
             {"pid", 0},
             {"tid", 256},
             {"ts", 0},
             {"dur", 500},
             {"args",
              {{"ID", "0x0000000100000001"},
               {"HTP Op Type", "<script>alert(2)</script>"},
               {"Description", "<b onmouseover=alert(3)>bold</b>"},
               {"Flags", {"dma"}},
               {"QNN Op Type", "<svg onload=alert(4)>"},
               {"QNN Op Name", "<img src=x onerror=alert(1)>"},
               {"Start Cycle", 1000},
               {"Duration (cycles)", 500},
               {"Dominant Path Cycles", 500}}}};
  json trace = {{"header",
                 {{"header_version", {{"major", 1}, {"minor", 0}, {"patch", 0}}},
                  {"version", {{"major", 1}, {"minor", 1}, {"patch", 0}}},
                  {"artifact_type", "OP_TRACE"}}},
                {"traceEvents", {op}}};
  return trace.dump();
}

TEST(HtmlReportModel, HostileTraceStringsNeverBecomeMarkup) {
  std::string dir = TempDir("html_hostile");
  std::ofstream(dir + "/chrometrace.json") << HostileTrace();
  htpscope::Run run = LoadRun({dir});
  Summary summary = Summarize(run);
  std::string page = RenderHtmlReport(BuildReportModel(summary));
  EXPECT_EQ(Count(page, "<img"), 0u);
  EXPECT_EQ(Count(page, "<svg"), 0u);
  EXPECT_EQ(Count(page, "<b "), 0u);
  EXPECT_EQ(Count(page, "<script>"), 1u);  // the page's own script only
  json data = json::parse(EmbeddedData(page));
  const json& tl = data["timeline"];
  ASSERT_EQ(tl["threads"].size(), 1u);
  const json& bar = tl["threads"][0]["bars"][0];
  EXPECT_EQ(tl["strings"][bar[4].get<size_t>()], "<img src=x onerror=alert(1)>");
  EXPECT_EQ(tl["strings"][bar[6].get<size_t>()], "<script>alert(2)</script>");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace htpscope::html_report_test
