#include "report/run_sql.h"

#include <gtest/gtest.h>

#include <sstream>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "model/fake_run_test_util.h"
#include "report/run_tables.h"

namespace htpscope::run_sql_test {
namespace {

using testing_support::FakeRun;
using testing_support::FakeSlice;
using testing_support::OptraceJson;

// Three ops on three hardware threads; conv feeds add and relu.  Absolute
// cycles are ts + 1000 (the fake trace's origin).
Run ThreeOpRun() {
  return FakeRun(OptraceJson({
                     {1, "conv", "Conv2d", "uses_hmx", 256, 0, 100},
                     {2, "add", "Add", "uses_hvx", 512, 100, 50, {1}},
                     {3, "relu", "Relu", "uses_hvx", 513, 100, 30, {1}},
                 }),
                 "");
}

std::string Query(SqliteDb& db, const std::string& sql, QueryFormat format = QueryFormat::kCsv) {
  std::ostringstream out;
  RunSqlQuery(db, sql, format, out);
  return out.str();
}

void Load(SqliteDb& db, const std::vector<const Run*>& runs) {
  CreateRunTables(db);
  int64_t run_id = 0;
  for (const Run* run : runs) InsertRunRows(db, *run, ++run_id);
}

TEST(RunSql, EveryTableOfTheSchemaWithRunIdFirst) {
  SqliteDb db("", SqliteDb::Mode::kMemory);
  CreateRunTables(db);
  for (const RunTable& t : RunTables()) {
    std::string columns = Query(db, "SELECT name FROM pragma_table_info('" + t.name + "')");
    std::string expected = "name\r\nrun_id\r\n";
    for (const auto& c : t.columns) expected += c.name + "\r\n";
    EXPECT_EQ(columns, expected) << t.name;
  }
}

TEST(RunSql, FakeRunSlicesOpsAndUnits) {
  htpscope::Run run = ThreeOpRun();
  SqliteDb db("", SqliteDb::Mode::kMemory);
  Load(db, {&run});
  EXPECT_EQ(Query(db, "select sum(dur_cycles) from slices"), "sum(dur_cycles)\r\n180\r\n");
  EXPECT_EQ(Query(db,
                  "select tid, start_cycle, dur_cycles from slices where start_cycle >= 1100 "
                  "order by tid"),
            "tid,start_cycle,dur_cycles\r\n512,1100,50\r\n513,1100,30\r\n");
  EXPECT_EQ(Query(db, "select name, dpc_cycles from ops order by dpc_cycles desc"),
            "name,dpc_cycles\r\nconv,100\r\nadd,50\r\nrelu,30\r\n");
  EXPECT_EQ(Query(db, "select tid, cycles_used from units order by tid"),
            "tid,cycles_used\r\n256,100\r\n512,50\r\n513,30\r\n");
  EXPECT_EQ(Query(db, "select run_id, label, graph_wall_cycles, work_cycles from runs"),
            "run_id,label,graph_wall_cycles,work_cycles\r\n1,fake,150,180\r\n");
}

TEST(RunSql, SeveralRunsEachRowWithItsRunId) {
  htpscope::Run a = ThreeOpRun();
  htpscope::Run b = FakeRun(OptraceJson({{7, "conv", "Conv2d", "uses_hmx", 256, 0, 400}}), "");
  SqliteDb db("", SqliteDb::Mode::kMemory);
  Load(db, {&a, &b});
  EXPECT_EQ(Query(db, "select run_id, count(*), sum(dur_cycles) from slices group by run_id"),
            "run_id,count(*),sum(dur_cycles)\r\n1,3,180\r\n2,1,400\r\n");
  EXPECT_EQ(Query(db,
                  "select a.run_id, b.run_id, b.dur_cycles - a.dur_cycles from slices a join "
                  "slices b on a.tid = b.tid and a.run_id < b.run_id"),
            "run_id,run_id,b.dur_cycles - a.dur_cycles\r\n1,2,300\r\n");
}

TEST(RunSql, TableAndJsonFormats) {
  htpscope::Run run = ThreeOpRun();
  SqliteDb db("", SqliteDb::Mode::kMemory);
  Load(db, {&run});
  EXPECT_EQ(Query(db, "select name, dpc_cycles, null as x from ops order by name limit 2",
                  QueryFormat::kTable),
            "name  dpc_cycles  x\n"
            "----  ----------  ----\n"
            "add           50  NULL\n"
            "conv         100  NULL\n"
            "(2 rows)\n");
  EXPECT_EQ(Query(db, "select name, dpc_cycles, 0.25 as r, null as x from ops where name='add'",
                  QueryFormat::kJson),
            "[\n{\"dpc_cycles\":50,\"name\":\"add\",\"r\":0.25,\"x\":null}\n]\n");
  // Several statements: every one that returns rows prints its result.
  EXPECT_EQ(Query(db, "create table t(x); insert into t values (1); select x from t; select 2 y"),
            "x\r\n1\r\n\r\ny\r\n2\r\n");
}

TEST(RunSql, QueryFormatsByName) {
  EXPECT_EQ(ParseQueryFormat("table"), QueryFormat::kTable);
  EXPECT_EQ(ParseQueryFormat("csv"), QueryFormat::kCsv);
  EXPECT_EQ(ParseQueryFormat("json"), QueryFormat::kJson);
  try {
    ParseQueryFormat("xml");
    ADD_FAILURE();
  } catch (const ValueError& e) {
    EXPECT_EQ(e.role(), ValueRole::kQueryOutputFormat);
    EXPECT_EQ(e.value(), "xml");
    EXPECT_EQ(e.problem(), "expected table, csv or json");
  }
}

TEST(RunSql, BadSqlCarriesSqlitesMessage) {
  SqliteDb db("", SqliteDb::Mode::kMemory);
  CreateRunTables(db);
  try {
    Query(db, "selec 1");
    FAIL() << "no error";
  } catch (const SqlError& e) {
    EXPECT_STREQ(e.what(), "near \"selec\": syntax error");
  }
  EXPECT_THROW(Query(db, "select nope from slices"), SqlError);
}

TEST(RunSqlCorpus, V8c8KnownAnswers) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("v8c8_256")});
  SqliteDb db("", SqliteDb::Mode::kMemory);
  Load(db, {&run});
  EXPECT_EQ(Query(db, "select sum(dur_cycles) from slices"), "sum(dur_cycles)\r\n317483\r\n");
  EXPECT_EQ(Query(db, "select name, dpc_cycles from ops order by dpc_cycles desc limit 1"),
            "name,dpc_cycles\r\nbbb_indep0,87938\r\n");
  EXPECT_EQ(Query(db, "select count(*) from slices"), "count(*)\r\n53\r\n");
  EXPECT_EQ(Query(db, "select cycles_used from units where tid = 256"),
            "cycles_used\r\n169635\r\n");
}

}  // namespace
}  // namespace htpscope::run_sql_test
