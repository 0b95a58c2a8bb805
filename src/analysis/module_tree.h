// Time by the user's own model: op times rolled up along the module path
// recovered from each op's name (analysis/module_path.h), with the repeated
// blocks (layers.N, h.N, blocks.N, stages.N) compared with their siblings.
// Rules and examples: docs/modules.md.
//
// The builder is pure: it takes one time per op, all on one basis (DPC
// cycles of the traced execution, steady-state median cycles per op, an AI
// Hub layer's execution_time, or µs), and never mixes bases.  module_run.h
// feeds it from a run.  When the input says where each op ran (an AI Hub
// profile's compute unit per layer), every module also has its time and op
// count per compute unit, and the ops that left the NPU are named.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/module_path.h"
#include "base/string_pool.h"

namespace htpscope {

// What an op's time is.
enum class ModuleTimeBasis : uint8_t {
  kDpcCycles,           // dominant-path cycles of the traced execution (optrace / QHAS)
  kSteadyMedianCycles,  // each op's median cycles over executions 2..N (profile)
  kExecutionCycles,     // the cycles of a profile's only execution (no steady state)
  kMicroseconds,        // µs per op, as an input prints them
  // An AI Hub profile's per-layer execution_time (µs): the runtime's time per
  // layer, not a dominant-path figure (docs/formats-beyond-sdk.md).
  kAihubLayerMicroseconds,
};
// "dpc_cycles", "steady_median_cycles", "execution_cycles", "us",
// "aihub_layer_us".
const char* ModuleTimeBasisName(ModuleTimeBasis basis);
// "cycles" or "us".
const char* ModuleTimeUnit(ModuleTimeBasis basis);
// For people: "DPC cycles (traced execution)", "steady-state median cycles per op
// (executions 2..N)", ...
const char* ModuleTimeBasisLabel(ModuleTimeBasis basis);

// One op and its time, in the tree's basis.  Its texts are views: the
// tree's ops view their names (a run's tree views the run's strings, and
// must not outlive the run) unless ModuleTreeOptions::copy_names; the rest
// the tree keeps a copy of.
struct ModuleOpInput {
  std::string_view name;   // the op as the artifact names it ("/resnet/.../Conv_token_13_2")
  double time = 0;         // in the basis' unit (cycles or µs); negative counts as 0
  std::string_view graph;  // the graph it belongs to; "" when the run has one
  // Where it ran ("NPU", "CPU", "GPU") when the input says (an AI Hub
  // profile's compute unit per layer); "" when unknown.
  std::string_view compute_unit = "";
  // Its type when the input gives one apart from the name (an AI Hub
  // layer's "type": "Softmax", "MatMul"); "" otherwise.
  std::string_view type = "";
};

// The compute unit ops run on when they stay on the HTP.
inline constexpr std::string_view kNpuUnit = "NPU";

// Time and ops of a module on one compute unit.
struct ModuleUnitTime {
  std::string unit;  // "NPU", "GPU", "CPU", "UNSPECIFIED", or as the input writes it
  double time = 0;   // Σ time of its ops at or below the module on that unit
  int64_t ops = 0;
};

// The repeated-block rule (docs/modules.md, "Repeated blocks"): a block is
// far from its siblings when its time is at least kBlockSlowRatio × the
// family's median block ("slow"), or at most kBlockFastRatio × it ("fast").
// Blocks are named only in a family of at least kMinBlocksForFindings blocks
// of which more than half have the same structure (the same ops, by module
// path inside the block and op name without its copy index): LLM layers and
// the layers of one ResNet stage are alike, ResNet stages (3, 4, 6, 3
// layers) are not, and differ in time by design.  A named block may itself
// differ in structure (an op that fell back, a layout change inserted):
// ModuleBlock::same_structure says so.
inline constexpr double kBlockSlowRatio = 1.4;
inline constexpr double kBlockFastRatio = 0.6;
inline constexpr size_t kMinBlocksForFindings = 3;

struct ModuleTopOp {
  uint32_t op = 0;  // index into ModuleTree::ops
  double time = 0;
};

struct ModuleNode {
  std::string path;  // segments joined with '/'; "" for the root; "(no module)" for unplaced ops
  std::string name;  // its last segment ("stages.1"); "" for the root
  int32_t parent = -1;
  int depth = 0;                   // root 0
  std::vector<uint32_t> children;  // by time (descending), then name
  double time = 0;                 // Σ of every op at or below it
  double self_time = 0;            // Σ of the ops placed directly in it
  int64_t ops = 0;                 // ops at or below it
  int64_t self_ops = 0;
  std::optional<double> share_pct;   // time ÷ the tree's total × 100; absent when the total is 0
  std::vector<ModuleTopOp> top_ops;  // the longest ops at or below it (ModuleTreeOptions::top_ops)
  std::optional<BlockIndex> block;   // when its name is a repeated block ("layers.3")
  bool unplaced = false;             // the "(no module)" node: ops whose name gives no module
  // Σ time and ops per compute unit of the ops at or below it: NPU, GPU,
  // CPU first (those present), then other units by name; empty when no op
  // says where it ran (ModuleOpInput::compute_unit).  Ops without a unit
  // are in no entry.
  std::vector<ModuleUnitTime> by_unit;
  // The entry of `unit`, or nullptr.
  const ModuleUnitTime* Unit(std::string_view unit) const;
  // Σ over the entries of every unit but the NPU ("left the NPU").
  double off_npu_time() const;
  int64_t off_npu_ops() const;
};

// 48 bytes an op: a big model has 80,000 of them.
struct ModuleOp {
  std::string_view name;  // as given: the input's text, or the tree's copy (copy_names)
  // Ids of the tree's texts (ModuleTree::Text).
  StringId op = StringPool::kEmpty;  // copy index dropped (ModulePath::op)
  StringId graph = StringPool::kEmpty;
  StringId compute_unit = StringPool::kEmpty;  // "" when unknown
  StringId type = StringPool::kEmpty;          // "" when the input gives none
  ModuleSpelling spelling = ModuleSpelling::kNone;
  uint32_t node = 0;  // the module it is placed in (index into ModuleTree::nodes)
  double time = 0;
};

// One block of a family and how it compares with the family's median.
struct ModuleBlock {
  uint32_t node = 0;  // index into ModuleTree::nodes
  int index = 0;      // N of "layers.N"
  double time = 0;
  int64_t ops = 0;
  std::optional<double> ratio_to_median;  // time ÷ median; absent when the median is 0
  std::string finding;                    // "slow", "fast" or ""
  bool same_structure = false;            // its ops are those of the family's most common block
};

// Sibling blocks: the children of one module that share a keyword
// ("model/layers.0" .. "model/layers.27").
struct ModuleBlockFamily {
  uint32_t parent = 0;                  // index into ModuleTree::nodes
  std::string keyword;                  // "layers"
  std::vector<ModuleBlock> blocks;      // by index
  double median = 0, min = 0, max = 0;  // of the blocks' times
  size_t alike = 0;                     // blocks of the most common structure
  bool compared = false;  // the rule applies: ≥ kMinBlocksForFindings blocks, > half alike
};

// Moved, never copied: a big model's tree is megabytes.
struct ModuleTree {
  ModuleTree() = default;
  ModuleTree(ModuleTree&&) noexcept = default;
  ModuleTree& operator=(ModuleTree&&) noexcept = default;
  ModuleTree(const ModuleTree&) = delete;
  ModuleTree& operator=(const ModuleTree&) = delete;

  ModuleTimeBasis basis = ModuleTimeBasis::kSteadyMedianCycles;
  double total = 0;               // Σ of every op's time (the root's)
  std::vector<ModuleNode> nodes;  // nodes[0] is the root; a parent precedes its children
  std::vector<ModuleOp> ops;      // input order
  // The ops' texts but their names (unless copy_names), each once.
  StringPool texts;
  std::string_view Text(StringId id) const { return texts.View(id); }
  std::vector<ModuleBlockFamily> families;  // ≥ 2 blocks each; in tree order
  // Ops by the spelling their module came from (index = ModuleSpelling).
  int64_t ops_by_spelling[4] = {0, 0, 0, 0};

  // The node at `path`, or nullptr.
  const ModuleNode* Find(std::string_view path) const;
  // The ops whose names gave no module: the "(no module)" node's.
  int64_t unplaced_ops() const { return ops_by_spelling[0]; }
  bool empty() const { return ops.empty(); }
  // Some op says where it ran (the root has a compute-unit split).
  bool has_compute_units() const { return !nodes.empty() && !nodes[0].by_unit.empty(); }
};

// The ops that say they ran on a unit other than the NPU, grouped by the
// module they are placed in (modules in tree order), each module's in input
// order.  Empty when no op says where it ran.
std::vector<uint32_t> OffNpuOps(const ModuleTree& tree);

struct ModuleTreeOptions {
  size_t top_ops = 5;  // top ops kept per node
  // The tree keeps a copy of the ops' names instead of viewing the input's:
  // for a tree that may outlive its input (a cache).
  bool copy_names = false;
};

// The label of the node that holds the ops without a module.
inline constexpr std::string_view kNoModule = "(no module)";

// Builds the tree over `ops` (every op one time on `basis`).  When the ops
// belong to more than one graph, each graph is a top-level node "graph:NAME".
// Sanitised paths whose first segment starts with another sanitised path's
// first segment and '_' are split there ("model_embed_tokens" -> "model",
// "embed_tokens" when "model" heads "model/layers.0").
// `ops` is taken over and freed once the ops are placed; the names they
// view must outlive the tree (ModuleOp::name views them) unless
// options.copy_names.
ModuleTree BuildModuleTree(std::vector<ModuleOpInput> ops, ModuleTimeBasis basis,
                           const ModuleTreeOptions& options = {});

}  // namespace htpscope
