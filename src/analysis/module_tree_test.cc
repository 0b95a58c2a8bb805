#include "analysis/module_tree.h"

#include <gtest/gtest.h>

#include <deque>
#include <tuple>

namespace htpscope::module_tree_test {
namespace {

// The inputs view their texts, and a tree its ops' names: the names a test
// makes live as long as the test program.
std::string_view Kept(std::string text) {
  static std::deque<std::string> texts;
  return texts.emplace_back(std::move(text));
}

ModuleOpInput Op(std::string name, double time, std::string graph = "") {
  return {Kept(std::move(name)), time, Kept(std::move(graph))};
}

std::vector<ModuleOpInput> TransformerOps() {
  // Four layers; layer 2 is 2× the others' attention: a slow block.
  std::vector<ModuleOpInput> ops;
  const double attn[] = {100, 100, 200, 100}, mlp[] = {50, 60, 50, 40};
  for (int l = 0; l < 4; ++l) {
    std::string layer = "model.layers." + std::to_string(l);
    ops.push_back(Op(layer + ".self_attn.q_proj.0", attn[l] * 0.5));
    ops.push_back(Op(layer + ".self_attn.o_proj.0", attn[l] * 0.5));
    ops.push_back(Op(layer + ".mlp.down_proj", mlp[l]));
  }
  ops.push_back(Op("lm_head.0", 300));
  ops.push_back(Op("Input", 20));
  ops.push_back(Op("Output", 10));
  return ops;
}

TEST(ModuleTreeTest, RollsTimesUpAndKeepsOpsWithoutAModuleVisible) {
  ModuleTree t = BuildModuleTree(TransformerOps(), ModuleTimeBasis::kSteadyMedianCycles);
  // Σ attn 500 + Σ mlp 200 + lm_head 300 + Input 20 + Output 10.
  EXPECT_DOUBLE_EQ(t.total, 1030);
  const ModuleNode* model = t.Find("model");
  ASSERT_TRUE(model);
  EXPECT_DOUBLE_EQ(model->time, 700);
  EXPECT_EQ(model->ops, 12);
  EXPECT_EQ(model->self_ops, 0);
  EXPECT_NEAR(*model->share_pct, 700.0 / 1030 * 100, 1e-9);
  const ModuleNode* l2 = t.Find("model/layers.2");
  ASSERT_TRUE(l2);
  EXPECT_DOUBLE_EQ(l2->time, 250);
  EXPECT_EQ(l2->ops, 3);
  EXPECT_DOUBLE_EQ(t.Find("model/layers.2/self_attn/q_proj")->self_time, 100);
  const ModuleNode* none = t.Find(kNoModule);
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->unplaced);
  EXPECT_DOUBLE_EQ(none->time, 30);
  EXPECT_EQ(none->ops, 2);
  EXPECT_EQ(t.unplaced_ops(), 2);
  EXPECT_EQ(t.ops_by_spelling[static_cast<size_t>(ModuleSpelling::kDotted)], 13);
  // Root: children by time, descending.
  ASSERT_EQ(t.nodes[0].children.size(), 3u);
  EXPECT_EQ(t.nodes[t.nodes[0].children[0]].path, "model");
  EXPECT_EQ(t.nodes[t.nodes[0].children[1]].path, "lm_head");
  EXPECT_EQ(t.nodes[t.nodes[0].children[2]].path, kNoModule);
  // Parents precede their children.
  for (uint32_t i = 1; i < t.nodes.size(); ++i) EXPECT_LT(t.nodes[i].parent, int32_t(i));
}

TEST(ModuleTreeTest, TopOpsAreTheLongestAtOrBelowANode) {
  ModuleTreeOptions options;
  options.top_ops = 2;
  ModuleTree t = BuildModuleTree(TransformerOps(), ModuleTimeBasis::kDpcCycles, options);
  const ModuleNode* model = t.Find("model");
  ASSERT_EQ(model->top_ops.size(), 2u);
  EXPECT_EQ(t.ops[model->top_ops[0].op].name, "model.layers.2.self_attn.q_proj.0");
  EXPECT_DOUBLE_EQ(model->top_ops[0].time, 100);
  EXPECT_EQ(t.ops[model->top_ops[1].op].name, "model.layers.2.self_attn.o_proj.0");
  EXPECT_EQ(t.ops[t.nodes[0].top_ops[0].op].name, "lm_head.0");
  EXPECT_EQ(t.Text(t.ops[t.nodes[0].top_ops[0].op].op), "lm_head");
}

TEST(ModuleTreeTest, SiblingBlocksFarFromTheirMedianAreNamed) {
  ModuleTree t = BuildModuleTree(TransformerOps(), ModuleTimeBasis::kSteadyMedianCycles);
  ASSERT_EQ(t.families.size(), 1u);
  const ModuleBlockFamily& f = t.families[0];
  EXPECT_EQ(t.nodes[f.parent].path, "model");
  EXPECT_EQ(f.keyword, "layers");
  ASSERT_EQ(f.blocks.size(), 4u);
  // Layer times 150, 160, 250, 140: median (150 + 160) / 2 = 155.
  EXPECT_DOUBLE_EQ(f.median, 155);
  EXPECT_DOUBLE_EQ(f.min, 140);
  EXPECT_DOUBLE_EQ(f.max, 250);
  EXPECT_EQ(f.blocks[2].index, 2);
  EXPECT_NEAR(*f.blocks[2].ratio_to_median, 250.0 / 155, 1e-12);  // 1.61 ≥ 1.4
  EXPECT_EQ(f.blocks[2].finding, "slow");
  for (int i : {0, 1, 3}) EXPECT_EQ(f.blocks[i].finding, "") << i;
}

TEST(ModuleTreeTest, FastBlocksAndTheMinimumFamilySize) {
  std::vector<ModuleOpInput> ops = {Op("/enc/blocks.0/Conv", 100), Op("/enc/blocks.1/Conv", 100),
                                    Op("/enc/blocks.2/Conv", 60),  // exactly 0.6 × the median
                                    Op("/dec/blocks.0/Conv", 100), Op("/dec/blocks.1/Conv", 900)};
  ModuleTree t = BuildModuleTree(ops, ModuleTimeBasis::kMicroseconds);
  ASSERT_EQ(t.families.size(), 2u);
  for (const auto& f : t.families) {
    if (t.nodes[f.parent].path == "enc") {
      EXPECT_EQ(f.blocks[2].finding, "fast");
    } else {
      // Two blocks: compared, never named.
      EXPECT_EQ(f.blocks[1].finding, "");
      EXPECT_DOUBLE_EQ(*f.blocks[1].ratio_to_median, 900.0 / 500);
    }
  }
}

TEST(ModuleTreeTest, BlockIndicesSortNumerically) {
  std::vector<ModuleOpInput> ops;
  for (int l : {10, 2, 1}) ops.push_back(Op("/m/layers." + std::to_string(l) + "/Add", 1.0 * l));
  ModuleTree t = BuildModuleTree(ops, ModuleTimeBasis::kSteadyMedianCycles);
  ASSERT_EQ(t.families.size(), 1u);
  EXPECT_EQ(t.families[0].blocks[0].index, 1);
  EXPECT_EQ(t.families[0].blocks[1].index, 2);
  EXPECT_EQ(t.families[0].blocks[2].index, 10);
}

TEST(ModuleTreeTest, SanitizedHeadsSplitOtherPathsThatStartWithThem) {
  std::vector<ModuleOpInput> ops = {Op("_model_layers_0_self_attn_q_proj_MatMul", 10),
                                    Op("_model_embed_tokens_Gather", 5), Op("_model_norm_Mul", 2),
                                    Op("_modelx_Add", 1)};
  ModuleTree t = BuildModuleTree(ops, ModuleTimeBasis::kSteadyMedianCycles);
  ASSERT_TRUE(t.Find("model/embed_tokens"));
  ASSERT_TRUE(t.Find("model/norm"));
  EXPECT_DOUBLE_EQ(t.Find("model")->time, 17);
  EXPECT_TRUE(t.Find("modelx"));  // "modelx" does not start with "model_"
}

TEST(ModuleTreeTest, SeveralGraphsAreTopLevelNodes) {
  std::vector<ModuleOpInput> ops = {
      {"/a/Conv", 3, "prefill"}, {"Input", 1, "prefill"}, {"/a/Conv", 2, "decode"}};
  ModuleTree t = BuildModuleTree(ops, ModuleTimeBasis::kSteadyMedianCycles);
  EXPECT_DOUBLE_EQ(t.Find("graph:prefill")->time, 4);
  EXPECT_DOUBLE_EQ(t.Find("graph:prefill/a")->time, 3);
  EXPECT_DOUBLE_EQ(t.Find("graph:decode/a")->time, 2);
  EXPECT_TRUE(t.Find("graph:prefill/(no module)")->unplaced);
}

TEST(ModuleTreeTest, EmptyAndZeroTimes) {
  ModuleTree empty = BuildModuleTree({}, ModuleTimeBasis::kDpcCycles);
  EXPECT_TRUE(empty.empty());
  ASSERT_EQ(empty.nodes.size(), 1u);
  EXPECT_FALSE(empty.nodes[0].share_pct);
  ModuleTree zero = BuildModuleTree({Op("/a/X", 0), Op("/a/Y", -5)}, ModuleTimeBasis::kDpcCycles);
  EXPECT_DOUBLE_EQ(zero.total, 0);
  EXPECT_EQ(zero.Find("a")->ops, 2);
  EXPECT_FALSE(zero.Find("a")->share_pct);
}

TEST(ModuleTreeTest, BasisNamesAndUnits) {
  EXPECT_STREQ(ModuleTimeBasisName(ModuleTimeBasis::kDpcCycles), "dpc_cycles");
  EXPECT_STREQ(ModuleTimeBasisName(ModuleTimeBasis::kSteadyMedianCycles), "steady_median_cycles");
  EXPECT_STREQ(ModuleTimeUnit(ModuleTimeBasis::kExecutionCycles), "cycles");
  EXPECT_STREQ(ModuleTimeUnit(ModuleTimeBasis::kMicroseconds), "us");
}

}  // namespace
}  // namespace htpscope::module_tree_test

namespace htpscope::module_tree_test {
namespace {

TEST(ModuleTreeTest, FamiliesWithoutAMajorityStructureAreNotJudged) {
  // ResNet stages: 1, 2 and 3 layers — different structures, different times by design.
  std::vector<ModuleOpInput> ops;
  const int layers[] = {1, 2, 3};
  for (int s = 0; s < 3; ++s)
    for (int l = 0; l < layers[s]; ++l)
      ops.push_back(Op("/enc/stages." + std::to_string(s) + "/layers." + std::to_string(l) +
                           "/Conv_token_" + std::to_string(10 * s + l) + "_2",
                       100.0 * (s + 1)));
  ModuleTree t = BuildModuleTree(ops, ModuleTimeBasis::kSteadyMedianCycles);
  const ModuleBlockFamily* stages = nullptr;
  for (const auto& f : t.families)
    if (f.keyword == "stages") stages = &f;
  ASSERT_TRUE(stages);
  EXPECT_EQ(stages->alike, 1u);
  EXPECT_FALSE(stages->compared);
  // Stage times 100, 400, 900: 900 is 2.25 × the median, yet not named.
  EXPECT_DOUBLE_EQ(*stages->blocks[2].ratio_to_median, 2.25);
  EXPECT_EQ(stages->blocks[2].finding, "");
  EXPECT_FALSE(stages->blocks[2].same_structure);
}

TEST(ModuleTreeTest, ABlockWhoseOpsDifferIsStillNamedAndSaysSo) {
  // Four alike layers, one with an extra op that doubles its time; token
  // suffixes differ per layer and do not make layers differ.
  std::vector<ModuleOpInput> ops;
  for (int l = 0; l < 4; ++l)
    ops.push_back(Op(
        "/m/layers." + std::to_string(l) + "/attn/MatMul_token_" + std::to_string(l) + "_2", 100));
  ops.push_back({"/m/layers.3/attn/Transpose_token_9_2", 100, ""});
  ModuleTree t = BuildModuleTree(ops, ModuleTimeBasis::kSteadyMedianCycles);
  ASSERT_EQ(t.families.size(), 1u);
  const ModuleBlockFamily& f = t.families[0];
  EXPECT_EQ(f.alike, 3u);
  EXPECT_TRUE(f.compared);
  EXPECT_DOUBLE_EQ(f.median, 100);
  EXPECT_EQ(f.blocks[3].finding, "slow");
  EXPECT_FALSE(f.blocks[3].same_structure);
  EXPECT_TRUE(f.blocks[0].same_structure);
}

}  // namespace
}  // namespace htpscope::module_tree_test

namespace htpscope::module_tree_test {
namespace {

TEST(ModuleTreeTest, ComputeUnitsRollUpWhenTheInputSaysWhereOpsRan) {
  std::vector<ModuleOpInput> ops = {{"/m/layers.0/MatMul", 100, "", "NPU", "MatMul"},
                                    {"/m/layers.0/Gather", 30, "", "CPU", "Gather"},
                                    {"/m/layers.1/MatMul", 90, "", "NPU"},
                                    {"/m/layers.1/Resize", 12, "", "GPU"},
                                    {"/m/layers.1/Softmax", 10, ""},
                                    {"/m/Argmax", 7, "", "CPU"}};
  ModuleTree t = BuildModuleTree(ops, ModuleTimeBasis::kAihubLayerMicroseconds);
  auto units = [&](std::string_view path) {
    std::vector<std::tuple<std::string, double, int64_t>> out;
    for (const auto& u : t.Find(path)->by_unit) out.emplace_back(u.unit, u.time, u.ops);
    return out;
  };
  using Units = std::vector<std::tuple<std::string, double, int64_t>>;
  // NPU, GPU, CPU in that order whatever the input order.
  EXPECT_EQ(units("m/layers.0"), (Units{{"NPU", 100, 1}, {"CPU", 30, 1}}));
  EXPECT_EQ(units("m/layers.1"), (Units{{"NPU", 90, 1}, {"GPU", 12, 1}}));  // Softmax: unknown
  EXPECT_EQ(units("m"), (Units{{"NPU", 190, 2}, {"GPU", 12, 1}, {"CPU", 37, 2}}));
  EXPECT_DOUBLE_EQ(t.Find("m")->off_npu_time(), 12 + 30 + 7);
  EXPECT_EQ(t.Find("m")->off_npu_ops(), 3);
  EXPECT_EQ(t.Find("m/layers.1")->Unit("GPU")->ops, 1);
  EXPECT_EQ(t.Find("m/layers.1")->Unit("CPU"), nullptr);
  EXPECT_TRUE(t.has_compute_units());
  // Off the NPU: grouped by module in tree order (m's own op first, a parent
  // precedes its children; then layers.0, 130, before layers.1, 112).
  std::vector<std::string> off;
  for (uint32_t i : OffNpuOps(t)) off.emplace_back(t.ops[i].name);
  EXPECT_EQ(off,
            (std::vector<std::string>{"/m/Argmax", "/m/layers.0/Gather", "/m/layers.1/Resize"}));
  EXPECT_EQ(t.Text(t.ops[OffNpuOps(t)[1]].type), "Gather");
  ModuleTree unknown = BuildModuleTree({{"/a/X", 1, ""}}, ModuleTimeBasis::kMicroseconds);
  EXPECT_TRUE(unknown.nodes[0].by_unit.empty());
  EXPECT_FALSE(unknown.has_compute_units());
  EXPECT_TRUE(OffNpuOps(unknown).empty());
  EXPECT_STREQ(ModuleTimeBasisName(ModuleTimeBasis::kAihubLayerMicroseconds), "aihub_layer_us");
  EXPECT_STREQ(ModuleTimeUnit(ModuleTimeBasis::kAihubLayerMicroseconds), "us");
}

}  // namespace
}  // namespace htpscope::module_tree_test
