// The module path of an op, recovered from its name (docs/modules.md,
// "Recovering the path").  The person deploying a model thinks in its
// modules — encoder stage 3, decoder layer 17's attention — and the op names
// the toolchains write already carry them, in one of three spellings:
//  * ONNX scopes (ONNX Runtime QNN EP, qnn-onnx-converter before
//    sanitising): "/resnet/encoder/stages.1/layers.0/convolution/Conv_token_13_2"
//    — every '/' component but the last is a module, the last is the op;
//  * dotted PyTorch module paths (QAIRT from PyTorch):
//    "model.layers.0.self_attn.q_proj.0" — the whole path is the module, a
//    trailing number the copy index of the op inside it;
//  * the QNN converters' sanitised names, where every run of characters
//    other than letters, digits and '_' became one '_' and a name not
//    starting with a letter got a leading '_':
//    "_model_layers_0_self_attn_q_proj_MatMul".  '_' is ambiguous there: the
//    path is split only at repeated-block tokens (layers_N, h_N, blocks_N,
//    stages_N), and the module ends before the first token that starts with
//    an upper-case letter (an ONNX op type: MatMul, Conv, Mul_2_output_0).
// A name in none of these spellings ("Input", "_MatMul_2_pre_reshape",
// "hidden_states_nfc", "conv_1") has no module.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace htpscope {

enum class ModuleSpelling : uint8_t {
  kNone,       // no module recovered
  kOnnxScope,  // "/a/b/Op"
  kDotted,     // "a.b.0.c.0"
  kSanitized,  // "_a_b_layers_0_c_Op"
};
// "none", "onnx_scope", "dotted", "sanitized".
const char* ModuleSpellingName(ModuleSpelling spelling);

// The repeated-block keywords: a segment "<keyword>.<N>" (or a sanitised
// "<keyword>_<N>") is block N of a family of sibling blocks.
inline constexpr std::string_view kBlockKeywords[] = {"layers", "h", "blocks", "stages"};

struct ModulePath {
  ModuleSpelling spelling = ModuleSpelling::kNone;
  // Outermost first ("resnet", "encoder", "stages.1", ...); empty: no module.
  // A segment of a sanitised name that could not be split honestly keeps
  // its '_' ("self_attn_q_proj").
  std::vector<std::string> segments;
  // The op inside the module with its trailing copy index dropped ("Conv"
  // for "Conv_token_13_2", "q_proj" for "model.layers.0.self_attn.q_proj.0");
  // the whole name when there is no module.  Sibling blocks' ops compare by it.
  std::string op;
  // The whole module path, segments joined with '/' ("resnet/encoder/stages.1").
  std::string Joined() const;
};

// Recovers the module path of `op_name` (an op as the profile, optrace or
// QHAS names it, without ":OpId_N").  Pure; never throws.
ModulePath ParseModulePath(std::string_view op_name);

// The repeated block a path segment names: "layers.3" / "layers_3" ->
// {"layers", 3}; nullopt for any other segment.
struct BlockIndex {
  std::string keyword;
  int index = 0;
};
std::optional<BlockIndex> BlockOf(std::string_view segment);

}  // namespace htpscope
