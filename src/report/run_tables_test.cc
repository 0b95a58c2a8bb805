#include "report/run_tables.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>

#include "base/corpus_test_util.h"

namespace htpscope {
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

// Every column's name says its unit or what it is; no two columns of a
// table share a name.
TEST(RunTables, ColumnNamesAreUniqueAndCarryUnits) {
  for (const auto& t : RunTables()) {
    std::set<std::string> names;
    for (const auto& c : t.columns) {
      EXPECT_TRUE(names.insert(c.name).second) << t.name << "." << c.name;
      if (c.type == ColumnType::kDouble || c.type == ColumnType::kInt64) {
        static const char* kSuffixes[] = {"_cycles",
                                          "_cycle",
                                          "_us",
                                          "_ticks",
                                          "_bytes",
                                          "_pct",
                                          "_ghz",
                                          "_id",
                                          "tid",
                                          "execution",
                                          "instances",
                                          "slices",
                                          "executions",
                                          "hvx_threads",
                                          "op_instances",
                                          "cycles_per_packet",
                                          "cycles_used",
                                          "a",
                                          "b"};
        bool named = false;
        for (const char* s : kSuffixes) {
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
  std::ifstream in(std::string(HTPSCOPE_SOURCE_DIR) + "/docs/tables.md");
  std::string doc((std::istreambuf_iterator<char>(in)), {});
  const std::string begin = "<!-- schema: begin -->\n", end = "<!-- schema: end -->";
  size_t b = doc.find(begin), e = doc.find(end);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  if (std::getenv("HTPSCOPE_UPDATE_DOCS")) {  // regenerate the section instead of checking it
    std::ofstream(std::string(HTPSCOPE_SOURCE_DIR) + "/docs/tables.md")
        << doc.substr(0, b + begin.size()) << SchemaMarkdown() << doc.substr(e);
    return;
  }
  EXPECT_EQ(doc.substr(b + begin.size(), e - b - begin.size()), SchemaMarkdown())
      << "update docs/tables.md between the schema markers with the text above";
}

}  // namespace
}  // namespace htpscope
