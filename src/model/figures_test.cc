#include "model/figures.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/doc_section_test_util.h"
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
  const std::string section =
      testing_support::ExpectDocSection("metrics.md", "figures", FiguresMarkdown());
  // Each figure has its row, with its unit.
  for (const FigureInfo& f : Figures())
    EXPECT_NE(section.find(std::string("| `") + f.name + "` | " + f.unit + " |"), std::string::npos)
        << f.name;
  for (const ItemFigureInfo& f : ItemFigures())
    EXPECT_NE(section.find(std::string("| `") + f.name + "` | " + f.unit + " |"), std::string::npos)
        << f.name;
  for (const DeviceFigureInfo& f : DeviceFigures())
    EXPECT_NE(section.find(std::string("| `") + f.name + "` | " + f.unit + " |"), std::string::npos)
        << f.name;
  // The device figures' table, with the artifacts that give each.
  EXPECT_NE(section.find("| `cold_ttft_us` | us | "), std::string::npos);
  EXPECT_NE(section.find("| trend | Genie profile, ExecuTorch runner log |\n"), std::string::npos);
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
  for (const DeviceFigureInfo& f : DeviceFigures()) registry.insert(f.name);
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

TEST(DeviceFigures, NamesAreDistinctAndFoundByName) {
  std::set<std::string> names;
  for (const DeviceFigureInfo& f : DeviceFigures()) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    ASSERT_EQ(FindDeviceFigure(f.name), &f) << f.name;
    EXPECT_EQ(&InfoOf(f.figure), &f);
    // A gate NAME means one figure: no device figure is named as a run's.
    EXPECT_EQ(FindFigure(f.name), nullptr) << f.name;
  }
  EXPECT_EQ(names.size(), kDeviceFigureCount);
  EXPECT_EQ(FindDeviceFigure("ttft"), nullptr);
  EXPECT_EQ(FindDeviceFigure("wall_us"), nullptr);
  EXPECT_STREQ(DeviceFigureName(DeviceFigure::kTtftUs), "ttft_us");
  EXPECT_STREQ(InfoOf(DeviceFigure::kTokenRate).unit, "toks/s");
  EXPECT_EQ(InfoOf(DeviceFigure::kTokenRate).worse, Worse::kLower);
  EXPECT_EQ(InfoOf(DeviceFigure::kColdTtftUs).samples, DeviceSamples::kCold);
  EXPECT_FALSE(InfoOf(DeviceFigure::kQueryUs).trend);
}

// Each figure comes from at least one artifact, and an artifact that gives
// it says how (label and basis, for diff's row).
TEST(DeviceFigures, EachIsGivenByAnArtifactWithLabelAndBasis) {
  const DeviceArtifact artifacts[] = {DeviceArtifact::kAihub, DeviceArtifact::kGenie,
                                      DeviceArtifact::kLlmRunner};
  for (const DeviceFigureInfo& f : DeviceFigures()) {
    int given = 0;
    for (DeviceArtifact a : artifacts) {
      const DeviceFigureSource& s = f.From(a);
      EXPECT_EQ(s.label != nullptr, s.basis != nullptr) << f.name;
      if (!s.given()) continue;
      ++given;
      EXPECT_GT(std::string(s.label).size(), 0u) << f.name;
      EXPECT_GT(std::string(s.basis).size(), 0u) << f.name;
    }
    EXPECT_GE(given, 1) << f.name;
    EXPECT_GT(std::string(f.description).size(), 0u) << f.name;
  }
  EXPECT_STREQ(InfoOf(DeviceFigure::kColdTtftUs).From(DeviceArtifact::kGenie).label,
               "time to first token (cold first query)");
  EXPECT_STREQ(InfoOf(DeviceFigure::kColdTtftUs).From(DeviceArtifact::kLlmRunner).label,
               "time to first token (cold first generation)");
  EXPECT_FALSE(InfoOf(DeviceFigure::kColdTtftUs).From(DeviceArtifact::kAihub).given());
}

std::vector<std::string> NamesOf(DeviceArtifact artifact) {
  std::vector<std::string> out;
  for (const DeviceFigureInfo* f : DeviceFiguresOf(artifact)) out.push_back(f->name);
  return out;
}

// The figures of each artifact in the registry's order: diff's rows.
TEST(DeviceFigures, EachArtifactsFiguresInDiffOrder) {
  EXPECT_EQ(NamesOf(DeviceArtifact::kAihub),
            (std::vector<std::string>{
                "inference_us", "cold_inference_us", "estimated_inference_us", "first_load_us",
                "warm_load_us", "compile_us", "inference_peak_memory_bytes", "npu_layers_pct",
                "npu_time_pct", "fallback_layers", "fallback_time_us", "layers"}));
  EXPECT_EQ(
      NamesOf(DeviceArtifact::kGenie),
      (std::vector<std::string>{"ttft_us", "cold_ttft_us", "token_rate", "prompt_rate", "query_us",
                                "init_us", "free_us", "prompt_tokens", "generated_tokens"}));
  EXPECT_EQ(
      NamesOf(DeviceArtifact::kLlmRunner),
      (std::vector<std::string>{"ttft_us", "cold_ttft_us", "prefill_us", "prefill_token_rate",
                                "decode_us", "decode_token_rate", "generation_us", "model_load_us",
                                "prompt_tokens", "generated_tokens", "gpu_peak_usage_mb"}));
}

// docs/formats-beyond-sdk.md's table of the device figures (gate names)
// names only registry figures, and every one of them, with its unit.
TEST(DeviceFigures, FormatsDocTableNamesTheRegistry) {
  const std::string doc = ReadDoc("formats-beyond-sdk.md");
  const size_t b = doc.find("| figure (gate name) | unit | samples per run |");
  ASSERT_NE(b, std::string::npos);
  const std::string table = doc.substr(b, doc.find("\n\n", b) - b);
  std::set<std::string> named;
  const std::regex code("`([a-z][a-z0-9_]*)`");
  std::istringstream lines(table);
  std::string line;
  while (std::getline(lines, line)) {
    // The first cell: the names; a FAMILY:GLOB:FIELD gate is not a run-level figure.
    const size_t first = line.find('|'), second = line.find('|', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string cell = line.substr(first + 1, second - first - 1);
    if (cell.find(':') != std::string::npos) continue;
    for (std::sregex_iterator it(cell.begin(), cell.end(), code), stop; it != stop; ++it) {
      const std::string name = (*it)[1];
      named.insert(name);
      EXPECT_NE(FindDeviceFigure(name), nullptr)
          << "docs/formats-beyond-sdk.md names `" << name << "`, not a device figure";
    }
  }
  for (const DeviceFigureInfo& f : DeviceFigures())
    EXPECT_TRUE(named.contains(f.name)) << "docs/formats-beyond-sdk.md lacks `" << f.name << "`";
}

}  // namespace
}  // namespace htpscope::figures_test
