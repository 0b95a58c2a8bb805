#include "report/run_tables.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <set>

#include "base/corpus_test_util.h"
#include "base/doc_section_test_util.h"
#include "model/fake_qhas_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::run_tables_test {
namespace {

// Collects a column's cells.
class Collect : public CellSink {
 public:
  void Null() override { cells.push_back("NULL"); }
  void Int(int64_t v) override {
    cells.push_back(std::to_string(v));
    ints.push_back(v);
  }
  void Real(double v) override { cells.push_back(fmt::format("{}", v)); }
  void Text(std::string_view v) override { cells.emplace_back(v); }
  std::vector<std::string> cells;
  std::vector<int64_t> ints;
};

Collect Column(const htpscope::Run& run, const char* table, const char* column) {
  const RunTable* t = FindRunTable(table);
  EXPECT_NE(t, nullptr) << table;
  Collect out;
  if (!t) return out;
  for (const auto& c : t->columns) {
    if (c.name != column) continue;
    for (size_t i = 0; i < t->rows(run); ++i) c.cell(run, i, out);
    return out;
  }
  ADD_FAILURE() << table << "." << column << " missing";
  return out;
}

TEST(RunTablesCorpus, V8c8SlicesOpsAndUnits) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("v8c8_256")});
  int64_t dur = 0;
  for (int64_t d : Column(run, "slices", "dur_cycles").ints) dur += d;
  EXPECT_EQ(dur, 317483);
  EXPECT_EQ(Column(run, "ops", "name").cells.front(), "bbb_indep0");
  EXPECT_EQ(Column(run, "ops", "dpc_cycles").cells.front(), "87938");
  EXPECT_EQ(Column(run, "units", "cycles_used").cells.front(), "169635");
  EXPECT_EQ(Column(run, "executions", "qnn_accelerator_us").cells.front(), "1409");
  EXPECT_EQ(Column(run, "runs", "graph_wall_cycles").cells, (std::vector<std::string>{"186647"}));
}

// Two QHAS cores without an optrace: one qhas_cores row per core; each op
// instance names its core; fmt_change reaches the op instance.
TEST(RunTables, QhasCoresAndInstanceCoreAndFormatChange) {
  testing_support::FakeQhasCore c0{0, 1000, 10.0, {{"HMX", 256, 900}, {"HVX", 512, 100}}, {}};
  c0.path = {{0x11, 0, 900}, {0, 900, 1000}};
  testing_support::FakeQhasCore c1{1, 600, 25.0, {{"HMX", 256, 300}, {"HVX", 512, 450}}, {}};
  c1.path = {{0x11, 5000, 5450}, {0, 5450, 5600}};
  // Both cores use op ID 0x11: two instances, one per core.
  std::vector<testing_support::FakeQhasInstance> rows = {
      {0x11, "q::MatMul", "a", "hmx", 256, 0, 900, 900, 10, 20},
      {0x11, "q::ForceFormat_Crouton", "b", "hvx", 512, 5000, 450, 450, 30, 40}};
  rows[1].htp = 1;
  rows[1].fmt_change = true;
  htpscope::Run run =
      testing_support::FakeRun("", "", testing_support::FakeQhasJson({c0, c1}, rows));
  EXPECT_EQ(Column(run, "qhas_cores", "core").cells, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(Column(run, "qhas_cores", "timeline_cycles").cells,
            (std::vector<std::string>{"1000", "600"}));
  EXPECT_EQ(Column(run, "qhas_cores", "path_idle_cycles").cells,
            (std::vector<std::string>{"100", "150"}));
  EXPECT_EQ(Column(run, "qhas_cores", "busiest_hvx_cycles_used").cells,
            (std::vector<std::string>{"100", "450"}));
  EXPECT_EQ(Column(run, "op_instances", "qnn_op_name").cells, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(Column(run, "op_instances", "htp_core").cells, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(Column(run, "op_instances", "format_change").cells,
            (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(Column(run, "op_instances", "reference_op").cells,
            (std::vector<std::string>{"0", "0"}));
}

// Every column's name says its unit or what it is; no two columns of a
// table share a name.
TEST(RunTables, ColumnNamesAreUniqueAndCarryUnits) {
  for (const auto& t : RunTables()) {
    std::set<std::string> names;
    for (const auto& c : t.columns) {
      EXPECT_TRUE(names.insert(c.name).second) << t.name << "." << c.name;
      if (c.type == ColumnType::kDouble || c.type == ColumnType::kInt64) {
        static const char* kSuffixes[] = {
            "_cycles",     "_cycle",      "_us",          "_ticks",
            "_bytes",      "_pct",        "_ghz",         "_id",
            "tid",         "execution",   "instances",    "slices",
            "executions",  "hvx_threads", "op_instances", "cycles_per_packet",
            "cycles_used", "core",        "_nodes",       "a",
            "b",           "value",       "ops",          "depth",
            "_ratio"};  // profile_phases: its unit in `unit`
        bool named = false;
        for (const char* s : kSuffixes) {
          std::string_view n(c.name), suffix(s);
          named =
              named || (n.size() >= suffix.size() && n.substr(n.size() - suffix.size()) == suffix);
        }
        // Device profiles' tables: tokens per second, positions and counts,
        // a value whose unit column says it, an ExecuTorch runner's MiB
        // under the runner's own name.
        for (const char* s : {"_tps", "_index", "_count", "value", "_mb"}) {
          std::string_view n(c.name), suffix(s);
          named =
              named || (n.size() >= suffix.size() && n.substr(n.size() - suffix.size()) == suffix);
        }
        EXPECT_TRUE(named) << t.name << "." << c.name << " names no unit";
      }
    }
  }
}

// docs/tables.md lists the schema exactly as RunTables() defines it.
std::string SchemaMarkdown() {
  std::string out;
  for (const auto& t : RunTables()) {
    out += fmt::format("### `{}`\n{}\n\n| column | type | meaning |\n|---|---|---|\n", t.name,
                       t.description);
    for (const auto& c : t.columns)
      out += fmt::format("| `{}` | {} | {} |\n", c.name, ColumnTypeName(c.type), c.description);
    out += "\n";
  }
  return out;
}

TEST(RunTables, DocsListTheSchema) {
  testing_support::ExpectDocSection("tables.md", "schema", SchemaMarkdown());
}

}  // namespace
}  // namespace htpscope::run_tables_test
