// Profile CSV: RFC 4180 fields, numbers with thousands separators, the
// QAIRT 2.47 layout's edge cases and its malformed variants (each error
// names the file and the 1-based line).
#include "formats/profile_csv_records.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "base/errors.h"
#include "formats/profile_text.h"
#include "formats/profile_text_test_util.h"

namespace htpscope::profile_csv_records_test {
namespace {

using testing_support::Contains;
using testing_support::Lint;

constexpr char kPath[] = "profile.csv";
// The QAIRT 2.47 preamble and header.
constexpr char kTop[] =
    "input log file location, ./qnn-profiling-data.log\n"
    "qnn-profile-viewer version, v2.47.0.260601114230\n"
    "Backend version, v2.47.0.260601114230\n"
    "Msg Timestamp, Message, Time, Unit of Measurement, Timing Source, Event Level, Event "
    "Identifier\n";
// Lines 5..: one execution of one op with linting entries.
constexpr char kRows[] =
    "81234567,EXECUTE,1500000,US,NETRUN,ROOT,Graph 0: model.prefill\n"  // 5
    "81234567,EXECUTE,20000000,CYCLES,BACKEND,ROOT,Accelerator (critical path execute) time "
    "(cycles)\n"                                                                              // 6
    "81234567,EXECUTE,5000,CYCLES,BACKEND,SUB-EVENT,blocks.0.norm:OpId_31 (cycles)\n"         // 7
    "81234567,EXECUTE,20,CYCLES,BACKEND,SUB-SUB-EVENT,Wait (Scheduler) time\n"                // 8
    "81234567,EXECUTE,4000,CYCLES,BACKEND,SUB-SUB-EVENT,Overlap time\n"                       // 9
    "81234567,EXECUTE,\"\",CYCLES,BACKEND,SUB-SUB-SUB-EVENT,blocks.0.attn.q_proj:OpId_40 \n"  // 10
    "81234567,EXECUTE,15,CYCLES,BACKEND,SUB-SUB-EVENT,Overlap (wait) time\n"                  // 11
    "81234567,EXECUTE,\"HVX, DMA\",CYCLES,BACKEND,SUB-SUB-EVENT,Resources\n";                 // 12

std::optional<InputError> CsvError(std::string_view text) {
  return testing_support::CsvError(kPath, text);
}
void ExpectCsvError(std::string_view text, uint64_t line, std::string_view mentions) {
  testing_support::ExpectCsvError(kPath, text, line, mentions);
}

std::string Qairt(std::string_view extra_rows = "") {
  return std::string(kTop) + kRows + std::string(extra_rows);
}

// Replaces the first `from` (which must exist).
std::string Replace(std::string text, std::string_view from, std::string_view to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// ---------------------------------------------------------------------------
// The record splitter.

std::vector<profile_internal::CsvRecord> Records(std::string_view text) {
  profile_internal::CsvRecordReader reader(kPath, text);
  std::vector<profile_internal::CsvRecord> out;
  profile_internal::CsvRecord r;
  while (reader.Next(&r)) out.push_back(r);
  return out;
}

TEST(CsvRecords, Rfc4180Fields) {
  std::string text =
      "a,\"b, c\",\"say \"\"hi\"\"\",\"two\nlines\",\"\"\r\n"
      "  \"spaced\"  , plain , \"cr\r\nlf\"\n"
      "\"x\" tail,ends\n"
      "last";
  std::vector<profile_internal::CsvRecord> r = Records(text);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].fields, (std::vector<std::string>{"a", "b, c", "say \"hi\"", "two\nlines", ""}));
  EXPECT_EQ(r[0].quoted, (std::vector<bool>{false, true, true, true, true}));
  EXPECT_EQ(r[0].first_line, 1u);
  EXPECT_EQ(r[0].last_line, 2u);
  EXPECT_EQ(r[1].fields, (std::vector<std::string>{"spaced", " plain ", "cr\r\nlf"}));
  EXPECT_EQ(r[1].first_line, 3u);
  EXPECT_EQ(r[1].last_line, 4u);
  // Text after a closing quote: the field was not quoted after all.
  EXPECT_EQ(r[2].fields, (std::vector<std::string>{"\"x\" tail", "ends"}));
  EXPECT_EQ(r[2].first_line, 5u);
  EXPECT_EQ(r[3].fields, (std::vector<std::string>{"last"}));
  EXPECT_EQ(r[3].first_line, 6u);
  EXPECT_EQ(r[2].RawFrom(text, 0), "\"x\" tail,ends");
}

TEST(CsvRecords, EventDepth) {
  EXPECT_EQ(profile_internal::CsvEventDepth("ROOT"), 0);
  EXPECT_EQ(profile_internal::CsvEventDepth("SUB-EVENT"), 1);
  EXPECT_EQ(profile_internal::CsvEventDepth(" sub-sub-event "), 2);
  EXPECT_EQ(profile_internal::CsvEventDepth("SUB-SUB-SUB-SUB-SUB-EVENT"), 5);
  EXPECT_EQ(profile_internal::CsvEventDepth("EVENT"), -1);
  EXPECT_EQ(profile_internal::CsvEventDepth("SUB-EVENTS"), -1);
  EXPECT_EQ(profile_internal::CsvEventDepth("SUBSUB-EVENT"), -1);
  EXPECT_EQ(profile_internal::CsvEventDepth(""), -1);
}

TEST(CsvRecords, UnclosedQuoteNamesTheLineItOpensOn) {
  ExpectCsvError(Qairt("81234567,EXECUTE,\"HVX, DMA,CYCLES,BACKEND,SUB-SUB-EVENT,Resources\n"
                       "81234567,EXECUTE,5,US,BACKEND,ROOT,QNN (execute) time\n"),
                 13, "not closed before the end of the file");
  // Closed on a later line but followed by more text: not a field at all.
  ExpectCsvError(Qairt("81234567,EXECUTE,\"HVX\n"
                       "81234567,EXECUTE,\"5\",US,BACKEND,ROOT,QNN (execute) time\n"),
                 13, "spans 1 line break(s)");
}

// ---------------------------------------------------------------------------
// Reading the QAIRT 2.47 layout.

TEST(ProfileCsvQairt, BomPreambleSpacedHeader) {
  ProfileReport r = ParseProfileCsv(kPath, "\xEF\xBB\xBF" + Qairt());
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  EXPECT_EQ(r.viewer_version, "v2.47.0.260601114230");
  EXPECT_EQ(r.backend_version, "v2.47.0.260601114230");
  EXPECT_EQ(r.application_version, "");
  ASSERT_EQ(r.raw.size(), 1u);
  const ProfileBlock& b = r.raw[0];
  EXPECT_EQ(b.graph_index, 0);
  EXPECT_EQ(b.graph_name, "model.prefill");
  EXPECT_EQ(b.graph_execution, 1);
  EXPECT_EQ(b.timestamp_us, 81234567u);
  ASSERT_EQ(b.nodes.size(), 1u);
  const ProfileNode& n = b.nodes[0];
  EXPECT_EQ(n.cycles, 5000);
  EXPECT_EQ(Lint(n).wait_cycles, 20);
  EXPECT_EQ(Lint(n).overlap_cycles, 4000);
  EXPECT_EQ(Lint(n).overlap_wait_cycles, 15);
  EXPECT_EQ(Lint(n).overlap_ops, (std::vector<std::string>{"blocks.0.attn.q_proj:OpId_40"}));
  EXPECT_EQ(Lint(n).resources, (std::vector<std::string>{"HVX", "DMA"}));
}

TEST(ProfileCsvQairt, SpacesAfterCommasAndQuotedIdentifiers) {
  ProfileReport r = ParseProfileCsv(
      kPath, std::string(kTop) +
                 "7, EXECUTE, 90, CYCLES, BACKEND, ROOT, Accelerator (critical path execute) time "
                 "(cycles)\n"
                 "7, EXECUTE, 90, CYCLES, BACKEND, SUB-EVENT, \"concat_a,b:OpId_7 (cycles)\"\n"
                 "7, EXECUTE, \"HVX, HMX\", CYCLES, BACKEND, SUB-SUB-EVENT, Resources\n"
                 "7,EXECUTE,12,US,BACKEND,ROOT,\"a \"\"quoted\"\" name\"\n"
                 "7,EXECUTE,3,US,BACKEND,ROOT,\"two\nlines\"\n"
                 "7,EXECUTE,\"4\",US,BACKEND,ROOT,after the break\n");
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  ASSERT_EQ(r.raw.size(), 1u);
  const ProfileBlock& b = r.raw[0];
  ASSERT_EQ(b.nodes.size(), 1u);
  EXPECT_EQ(b.nodes[0].label, "concat_a,b:OpId_7");
  EXPECT_EQ(Lint(b.nodes[0]).resources, (std::vector<std::string>{"HVX", "HMX"}));
  ASSERT_EQ(b.metrics.size(), 4u);
  EXPECT_EQ(b.metrics[1].name, "a \"quoted\" name");
  EXPECT_EQ(b.metrics[2].name, "two\nlines");
  EXPECT_EQ(b.metrics[3].value, 4);
  // A bad row after the quoted line break is reported on its own line.
  ExpectCsvError(std::string(kTop) + "7,EXECUTE,3,US,BACKEND,ROOT,\"two\nlines\"\n" +
                     "7,EXECUTE,x,US,BACKEND,ROOT,after the break\n",
                 7, "\"x\" is not a number");
}

TEST(ProfileCsvQairt, ThousandsSeparators) {
  ProfileReport r = ParseProfileCsv(
      kPath, std::string(kTop) +
                 "1,EXECUTE,\"1,000\",US,BACKEND,ROOT,QNN accelerator (execute) time\n"
                 "1,EXECUTE,\"12,345,678\",CYCLES,BACKEND,ROOT,Accelerator (execute) "
                 "time (cycles)\n"
                 "1,EXECUTE,\"1,234.5\",US,BACKEND,ROOT,RPC (execute) time\n");
  ASSERT_EQ(r.raw.size(), 1u);
  EXPECT_EQ(r.raw[0].metrics[0].value, 1000);
  EXPECT_EQ(r.raw[0].metrics[1].value, 12345678);
  EXPECT_EQ(r.raw[0].metrics[2].value, 1234.5);
  ASSERT_EQ(r.warnings.size(), 1u);  // one warning for the file
  EXPECT_TRUE(Contains(r.warnings[0], "line 5: Time \"1,000\"")) << r.warnings[0];
  EXPECT_TRUE(Contains(r.warnings[0], "read as 1000")) << r.warnings[0];
  for (std::string_view bad : {"\"1,5\"", "\"1,0000\"", "\",100\"", "\"1000,000\"", "\"1,000,\""})
    ExpectCsvError(std::string(kTop) + "1,EXECUTE," + std::string(bad) +
                       ",US,BACKEND,ROOT,QNN accelerator (execute) time\n",
                   5, "a comma is read only as a thousands separator");
}

TEST(ProfileCsvQairt, GraphRowsAnyDepthAndOddities) {
  std::string text =
      std::string(kTop) +
      "5,EXECUTE,10,US,BACKEND,ROOT,QNN accelerator (execute) time\n"  // 5: before any graph
      "6,EXECUTE,30,US,NETRUN,ROOT,Graph 2:\n"                         // 6: graph 2, no name
      "6,EXECUTE,40,CYCLES,BACKEND,ROOT,Accelerator (critical path execute) time (cycles)\n"
      "6,EXECUTE,40,CYCLES,BACKEND,SUB-EVENT,a:OpId_1 (cycles)\n"  // 8
      "6,EXECUTE,0,CYCLES,BACKEND,SUB-SUB-EVENT,Wait (Scheduler) time\n"
      "6,EXECUTE,\"\",CYCLES,BACKEND,SUB-SUB-SUB-EVENT,stray \n"  // 10: under Wait
      "6,EXECUTE,7,CYCLES,BACKEND,SUB-SUB-EVENT,Overlap time\n"
      "6,EXECUTE,\"\",CYCLES,BACKEND,SUB-SUB-SUB-EVENT,b:OpId_2 \n"
      "6,EXECUTE,\"\",CYCLES,BACKEND,SUB-SUB-SUB-SUB-EVENT,deeper\n"  // 13: under a name
      "6,EXECUTE,1,COUNT,BACKEND,SUB-SUB-EVENT,Something new\n"       // 14: unknown entry
      "6,EXECUTE,9,US,NETRUN,ROOT,Graph x: not a graph\n"             // 15: a plain metric
      "7,EXECUTE,31,US,NETRUN,ROOT,Graph 2:\n";                       // 16
  ProfileReport r = ParseProfileCsv(kPath, text);
  ASSERT_EQ(r.raw.size(), 3u);
  EXPECT_FALSE(r.raw[0].graph_index.has_value());
  EXPECT_EQ(r.raw[0].graph_execution, 1);
  EXPECT_EQ(r.raw[1].graph_index, 2);
  EXPECT_EQ(r.raw[1].graph_name, "");
  EXPECT_EQ(r.raw[1].graph_execution, 1);
  EXPECT_EQ(r.raw[2].graph_execution, 2);
  EXPECT_EQ(r.raw[2].timestamp_us, 7u);
  const ProfileBlock& b = r.raw[1];
  ASSERT_EQ(b.nodes.size(), 1u);
  EXPECT_EQ(Lint(b.nodes[0]).wait_cycles, 0);
  EXPECT_EQ(Lint(b.nodes[0]).overlap_cycles, 7);
  EXPECT_EQ(Lint(b.nodes[0]).overlap_ops, (std::vector<std::string>{"b:OpId_2"}));
  ASSERT_NE(b.Find("Graph x: not a graph"), nullptr);
  EXPECT_EQ(b.Find("Graph x: not a graph")->source, "NetRun");
  ASSERT_EQ(r.warnings.size(), 4u);
  EXPECT_TRUE(Contains(r.warnings[0], "line 10:")) << r.warnings[0];
  EXPECT_TRUE(Contains(r.warnings[1], "line 13:")) << r.warnings[1];
  EXPECT_TRUE(Contains(r.warnings[2], "line 14:")) << r.warnings[2];
  EXPECT_TRUE(Contains(r.warnings[2], "Something new")) << r.warnings[2];
  EXPECT_TRUE(Contains(r.warnings[3], "line 5: 1 execution block(s) before the first"))
      << r.warnings[3];
}

TEST(ProfileCsvQairt, ConcatenatedProfilesKeepEachPreamble) {
  std::string one = Qairt();
  ProfileReport r = ParseProfileCsv(kPath, one + one);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  ASSERT_EQ(r.raw.size(), 2u);
  EXPECT_EQ(r.raw[1].first_line, 17);
  EXPECT_EQ(r.raw[1].graph_execution, 2);
  EXPECT_EQ(r.header.size(), 6u);
  EXPECT_EQ(r.header[3].line, 13);
}

TEST(ProfileCsvQairt, Recognised) {
  EXPECT_TRUE(LooksLikeProfileCsv(kTop));
  EXPECT_TRUE(LooksLikeProfileCsv("\xEF\xBB\xBF" + Qairt()));
  EXPECT_TRUE(LooksLikeProfileCsv(
      "81234567,EXECUTE,20,CYCLES,BACKEND,SUB-SUB-EVENT,Wait (Scheduler) time\n"));
  EXPECT_TRUE(LooksLikeProfileCsv("6,EXECUTE,1.5,INF/SEC,NETRUN,ROOT,null\n"));
  // ExecuTorch's heap file has "key, value" lines but no header.
  EXPECT_FALSE(LooksLikeProfileCsv(
      "DSP:before_context_created (bytes), 928212\nDSP:after_context_freed (bytes), 928212\n"));
  EXPECT_FALSE(LooksLikeProfileCsv("input log file location, ./x.log\n{\"a\": 1}\n"));
  EXPECT_FALSE(LooksLikeProfileCsv("Input Log File Location: x.log\nqnn-profile-viewer: v2.45\n"));
}

// ---------------------------------------------------------------------------
// Malformed QAIRT 2.47 files: each names its line.

TEST(ProfileCsvQairt, MalformedLines) {
  const std::string ok = Qairt();
  ASSERT_FALSE(CsvError(ok).has_value());
  struct Case {
    const char* from;
    const char* to;
    uint64_t line;
    const char* mentions;
  };
  const Case cases[] = {
      {"SUB-SUB-EVENT,Wait", "SUBSUB-EVENT,Wait", 8, "Event Level \"SUBSUB-EVENT\": expected ROOT"},
      {"SUB-EVENT,blocks.0.norm", "SUB-SUB-EVENT,blocks.0.norm", 7,
       "SUB-SUB-EVENT row \"blocks.0.norm:OpId_31 (cycles)\" is 2 levels below"},
      {"SUB-SUB-EVENT,Wait", "SUB-SUB-SUB-EVENT,Wait", 8, "is 2 levels below"},
      {"20,CYCLES,BACKEND,SUB-SUB-EVENT,Wait", "20,US,BACKEND,SUB-SUB-EVENT,Wait", 8,
       "\"Wait (Scheduler) time\" of \"blocks.0.norm:OpId_31\": expected a number of cycles"},
      {"4000,CYCLES", "\"HVX\",CYCLES", 9, "\"HVX\" is not a number"},
      {"4000,CYCLES", "\"\",CYCLES", 9, "expected a number, found nothing"},
      {"4000,CYCLES", "4000.5,CYCLES", 9, "whole number of cycles"},
      {"5000,CYCLES", "\"HVX, DMA\",CYCLES", 7, "\"HVX, DMA\" is not a number"},
      {"1500000,US,NETRUN", "-1500000,US,NETRUN", 5, "is negative"},
      {"20000000,CYCLES", "99999999999999999999,CYCLES", 6, "overflows a 64-bit integer"},
      {"81234567,EXECUTE,15,CYCLES,BACKEND,SUB-SUB-EVENT,Overlap (wait) time",
       "81234567,EXECUTE,15,CYCLES,BACKEND", 11, "expected 7 comma-separated columns"},
      {"Msg Timestamp, Message, Time, Unit of Measurement", "Msg Timestamp, Message, Time, Units",
       4, "unexpected CSV header"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.from) + " -> " + c.to);
    ExpectCsvError(Replace(ok, c.from, c.to), c.line, c.mentions);
  }
}

TEST(ProfileCsvQairt, MalformedFiles) {
  // A preamble with no header after it.
  ExpectCsvError(
      "input log file location, ./x.log\nqnn-profile-viewer version, v2\n" + std::string(kRows), 1,
      "no CSV header");
  ExpectCsvError("input log file location, ./x.log\n", 1, "no CSV header");
  // One word on the first line: neither preamble nor header nor row.
  ExpectCsvError("hello\n" + std::string(kRows), 1, "expected \"key, value\" lines");
  // Too many short lines waiting for a header.
  std::string many;
  for (int i = 0; i < 70; ++i) many += "key, value\n";
  ExpectCsvError(many, 1, "no CSV header");
  // Sub-events before any ROOT row.
  ExpectCsvError(std::string(kTop) + "1,EXECUTE,5,CYCLES,BACKEND,SUB-EVENT,a:OpId_1 (cycles)\n", 5,
                 "SUB-EVENT row \"a:OpId_1 (cycles)\" has no ROOT row above it");
  // A row cut short before a second profile's preamble is a bad row, not preamble.
  ExpectCsvError(Qairt() + "81234567,EXECUTE,15\n" + Qairt(), 13,
                 "expected 7 comma-separated columns");
  // Only a preamble and a header.
  ExpectCsvError(kTop, 4, "no data rows");
}

}  // namespace
}  // namespace htpscope::profile_csv_records_test
