// htpscope sql and export through the binary: known answers from a fake run
// and a corpus run, SQLite and CSV holding the same tables, and the Perfetto
// trace decoded by protoc.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "base/test_paths.h"
#include "cli/cli_test_util.h"
#include "model/fake_run_test_util.h"
#include "report/run_sql.h"
#include "report/sqlite_db.h"

namespace htpscope::sql_export_cli_test {
namespace {

using testing_support::CliResult;
using testing_support::RunCli;
using testing_support::Slurp;

// A run directory holding one optrace: conv (HMX 256, cycles 1000..1100)
// feeds add (HVX 512, 1100..1150) and relu (HVX 513, 1100..1130).
std::string FakeRunDir(const std::string& name) {
  std::string dir = testing_support::TempDir(name);
  testing_support::WriteTestFile(dir + "/chrometrace.json",
                                 testing_support::OptraceJson({
                                     {1, "conv", "Conv2d", "uses_hmx", 256, 0, 100},
                                     {2, "add", "Add", "uses_hvx", 512, 100, 50, {1}},
                                     {3, "relu", "Relu", "uses_hvx", 513, 100, 30, {1}},
                                 }));
  return dir;
}

std::string Quote(const std::string& s) { return "'" + s + "'"; }

TEST(SqlCli, QueriesAFakeRunInEveryFormat) {
  const std::string run = Quote(FakeRunDir("sql_cli_run"));
  CliResult r = RunCli("sql " + run +
                       " -q 'select tid, dur_cycles from slices order by tid' "
                       "--format csv");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "tid,dur_cycles\r\n256,100\r\n512,50\r\n513,30\r\n");
  r = RunCli("sql " + run +
             " -q 'select name, dpc_cycles from ops where name = \"add\"' "
             "--format json");
  EXPECT_EQ(r.out, "[\n{\"dpc_cycles\":50,\"name\":\"add\"}\n]\n");
  // Two runs: run_id follows the order given.
  r = RunCli("sql " + run + " " + run +
             " -q 'select run_id, sum(dur_cycles) from slices group by run_id' --format csv");
  EXPECT_EQ(r.out, "run_id,sum(dur_cycles)\r\n1,180\r\n2,180\r\n");
}

TEST(SqlCli, BadSqlExits2WithSqlitesMessage) {
  const std::string run = Quote(FakeRunDir("sql_cli_bad"));
  CliResult r = RunCli("sql " + run + " -q 'selec 1'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("near \"selec\": syntax error"), std::string::npos) << r.err;
  r = RunCli("sql " + run + " -q 'select nope from slices'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no such column: nope"), std::string::npos) << r.err;
  r = RunCli("sql -q 'select 1'");
  EXPECT_EQ(r.status, 2) << r.err;
}

TEST(SqlCliCorpus, V8c8KnownAnswers) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  const std::string run = Quote(testing_support::CorpusRun("v8c8_256"));
  CliResult r = RunCli("sql " + run + " -q 'select sum(dur_cycles) from slices' --format csv");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "sum(dur_cycles)\r\n317483\r\n");
  r = RunCli("sql " + run +
             " -q 'select name, dpc_cycles from ops order by dpc_cycles desc limit 1' "
             "--format csv");
  EXPECT_EQ(r.out, "name,dpc_cycles\r\nbbb_indep0,87938\r\n");
}

// The cells of one RFC 4180 record (no line breaks inside cells).
std::vector<std::string> CsvCells(const std::string& record) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (size_t i = 0; i < record.size(); ++i) {
    const char c = record[i];
    if (quoted && c == '"' && i + 1 < record.size() && record[i + 1] == '"') {
      cells.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else if (c != '\r' || quoted) {
      cells.back() += c;
    }
  }
  return cells;
}

// Sums the `column` cells of a CSV export's TABLE.csv (plain numbers only).
int64_t SumCsvColumn(const std::string& file, const std::string& column) {
  std::istringstream in(Slurp(file));
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = CsvCells(line);
  const size_t at = std::find(header.begin(), header.end(), column) - header.begin();
  EXPECT_LT(at, header.size()) << column << " not in " << file;
  int64_t sum = 0;
  while (std::getline(in, line)) sum += std::stoll(CsvCells(line).at(at));
  return sum;
}

std::string QueryFile(const std::string& db_path, const std::string& sql,
                      QueryFormat format = QueryFormat::kCsv) {
  SqliteDb db(db_path, SqliteDb::Mode::kReadOnly);
  std::ostringstream out;
  RunSqlQuery(db, sql, format, out);
  return out.str();
}

TEST(ExportCliCorpus, V8c8SqliteAndCsvHoldTheSameFigures) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  const std::string out = testing_support::TempDir("export_v8c8");
  CliResult r = RunCli("export " + Quote(testing_support::CorpusRun("v8c8_256")) + " --sqlite " +
                       Quote(out + "/run.db") + " --csv " + Quote(out + "/csv"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(QueryFile(out + "/run.db", "select run_id, sum(dur_cycles) from slices"),
            "run_id,sum(dur_cycles)\r\n1,317483\r\n");
  EXPECT_EQ(QueryFile(out + "/run.db",
                      "select name, dpc_cycles from ops order by dpc_cycles desc limit 1"),
            "name,dpc_cycles\r\nbbb_indep0,87938\r\n");
  EXPECT_EQ(SumCsvColumn(out + "/csv/slices.csv", "dur_cycles"), 317483);
  EXPECT_EQ(SumCsvColumn(out + "/csv/slices.csv", "run_id"), 53);  // 53 slices of run 1
  const std::string ops = Slurp(out + "/csv/ops.csv");
  EXPECT_NE(ops.find("\r\n1,bbb_indep0,"), std::string::npos);
  EXPECT_NE(ops.find(",87938,"), std::string::npos);
}

TEST(ExportCli, CsvRoundTripsEveryTableAndNeutralisesFormulas) {
  std::string dir = testing_support::TempDir("export_csv_formula");
  testing_support::WriteTestFile(
      dir + "/chrometrace.json",
      testing_support::OptraceJson({{1, "=cmd|' /C calc'!A0", "Conv2d", "uses_hmx", 256, 0, 9},
                                    {2, "a,\\\"b\\\"", "Add", "uses_hvx", 512, 9, 4, {1}}}));
  const std::string out = testing_support::TempDir("export_csv_formula_out");
  CliResult r = RunCli("export " + Quote(dir) + " --csv " + Quote(out) + " --sqlite " +
                       Quote(out + "/run.db"));
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* table : {"runs", "slices", "ops", "op_instances", "units", "warnings"})
    EXPECT_TRUE(std::filesystem::exists(out + "/" + table + ".csv")) << table;
  EXPECT_EQ(SumCsvColumn(out + "/slices.csv", "dur_cycles"), 13);
  const std::string ops = Slurp(out + "/ops.csv");
  // A leading '=' is neutralised with a quote; commas and quotes are quoted.
  EXPECT_NE(ops.find(",'=cmd|' /C calc'!A0,"), std::string::npos) << ops;
  EXPECT_NE(ops.find("\"a,\"\"b\"\"\""), std::string::npos) << ops;
  // The SQLite file keeps the text as it is.
  EXPECT_EQ(QueryFile(out + "/run.db", "select name from ops order by name", QueryFormat::kJson),
            "[\n{\"name\":\"=cmd|' /C calc'!A0\"},\n{\"name\":\"a,\\\"b\\\"\"}\n]\n");
}

// ---- Perfetto ----

struct DecodedTrace {
  std::map<uint64_t, std::string> track_names;  // uuid -> name
  std::map<std::string, int64_t> busy_ns;       // track name -> Σ slice durations
  std::map<std::string, int> slices;            // track name -> slices begun
  int flows_out = 0, flows_in = 0, annotations = 0;
  std::string text;
};

// Decodes a trace with protoc against Perfetto's own perfetto_trace.proto
// when it is present, else the subset the export is written with.
DecodedTrace Decode(const std::string& trace) {
  std::string proto_dir = HTPSCOPE_PERFETTO_PROTO_DIR, proto = "perfetto_trace.proto";
  if (!std::filesystem::exists(proto_dir + "/" + proto)) {
    proto_dir = std::string(HTPSCOPE_SOURCE_DIR) + "/src/report";
    proto = "perfetto_trace_subset.proto";
  }
  const std::string text_path = trace + ".txt";
  const std::string command =
      std::string("'") + HTPSCOPE_PROTOC + "' --decode=perfetto.protos.Trace -I '" + proto_dir +
      "' '" + proto_dir + "/" + proto + "' < '" + trace + "' > '" + text_path + "' 2>&1";
  DecodedTrace d;
  EXPECT_EQ(std::system(command.c_str()), 0) << Slurp(text_path);
  d.text = Slurp(text_path);
  // Every packet: its timestamp, track event type and track, or descriptor.
  std::istringstream in(d.text);
  std::string line;
  int64_t ts = 0;
  uint64_t uuid = 0;
  std::string type;
  std::map<uint64_t, std::vector<int64_t>> open;  // track -> begin timestamps
  static const std::regex kField(R"(^\s*(\w+): (.*)$)");
  std::smatch m;
  bool in_descriptor = false;
  while (std::getline(in, line)) {
    if (line == "packet {") {
      ts = 0, uuid = 0, type.clear(), in_descriptor = false;
    } else if (line.find("track_descriptor {") != std::string::npos) {
      in_descriptor = true;
    } else if (std::regex_match(line, m, kField)) {
      const std::string key = m[1], value = m[2];
      if (key == "timestamp") ts = std::stoll(value);
      if (key == "type") type = value;
      if (key == "flow_ids") ++d.flows_out;
      if (key == "terminating_flow_ids") ++d.flows_in;
      if (key == "track_uuid") uuid = std::stoull(value);
      if (key == "uuid" && in_descriptor && line.rfind("    uuid", 0) == 0)
        uuid = std::stoull(value);
      if (key == "name" && in_descriptor && line.rfind("    name", 0) == 0)
        d.track_names[uuid] = value.substr(1, value.size() - 2);
    } else if (line == "}" && !in_descriptor) {
      const std::string& track = d.track_names[uuid];
      if (type == "TYPE_SLICE_BEGIN") {
        open[uuid].push_back(ts);
        ++d.slices[track];
      } else if (type == "TYPE_SLICE_END") {
        d.busy_ns[track] += ts - open[uuid].back();
        open[uuid].pop_back();
      }
    }
    if (line.find("debug_annotations {") != std::string::npos) ++d.annotations;
  }
  return d;
}

TEST(ExportCli, PerfettoTracksBusyTimeFlowsAndClock) {
  const std::string run = Quote(FakeRunDir("perfetto_fake"));
  const std::string out = testing_support::TempDir("perfetto_fake_out");
  CliResult r = RunCli("export " + run + " --perfetto " + Quote(out + "/trace.pftrace"));
  ASSERT_EQ(r.status, 0) << r.err;
  DecodedTrace d = Decode(out + "/trace.pftrace");
  EXPECT_EQ(d.slices["HMX 256"], 1);
  EXPECT_EQ(d.slices["HVX 512"], 1);
  EXPECT_EQ(d.slices["HVX 513"], 1);
  EXPECT_EQ(d.busy_ns["HMX 256"], 100);  // one cycle per ns by default
  EXPECT_EQ(d.busy_ns["HVX 512"], 50);
  EXPECT_EQ(d.busy_ns["HVX 513"], 30);
  EXPECT_EQ(d.flows_out, 2);  // conv -> add, conv -> relu
  EXPECT_EQ(d.flows_in, 2);
  EXPECT_EQ(d.annotations, 3 * 10 + 2);  // 10 per op slice, 2 on the traced-execution span
  EXPECT_NE(d.text.find("string_value: \"0x0000000000000002\""), std::string::npos);
  EXPECT_NE(d.text.find("process_name: \"HTP (1 ns = 1 cycle)\""), std::string::npos);
  EXPECT_NE(d.text.find("key: \"htpscope.time_unit\""), std::string::npos);

  r = RunCli("export " + run + " --perfetto " + Quote(out + "/ghz.pftrace") + " --clock-ghz 2");
  ASSERT_EQ(r.status, 0) << r.err;
  d = Decode(out + "/ghz.pftrace");
  EXPECT_EQ(d.busy_ns["HMX 256"], 50);  // 100 cycles at 2 GHz
  EXPECT_EQ(d.busy_ns["HVX 512"], 25);
  EXPECT_EQ(d.busy_ns["HVX 513"], 15);
}

TEST(ExportCli, PerfettoOfARunWithoutCyclesExits2AndWritesNothing) {
  std::string dir = testing_support::TempDir("perfetto_no_cycles");
  testing_support::WriteTestFile(dir + "/model_htp.json",
                                 testing_support::HtpGraphJson({{1, "Conv2d", "conv", {}}}, {}));
  const std::string out = testing_support::TempDir("perfetto_no_cycles_out") + "/t.pftrace";
  CliResult r = RunCli("export " + Quote(dir) + " --perfetto " + Quote(out));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("nothing to draw"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(RunCli("export " + Quote(dir)).status, 2);  // no output named
}

TEST(ExportCliCorpus, V8c8PerfettoSlicesAndHmxBusy) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  const std::string out = testing_support::TempDir("perfetto_v8c8");
  CliResult r = RunCli("export " + Quote(testing_support::CorpusRun("v8c8_256")) + " --perfetto " +
                       Quote(out + "/trace.pftrace"));
  ASSERT_EQ(r.status, 0) << r.err;
  DecodedTrace d = Decode(out + "/trace.pftrace");
  int thread_slices = 0;
  for (const auto& [track, n] : d.slices)
    if (track.rfind("HMX ", 0) == 0 || track.rfind("HVX ", 0) == 0) thread_slices += n;
  EXPECT_EQ(thread_slices, 53);
  EXPECT_EQ(d.busy_ns["HMX 256"], 169635);
}

}  // namespace
}  // namespace htpscope::sql_export_cli_test
