// The call tree of one or two lowering profiles, for flame graphs
// (docs/aot.md): frames merged by name along their stacks, root first.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/aot_stages.h"
#include "model/lowering_profile.h"

namespace htpscope {

struct FlameNode {
  std::string frame;     // "" for the root (every sample)
  double a_seconds = 0;  // inclusive time in profile A
  double b_seconds = 0;  // inclusive time in profile B (0 without B)
  // The stage its samples belong to once a frame on its path decided it
  // (index into FlameTree::stage_names); -1 above that frame, and for "other".
  int stage = -1;
  std::vector<uint32_t> children;  // indices into FlameTree::nodes, by frame name
};

struct FlameTree {
  std::vector<FlameNode> nodes;          // nodes[0] is the root
  std::vector<std::string> stage_names;  // the map's stages
  bool differential = false;             // built from two profiles
};

// Merges the stacks of `a` (and of `b` when not null) into one tree whose
// nodes carry each profile's inclusive seconds; threads are not separated.
FlameTree BuildFlameTree(const LoweringProfile& a, const LoweringProfile* b, const StageMap& map);

}  // namespace htpscope
