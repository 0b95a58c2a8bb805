// Malformed input for the line-oriented readers: qnn-profile-viewer text (all
// levels), profile CSV and ExecuTorch's heap file.  Errors name the file and
// the 1-based line and say what was expected (docs/robustness.md).
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/errors.h"
#include "formats/heap_profile.h"
#include "formats/profile_text.h"

namespace htpscope::malformed_profile_test {
namespace {

constexpr const char* kPath = "profile.txt";

constexpr const char* kText = R"txt(qnn-profile-viewer: v2.45.0.250101

Init Stats:
-----------
    NetRun: 21345 us

Execute Stats (Average):
------------------------
Total Inference Time:
---------------------
   NetRun:  9120 us
   Backend (QNN accelerator (execute) time): 8105  us
   Backend (Accelerator (critical path execute) time (cycles)): 1000000  cycles
      net_conv1_Conv2D:OpId_20 (cycles): 300000  cycles
            Wait (Scheduler) time: 40  cycles
            Overlap time: 150000  cycles
               net_mul_mul:OpId_30
            Overlap (wait) time: 40  cycles
            Resources: HVX, HMX, DMA
)txt";

constexpr const char* kCsv =
    "Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event Identifier\n"
    "UNKNOWN,EXECUTE,3100,US,BACKEND,ROOT,QNN accelerator (execute) time\n"
    "UNKNOWN,EXECUTE,4800000,CYCLES,BACKEND,ROOT,Accelerator (execute) time (cycles)\n"
    "UNKNOWN,NODE,87938,CYCLES,BACKEND,SUB-EVENT,conv,with,commas:OpId_19 (cycles)\n";

// The QAIRT 2.47 viewer's layout: preamble, ", " header, quoted Time values,
// sub-events three levels deep.
constexpr const char* kQairtCsv =
    "input log file location, ./qnn-profiling-data.log\n"
    "qnn-profile-viewer version, v2.47.0.260601114230\n"
    "Msg Timestamp, Message, Time, Unit of Measurement, Timing Source, Event Level, Event "
    "Identifier\n"
    "81234567,EXECUTE,1500000,US,NETRUN,ROOT,Graph 0: model.prefill\n"
    "81234567,EXECUTE,20000000,CYCLES,BACKEND,ROOT,Accelerator (critical path execute) time "
    "(cycles)\n"
    "81234567,EXECUTE,5000,CYCLES,BACKEND,SUB-EVENT,blocks.0.norm:OpId_31 (cycles)\n"
    "81234567,EXECUTE,4000,CYCLES,BACKEND,SUB-SUB-EVENT,Overlap time\n"
    "81234567,EXECUTE,\"\",CYCLES,BACKEND,SUB-SUB-SUB-EVENT,blocks.0.attn.q_proj:OpId_40 \n"
    "81234567,EXECUTE,\"HVX, DMA\",CYCLES,BACKEND,SUB-SUB-EVENT,Resources\n";

constexpr const char* kHeap =
    "DSP:before_context_created (bytes), 928212\n"
    "DSP:after_context_freed (bytes), 928212\n";

std::optional<InputError> ErrorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

struct LineReader {
  std::string name;
  std::function<void(std::string_view)> parse;
  std::string valid;
};

std::vector<LineReader> Readers() {
  return {
      {"text", [](std::string_view t) { ParseProfileText(kPath, t); }, kText},
      {"csv", [](std::string_view t) { ParseProfileCsv(kPath, t); }, kCsv},
      {"qairt csv", [](std::string_view t) { ParseProfileCsv(kPath, t); }, kQairtCsv},
      {"heap", [](std::string_view t) { ParseExecuTorchHeapFile(kPath, t); }, kHeap},
  };
}

// Replaces the first `from` (which must exist) in `text`.
std::string Replace(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

size_t LineOf(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  return 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
}

// `edit` applied to the reader's valid input must fail on the edited line
// with `expect` in the message.
void ExpectLineError(const LineReader& r, const std::string& from, const std::string& to,
                     const std::string& expect) {
  SCOPED_TRACE(r.name + ": " + from + " -> " + to);
  std::string text = Replace(r.valid, from, to);
  auto error = ErrorOf([&] { r.parse(text); });
  ASSERT_TRUE(error) << "accepted";
  EXPECT_EQ(error->file(), kPath);
  ASSERT_TRUE(error->line().has_value()) << error->what();
  EXPECT_EQ(*error->line(), LineOf(text, to)) << error->what();
  EXPECT_NE(std::string(error->what())
                .find(std::string(kPath) + ":" + std::to_string(*error->line()) + ": "),
            std::string::npos)
      << error->what();
  EXPECT_NE(error->problem().find(expect), std::string::npos) << error->what();
}

TEST(MalformedProfile, ValidInputsRead) {
  for (const auto& r : Readers()) {
    auto error = ErrorOf([&] { r.parse(r.valid); });
    EXPECT_FALSE(error) << r.name << ": " << error->what();
  }
}

TEST(MalformedProfile, EmptyAndBlankFilesAreErrors) {
  for (const auto& r : Readers()) {
    for (const std::string& text : {std::string(), std::string("\n \n\t\n")}) {
      auto error = ErrorOf([&] { r.parse(text); });
      ASSERT_TRUE(error) << r.name;
      EXPECT_EQ(error->file(), kPath);
      EXPECT_NE(error->problem().find("empty file: expected"), std::string::npos) << error->what();
    }
  }
}

TEST(MalformedProfile, TruncatedAtEveryByteNeverCrashes) {
  // A cut mid-line leaves a shorter last line: either still a valid line
  // (the file just has fewer entries) or an error on that line.
  for (const auto& r : Readers()) {
    size_t errors = 0;
    for (size_t cut = 1; cut < r.valid.size(); ++cut) {
      std::string part = r.valid.substr(0, cut);
      auto error = ErrorOf([&] { r.parse(part); });
      if (!error) continue;
      ++errors;
      EXPECT_EQ(error->file(), kPath);
      // A verdict on the whole file ("no profile sections found") has no line.
      if (!error->line()) continue;
      EXPECT_LE(*error->line(),
                static_cast<uint64_t>(std::count(part.begin(), part.end(), '\n') + 1))
          << error->what();
    }
    EXPECT_GT(errors, 0u) << r.name;
  }
}

TEST(MalformedProfile, NumbersThatAreNotNumbers) {
  auto readers = Readers();
  const auto& text = readers[0];
  const auto& csv = readers[1];
  const auto& heap = readers[3];
  ExpectLineError(text, "NetRun:  9120 us", "NetRun:  abc us", "\"abc\" is not a number");
  ExpectLineError(text, "NetRun:  9120 us", "NetRun:  nan us", "\"nan\" is not a number");
  ExpectLineError(text, "NetRun:  9120 us", "NetRun:  inf us", "\"inf\" is not a number");
  ExpectLineError(text, "NetRun:  9120 us", "NetRun:  -5 us", "\"-5\" is negative");
  ExpectLineError(text, "300000  cycles", "99999999999999999999  cycles",
                  "99999999999999999999 overflows a 64-bit integer");
  ExpectLineError(text, "Overlap time: 150000", "Overlap time: 1.5", "expected");
  ExpectLineError(csv, "3100,US", "NaN,US", "\"NaN\" is not a number");
  ExpectLineError(csv, "3100,US", "-3100,US", "is negative");
  ExpectLineError(csv, "4800000,CYCLES", "99999999999999999999,CYCLES",
                  "overflows a 64-bit integer");
  const auto& qairt = readers[2];
  // Thousands separators are read as such (with a warning); other commas are not.
  ProfileReport grouped =
      ParseProfileCsv(kPath, Replace(qairt.valid, "5000,CYCLES", "\"5,000\",CYCLES"));
  ASSERT_EQ(grouped.raw.size(), 1u);
  ASSERT_EQ(grouped.raw[0].nodes.size(), 1u);
  EXPECT_EQ(grouped.raw[0].nodes[0].cycles, 5000);
  EXPECT_EQ(grouped.warnings.size(), 1u);
  ExpectLineError(qairt, "4000,CYCLES", "\"4,00\",CYCLES", "a comma is read only as a thousands");
  ExpectLineError(qairt, "4000,CYCLES", "\"inf\",CYCLES", "\"inf\" is not a number");
  ExpectLineError(qairt, "1500000,US", "1e400,US", "\"1e400\" is not a number");
  ExpectLineError(heap, "928212\nDSP:after", "-1\nDSP:after", "\"-1\" is negative");
  ExpectLineError(heap, "928212\nDSP:after", "1e400\nDSP:after", "not a whole number of bytes");
  ExpectLineError(heap, "928212\nDSP:after", "99999999999999999999\nDSP:after",
                  "overflows a 64-bit integer");
}

TEST(MalformedProfile, WrongShapesOfLines) {
  auto readers = Readers();
  ExpectLineError(readers[1], "UNKNOWN,EXECUTE,3100,US,BACKEND,ROOT,QNN",
                  "UNKNOWN,EXECUTE,3100,US,BACKEND", "expected 7 comma-separated columns");
  ExpectLineError(readers[1], "BACKEND,ROOT,QNN", "BACKEND,LEAF,QNN",
                  "Event Level \"LEAF\": expected ROOT or SUB-EVENT");
  ExpectLineError(readers[2], "SUB-SUB-EVENT,Overlap", "SUB-SUB-SUB-EVENT,Overlap",
                  "is 2 levels below the row above it");
  ExpectLineError(readers[2], "NETRUN,ROOT", "NETRUN,TOP", "Event Level \"TOP\"");
  ExpectLineError(readers[2], "\"HVX, DMA\",CYCLES", "\"HVX, DMA,CYCLES",
                  "not closed before the end of the file");
  ExpectLineError(readers[3], "DSP:before_context_created (bytes), 928212",
                  "DSP:before_context_created (bytes) 928212",
                  "expected \"<identifier>, <value>\"");
}

TEST(MalformedProfile, NonUtf8NamesAreKeptAsBytes) {
  // Names are not interpreted, so bytes that are not UTF-8 are carried through.
  std::string text = Replace(kText, "net_conv1_Conv2D", "caf\xe9_conv");
  ProfileReport report = ParseProfileText(kPath, text);
  ASSERT_FALSE(report.statistics.empty());
  std::string csv = Replace(kCsv, "conv,with,commas", "caf\xe9");
  EXPECT_NO_THROW(ParseProfileCsv(kPath, csv));
}

TEST(MalformedProfile, RepeatedExecutionIsKeptApartWithAWarning) {
  std::string dump =
      "Execute Stats:\n--------------\nExecute Stat 1\n--------------\n"
      "    QNN accelerator (execute) time : 1100  us\n"
      "Execute Stat 1\n--------------\n    QNN accelerator (execute) time : 900  us\n";
  ProfileReport report = ParseProfileText(kPath, dump);
  EXPECT_EQ(report.raw.size(), 2u);
  ASSERT_FALSE(report.warnings.empty());
  EXPECT_NE(report.warnings[0].find("\"Execute Stat 1\" appears again"), std::string::npos)
      << report.warnings[0];
}

}  // namespace
}  // namespace htpscope::malformed_profile_test
