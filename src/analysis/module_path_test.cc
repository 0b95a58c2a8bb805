#include "analysis/module_path.h"

#include <gtest/gtest.h>

namespace htpscope::module_path_test {
namespace {

using Segments = std::vector<std::string>;

TEST(ModulePathTest, OnnxScopeKeepsEveryComponentButTheOpAndDropsTheTokenSuffix) {
  ModulePath p = ParseModulePath(
      "/resnet/encoder/stages.1/layers.0/layer/layer.0/convolution/"
      "Conv_token_13_2");
  EXPECT_EQ(p.spelling, ModuleSpelling::kOnnxScope);
  EXPECT_EQ(p.segments, (Segments{"resnet", "encoder", "stages.1", "layers.0", "layer", "layer.0",
                                  "convolution"}));
  EXPECT_EQ(p.op, "Conv");
  EXPECT_EQ(p.Joined(), "resnet/encoder/stages.1/layers.0/layer/layer.0/convolution");
}

TEST(ModulePathTest, OnnxScopeKeepsOpCountersThatAreNotTokenSuffixes) {
  ModulePath p = ParseModulePath("/model/layers.3/self_attn/MatMul_1");
  EXPECT_EQ(p.segments, (Segments{"model", "layers.3", "self_attn"}));
  EXPECT_EQ(p.op, "MatMul_1");
  // "_token_" followed by something other than numbers is part of the op's name.
  EXPECT_EQ(ParseModulePath("/m/Add_token_x").op, "Add_token_x");
}

TEST(ModulePathTest, AnOnnxOpAtTheRootHasNoModule) {
  ModulePath p = ParseModulePath("/MatMul_2");
  EXPECT_EQ(p.spelling, ModuleSpelling::kNone);
  EXPECT_TRUE(p.segments.empty());
  EXPECT_EQ(p.op, "/MatMul_2");
}

TEST(ModulePathTest, DottedPathIsTheModuleAndATrailingNumberIsTheCopyIndex) {
  ModulePath p = ParseModulePath("model.layers.0.self_attn.q_proj.0");
  EXPECT_EQ(p.spelling, ModuleSpelling::kDotted);
  EXPECT_EQ(p.segments, (Segments{"model", "layers.0", "self_attn", "q_proj"}));
  EXPECT_EQ(p.op, "q_proj");
  ModulePath plain = ParseModulePath("model.layers.12.mlp.down_proj");
  EXPECT_EQ(plain.segments, (Segments{"model", "layers.12", "mlp", "down_proj"}));
  EXPECT_EQ(plain.op, "down_proj");
  EXPECT_EQ(ParseModulePath("lm_head.0").segments, (Segments{"lm_head"}));
}

TEST(ModulePathTest, DottedNamesThatAreNotPathsHaveNoModule) {
  EXPECT_EQ(ParseModulePath("1.5").spelling, ModuleSpelling::kNone);
  EXPECT_EQ(ParseModulePath("aten::mul.Tensor").spelling, ModuleSpelling::kNone);
  EXPECT_EQ(ParseModulePath("a..b").spelling, ModuleSpelling::kNone);
  // PyTorch operator names: a namespace, not a module.
  EXPECT_EQ(ParseModulePath("aten.conv2d.default").spelling, ModuleSpelling::kNone);
  EXPECT_EQ(ParseModulePath("quantized_decomposed.quantize_per_tensor").spelling,
            ModuleSpelling::kNone);
}

TEST(ModulePathTest, SanitizedNameSplitsOnlyAtBlockTokensAndEndsBeforeTheOpType) {
  ModulePath p = ParseModulePath("_model_layers_0_self_attn_q_proj_MatMul");
  EXPECT_EQ(p.spelling, ModuleSpelling::kSanitized);
  EXPECT_EQ(p.segments, (Segments{"model", "layers.0", "self_attn_q_proj"}));
  EXPECT_EQ(p.op, "MatMul");
  ModulePath gpt = ParseModulePath("_transformer_h_11_attn_c_attn_Gemm");
  EXPECT_EQ(gpt.segments, (Segments{"transformer", "h.11", "attn_c_attn"}));
  ModulePath vit = ParseModulePath("_vit_encoder_blocks_2_stages_1_Add_3");
  // "vit_encoder" stays whole: nothing says whether it is one module or two.
  EXPECT_EQ(vit.segments, (Segments{"vit_encoder", "blocks.2", "stages.1"}));
  EXPECT_EQ(vit.op, "Add_3");
}

TEST(ModulePathTest, QairtCorpusNames) {
  // From a QAIRT 2.47 qnn-net-run profile: a module "rms_norm" and ops at the root.
  ModulePath norm = ParseModulePath("rms_norm__Mul_2_output_0");
  EXPECT_EQ(norm.segments, (Segments{"rms_norm"}));
  EXPECT_EQ(norm.op, "Mul_2_output_0");
  for (const char* name : {"_MatMul_2_pre_reshape", "_Transpose_1", "hidden_states_nfc",
                           "past_key_nhwc", "Input", "Output", "$Const_11", "bbb_indep0",
                           "SystemService_ChunkPreload_1098", "MatMul_0", "conv_1"}) {
    ModulePath p = ParseModulePath(name);
    EXPECT_EQ(p.spelling, ModuleSpelling::kNone) << name;
    EXPECT_EQ(p.op, name);
  }
}

TEST(ModulePathTest, SanitizedNameWithoutAnOpTypeEndsAtTheLastBlock) {
  ModulePath p = ParseModulePath("model_layers_4_mlp_act_sigmoid");
  EXPECT_EQ(p.segments, (Segments{"model", "layers.4"}));
  EXPECT_EQ(p.op, "mlp_act_sigmoid");
  // A block token that ends the name is not followed by an op.
  EXPECT_EQ(ParseModulePath("model_layers_4").spelling, ModuleSpelling::kNone);
}

TEST(ModulePathTest, BlockOfRecognisesOnlyTheFourKeywords) {
  auto b = BlockOf("layers.17");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->keyword, "layers");
  EXPECT_EQ(b->index, 17);
  EXPECT_EQ(BlockOf("h_3")->keyword, "h");
  EXPECT_EQ(BlockOf("stages.0")->index, 0);
  EXPECT_FALSE(BlockOf("layer.0"));  // a ResNet bottleneck's conv layers differ by design
  EXPECT_FALSE(BlockOf("layers"));
  EXPECT_FALSE(BlockOf("layers.x"));
  EXPECT_FALSE(BlockOf("blocks.99999999"));
}

TEST(ModulePathTest, NamesThatAreEmptyOrOddNeverThrow) {
  EXPECT_EQ(ParseModulePath("").spelling, ModuleSpelling::kNone);
  EXPECT_EQ(ParseModulePath("/").spelling, ModuleSpelling::kNone);
  EXPECT_EQ(ParseModulePath("_").spelling, ModuleSpelling::kNone);
  EXPECT_EQ(ParseModulePath("__").spelling, ModuleSpelling::kNone);
  EXPECT_EQ(ParseModulePath(".").spelling, ModuleSpelling::kNone);
  EXPECT_EQ(ParseModulePath("//a//b").segments, (Segments{"a"}));
}

}  // namespace
}  // namespace htpscope::module_path_test
