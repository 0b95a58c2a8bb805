#include "analysis/aot_stages.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis/aot_flame.h"
#include "base/errors.h"

namespace htpscope::aot_stages_test {
namespace {

// A profile from "frame;frame;frame" -> seconds, root first.
LoweringProfile Profile(const std::vector<std::pair<std::string, double>>& stacks,
                        const std::string& path = "p") {
  LoweringProfile p;
  p.path = path;
  p.threads = {""};
  std::map<std::string, uint32_t> ids;
  for (const auto& [text, seconds] : stacks) {
    LoweringStack s;
    size_t pos = 0;
    while (pos <= text.size() && !text.empty()) {
      size_t semi = std::min(text.find(';', pos), text.size());
      std::string name = text.substr(pos, semi - pos);
      auto [it, inserted] = ids.try_emplace(name, static_cast<uint32_t>(p.frames.size()));
      if (inserted) p.frames.push_back(name);
      s.frames.push_back(it->second);
      pos = semi + 1;
    }
    s.seconds = seconds;
    p.total_seconds += seconds;
    p.stacks.push_back(std::move(s));
  }
  return p;
}

const StageShare& Stage(const StageAttribution& a, const std::string& name) {
  for (const auto& s : a.stages)
    if (s.name == name) return s;
  static StageShare none;
  ADD_FAILURE() << "no stage " << name;
  return none;
}

StageMap SimpleMap() {
  return {"test", {{"quantize", "^quantize"}, {"compile", "^compile|lower"}}, kDefaultGcRegex};
}

TEST(AotStages, OutermostMatchingFrameDecidesFirstStageWinsTies) {
  LoweringProfile p = Profile({
      {"main;quantize;compile_helper", 4},   // outermost match: quantize
      {"main;compile;quantize_weights", 3},  // outermost match: compile
      {"main;quantize_and_lower", 2},        // one frame matches both: the first stage
      {"main;export", 1},                    // no stage
  });
  StageAttribution a = AttributeStages(p, SimpleMap(), 5);
  ASSERT_EQ(a.stages.size(), 3u);
  EXPECT_EQ(a.stages[2].name, "other");
  EXPECT_DOUBLE_EQ(Stage(a, "quantize").seconds, 6);
  EXPECT_DOUBLE_EQ(Stage(a, "compile").seconds, 3);
  EXPECT_DOUBLE_EQ(Stage(a, "other").seconds, 1);
  EXPECT_DOUBLE_EQ(Stage(a, "quantize").share_pct, 60);
  EXPECT_DOUBLE_EQ(a.total_seconds, 10);
  // Self time: the leaf frame, inside its stage.
  ASSERT_EQ(Stage(a, "quantize").top_self_frames.size(), 2u);
  EXPECT_EQ(Stage(a, "quantize").top_self_frames[0].frame, "compile_helper");
  EXPECT_DOUBLE_EQ(Stage(a, "quantize").top_self_frames[0].seconds, 4);
  EXPECT_EQ(Stage(a, "quantize").top_self_frames[1].frame, "quantize_and_lower");
  EXPECT_EQ(AttributeStages(p, SimpleMap(), 1).stages[0].top_self_frames.size(), 1u);
}

TEST(AotStages, GarbageCollectionShowsInsideItsStage) {
  LoweringProfile p = Profile({
      {"main;compile;define_node", 6},
      {"main;compile;define_node;gc_collect_main (Python/gcmodule.c)", 1.5},
      {"main;compile;:GC:", 0.5},
      {"main;quantize;forward;_PyGC_Collect", 0.25},
      {"main;gc_collect_hooks (app.py);x", 10},  // a Python function, not the collector
  });
  StageAttribution a = AttributeStages(p, SimpleMap(), 5);
  EXPECT_DOUBLE_EQ(Stage(a, "compile").seconds, 8);
  EXPECT_DOUBLE_EQ(Stage(a, "compile").gc_seconds, 2);
  EXPECT_DOUBLE_EQ(Stage(a, "quantize").gc_seconds, 0.25);
  EXPECT_DOUBLE_EQ(Stage(a, "other").gc_seconds, 0);
  EXPECT_DOUBLE_EQ(a.gc_seconds, 2.25);
  // "other" holds more than half the time: the report says so.
  ASSERT_FALSE(a.notes.empty());
  EXPECT_NE(a.notes.back().find("in no stage"), std::string::npos);
}

// Frame names as py-spy (short file names) and austin (full paths) write
// them for ExecuTorch's Qualcomm flow (backends/qualcomm, examples/qualcomm).
TEST(AotStages, ExecuTorchQnnMapMatchesTheRealFunctions) {
  StageMap map = *BuiltinStageMap("executorch-qnn");
  const std::vector<std::pair<std::string, int>> frames = {
      {"prepare_pt2e (torchao/quantization/pt2e/quantize_pt2e.py)", 0},
      {"convert_pt2e (torch/ao/quantization/quantize_pt2e.py)", 0},
      {"_calibrate (executorch/examples/qualcomm/oss_scripts/llama/quantize/ptq.py)", 0},
      {"forward (/usr/lib/python3/dist-packages/torch/ao/quantization/observer.py)", 0},
      {"forward (torchao/quantization/pt2e/observer.py)", 0},
      {"forward (executorch/backends/qualcomm/quantizer/observers/per_channel_param_observer.py)",
       0},
      {"annotate (executorch/backends/qualcomm/quantizer/quantizer.py)", 0},
      {"to_edge_transform_and_lower (executorch/exir/program/_program.py)", 1},
      {"to_edge_transform_and_lower_to_qnn (executorch/backends/qualcomm/utils/utils.py)", 1},
      {"partition (executorch/backends/qualcomm/partition/qnn_partitioner.py)", 1},
      {"define_node (executorch/backends/qualcomm/builders/node_visitor.py)", 1},
      {"preprocess (executorch/backends/qualcomm/qnn_preprocess.py)", 1},
      {"qnn_delegate::PyQnnManager::Compile (PyQnnManagerAdaptor.so)", 1},
      {"export (torch/export/__init__.py)", -1},
      {"to_executorch (executorch/exir/program/_program.py)", -1},
      {"compile (llama.py)", -1},
      {"forward (torch/nn/modules/linear.py)", -1},
  };
  std::vector<std::string> names;
  for (const auto& f : frames) names.push_back(f.first);
  FrameClasses classes = ClassifyFrames(names, map);
  for (size_t i = 0; i < frames.size(); ++i)
    EXPECT_EQ(classes.stage[i], frames[i].second) << frames[i].first;
}

TEST(AotStages, StageRulesParseAndOverride) {
  StageRule r = ParseStageRule("export=^export \\(|torch/export/");
  EXPECT_EQ(r.name, "export");
  EXPECT_EQ(r.regex, "^export \\(|torch/export/");
  auto error = [](const std::string& spec) {
    try {
      ParseStageRule(spec);
    } catch (const ValueError& e) {
      return e;
    }
    ADD_FAILURE() << spec;
    return ValueError(ValueRole::kGraphName, "", "");
  };
  EXPECT_EQ(error("compile").offset(), 0u);
  EXPECT_EQ(error("other=x").offset(), 0u);
  EXPECT_EQ(error("bad name=x").offset(), 0u);
  EXPECT_EQ(error("c=").offset(), 2u);
  ValueError bad = error("compile=(unclosed");
  EXPECT_EQ(bad.role(), ValueRole::kStageRule);
  EXPECT_EQ(bad.value(), "compile=(unclosed");
  EXPECT_EQ(bad.offset(), 8u);
  EXPECT_NE(bad.problem().find("missing )"), std::string::npos) << bad.what();
  EXPECT_EQ(std::string(bad.what()), "stage rule compile=(unclosed: at byte 8: " + bad.problem());

  StageMap map = OverrideStages(*BuiltinStageMap("executorch-qnn"),
                                {{"compile", "to_backend"}, {"export", "torch/export/"}});
  ASSERT_EQ(map.stages.size(), 3u);
  EXPECT_EQ(map.stages[1].regex, "to_backend");
  EXPECT_EQ(map.stages[2].name, "export");
  EXPECT_FALSE(BuiltinStageMap("tflite"));
}

TEST(AotStages, ABadGcPatternIsAValueErrorABadStageRegexNamesTheStage) {
  StageMap map = *BuiltinStageMap("executorch-qnn");
  map.gc_regex = "(oops";
  try {
    ClassifyFrames({"main"}, map);
    ADD_FAILURE();
  } catch (const ValueError& e) {
    EXPECT_EQ(e.role(), ValueRole::kGcFramePattern);
    EXPECT_EQ(e.value(), "");
    EXPECT_EQ(e.problem().rfind("not a valid regular expression: ", 0), 0u) << e.what();
  }
  map.gc_regex = "";
  map.stages[0].regex = "(oops";
  try {
    ClassifyFrames({"main"}, map);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "stage " + map.stages[0].name);
  }
}

// The seed PR's figures (Qwen3-0.6B): quantize 548 -> 469 s, compile 929 -> 803 s.
TEST(AotStages, DiffGivesThePerStageTableAndGates) {
  StageMap map = SimpleMap();
  LoweringProfile a = Profile({{"main;quantize;observe", 500},
                               {"main;quantize;convert", 48},
                               {"main;compile;visit", 829},
                               {"main;compile;visit;gc_collect_main", 100}},
                              "a");
  LoweringProfile b = Profile(
      {{"main;quantize;observe", 421}, {"main;quantize;convert", 48}, {"main;compile;visit", 803}},
      "b");
  AotDiff d = DiffAot(AttributeStages(a, map, 5), AttributeStages(b, map, 5), 10);
  ASSERT_EQ(d.stages.stages.size(), 3u);
  EXPECT_NEAR(*d.stages.stages[0].improvement_pct, 14.416, 0.001);
  EXPECT_NEAR(*d.stages.stages[1].improvement_pct, 13.563, 0.001);
  EXPECT_FALSE(d.stages.stages[2].improvement_pct);  // other: 0 s on A
  EXPECT_DOUBLE_EQ(*d.stages.total.seconds.a_value(), 1477);
  EXPECT_DOUBLE_EQ(*d.stages.total.seconds.b_value(), 1272);
  EXPECT_NEAR(*d.stages.total.improvement_pct, 13.879, 0.001);
  EXPECT_DOUBLE_EQ(d.stage_gc[1].a_seconds, 100);
  EXPECT_DOUBLE_EQ(d.stage_gc[1].b_seconds, 0);
  // Changed frames by |B − A| of self time: gc -100, observe -79, visit -26.
  ASSERT_EQ(d.frames.size(), 3u);
  EXPECT_EQ(d.frames[0].frame, "gc_collect_main");
  EXPECT_DOUBLE_EQ(d.frames[0].change_seconds, -100);
  EXPECT_EQ(d.frames[1].frame, "observe");
  EXPECT_NEAR(*d.frames[1].change_pct, -15.8, 1e-9);
  EXPECT_EQ(d.frames[2].frame, "visit");

  auto status = [&](const AotDiff& diff, const std::string& expr) {
    return GateExitStatus({EvaluateGate(ParseGate(expr), GateSubjects(diff.stages))});
  };
  EXPECT_EQ(status(d, "total_seconds>+5%"), 0);
  EXPECT_EQ(status(d, "stage:compile:seconds>+10%"), 0);
  AotDiff reversed = DiffAot(AttributeStages(b, map, 5), AttributeStages(a, map, 5), 10);
  EXPECT_EQ(status(reversed, "total_seconds>+5%"), 1);           // +16.1 %
  EXPECT_EQ(status(reversed, "stage:compile:seconds>+10%"), 1);  // +15.7 %
  EXPECT_EQ(status(reversed, "stage:quantize:seconds>+20%"), 0);
  EXPECT_EQ(status(reversed, "stage:nosuch:seconds>+1%"), 2);
}

TEST(AotStages, FlameTreeMergesStacksAndMarksStages) {
  StageMap map = SimpleMap();
  LoweringProfile a = Profile({{"main;quantize;x", 2}, {"main;quantize;y", 1}, {"main", 1}});
  LoweringProfile b = Profile({{"main;quantize;x", 1}, {"main;compile", 3}});
  FlameTree t = BuildFlameTree(a, &b, map);
  ASSERT_TRUE(t.differential);
  EXPECT_DOUBLE_EQ(t.nodes[0].a_seconds, 4);
  EXPECT_DOUBLE_EQ(t.nodes[0].b_seconds, 4);
  ASSERT_EQ(t.nodes[0].children.size(), 1u);
  const FlameNode& main = t.nodes[t.nodes[0].children[0]];
  EXPECT_EQ(main.frame, "main");
  EXPECT_EQ(main.stage, -1);
  ASSERT_EQ(main.children.size(), 2u);  // compile, quantize: by name
  const FlameNode& compile = t.nodes[main.children[0]];
  const FlameNode& quantize = t.nodes[main.children[1]];
  EXPECT_EQ(compile.frame, "compile");
  EXPECT_EQ(compile.stage, 1);
  EXPECT_DOUBLE_EQ(compile.a_seconds, 0);
  EXPECT_DOUBLE_EQ(compile.b_seconds, 3);
  EXPECT_EQ(quantize.stage, 0);
  EXPECT_DOUBLE_EQ(quantize.a_seconds, 3);
  EXPECT_DOUBLE_EQ(quantize.b_seconds, 1);
  EXPECT_EQ(t.nodes[quantize.children[0]].stage, 0);
}

}  // namespace
}  // namespace htpscope::aot_stages_test
