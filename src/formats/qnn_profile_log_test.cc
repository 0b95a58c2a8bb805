// The qnn-net-run profiling log reader: logs built here with FlatBufferBuilder
// from qnn_profile_log.fbs (every row the viewer would print for them is
// written out by hand), refusals (truncations, bit flips, other versions,
// unknown kinds, units and fields), and the QAIRT 2.47 logs of the shared
// corpus against the CSV qnn-profile-viewer printed from each.
#include "formats/qnn_profile_log.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>

#include "base/errors.h"
#include "base/test_paths.h"
#include "base/text_util.h"
#include "formats/artifact_kind.h"
#include "formats/qnn_profile_log_test_util.h"

namespace htpscope::qnn_profile_log_test {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::optional<InputError> ErrorOf(std::string_view bytes) {
  try {
    ParseQnnProfileLog("run.log", bytes);
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

// Every block of a report, statistics first, as text: what must agree
// between a log and its CSV (the blocks' lines aside).
std::string Blocks(const ProfileReport& report, std::string_view skip_title = "") {
  std::ostringstream out;
  auto block = [&](const ProfileBlock& b) {
    if (!skip_title.empty() && b.title == skip_title) return;
    out << "[" << b.title << "|" << b.graph << "|" << b.execution << "|"
        << (b.graph_index ? std::to_string(*b.graph_index) : "-") << "|" << b.graph_name << "|"
        << b.graph_execution << "|" << (b.timestamp_us ? std::to_string(*b.timestamp_us) : "-")
        << "|" << b.nodes_parent << "]\n";
    for (const auto& m : b.metrics)
      out << "  m " << m.name << "|" << m.source << "|" << m.has_value << "|" << m.value << "|"
          << m.unit << "\n";
    for (const auto& n : b.nodes)
      out << "  n " << n.label << "|" << n.qnn_op_name << "|"
          << (n.op_id ? std::to_string(*n.op_id) : "-") << "|" << n.cycles << "|" << n.has_lint()
          << "\n";
  };
  for (const auto& b : report.statistics) block(b);
  for (const auto& b : report.raw) block(b);
  return out.str();
}

const ProfileBlock* BlockAt(const ProfileReport& report, uint64_t timestamp_us) {
  for (const auto& b : report.raw)
    if (b.timestamp_us == timestamp_us) return &b;
  return nullptr;
}

TEST(QnnProfileLog, NotRecognisedFromTextOrOtherBinaries) {
  EXPECT_FALSE(LooksLikeQnnProfileLog(""));
  EXPECT_FALSE(LooksLikeQnnProfileLog(
      "Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event "
      "Identifier\n"));
  EXPECT_FALSE(LooksLikeQnnProfileLog(std::string(64, '\0')));
}

// A root offset near 2^32 once wrapped past the size check and was read far
// outside the 64 bytes at hand (found by the fuzzer).
TEST(QnnProfileLog, ARootOffsetNearTwoToThe32IsNotALog) {
  std::string bytes(64, '\0');
  const uint32_t length = 0xFFFFFFFFu, root = 0xFFFFFFF8u;
  std::memcpy(bytes.data(), &length, 4);
  std::memcpy(bytes.data() + 4, &root, 4);
  EXPECT_FALSE(LooksLikeQnnProfileLog(bytes));
}

#if HTPSCOPE_HAVE_QNN_LOG

using namespace testing_support;

TEST(QnnProfileLog, RecognisedByContent) {
  const std::string log = BuildLog(SmallRun());
  EXPECT_TRUE(LooksLikeQnnProfileLog(log));
  EXPECT_EQ(DetectArtifactKindFromPrefix(log), ArtifactKind::kQnnProfileLog);
}

TEST(QnnProfileLog, SmallRunGivesTheViewersRowsInItsOrder) {
  const QnnLogContent content = DecodeQnnProfileLog("run.log", BuildLog(SmallRun()));
  EXPECT_EQ(content.application, "qnn-net-run");
  EXPECT_EQ(content.application_version, "v2.47.0.1");
  EXPECT_EQ(content.backend_version, "v2.47.0.2");
  EXPECT_EQ(content.epoch_us, 1782626727584123u);
  EXPECT_EQ(content.clock_us, 900u);
  const std::string csv = QnnLogAsCsv("run.log", content);
  EXPECT_EQ(csv,
            "input log file location, run.log\nqnn-net-run version, v2.47.0.1\nBackend version, "
            "v2.47.0.2\n" +
                std::string(kViewerCsvHeader) + std::string(kSmallRunRows));
}

TEST(QnnProfileLog, SmallRunReadsAsTheViewersCsvOfIt) {
  const ProfileReport log = ParseQnnProfileLog("run.log", BuildLog(SmallRun()));
  const ProfileReport csv =
      ParseProfileCsv("run.csv", "qnn-net-run version, v2.47.0.1\nBackend version, v2.47.0.2\n" +
                                     std::string(kViewerCsvHeader) + std::string(kSmallRunRows));
  EXPECT_EQ(log.format, ProfileFormat::kQnnLog);
  EXPECT_EQ(log.path, "run.log");
  EXPECT_EQ(log.application_version, "v2.47.0.1");
  EXPECT_EQ(log.backend_version, "v2.47.0.2");
  EXPECT_EQ(log.viewer_version, "");
  EXPECT_EQ(Blocks(log), Blocks(csv));
  // The executions, by hand.
  const ProfileBlock* first = BlockAt(log, 4000);
  const ProfileBlock* second = BlockAt(log, 5000);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->graph_name, "g");
  EXPECT_EQ(first->graph_index, 0);
  ASSERT_TRUE(first->Find("NetRun"));
  EXPECT_EQ(first->Find("NetRun")->value, 500);
  EXPECT_EQ(second->Find("QNN (execute) time")->value, 280);
  EXPECT_EQ(second->Find("Accelerator (execute) time (cycles)")->value, 900);
  EXPECT_EQ(second->Find("Number of HVX threads used")->unit, "count");
  ASSERT_EQ(second->nodes.size(), 2u);
  EXPECT_EQ(second->nodes[0].qnn_op_name, "Input");
  EXPECT_EQ(second->nodes[0].op_id, 2u);
  EXPECT_EQ(second->nodes[0].cycles, 200);
  EXPECT_EQ(second->nodes[1].qnn_op_name, "conv");
  EXPECT_EQ(second->nodes[1].cycles, 700);
  bool ips = false;
  for (const auto& b : log.statistics)
    for (const auto& m : b.metrics)
      if (m.unit == "inf/sec") {
        ips = true;
        EXPECT_DOUBLE_EQ(m.value, 2500.0);  // 2 inferences in 800 µs
      }
  EXPECT_TRUE(ips);
  EXPECT_TRUE(log.warnings.empty());
}

TEST(QnnProfileLog, IdentifiersWithQuotesCommasAndLineBreaksSurvive) {
  LogSpec s;
  PhaseSpec p = Execute(4000, 3100, 3600, 480, 300, 700);
  p.events[2].identifier = "odd, \"name\"\nsecond line";
  s.phases.push_back(p);
  const ProfileReport log = ParseQnnProfileLog("run.log", BuildLog(s));
  ASSERT_EQ(log.raw.size(), 1u);
  EXPECT_TRUE(log.raw[0].Find("odd, \"name\"\nsecond line"));
}

void ExpectRefused(const std::string& bytes, std::string_view says) {
  std::optional<InputError> e = ErrorOf(bytes);
  ASSERT_TRUE(e) << says;
  EXPECT_EQ(e->file(), "run.log");
  ASSERT_TRUE(e->byte_offset());
  EXPECT_LE(*e->byte_offset(), bytes.size());
  EXPECT_NE(e->problem().find(says), std::string::npos) << e->problem();
}

TEST(QnnProfileLog, AnotherVersionIsRefused) {
  LogSpec s = SmallRun();
  s.magic = 0x12345678;
  ExpectRefused(BuildLog(s), "another version of the log");
  s = SmallRun();
  s.layout = 117;
  ExpectRefused(BuildLog(s), "another version of the log");
  s = SmallRun();
  s.phases[3].events[0].extra_field = true;
  ExpectRefused(BuildLog(s), "has field 6 (of 7), beyond the 6 this reader knows");
}

TEST(QnnProfileLog, UnknownKindsAndUnitsAreRefusedAtTheirRecord) {
  LogSpec s = SmallRun();
  s.phases[1].kind = 3;
  ExpectRefused(BuildLog(s), "phase kind 3 is not one this reader knows");
  s = SmallRun();
  s.phases[3].events[0].unit = 5;  // OBJECT: never seen, its layout unknown
  ExpectRefused(BuildLog(s), "has unit 5");
  s = SmallRun();
  s.phases[3].interval.reset();
  ExpectRefused(BuildLog(s), "the EXECUTE phase record has no interval");
  s = SmallRun();
  s.phases[3].interval = std::make_pair(3600, 3100);
  ExpectRefused(BuildLog(s), "ends (3100 µs) before it starts (3600 µs)");
  s = SmallRun();
  s.phases[5].events.pop_back();
  ExpectRefused(BuildLog(s), "EXECUTE IPS record lacks");
  s = SmallRun();
  s.phases.clear();
  ExpectRefused(BuildLog(s), "holds no phase records");
}

TEST(QnnProfileLog, EveryTruncationIsRefusedWithAnOffset) {
  const std::string log = BuildLog(SmallRun());
  for (size_t n = 0; n < log.size(); ++n) {
    std::string cut = log.substr(0, n);
    std::optional<InputError> e = ErrorOf(cut);
    ASSERT_TRUE(e) << n;
    ASSERT_TRUE(e->byte_offset()) << n;
    EXPECT_LE(*e->byte_offset(), n);
    // The size prefix fixed up to the cut: the buffer itself no longer verifies.
    if (n >= 12) {
      const uint32_t length = static_cast<uint32_t>(n - 4);
      std::memcpy(cut.data(), &length, 4);
      e = ErrorOf(cut);
      ASSERT_TRUE(e) << n;
      ASSERT_TRUE(e->byte_offset()) << n;
      EXPECT_LE(*e->byte_offset(), n);
    }
  }
  ExpectRefused(log + "more", "4 bytes after the end of the log's buffer");
}

// The root's vtable sends its header field far past the buffer: refused at
// the root table, the offset never followed (a case the fuzzer found).
TEST(QnnProfileLog, AFieldPastTheBufferIsRefusedNotFollowed) {
  std::string log = BuildLog(SmallRun());
  uint32_t root = 0;
  std::memcpy(&root, log.data() + 4, 4);
  const size_t table = 4 + root;
  int32_t to_vtable = 0;
  std::memcpy(&to_vtable, log.data() + table, 4);
  const size_t vtable = static_cast<size_t>(static_cast<int64_t>(table) - to_vtable);
  const uint16_t far = 0xfff0;
  std::memcpy(log.data() + vtable + 4, &far, 2);
  ExpectRefused(log, "the header's offset");
  std::optional<InputError> e = ErrorOf(log);
  ASSERT_TRUE(e && e->byte_offset());
  EXPECT_EQ(*e->byte_offset(), table);
}

TEST(QnnProfileLog, BitFlipsAreReadOrRefusedNeverCrash) {
  const std::string log = BuildLog(SmallRun());
  size_t refused = 0, read = 0;
  for (size_t i = 0; i < log.size(); ++i)
    for (int bit : {0, 3, 7}) {
      std::string flipped = log;
      flipped[i] = static_cast<char>(flipped[i] ^ (1 << bit));
      try {
        (void)ParseQnnProfileLog("run.log", flipped);
        ++read;
      } catch (const InputError& e) {
        ++refused;
        EXPECT_EQ(e.file(), "run.log");
        ASSERT_TRUE(e.byte_offset());
        EXPECT_LE(*e.byte_offset(), flipped.size());
      }
    }
  EXPECT_GT(refused, 0u);
  EXPECT_EQ(refused + read, log.size() * 3);
}

#endif  // HTPSCOPE_HAVE_QNN_LOG

// ../shared/corpus/qnn_net_run_2.47: each log against the CSV
// qnn-profile-viewer 2.47 printed from it.
std::string CorpusPair(const std::string& graph, const std::string& file) {
  return std::string(HTPSCOPE_SOURCE_DIR) + "/../shared/corpus/qnn_net_run_2.47/tiny_llm_block_" +
         graph + "." + file;
}

// The data rows of a viewer CSV, fields trimmed and joined by ','.
std::vector<std::string> CsvRows(const std::string& text) {
  std::vector<std::string> rows;
  std::istringstream in(text);
  std::string line;
  bool header = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!header) {
      header = line.rfind("Msg Timestamp", 0) == 0;
      continue;
    }
    std::string row;
    size_t pos = 0;
    for (int field = 0; field < 7; ++field) {
      size_t comma = field < 6 ? line.find(',', pos) : std::string::npos;
      if (field > 0) row += ',';
      row += std::string(Trim(std::string_view(line).substr(pos, comma - pos)));
      pos = comma == std::string::npos ? line.size() : comma + 1;
    }
    rows.push_back(row);
  }
  return rows;
}

class QnnProfileLogCorpus : public testing::TestWithParam<std::string> {};

TEST_P(QnnProfileLogCorpus, EveryRowOfTheViewersCsvComesOutOfTheLogSkipsWithoutShared) {
  const std::string csv_path = CorpusPair(GetParam(), "profile.csv");
  if (!std::filesystem::exists(csv_path)) GTEST_SKIP() << "../shared/corpus absent";
  if (!QnnProfileLogSupported()) GTEST_SKIP() << "built without FlatBuffers";
  const std::string log_path = CorpusPair(GetParam(), "qnn-profiling-data_0.log");
  const std::string log = Slurp(log_path);
  ASSERT_EQ(DetectArtifactKindFromPrefix(log.substr(0, kArtifactSniffBytes)),
            ArtifactKind::kQnnProfileLog);
  const QnnLogContent content = DecodeQnnProfileLog(log_path, log);
  const std::vector<std::string> from_log = CsvRows(QnnLogAsCsv(log_path, content));
  std::vector<std::string> from_csv = CsvRows(Slurp(csv_path));
  // INIT included: the viewer prints the INIT, COMPOSE GRAPHS and FINALIZE
  // spans summed (decode 122 + 188,552 + 55,243 = 243,917 µs; prefill 52 +
  // 158,577 + 65,960 = 224,589).
  ASSERT_FALSE(from_csv.empty());
  EXPECT_NE(from_csv.front().find(GetParam() == "decode" ? ",INIT,243917,US,NETRUN,ROOT,null"
                                                         : ",INIT,224589,US,NETRUN,ROOT,null"),
            std::string::npos)
      << from_csv.front();
  ASSERT_EQ(from_log.size(), from_csv.size());
  EXPECT_EQ(from_log.size(), GetParam() == "decode" ? 791u : 831u);
  for (size_t i = 0; i < from_log.size(); ++i) ASSERT_EQ(from_log[i], from_csv[i]) << "row " << i;
  // And so the reports: every block, metric and node.
  const ProfileReport from_log_report = ReadQnnProfileLog(log_path);
  const ProfileReport from_csv_report = ReadProfileCsv(csv_path);
  EXPECT_EQ(Blocks(from_log_report), Blocks(from_csv_report));
  EXPECT_EQ(from_log_report.application_version, from_csv_report.application_version);
  EXPECT_EQ(from_log_report.backend_version, from_csv_report.backend_version);
}

INSTANTIATE_TEST_SUITE_P(Pairs, QnnProfileLogCorpus, testing::Values("prefill", "decode"));

}  // namespace
}  // namespace htpscope::qnn_profile_log_test
