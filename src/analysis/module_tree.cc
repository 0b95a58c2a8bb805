#include "analysis/module_tree.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/statistics.h"

namespace htpscope {
namespace {

// A node while the tree is built: indices are build order.
struct Draft {
  std::string path, name;
  int32_t parent = -1;
  int depth = 0;
  std::vector<uint32_t> children;
  double self_time = 0, time = 0;
  int64_t self_ops = 0, ops = 0;
  std::vector<ModuleTopOp> top;
  std::vector<ModuleUnitTime> by_unit;
  bool unplaced = false;
};

class Builder {
 public:
  explicit Builder(size_t top_ops) : top_ops_(top_ops) {
    drafts_.push_back({});
    index_[""] = 0;
  }

  uint32_t NodeAt(const std::vector<std::string>& segments, bool unplaced) {
    uint32_t node = 0;
    std::string path;
    for (size_t i = 0; i < segments.size(); ++i) {
      if (!path.empty()) path += '/';
      path += segments[i];
      auto [it, inserted] = index_.try_emplace(path, static_cast<uint32_t>(drafts_.size()));
      if (inserted) {
        Draft d;
        d.path = path;
        d.name = segments[i];
        d.parent = static_cast<int32_t>(node);
        d.depth = drafts_[node].depth + 1;
        d.unplaced = unplaced && i + 1 == segments.size();
        drafts_[node].children.push_back(it->second);
        drafts_.push_back(std::move(d));
      }
      node = it->second;
    }
    return node;
  }

  void AddOp(uint32_t node, uint32_t op, double time, std::string_view unit) {
    drafts_[node].self_time += time;
    drafts_[node].self_ops += 1;
    for (int32_t n = static_cast<int32_t>(node); n >= 0; n = drafts_[n].parent) {
      Draft& d = drafts_[n];
      d.time += time;
      d.ops += 1;
      KeepTop(d.top, {op, time});
      if (unit.empty()) continue;
      auto it = std::find_if(d.by_unit.begin(), d.by_unit.end(),
                             [&](const ModuleUnitTime& u) { return u.unit == unit; });
      if (it == d.by_unit.end()) it = d.by_unit.insert(d.by_unit.end(), {std::string(unit), 0, 0});
      it->time += time;
      it->ops += 1;
    }
  }

  std::vector<Draft>& drafts() { return drafts_; }

 private:
  void KeepTop(std::vector<ModuleTopOp>& top, ModuleTopOp candidate) const {
    if (top_ops_ == 0) return;
    if (top.size() == top_ops_ && top.back().time >= candidate.time) return;
    auto at = std::upper_bound(
        top.begin(), top.end(), candidate,
        [](const ModuleTopOp& a, const ModuleTopOp& b) { return a.time > b.time; });
    top.insert(at, candidate);
    if (top.size() > top_ops_) top.pop_back();
  }

  size_t top_ops_;
  std::vector<Draft> drafts_;
  absl::flat_hash_map<std::string, uint32_t> index_;
};

// The first segments of the sanitised paths with two or more segments: the
// heads another sanitised path's first segment may start with.
using KnownHeads = std::set<std::string, std::less<>>;
void NoteHead(const ModulePath& p, KnownHeads& heads) {
  if (p.spelling == ModuleSpelling::kSanitized && p.segments.size() >= 2)
    heads.insert(p.segments.front());
}

// Splits a sanitised path whose first segment starts with a known head
// ("model_embed_tokens" with "model" known): the longest such head.
void SplitKnownHead(ModulePath& p, const KnownHeads& heads) {
  if (heads.empty() || p.spelling != ModuleSpelling::kSanitized || p.segments.empty()) return;
  const std::string& first = p.segments.front();
  if (heads.count(first)) return;
  std::string_view best;
  for (const auto& h : heads)
    if (first.size() > h.size() + 1 && first.compare(0, h.size(), h) == 0 &&
        first[h.size()] == '_' && h.size() > best.size())
      best = h;
  if (best.empty()) return;
  std::string rest = first.substr(best.size() + 1);
  p.segments.front() = std::string(best);
  p.segments.insert(p.segments.begin() + 1, std::move(rest));
}

// NPU, GPU, CPU first, then other units by name.
int UnitRank(std::string_view unit) {
  if (unit == kNpuUnit) return 0;
  if (unit == "GPU") return 1;
  if (unit == "CPU") return 2;
  return 3;
}

}  // namespace

const ModuleUnitTime* ModuleNode::Unit(std::string_view unit) const {
  for (const auto& u : by_unit)
    if (u.unit == unit) return &u;
  return nullptr;
}

double ModuleNode::off_npu_time() const {
  double t = 0;
  for (const auto& u : by_unit)
    if (u.unit != kNpuUnit) t += u.time;
  return t;
}

int64_t ModuleNode::off_npu_ops() const {
  int64_t n = 0;
  for (const auto& u : by_unit)
    if (u.unit != kNpuUnit) n += u.ops;
  return n;
}

std::vector<uint32_t> OffNpuOps(const ModuleTree& tree) {
  std::vector<std::vector<uint32_t>> by_node(tree.nodes.size());
  for (uint32_t i = 0; i < tree.ops.size(); ++i) {
    const std::string_view unit = tree.Text(tree.ops[i].compute_unit);
    if (!unit.empty() && unit != kNpuUnit) by_node[tree.ops[i].node].push_back(i);
  }
  std::vector<uint32_t> out;
  for (const auto& ops : by_node) out.insert(out.end(), ops.begin(), ops.end());
  return out;
}

const char* ModuleTimeBasisName(ModuleTimeBasis basis) {
  switch (basis) {
    case ModuleTimeBasis::kDpcCycles:
      return "dpc_cycles";
    case ModuleTimeBasis::kSteadyMedianCycles:
      return "steady_median_cycles";
    case ModuleTimeBasis::kExecutionCycles:
      return "execution_cycles";
    case ModuleTimeBasis::kMicroseconds:
      return "us";
    case ModuleTimeBasis::kAihubLayerMicroseconds:
      return "aihub_layer_us";
  }
  return "us";
}

const char* ModuleTimeUnit(ModuleTimeBasis basis) {
  return basis == ModuleTimeBasis::kMicroseconds ||
                 basis == ModuleTimeBasis::kAihubLayerMicroseconds
             ? "us"
             : "cycles";
}

const char* ModuleTimeBasisLabel(ModuleTimeBasis basis) {
  switch (basis) {
    case ModuleTimeBasis::kDpcCycles:
      return "dominant-path (DPC) cycles of the traced execution";
    case ModuleTimeBasis::kSteadyMedianCycles:
      return "steady-state median cycles per op (executions 2..N), summed";
    case ModuleTimeBasis::kExecutionCycles:
      return "cycles per op of the profile's only execution (no steady state)";
    case ModuleTimeBasis::kMicroseconds:
      return "µs per op as the input prints them";
    case ModuleTimeBasis::kAihubLayerMicroseconds:
      return "AI Hub per-layer execution_time in µs (the runtime's time per layer, not optrace "
             "DPC cycles), summed";
  }
  return "";
}

const ModuleNode* ModuleTree::Find(std::string_view path) const {
  for (const auto& n : nodes)
    if (n.path == path) return &n;
  return nullptr;
}

ModuleTree BuildModuleTree(std::vector<ModuleOpInput> ops, ModuleTimeBasis basis,
                           const ModuleTreeOptions& options) {
  ModuleTree tree;
  tree.basis = basis;
  // The ops' names viewed, their other texts kept once in the tree, and the
  // input freed before the ops are placed.  Each path is parsed twice, once
  // for the heads that split other paths and once to be placed, rather than
  // held: a big run's parsed paths took more memory than the rest of the
  // tree (25 MB for 80,000 ops) for a few ms of parsing.
  tree.ops.reserve(ops.size());
  std::set<StringId> graphs;
  KnownHeads heads;
  for (const ModuleOpInput& in : ops) {
    NoteHead(ParseModulePath(in.name), heads);
    ModuleOp& op = tree.ops.emplace_back();
    op.name = options.copy_names ? tree.Text(tree.texts.Intern(in.name)) : in.name;
    op.graph = tree.texts.Intern(in.graph);
    op.compute_unit = tree.texts.Intern(in.compute_unit);
    op.type = tree.texts.Intern(in.type);
    op.time = std::max(0.0, in.time);
    graphs.insert(op.graph);
  }
  std::vector<ModuleOpInput>().swap(ops);
  const bool by_graph = graphs.size() > 1;

  Builder builder(options.top_ops);
  for (uint32_t i = 0; i < tree.ops.size(); ++i) {
    ModuleOp& op = tree.ops[i];
    ModulePath p = ParseModulePath(op.name);
    SplitKnownHead(p, heads);
    std::vector<std::string> segments;
    if (by_graph) segments.push_back("graph:" + std::string(tree.Text(op.graph)));
    const bool unplaced = p.segments.empty();
    if (unplaced)
      segments.emplace_back(kNoModule);
    else
      segments.insert(segments.end(), std::make_move_iterator(p.segments.begin()),
                      std::make_move_iterator(p.segments.end()));
    op.op = tree.texts.Intern(p.op);
    op.spelling = p.spelling;
    op.node = builder.NodeAt(segments, unplaced);
    tree.ops_by_spelling[static_cast<size_t>(p.spelling)] += 1;
    builder.AddOp(op.node, i, op.time, tree.Text(op.compute_unit));
  }

  // Pre-order, children by time (descending), then name.
  std::vector<Draft>& drafts = builder.drafts();
  for (auto& d : drafts)
    std::sort(d.children.begin(), d.children.end(), [&](uint32_t a, uint32_t b) {
      if (drafts[a].time != drafts[b].time) return drafts[a].time > drafts[b].time;
      return drafts[a].path < drafts[b].path;
    });
  std::vector<uint32_t> order, new_index(drafts.size());
  std::vector<uint32_t> stack{0};
  while (!stack.empty()) {
    uint32_t d = stack.back();
    stack.pop_back();
    new_index[d] = static_cast<uint32_t>(order.size());
    order.push_back(d);
    for (auto it = drafts[d].children.rbegin(); it != drafts[d].children.rend(); ++it)
      stack.push_back(*it);
  }
  tree.total = drafts[0].time;
  tree.nodes.reserve(order.size());
  for (uint32_t d : order) {
    Draft& draft = drafts[d];
    ModuleNode n;
    n.path = std::move(draft.path);
    n.name = std::move(draft.name);
    n.parent = draft.parent < 0 ? -1 : static_cast<int32_t>(new_index[draft.parent]);
    n.depth = draft.depth;
    for (uint32_t c : draft.children) n.children.push_back(new_index[c]);
    n.time = draft.time;
    n.self_time = draft.self_time;
    n.ops = draft.ops;
    n.self_ops = draft.self_ops;
    if (tree.total > 0) n.share_pct = draft.time / tree.total * 100.0;
    n.top_ops = std::move(draft.top);
    n.by_unit = std::move(draft.by_unit);
    std::sort(n.by_unit.begin(), n.by_unit.end(),
              [](const ModuleUnitTime& a, const ModuleUnitTime& b) {
                int ra = UnitRank(a.unit), rb = UnitRank(b.unit);
                return ra != rb ? ra < rb : a.unit < b.unit;
              });
    n.unplaced = draft.unplaced;
    if (!n.unplaced && d != 0) n.block = BlockOf(n.name);
    tree.nodes.push_back(std::move(n));
  }
  for (auto& op : tree.ops) op.node = new_index[op.node];

  // Each block's structure: its ops by module path inside it and op name.
  std::vector<std::vector<std::string>> structure(tree.nodes.size());
  for (const auto& op : tree.ops)
    for (int32_t n = static_cast<int32_t>(op.node); n > 0; n = tree.nodes[n].parent) {
      const ModuleNode& block = tree.nodes[n];
      if (!block.block) continue;
      const std::string& path = tree.nodes[op.node].path;
      structure[n].push_back(path.substr(block.path.size()) + "/" + std::string(tree.Text(op.op)));
    }
  for (auto& s : structure) std::sort(s.begin(), s.end());

  // Families of sibling blocks.
  for (uint32_t p = 0; p < tree.nodes.size(); ++p) {
    std::map<std::string, std::vector<uint32_t>> by_keyword;
    for (uint32_t c : tree.nodes[p].children)
      if (tree.nodes[c].block) by_keyword[tree.nodes[c].block->keyword].push_back(c);
    for (auto& [keyword, members] : by_keyword) {
      if (members.size() < 2) continue;
      ModuleBlockFamily f;
      f.parent = p;
      f.keyword = keyword;
      std::vector<double> times;
      std::map<std::vector<std::string>, size_t> alike;
      for (uint32_t c : members) {
        const ModuleNode& n = tree.nodes[c];
        f.blocks.push_back({c, n.block->index, n.time, n.ops, std::nullopt, "", false});
        times.push_back(n.time);
        f.alike = std::max(f.alike, ++alike[structure[c]]);
      }
      std::sort(f.blocks.begin(), f.blocks.end(),
                [](const ModuleBlock& a, const ModuleBlock& b) { return a.index < b.index; });
      SampleStats stats = *ComputeStats(times);
      f.median = stats.median;
      f.min = stats.min;
      f.max = stats.max;
      f.compared = f.blocks.size() >= kMinBlocksForFindings && 2 * f.alike > f.blocks.size();
      for (auto& b : f.blocks) {
        b.same_structure = alike[structure[b.node]] == f.alike && 2 * f.alike > f.blocks.size();
        if (f.median <= 0) continue;
        b.ratio_to_median = b.time / f.median;
        if (!f.compared) continue;
        if (*b.ratio_to_median >= kBlockSlowRatio)
          b.finding = "slow";
        else if (*b.ratio_to_median <= kBlockFastRatio)
          b.finding = "fast";
      }
      tree.families.push_back(std::move(f));
    }
  }
  return tree;
}

}  // namespace htpscope
