#include "analysis/aot_flame.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <utility>

namespace htpscope {
namespace {

class TreeBuilder {
 public:
  explicit TreeBuilder(FlameTree* tree) : tree_(tree) { tree_->nodes.emplace_back(); }

  void AddProfile(const LoweringProfile& profile, const StageMap& map, bool is_b) {
    FrameClasses classes = ClassifyFrames(profile.frames, map);
    std::vector<uint32_t> names(profile.frames.size());
    for (size_t f = 0; f < profile.frames.size(); ++f) names[f] = NameId(profile.frames[f]);
    for (const auto& stack : profile.stacks) {
      StackStage st = StageOfStack(stack, classes);
      uint32_t node = 0;
      Add(node, stack.seconds, is_b);
      for (size_t d = 0; d < stack.frames.size(); ++d) {
        node = Child(node, names[stack.frames[d]]);
        if (d >= st.depth) tree_->nodes[node].stage = st.stage;
        Add(node, stack.seconds, is_b);
      }
    }
  }

  // Children in frame-name order, as flame graphs draw them.
  void SortChildren() {
    for (auto& node : tree_->nodes)
      std::sort(node.children.begin(), node.children.end(), [&](uint32_t x, uint32_t y) {
        return tree_->nodes[x].frame < tree_->nodes[y].frame;
      });
  }

 private:
  uint32_t NameId(const std::string& name) {
    auto [it, inserted] = name_ids_.try_emplace(name, static_cast<uint32_t>(names_.size()));
    if (inserted) names_.push_back(name);
    return it->second;
  }

  uint32_t Child(uint32_t parent, uint32_t name) {
    auto [it, inserted] =
        child_ids_.try_emplace({parent, name}, static_cast<uint32_t>(tree_->nodes.size()));
    if (inserted) {
      FlameNode node;
      node.frame = names_[name];
      tree_->nodes.push_back(std::move(node));
      tree_->nodes[parent].children.push_back(it->second);
    }
    return it->second;
  }

  void Add(uint32_t node, double seconds, bool is_b) {
    (is_b ? tree_->nodes[node].b_seconds : tree_->nodes[node].a_seconds) += seconds;
  }

  FlameTree* tree_;
  std::vector<std::string> names_;
  absl::flat_hash_map<std::string, uint32_t> name_ids_;
  absl::flat_hash_map<std::pair<uint32_t, uint32_t>, uint32_t> child_ids_;
};

}  // namespace

FlameTree BuildFlameTree(const LoweringProfile& a, const LoweringProfile* b, const StageMap& map) {
  FlameTree tree;
  for (const auto& s : map.stages) tree.stage_names.push_back(s.name);
  tree.differential = b != nullptr;
  TreeBuilder builder(&tree);
  builder.AddProfile(a, map, false);
  if (b) builder.AddProfile(*b, map, true);
  builder.SortChildren();
  return tree;
}

}  // namespace htpscope
