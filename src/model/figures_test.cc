#include "model/figures.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "base/test_paths.h"

namespace htpscope::figures_test {
namespace {

std::string ReadDoc(const std::string& name) {
  std::ifstream in(std::string(HTPSCOPE_SOURCE_DIR) + "/docs/" + name);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

TEST(Figures, NamesAreDistinctAndFoundByName) {
  std::set<std::string> names;
  for (const FigureInfo& f : Figures()) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    ASSERT_EQ(FindFigure(f.name), &f) << f.name;
    EXPECT_EQ(&InfoOf(f.figure), &f);
  }
  EXPECT_EQ(names.size(), kFigureCount);
  EXPECT_EQ(FindFigure("wal_us"), nullptr);
  EXPECT_STREQ(FigureName(Figure::kDomainCycles), "domain_cycles");
  EXPECT_STREQ(InfoOf(Figure::kOpInstances).unit, "instances");
  EXPECT_EQ(InfoOf(Figure::kColdWallUs).samples, FigureSamples::kColdExecutions);
}

TEST(Figures, ItemFiguresShareARunFiguresNameOnlyForTheSameKindOfQuantity) {
  std::set<std::string> names, shared;
  for (const ItemFigureInfo& f : ItemFigures()) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    EXPECT_EQ(&InfoOf(f.figure), &f);
    if (const FigureInfo* run = FindFigure(f.name)) {
      shared.insert(f.name);
      EXPECT_STREQ(run->unit, f.unit) << f.name;
    }
  }
  // Thread-aggregate work of an op and of the run; the wall of a runtrace
  // phase and of the graph.
  EXPECT_EQ(shared, (std::set<std::string>{"work_cycles", "wall_us"}));
  EXPECT_EQ(ItemFigureName(ItemFigure::kWorkCycles), FigureName(Figure::kWorkCycles));
}

TEST(Figures, ItemFigureNamesByItem) {
  EXPECT_EQ(ItemFigureNames(FigureItem::kOp, "|"), "dpc_cycles|work_cycles|instances");
  EXPECT_EQ(ItemFigureNames(FigureItem::kUnit, ", "), "cycles_used, utilization_pct");
  EXPECT_EQ(ItemFigureNames(FigureItem::kProfileOp, "|"), "steady_cycles|cold_cycles");
  EXPECT_EQ(ItemFigureNames(FigureItem::kPhase, "|"), "wall_us");
}

TEST(Figures, DiffGroupsAreContiguousInRegistryOrder) {
  // diff's text shows the groups in turn; each is one run of the registry.
  std::vector<FigureGroup> seen;
  for (const FigureInfo& f : Figures())
    if (seen.empty() || seen.back() != f.group) seen.push_back(f.group);
  EXPECT_EQ(seen, (std::vector<FigureGroup>{FigureGroup::kCoarse, FigureGroup::kTraced,
                                            FigureGroup::kMemory}));
}

// docs/metrics.md lists the registry between its figures markers, exactly
// as FiguresMarkdown renders it (HTPSCOPE_UPDATE_DOCS=1 rewrites it).
TEST(Figures, MetricsDocListsTheRegistry) {
  std::string doc = ReadDoc("metrics.md");
  const std::string begin = "<!-- figures: begin -->\n", end = "<!-- figures: end -->";
  size_t b = doc.find(begin), e = doc.find(end);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  if (std::getenv("HTPSCOPE_UPDATE_DOCS")) {
    std::ofstream(std::string(HTPSCOPE_SOURCE_DIR) + "/docs/metrics.md")
        << doc.substr(0, b + begin.size()) << FiguresMarkdown() << doc.substr(e);
    return;
  }
  const std::string section = doc.substr(b + begin.size(), e - b - begin.size());
  EXPECT_EQ(section, FiguresMarkdown())
      << "update docs/metrics.md between the figures markers with the text above";
  // Each figure has its row, with its unit.
  for (const FigureInfo& f : Figures())
    EXPECT_NE(section.find(std::string("| `") + f.name + "` | " + f.unit + " |"), std::string::npos)
        << f.name;
  for (const ItemFigureInfo& f : ItemFigures())
    EXPECT_NE(section.find(std::string("| `") + f.name + "` | " + f.unit + " |"), std::string::npos)
        << f.name;
}

// Outside the generated list, a name with a unit suffix that docs/metrics.md
// writes as code is a registry figure, or one of the artifacts' own fields
// and the warning codes the text quotes.
TEST(Figures, MetricsDocNamesNoFigureTheRegistryLacks) {
  const std::set<std::string> not_figures = {
      "timeline_cycles", "graph_execute_us", "time_us",  // QHAS htp_overall_summary fields
      "aggregate_cycles",                                // a warning code
  };
  std::set<std::string> registry;
  for (const FigureInfo& f : Figures()) registry.insert(f.name);
  for (const ItemFigureInfo& f : ItemFigures()) registry.insert(f.name);
  std::string doc = ReadDoc("metrics.md");
  const size_t b = doc.find("<!-- figures: begin -->"), e = doc.find("<!-- figures: end -->");
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  doc.erase(b, e - b);
  const std::regex figure_like("`([a-z][a-z0-9_]*_(us|cycles|bytes|pct|ticks|ghz))`");
  int checked = 0;
  for (std::sregex_iterator it(doc.begin(), doc.end(), figure_like), stop; it != stop; ++it) {
    const std::string name = (*it)[1];
    ++checked;
    EXPECT_TRUE(registry.contains(name) || not_figures.contains(name))
        << "docs/metrics.md names `" << name << "`: add it to model/figures.cc, or to this "
        << "test's list of names that are not figures";
  }
  EXPECT_GT(checked, 0);
}

// docs/diff.md's list of gate NAMEs names every run-level figure.
TEST(Figures, DiffDocNamesEveryRunLevelFigure) {
  const std::string doc = ReadDoc("diff.md");
  const size_t list = doc.find("* Run-level NAMEs:");
  ASSERT_NE(list, std::string::npos);
  const std::string bullet = doc.substr(list, doc.find("\n* ", list + 1) - list);
  for (const FigureInfo& f : Figures())
    EXPECT_NE(bullet.find(std::string("`") + f.name + "`"), std::string::npos) << f.name;
}

}  // namespace
}  // namespace htpscope::figures_test
