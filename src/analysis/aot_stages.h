// Ahead-of-time lowering time by stage, from a sampling profile of the
// lowering run (docs/aot.md, primer §11).
//
// A stage is a name and a regular expression (RE2 syntax, searched anywhere
// in a frame's name "function (file)", case-sensitive unless it starts with
// "(?i)").  A sample belongs to the stage of the outermost frame of its stack
// that matches any stage; when one frame matches several, the first stage in
// the map wins.  Samples with no matching frame belong to "other".  A sample
// is garbage collection when any of its frames matches the map's GC
// expression; GC time is shown inside each stage (it is not a stage).
//
// Two profiles (A = baseline, B = candidate) compare per stage and in total
// through stage_timings.h's StageDiff (improvement = (A − B) ÷ A × 100), which
// also gives the gate subjects `total_seconds` and `stage:NAME:seconds`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/stage_timings.h"
#include "model/lowering_profile.h"

namespace htpscope {

inline constexpr char kOtherStage[] = "other";

struct StageRule {
  std::string name;
  std::string regex;
};

struct StageMap {
  std::string name;               // "executorch-qnn", or "custom"
  std::vector<StageRule> stages;  // priority order: the first match wins on a tie
  std::string gc_regex;           // frames that are the garbage collector at work
};

// The GC frames of CPython and its profilers: austin -g's ":GC:" frame,
// CPython's collector functions as native frames (py-spy --native, austinp),
// and "(garbage collector)" of converted V8/Chrome profiles.
extern const char kDefaultGcRegex[];

// Names of the built-in maps ("executorch-qnn").
std::vector<std::string> BuiltinStageMapNames();
// A built-in map, or nullopt for an unknown name.
std::optional<StageMap> BuiltinStageMap(std::string_view name);

// Parses a stage rule "NAME=REGEX".  NAME is letters, digits, '_', '-' and
// '.', and not "other"; REGEX must compile.  Throws ValueError (kStageRule,
// the spec, the byte offset into it) otherwise.
StageRule ParseStageRule(std::string_view spec);

// Checks that `regex` compiles; throws InputError naming `what` otherwise.
void CheckStageRegex(std::string_view regex, const std::string& what, size_t offset);

// `base` with each rule of `overrides` replacing the regex of the stage of
// the same name, or appended after the others.
StageMap OverrideStages(StageMap base, const std::vector<StageRule>& overrides);

struct FrameSeconds {
  std::string frame;
  double seconds = 0;
};

struct StageShare {
  std::string name;
  std::string regex;  // "" for "other"
  double seconds = 0;
  double share_pct = 0;                       // of the profile's total; 0 when the total is 0
  double gc_seconds = 0;                      // samples of this stage with a GC frame
  std::vector<FrameSeconds> top_self_frames;  // leaf-frame time in the stage, most first
};

struct StageAttribution {
  std::string path, source;
  std::string map_name;
  std::string gc_regex;
  uint64_t samples = 0;  // as LoweringProfile::samples
  double total_seconds = 0;
  double gc_seconds = 0;
  std::vector<StageShare> stages;          // the map's order, then "other" (always present)
  std::vector<FrameSeconds> self_seconds;  // every leaf frame's time, most first
  std::vector<std::string> notes;          // the profile's notes, then the attribution's
};

// Attributes every sample of `profile` to a stage of `map`.  `top_frames`
// limits each stage's top_self_frames.  A stack without frames counts as the
// frame "(no frame)".  Throws as ClassifyFrames.
StageAttribution AttributeStages(const LoweringProfile& profile, const StageMap& map,
                                 size_t top_frames);

// Per-frame classes of one profile: the first stage whose regex matches the
// frame (-1: none) and whether it is a GC frame.
struct FrameClasses {
  std::vector<int> stage;
  std::vector<bool> gc;
};
// Throws InputError naming the stage when a stage's regex does not compile,
// ValueError (kGcFramePattern) when the map's GC regex does not.
FrameClasses ClassifyFrames(const std::vector<std::string>& frames, const StageMap& map);

// A stack's stage (index into the map's stages, -1 for "other") and the depth
// of the frame that decided it (0 = root; frames.size() for "other").
struct StackStage {
  int stage = -1;
  size_t depth = 0;
};
StackStage StageOfStack(const LoweringStack& stack, const FrameClasses& classes);

struct FrameChange {
  std::string frame;
  double a_self_seconds = 0, b_self_seconds = 0;
  double change_seconds = 0;         // b − a
  std::optional<double> change_pct;  // (b − a) ÷ a × 100; absent when a is 0
};

struct AotDiff {
  StageDiff stages;  // per stage and total; a_path/b_path are the profiles
  struct Gc {
    double a_seconds = 0, b_seconds = 0;
  };
  std::vector<Gc> stage_gc;  // parallel to stages.stages
  Gc total_gc;
  std::vector<FrameChange> frames;  // leaf frames whose time changed most, by |change|
  std::vector<std::string> notes;
};

// Compares two attributions made with the same map.  `top_frames` limits
// `frames`.
AotDiff DiffAot(const StageAttribution& a, const StageAttribution& b, size_t top_frames);

}  // namespace htpscope
