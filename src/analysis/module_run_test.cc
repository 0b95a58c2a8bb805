#include "analysis/module_run.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "base/corpus_test_util.h"
#include "formats/linting_example_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::module_run_test {
namespace {

using testing_support::FakeRun;
using testing_support::FakeSlice;
using testing_support::OptraceJson;
using testing_support::ProfileTestdata;
using testing_support::RunOfText;

double TimeOf(const ModuleTree& t, std::string_view path) {
  const ModuleNode* n = t.Find(path);
  EXPECT_TRUE(n) << path;
  return n ? n->time : -1;
}

// ort_qnn_ep_resnet_modules.csv: ONNX Runtime's QNN EP profile (7 columns,
// Message NODE rows) of a ResNet-style model with Hugging Face scope names,
// five executions of 54 ops; stages of 2, 3, 4 and 2 layers; the second
// layer of stage 2 runs 1.8× its siblings.  The expected figures are each
// op's median of executions 2..5 in the file, summed by scope prefix
// outside htpscope (e.g. Σ over "/resnet/encoder/stages.2/..." ops).
TEST(RunModules, OrtResnetStagesAreTheSumOfTheirOpsSteadyMedians) {
  htpscope::Run run = LoadRun({ProfileTestdata("ort_qnn_ep_resnet_modules.csv")});
  RunModules m = ComputeRunModules(run);
  ASSERT_TRUE(m.available());
  EXPECT_EQ(m.source, "profile");
  EXPECT_EQ(m.tree.basis, ModuleTimeBasis::kSteadyMedianCycles);
  EXPECT_EQ(m.steady_executions, 4);
  EXPECT_TRUE(m.notes.empty()) << m.notes.front();
  EXPECT_EQ(m.tree.ops.size(), 54u);
  EXPECT_DOUBLE_EQ(m.tree.total, 22163871.5);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "resnet/encoder/stages.0"), 2320545.0);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "resnet/encoder/stages.1"), 4746341.0);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "resnet/encoder/stages.2"), 9232688.5);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "resnet/encoder/stages.3"), 4662430.5);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "resnet/encoder"), 20962005.0);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "resnet"), 21865442.5);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "classifier"), 151712.0);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "resnet/encoder/stages.2/layers.1"), 3307168.0);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "resnet/encoder/stages.1/layers.0"), 1768286.5);
  // Input and Output: no module, still there.
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, kNoModule), 146717.0);
  EXPECT_EQ(m.tree.unplaced_ops(), 2);
  EXPECT_EQ(m.tree.Find("resnet/encoder/stages.2")->ops, 4 * 4 + 1);  // + the shortcut
  // The op inside a module drops its copy suffix "_token_N_2".
  const ModuleNode* l1 = m.tree.Find("resnet/encoder/stages.2/layers.1");
  EXPECT_EQ(m.tree.Text(m.tree.ops[l1->top_ops[0].op].op), "Conv");

  // Blocks: stage 2's layers 2,172,981.5 / 3,307,168 / 1,884,325.5 /
  // 1,868,213.5, median 2,028,653.5: layers.1 is 1.63 × it.
  const ModuleBlockFamily* stage2 = nullptr;
  const ModuleBlockFamily* stages = nullptr;
  for (const auto& f : m.tree.families) {
    if (m.tree.nodes[f.parent].path == "resnet/encoder/stages.2") stage2 = &f;
    if (f.keyword == "stages") stages = &f;
  }
  ASSERT_TRUE(stage2);
  EXPECT_DOUBLE_EQ(stage2->median, 2028653.5);
  EXPECT_DOUBLE_EQ(stage2->min, 1868213.5);
  EXPECT_DOUBLE_EQ(stage2->max, 3307168.0);
  EXPECT_TRUE(stage2->compared);
  EXPECT_EQ(stage2->alike, 3u);  // layers.0 has the shortcut
  EXPECT_EQ(stage2->blocks[1].finding, "slow");
  EXPECT_NEAR(*stage2->blocks[1].ratio_to_median, 3307168.0 / 2028653.5, 1e-12);
  for (int i : {0, 2, 3}) EXPECT_EQ(stage2->blocks[i].finding, "") << i;
  // Stages of 2, 3, 4, 2 layers are not alike: spread shown, nobody named.
  ASSERT_TRUE(stages);
  EXPECT_FALSE(stages->compared);
  EXPECT_DOUBLE_EQ(stages->median, (4746341.0 + 4662430.5) / 2);
  for (const auto& b : stages->blocks) EXPECT_EQ(b.finding, "");
}

// A QAIRT 2.47 qnn-profile-viewer CSV (preamble, NETRUN "Graph 0:" rows)
// whose ops carry dotted PyTorch module paths with copy indices.
std::string QairtDottedCsv(int executions) {
  std::string text =
      "qnn-profile-viewer version, v2.47.0.260601114230\n"
      "Msg Timestamp, Message, Time, Unit of Measurement, Timing Source, Event Level, Event "
      "Identifier\n";
  // Per layer: q_proj.0, q_proj.1 (a copy), o_proj.0, mlp.down_proj; layer 3 twice as slow.
  for (int x = 0; x < executions; ++x) {
    const int64_t ts = 1000 + 100 * x;
    const int64_t warm = x == 0 ? 3 : 1;  // the cold execution is 3× slower
    text += fmt::format("{},EXECUTE,900,US,NETRUN,ROOT,Graph 0: decoder\n", ts);
    text +=
        fmt::format("{},EXECUTE,0,CYCLES,BACKEND,ROOT,Accelerator (execute) time (cycles)\n", ts);
    text += fmt::format("{},EXECUTE,{},CYCLES,BACKEND,SUB-EVENT,Input OpId_2 (cycles)\n", ts,
                        500 * warm);
    int op_id = 10;
    for (int l = 0; l < 4; ++l) {
      const int64_t scale = (l == 3 ? 2 : 1) * warm;
      for (const auto& [leaf, cycles] :
           {std::pair<std::string, int64_t>{"self_attn.q_proj.0", 1000 + x},
            {"self_attn.q_proj.1", 200},
            {"self_attn.o_proj.0", 800},
            {"mlp.down_proj", 1500 - x}})
        text += fmt::format(
            "{},EXECUTE,{},CYCLES,BACKEND,SUB-EVENT,model.layers.{}.{}:OpId_{} (cycles)\n", ts,
            cycles * scale, l, leaf, op_id++);
    }
    text += fmt::format("{},EXECUTE,{},CYCLES,BACKEND,SUB-EVENT,lm_head.0:OpId_90 (cycles)\n", ts,
                        4000 * warm);
  }
  return text;
}

TEST(RunModules, QairtDottedPathsWithCopyIndices) {
  htpscope::Run run = RunOfText("decoder.profile.csv", QairtDottedCsv(4));
  RunModules m = ComputeRunModules(run);
  ASSERT_TRUE(m.available());
  EXPECT_EQ(m.tree.basis, ModuleTimeBasis::kSteadyMedianCycles);
  EXPECT_EQ(m.steady_executions, 3);
  // Layer 0, executions 2..4 (x = 1..3): q_proj.0 1001/1002/1003 -> 1002,
  // q_proj.1 200, o_proj.0 800, down_proj 1499/1498/1497 -> 1498.
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "model/layers.0/self_attn/q_proj"), 1202);
  EXPECT_EQ(m.tree.Find("model/layers.0/self_attn/q_proj")->ops, 2);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "model/layers.0/self_attn"), 2002);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "model/layers.0"), 3500);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "model/layers.3"), 7000);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "model"), 3 * 3500 + 7000);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "lm_head"), 4000);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, kNoModule), 500);
  ASSERT_EQ(m.tree.families.size(), 1u);
  const ModuleBlockFamily& layers = m.tree.families[0];
  EXPECT_DOUBLE_EQ(layers.median, 3500);
  EXPECT_EQ(layers.blocks[3].finding, "slow");  // 2.0 × the median
  EXPECT_DOUBLE_EQ(*layers.blocks[3].ratio_to_median, 2.0);
}

TEST(RunModules, OneExecutionIsLabelledAsSuch) {
  htpscope::Run run = RunOfText("decoder.profile.csv", QairtDottedCsv(1));
  RunModules m = ComputeRunModules(run);
  EXPECT_EQ(m.tree.basis, ModuleTimeBasis::kExecutionCycles);
  EXPECT_EQ(m.steady_executions, 0);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "model/layers.0"), 3 * 3500);  // the cold cycles
}

TEST(RunModules, OptraceGivesDpcPerQnnOpWithSanitizedNames) {
  // Sequential single-slice ops on thread 256: each op's DPC is its duration.
  std::vector<FakeSlice> slices = {
      {0x100000002, "Input", "q::InputSlice", "dma", 256, 0, 50},
      {0x100000010, "_model_layers_0_self_attn_q_proj_MatMul", "q::Conv2d", "uses_hmx", 256, 50,
       400},
      {0x200000010, "_model_layers_0_self_attn_q_proj_MatMul", "q::ForceFormat", "uses_hvx", 256,
       450, 100},
      {0x100000011, "_model_layers_1_self_attn_q_proj_MatMul", "q::Conv2d", "uses_hmx", 256, 550,
       450},
      {0x100000012, "_model_norm_Mul", "q::Mul", "uses_hvx", 256, 1000, 30},
  };
  htpscope::Run run = FakeRun(OptraceJson(slices), "");
  RunModules m = ComputeRunModules(run);
  ASSERT_TRUE(m.available());
  EXPECT_EQ(m.source, "optrace");
  EXPECT_EQ(m.tree.basis, ModuleTimeBasis::kDpcCycles);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "model/layers.0/self_attn_q_proj"), 500);  // two instances
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "model/layers.1"), 450);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "model/norm"), 30);  // "model_norm" split at the known "model"
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "model"), 980);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, kNoModule), 50);
  EXPECT_EQ(m.tree.ops_by_spelling[static_cast<size_t>(ModuleSpelling::kSanitized)], 3);
}

TEST(RunModules, NoPerOpTimeGivesNoTree) {
  htpscope::Run run;
  RunModules m = ComputeRunModules(run);
  EXPECT_FALSE(m.available());
  EXPECT_EQ(m.source, "none");
  ASSERT_EQ(m.notes.size(), 1u);
}

// The bundled example: an optrace run whose QNN ops ("conv_1", "softmax_0")
// carry no module; every op is in "(no module)", with its DPC.
TEST(RunModules, BundledExampleHasOnlyUnplacedOps) {
  htpscope::Run run = LoadRun({std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run"});
  RunModules m = ComputeRunModules(run);
  ASSERT_TRUE(m.available());
  EXPECT_EQ(m.tree.basis, ModuleTimeBasis::kDpcCycles);
  EXPECT_DOUBLE_EQ(m.tree.total, static_cast<double>(*run.figures.dpc_sum_cycles));
  EXPECT_EQ(m.tree.unplaced_ops(), static_cast<int64_t>(run.qnn_ops.size()));
  EXPECT_TRUE(m.tree.families.empty());
}

}  // namespace
}  // namespace htpscope::module_run_test

namespace htpscope::module_run_test {
namespace {

// A real QAIRT 2.47 qnn-profile-viewer CSV (10 executions of 66 ops): the
// converter's sanitised names give one module, "rms_norm" (two ops); the
// rest ("_MatMul_2_pre_reshape", "hidden_states_nfc", ...) have none.
// Expected figures: medians of executions 2..10 from the file's rows,
// computed outside htpscope (rms_norm__Mul_2_output_0 7,772 +
// rms_norm__Mul_14_output_0 1,012; all ops 136,331).
TEST(RunModules, CorpusQairt247DecodeHasOneModule) {
  const std::string path = std::string(HTPSCOPE_SOURCE_DIR) +
                           "/../shared/corpus/qnn_net_run_2.47/tiny_llm_block_decode.profile.csv";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "../shared/corpus absent";
  RunModules m = ComputeRunModules(LoadRun({path}));
  ASSERT_TRUE(m.available());
  EXPECT_EQ(m.tree.basis, ModuleTimeBasis::kSteadyMedianCycles);
  EXPECT_EQ(m.steady_executions, 9);
  EXPECT_EQ(m.tree.ops.size(), 66u);
  EXPECT_DOUBLE_EQ(m.tree.total, 136331);
  EXPECT_DOUBLE_EQ(TimeOf(m.tree, "rms_norm"), 7772 + 1012);
  EXPECT_EQ(m.tree.Find("rms_norm")->ops, 2);
  EXPECT_EQ(m.tree.unplaced_ops(), 64);
  EXPECT_EQ(m.tree.nodes.size(), 3u);  // the root, rms_norm, (no module)
}

}  // namespace
}  // namespace htpscope::module_run_test

namespace htpscope::module_run_test {
namespace {

// aihub_profile_decoder4.json: an AI Hub profile (qai_hub 1.2 layout) of a
// 4-layer Llama-style decoder exported to ONNX, layer names its ONNX scopes.
// Each decoder layer has 17 layers: input_layernorm 12, q_proj 60, k_proj
// 30, v_proj 30, the attention MatMul 25, Softmax 15, MatMul_1 25, o_proj 60,
// Add 5, post_attention_layernorm 12, gate_proj 150, up_proj 150, act_fn's
// Sigmoid 8 and Mul 6, mlp's Mul 6, down_proj 150, Add_1 5 µs: 749 µs.
// Layer 1's Softmax fell back to the CPU (95 µs): 829; layer 2's gate_proj
// is 154: 753; layer 3's q_proj 62 and up_proj 146: 747.  Around them:
// embed_tokens' Gather on the CPU (180), the final norm on the GPU (20),
// lm_head on the NPU (420).  _slower.json is the same with layer 2's
// down_proj at 640 µs.
constexpr double kLayerUs[] = {749, 829, 753, 747};

// The raw file, read apart from htpscope's reader: {name, unit, µs} per layer.
struct RawLayer {
  std::string name, unit;
  double us = 0;
};
std::vector<RawLayer> RawLayers(const std::string& file) {
  std::ifstream in(ProfileTestdata(file));
  nlohmann::json j = nlohmann::json::parse(in);
  std::vector<RawLayer> out;
  for (const auto& l : j["execution_detail"])
    out.push_back({l["name"], l["compute_unit"], l["execution_time"].get<double>()});
  return out;
}

TEST(RunModules, AihubDecoderLayersRollUpByModuleSplitByComputeUnit) {
  htpscope::Run run = LoadRun({ProfileTestdata("aihub_profile_decoder4.json")});
  RunModules m = ComputeRunModules(run);
  ASSERT_TRUE(m.available());
  EXPECT_EQ(m.source, "aihub");
  EXPECT_EQ(m.tree.basis, ModuleTimeBasis::kAihubLayerMicroseconds);
  EXPECT_TRUE(m.notes.empty()) << m.notes.front();
  const ModuleTree& t = m.tree;
  EXPECT_EQ(t.ops.size(), 4u * 17 + 3);
  EXPECT_EQ(t.unplaced_ops(), 0);

  // By hand (see above).
  EXPECT_DOUBLE_EQ(12 + 60 + 30 + 30 + 25 + 15 + 25 + 60 + 5 + 12 + 150 + 150 + 8 + 6 + 6 + 150 + 5,
                   kLayerUs[0]);
  for (int l = 0; l < 4; ++l)
    EXPECT_DOUBLE_EQ(TimeOf(t, "model/layers." + std::to_string(l)), kLayerUs[l]) << l;
  EXPECT_DOUBLE_EQ(t.total, 749 + 829 + 753 + 747 + 180 + 20 + 420);
  EXPECT_DOUBLE_EQ(TimeOf(t, "model"), 749 + 829 + 753 + 747 + 180 + 20);
  EXPECT_DOUBLE_EQ(TimeOf(t, "lm_head"), 420);
  EXPECT_DOUBLE_EQ(TimeOf(t, "model/layers.0/self_attn"), 60 + 30 + 30 + 25 + 15 + 25 + 60);
  EXPECT_DOUBLE_EQ(TimeOf(t, "model/layers.0/mlp"), 150 + 150 + 8 + 6 + 6 + 150);
  // The NPU/CPU/GPU split: the root, the model, layer 1 and its attention.
  const ModuleNode& root = t.nodes[0];
  EXPECT_DOUBLE_EQ(root.Unit("NPU")->time, 3698 - 180 - 95 - 20);
  EXPECT_EQ(root.Unit("NPU")->ops, 4 * 17 + 1 - 1);  // + lm_head − layer 1's Softmax
  EXPECT_DOUBLE_EQ(root.Unit("CPU")->time, 180 + 95);
  EXPECT_EQ(root.Unit("CPU")->ops, 2);
  EXPECT_DOUBLE_EQ(root.Unit("GPU")->time, 20);
  EXPECT_EQ(root.Unit("GPU")->ops, 1);
  EXPECT_DOUBLE_EQ(root.off_npu_time(), 295);
  const ModuleNode* l1 = t.Find("model/layers.1");
  EXPECT_DOUBLE_EQ(l1->Unit("NPU")->time, 829 - 95);
  EXPECT_EQ(l1->Unit("NPU")->ops, 16);
  EXPECT_DOUBLE_EQ(l1->Unit("CPU")->time, 95);
  EXPECT_EQ(l1->Unit("GPU"), nullptr);
  EXPECT_DOUBLE_EQ(t.Find("model/layers.1/self_attn")->Unit("CPU")->time, 95);
  EXPECT_DOUBLE_EQ(t.Find("model/layers.0")->off_npu_time(), 0);
  EXPECT_DOUBLE_EQ(t.Find("model/embed_tokens")->Unit("CPU")->time, 180);
  EXPECT_EQ(t.Find("model/embed_tokens")->Unit("NPU"), nullptr);
  EXPECT_DOUBLE_EQ(t.Find("model/norm")->Unit("GPU")->time, 20);

  // Every module against the raw file: Σ execution_time (and per unit) of
  // the layers whose name starts with "/<path>/".
  const std::vector<RawLayer> raw = RawLayers("aihub_profile_decoder4.json");
  for (const ModuleNode& n : t.nodes) {
    if (n.depth == 0) continue;
    const std::string prefix = "/" + n.path + "/";
    double all = 0, npu = 0, cpu = 0, gpu = 0;
    int64_t layers = 0;
    for (const auto& l : raw) {
      if (l.name.rfind(prefix, 0) != 0) continue;
      all += l.us;
      ++layers;
      (l.unit == "NPU" ? npu : l.unit == "CPU" ? cpu : gpu) += l.us;
    }
    EXPECT_DOUBLE_EQ(n.time, all) << n.path;
    EXPECT_EQ(n.ops, layers) << n.path;
    auto unit_time = [&](std::string_view u) { return n.Unit(u) ? n.Unit(u)->time : 0.0; };
    EXPECT_DOUBLE_EQ(unit_time("NPU"), npu) << n.path;
    EXPECT_DOUBLE_EQ(unit_time("CPU"), cpu) << n.path;
    EXPECT_DOUBLE_EQ(unit_time("GPU"), gpu) << n.path;
  }

  // The layers that left the NPU, by module (the tree's order: layer 1,
  // then embed_tokens, then norm).
  std::vector<std::string> off;
  for (uint32_t i : OffNpuOps(t))
    off.push_back(fmt::format("{} {} {}", t.Text(t.ops[i].compute_unit), t.Text(t.ops[i].type),
                              t.ops[i].name));
  EXPECT_EQ(off, (std::vector<std::string>{"CPU Softmax /model/layers.1/self_attn/Softmax",
                                           "CPU Gather /model/embed_tokens/Gather",
                                           "GPU RmsNorm /model/norm/Mul_1"}));

  // The repeated blocks: 4 alike (the CPU Softmax is the same op), median
  // (749 + 753) / 2, none far from it.
  ASSERT_EQ(t.families.size(), 1u);
  const ModuleBlockFamily& f = t.families[0];
  EXPECT_EQ(t.nodes[f.parent].path, "model");
  EXPECT_EQ(f.alike, 4u);
  EXPECT_TRUE(f.compared);
  EXPECT_DOUBLE_EQ(f.median, (749 + 753) / 2.0);
  EXPECT_DOUBLE_EQ(f.min, 747);
  EXPECT_DOUBLE_EQ(f.max, 829);
  for (const auto& b : f.blocks) EXPECT_EQ(b.finding, "") << b.index;
  EXPECT_DOUBLE_EQ(*f.blocks[1].ratio_to_median, 829 / 751.0);
}

TEST(RunModules, AihubDecoderSlowerLayerIsNamedSlow) {
  RunModules m =
      ComputeRunModules(LoadRun({ProfileTestdata("aihub_profile_decoder4_slower.json")}));
  const ModuleTree& t = m.tree;
  // Layer 2's down_proj 150 → 640 µs: 753 + 490.
  EXPECT_DOUBLE_EQ(TimeOf(t, "model/layers.2"), 753 + 490);
  EXPECT_DOUBLE_EQ(TimeOf(t, "model/layers.2/mlp/down_proj"), 640);
  EXPECT_DOUBLE_EQ(t.Find("model/layers.2")->Unit("NPU")->time, 753 + 490);
  ASSERT_EQ(t.families.size(), 1u);
  const ModuleBlockFamily& f = t.families[0];
  // Blocks 749, 829, 1243, 747: median (749 + 829) / 2 = 789.
  EXPECT_DOUBLE_EQ(f.median, 789);
  EXPECT_EQ(f.blocks[2].finding, "slow");
  EXPECT_DOUBLE_EQ(*f.blocks[2].ratio_to_median, 1243 / 789.0);
  for (int i : {0, 1, 3}) EXPECT_EQ(f.blocks[i].finding, "") << i;
}

TEST(RunModules, AihubLayersWithoutTimesOrBesideHtpTimesGiveNoAihubTree) {
  // A profile before version 1.2: layers without execution_time.
  RunModules v0 = ComputeRunModules(LoadRun({ProfileTestdata("aihub_profile_v0.json")}));
  EXPECT_FALSE(v0.available());
  ASSERT_FALSE(v0.notes.empty());
  EXPECT_NE(v0.notes.front().find("no execution_time"), std::string::npos) << v0.notes.front();
  // One layer of aihub_profile.json has no time: left out, said so.
  RunModules one = ComputeRunModules(LoadRun({ProfileTestdata("aihub_profile.json")}));
  EXPECT_TRUE(one.available());
  EXPECT_EQ(one.tree.ops.size(), 7u);
  EXPECT_EQ(one.notes,
            (std::vector<std::string>{"1 AI Hub layer(s) without an execution_time left out"}));
  // Beside an HTP profile the HTP op times make the tree (one basis); the
  // AI Hub layers are left out, said so.
  RunModules both = ComputeRunModules(LoadRun({ProfileTestdata("ort_qnn_ep_resnet_modules.csv"),
                                               ProfileTestdata("aihub_profile_decoder4.json")}));
  EXPECT_EQ(both.source, "profile");
  EXPECT_EQ(both.tree.basis, ModuleTimeBasis::kSteadyMedianCycles);
  EXPECT_EQ(both.tree.ops.size(), 54u);
  EXPECT_FALSE(both.tree.has_compute_units());
  ASSERT_EQ(both.notes.size(), 1u);
  EXPECT_NE(both.notes[0].find("AI Hub profile's per-layer times are not in this tree"),
            std::string::npos);
}

}  // namespace
}  // namespace htpscope::module_run_test
