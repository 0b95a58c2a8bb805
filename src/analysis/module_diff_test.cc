#include "analysis/module_diff.h"

#include <gtest/gtest.h>

#include <cmath>
#include <deque>

#include "analysis/run_diff.h"
#include "base/test_paths.h"
#include "formats/linting_example_test_util.h"

namespace htpscope::module_diff_test {
namespace {

ModuleTree Tree(std::vector<double> layer_times, ModuleTimeBasis basis,
                const std::string& extra = "") {
  // A tree views its ops' names: these live as long as the test program.
  static std::deque<std::string> names;
  std::vector<ModuleOpInput> ops;
  for (size_t l = 0; l < layer_times.size(); ++l)
    ops.push_back({names.emplace_back("/model/layers." + std::to_string(l) + "/attn/MatMul"),
                   layer_times[l], ""});
  ops.push_back({"Input", 10, ""});
  if (!extra.empty()) ops.push_back({names.emplace_back(extra), 5, ""});
  return BuildModuleTree(ops, basis);
}

const ModuleDelta* Find(const ModuleDiff& d, const std::string& path) {
  for (const auto& m : d.modules)
    if (m.path == path) return &m;
  return nullptr;
}

TEST(ModuleDiff, NamesTheLayerThatGotSlower) {
  ModuleTree a = Tree({100, 100, 100, 100}, ModuleTimeBasis::kSteadyMedianCycles);
  ModuleTree b = Tree({100, 100, 130, 100}, ModuleTimeBasis::kSteadyMedianCycles, "/head/Gemm");
  ModuleDiff d = DiffModules({&a}, {&b});
  EXPECT_EQ(d.basis, "steady_median_cycles");
  EXPECT_EQ(d.unit, "cycles");
  EXPECT_TRUE(d.has_modules);
  EXPECT_EQ(d.slowest_block, "model/layers.2");
  const ModuleDelta* l2 = Find(d, "model/layers.2");
  ASSERT_TRUE(l2);
  EXPECT_EQ(l2->status, ModuleMatch::kMatched);
  EXPECT_TRUE(l2->block);
  EXPECT_DOUBLE_EQ(*l2->time.change, 30);
  EXPECT_DOUBLE_EQ(*l2->time.change_pct, 30);
  EXPECT_FALSE(l2->time.noise_bound);  // one run a side
  EXPECT_EQ(Find(d, "head")->status, ModuleMatch::kAdded);
  EXPECT_DOUBLE_EQ(*Find(d, "(all)")->time.change, 35);
  // Largest change first: the root (35), then model and attention (30 each).
  EXPECT_EQ(d.modules.front().path, "(all)");
  ASSERT_FALSE(d.notes.empty());  // the noise rule needs three runs a side
}

TEST(ModuleDiff, GatesOnModuleGlobs) {
  ModuleTree a = Tree({100, 100, 100}, ModuleTimeBasis::kDpcCycles);
  ModuleTree b = Tree({100, 104, 120}, ModuleTimeBasis::kDpcCycles);
  ModuleDiff d = DiffModules({&a}, {&b});
  std::vector<GateSubject> subjects;
  AppendModuleGateSubjects(d, subjects);
  GateResult r = EvaluateGate(ParseGate("module:model/layers.*:cycles>+5%"), subjects);
  EXPECT_TRUE(r.evaluated);
  EXPECT_FALSE(r.passed);
  ASSERT_EQ(r.exceeded.size(), 2u);  // layers.2 (+20 %) and its attention module
  // Only layers.1 (+4 %) and layers.0 pass below.
  GateResult below = EvaluateGate(ParseGate("module:model/layers.?:cycles>+5%"), subjects);
  ASSERT_EQ(below.exceeded.size(), 1u);
  EXPECT_EQ(below.exceeded[0].subject, "module:model/layers.2:cycles");
  // The field is the tree's unit: "us" names nothing here.
  EXPECT_FALSE(EvaluateGate(ParseGate("module:*:us>+5%"), subjects).evaluated);
}

TEST(ModuleDiff, NoiseRuleWithThreeRunsASide) {
  ModuleTree a1 = Tree({100}, ModuleTimeBasis::kSteadyMedianCycles);
  ModuleTree a2 = Tree({102}, ModuleTimeBasis::kSteadyMedianCycles);
  ModuleTree a3 = Tree({98}, ModuleTimeBasis::kSteadyMedianCycles);
  ModuleTree b1 = Tree({101}, ModuleTimeBasis::kSteadyMedianCycles);
  ModuleTree b2 = Tree({103}, ModuleTimeBasis::kSteadyMedianCycles);
  ModuleTree b3 = Tree({99}, ModuleTimeBasis::kSteadyMedianCycles);
  ModuleDiff d = DiffModules({&a1, &a2, &a3}, {&b1, &b2, &b3});
  const ModuleDelta* l0 = Find(d, "model/layers.0");
  ASSERT_TRUE(l0);
  // Medians 100 → 101; MAD 2 a side: σ = 2.9652, bound 3 × √2 × σ = 12.58.
  EXPECT_DOUBLE_EQ(*l0->time.change, 1);
  ASSERT_TRUE(l0->time.noise_bound);
  EXPECT_NEAR(*l0->time.noise_bound, 3 * std::sqrt(2.0) * 1.4826 * 2, 1e-9);
  EXPECT_TRUE(l0->time.within_noise);
  EXPECT_EQ(d.slowest_block, "");  // grew within noise only
  EXPECT_TRUE(d.notes.empty());
}

TEST(ModuleDiff, DifferentBasesAreNeverCompared) {
  ModuleTree a = Tree({100}, ModuleTimeBasis::kDpcCycles);
  ModuleTree b = Tree({100}, ModuleTimeBasis::kSteadyMedianCycles);
  ModuleDiff d = DiffModules({&a}, {&b});
  EXPECT_TRUE(d.modules.empty());
  EXPECT_TRUE(d.basis.empty());
  EXPECT_TRUE(d.has_modules);
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find("different bases"), std::string::npos);
  ModuleTree empty;
  EXPECT_TRUE(DiffModules({&empty}, {&b}).modules.empty());
}

// Two ONNX Runtime QNN EP profiles of the ResNet-style model: B's
// stages.3/layers.1 runs its ops 1.3× slower.  Expected: that layer's
// steady-median sum 2,096,348 → 2,725,253 cycles (+628,905), computed from
// the files' rows outside htpscope.
TEST(ModuleDiff, RunDiffNamesTheSlowerResnetLayer) {
  std::vector<RunFacts> a, b;
  a.push_back(CollectRunFacts(
      LoadRun({testing_support::ProfileTestdata("ort_qnn_ep_resnet_modules.csv")})));
  b.push_back(CollectRunFacts(
      LoadRun({std::string(HTPSCOPE_SOURCE_DIR) + "/examples/docs/modules/resnet_b.csv"})));
  RunDiff diff = DiffRuns(a, b);
  const ModuleDiff& d = diff.modules;
  EXPECT_EQ(d.basis, "steady_median_cycles");
  EXPECT_EQ(d.slowest_block, "resnet/encoder/stages.3/layers.1");
  const ModuleDelta* layer = Find(d, "resnet/encoder/stages.3/layers.1");
  ASSERT_TRUE(layer);
  EXPECT_DOUBLE_EQ(*layer->time.a_value(), 2096348.0);
  EXPECT_DOUBLE_EQ(*layer->time.b_value(), 2725253.0);
  EXPECT_DOUBLE_EQ(*Find(d, "resnet/encoder/stages.2")->time.change, 0);
  std::vector<GateSubject> subjects = GateSubjects(diff);
  GateResult r = EvaluateGate(ParseGate("module:resnet/encoder/stages.*:cycles>+5%"), subjects);
  EXPECT_FALSE(r.passed);
  ASSERT_FALSE(r.exceeded.empty());
  EXPECT_EQ(r.exceeded[0].subject, "module:resnet/encoder/stages.3:cycles");
}

}  // namespace
}  // namespace htpscope::module_diff_test
