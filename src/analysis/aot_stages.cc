#include "analysis/aot_stages.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "analysis/name_regex.h"
#include "base/errors.h"

namespace htpscope {
namespace {

constexpr char kNoFrame[] = "(no frame)";
constexpr double kMostlyOtherShare = 0.5;

// ExecuTorch's Qualcomm (QNN) lowering flow, by the functions and modules
// its examples and backend run (backends/qualcomm, examples/qualcomm):
//  * quantize: PT2E prepare/convert (torch.ao or torchao), calibration
//    drivers, the observers and fake-quantizers of torch.ao / torchao, and
//    everything under backends/qualcomm/quantizer (QnnQuantizer, its
//    annotators and custom observers);
//  * compile: to_edge_transform_and_lower(_to_qnn) / to_backend, the QNN
//    partitioner (backends/qualcomm/partition), node visitors
//    (backends/qualcomm/builders), qnn_preprocess.py (QnnBackend.preprocess)
//    and the QNN manager (PyQnnManager, QnnManager; native frames).
// Export (torch.export), to_edge alone and to_executorch fall in "other".
constexpr char kQuantizeRegex[] =
    R"(^(prepare_pt2e|prepare_qat_pt2e|convert_pt2e|ptq_calibrate|_?calibrate|)"
    R"(graph_module_inference) \(|/quantization/(pt2e/)?(observer|fake_quantize)\.py\)$|)"
    R"(qualcomm/quantizer/)";
constexpr char kCompileRegex[] =
    R"(^(to_edge_transform_and_lower|to_edge_transform_and_lower_to_qnn|to_backend) \(|)"
    R"(qualcomm/(partition|builders)/|qnn_preprocess\.py\)$|QnnManager)";

bool ValidStageName(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '-' || c == '.'))
      return false;
  return true;
}

// Most first; equal times by name, so that the order does not depend on the
// order frames were first seen.
void SortBySeconds(std::vector<FrameSeconds>& frames) {
  std::sort(frames.begin(), frames.end(), [](const FrameSeconds& x, const FrameSeconds& y) {
    if (x.seconds != y.seconds) return x.seconds > y.seconds;
    return x.frame < y.frame;
  });
}

// The positive entries of `seconds` (indexed by frame id, the last slot for
// "(no frame)") as named frames, most first, at most `limit`.
std::vector<FrameSeconds> TopFrames(const std::vector<double>& seconds,
                                    const std::vector<std::string>& names, size_t limit) {
  std::vector<FrameSeconds> out;
  for (size_t i = 0; i < seconds.size(); ++i)
    if (seconds[i] > 0) out.push_back({i < names.size() ? names[i] : kNoFrame, seconds[i]});
  SortBySeconds(out);
  if (out.size() > limit) out.resize(limit);
  return out;
}

}  // namespace

const char kDefaultGcRegex[] =
    R"(^(:GC:|\(garbage collector\))$|^(gc_collect(_main|_with_callback|_generations|_impl|)"
    R"(_full|_young|_increment|_region)?|_PyGC_Collect|_Py_RunGC|collect_generations|)"
    R"(collect_with_callback)( \(|$))";

std::vector<std::string> BuiltinStageMapNames() { return {"executorch-qnn"}; }

std::optional<StageMap> BuiltinStageMap(std::string_view name) {
  if (name == "executorch-qnn")
    return StageMap{"executorch-qnn",
                    {{"quantize", kQuantizeRegex}, {"compile", kCompileRegex}},
                    kDefaultGcRegex};
  return std::nullopt;
}

void CheckStageRegex(std::string_view regex, const std::string& what, size_t offset) {
  auto re = CompileRegex(regex);
  if (!re->ok())
    throw InputError(
        what, fmt::format("not a valid regular expression (RE2 syntax): {}", re->error()), offset);
}

StageRule ParseStageRule(std::string_view spec) {
  auto refused = [&](std::string problem, size_t offset) {
    return ValueError(ValueRole::kStageRule, std::string(spec), std::move(problem), offset);
  };
  const std::optional<NameRegex> parts = SplitNameRegex(spec);
  if (!parts) throw refused("expected NAME=REGEX, e.g. compile=to_edge_transform_and_lower", 0);
  const auto [name, regex, regex_offset] = *parts;
  if (!ValidStageName(name))
    throw refused(fmt::format("stage name \"{}\": use letters, digits, '_', '-' or '.'", name), 0);
  if (name == kOtherStage) throw refused("\"other\" is the stage of samples no stage matches", 0);
  if (regex.empty()) throw refused("empty regular expression after '='", regex_offset);
  if (auto re = CompileRegex(regex); !re->ok())
    throw refused(fmt::format("not a valid regular expression (RE2 syntax): {}", re->error()),
                  regex_offset);
  return {std::string(name), std::string(regex)};
}

StageMap OverrideStages(StageMap base, const std::vector<StageRule>& overrides) {
  for (const auto& rule : overrides) {
    auto it = std::find_if(base.stages.begin(), base.stages.end(),
                           [&](const StageRule& s) { return s.name == rule.name; });
    if (it != base.stages.end())
      it->regex = rule.regex;
    else
      base.stages.push_back(rule);
  }
  return base;
}

FrameClasses ClassifyFrames(const std::vector<std::string>& frames, const StageMap& map) {
  std::vector<std::unique_ptr<RE2>> stages;
  for (const auto& s : map.stages) {
    stages.push_back(CompileRegex(s.regex));
    if (!stages.back()->ok())
      throw InputError(fmt::format("stage {}", s.name),
                       fmt::format("not a valid regular expression: {}", stages.back()->error()));
  }
  std::unique_ptr<RE2> gc;
  if (!map.gc_regex.empty()) {
    gc = CompileRegex(map.gc_regex);
    if (!gc->ok())
      throw ValueError(ValueRole::kGcFramePattern, "",
                       fmt::format("not a valid regular expression: {}", gc->error()));
  }
  FrameClasses out;
  out.stage.assign(frames.size(), -1);
  out.gc.assign(frames.size(), false);
  for (size_t f = 0; f < frames.size(); ++f) {
    for (size_t s = 0; s < stages.size(); ++s)
      if (RegexSearch(*stages[s], frames[f])) {
        out.stage[f] = static_cast<int>(s);
        break;
      }
    out.gc[f] = gc && RegexSearch(*gc, frames[f]);
  }
  return out;
}

StackStage StageOfStack(const LoweringStack& stack, const FrameClasses& classes) {
  for (size_t d = 0; d < stack.frames.size(); ++d) {
    int s = classes.stage[stack.frames[d]];
    if (s >= 0) return {s, d};
  }
  return {-1, stack.frames.size()};
}

StageAttribution AttributeStages(const LoweringProfile& profile, const StageMap& map,
                                 size_t top_frames) {
  FrameClasses classes = ClassifyFrames(profile.frames, map);
  const size_t n = map.stages.size();  // slot n is "other"
  const size_t no_frame = profile.frames.size();
  std::vector<double> seconds(n + 1, 0.0), gc(n + 1, 0.0);
  std::vector<std::vector<double>> self(n + 1, std::vector<double>(no_frame + 1, 0.0));
  std::vector<double> self_all(no_frame + 1, 0.0);
  StageAttribution out;
  for (const auto& stack : profile.stacks) {
    StackStage st = StageOfStack(stack, classes);
    size_t slot = st.stage < 0 ? n : static_cast<size_t>(st.stage);
    seconds[slot] += stack.seconds;
    if (std::any_of(stack.frames.begin(), stack.frames.end(),
                    [&](uint32_t f) { return classes.gc[f]; })) {
      gc[slot] += stack.seconds;
      out.gc_seconds += stack.seconds;
    }
    size_t leaf = stack.frames.empty() ? no_frame : stack.frames.back();
    self[slot][leaf] += stack.seconds;
    self_all[leaf] += stack.seconds;
  }
  out.path = profile.path;
  out.source = profile.source;
  out.map_name = map.name;
  out.gc_regex = map.gc_regex;
  out.total_seconds = profile.total_seconds;
  out.samples = profile.samples;
  out.notes = profile.notes;
  for (size_t slot = 0; slot <= n; ++slot) {
    StageShare s;
    s.name = slot < n ? map.stages[slot].name : kOtherStage;
    s.regex = slot < n ? map.stages[slot].regex : "";
    s.seconds = seconds[slot];
    s.share_pct = out.total_seconds > 0 ? seconds[slot] / out.total_seconds * 100.0 : 0;
    s.gc_seconds = gc[slot];
    s.top_self_frames = TopFrames(self[slot], profile.frames, top_frames);
    if (slot < n && s.seconds == 0)
      out.notes.push_back(
          fmt::format("no sample is in stage \"{}\": no frame matches /{}/", s.name, s.regex));
    out.stages.push_back(std::move(s));
  }
  out.self_seconds = TopFrames(self_all, profile.frames, self_all.size());
  if (out.total_seconds > 0 && seconds[n] / out.total_seconds > kMostlyOtherShare)
    out.notes.push_back(
        fmt::format("{:.1f} % of the time is in no stage: check the map (--stage NAME=REGEX)",
                    seconds[n] / out.total_seconds * 100.0));
  return out;
}

AotDiff DiffAot(const StageAttribution& a, const StageAttribution& b, size_t top_frames) {
  auto timings = [](const StageAttribution& s) {
    StageTimings t;
    t.path = s.path;
    for (const auto& st : s.stages) t.stages.push_back({st.name, st.seconds, 0});
    return t;
  };
  AotDiff d;
  d.stages = DiffStages(timings(a), timings(b));
  auto gc_of = [](const StageAttribution& s, const std::string& name) {
    for (const auto& st : s.stages)
      if (st.name == name) return st.gc_seconds;
    return 0.0;
  };
  for (const auto& st : d.stages.stages)
    d.stage_gc.push_back({gc_of(a, st.stage), gc_of(b, st.stage)});
  d.total_gc = {a.gc_seconds, b.gc_seconds};
  std::map<std::string, std::pair<double, double>> frames;
  for (const auto& f : a.self_seconds) frames[f.frame].first += f.seconds;
  for (const auto& f : b.self_seconds) frames[f.frame].second += f.seconds;
  for (const auto& [name, ab] : frames) {
    FrameChange c{name, ab.first, ab.second, ab.second - ab.first, std::nullopt};
    if (ab.first > 0) c.change_pct = c.change_seconds / ab.first * 100.0;
    if (c.change_seconds != 0) d.frames.push_back(std::move(c));
  }
  std::sort(d.frames.begin(), d.frames.end(), [](const FrameChange& x, const FrameChange& y) {
    double ax = std::fabs(x.change_seconds), ay = std::fabs(y.change_seconds);
    if (ax != ay) return ax > ay;
    return x.frame < y.frame;
  });
  if (d.frames.size() > top_frames) d.frames.resize(top_frames);
  if (a.map_name != b.map_name)
    d.notes.push_back(
        fmt::format("A was attributed with map \"{}\", B with \"{}\"", a.map_name, b.map_name));
  for (const auto& n : d.stages.notes) d.notes.push_back(n);
  return d;
}

}  // namespace htpscope
