#include "analysis/module_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace htpscope {
namespace {

constexpr const char* kRootName = "(all)";

struct Samples {
  std::vector<double> a, b;
  int depth = 0;
  bool block = false;
};

void Collect(const std::vector<const ModuleTree*>& trees, bool side_a,
             std::map<std::string, Samples>& out) {
  for (const ModuleTree* t : trees)
    for (const auto& n : t->nodes) {
      Samples& s = out[n.depth == 0 ? std::string(kRootName) : n.path];
      (side_a ? s.a : s.b).push_back(n.time);
      s.depth = n.depth;
      s.block = s.block || n.block.has_value();
    }
}

}  // namespace

const char* ModuleMatchName(ModuleMatch match) {
  switch (match) {
    case ModuleMatch::kAdded:
      return "added";
    case ModuleMatch::kRemoved:
      return "removed";
    case ModuleMatch::kMatched:
      break;
  }
  return "matched";
}

ModuleDiff DiffModules(const std::vector<const ModuleTree*>& a,
                       const std::vector<const ModuleTree*>& b) {
  ModuleDiff d;
  auto usable = [](const std::vector<const ModuleTree*>& side) {
    std::vector<const ModuleTree*> out;
    for (const ModuleTree* t : side)
      if (t && !t->empty()) out.push_back(t);
    return out;
  };
  std::vector<const ModuleTree*> ua = usable(a), ub = usable(b);
  if (ua.empty() || ub.empty()) {
    d.notes.push_back(
        ua.empty() && ub.empty()
            ? std::string("no module view: neither side has per-op time")
            : fmt::format("no module view: side {} has no per-op time", ua.empty() ? "A" : "B"));
    return d;
  }
  for (const auto* side : {&ua, &ub})
    for (const ModuleTree* t : *side)
      for (const auto& n : t->nodes)
        if (n.depth > 0 && !n.unplaced && n.path.rfind("graph:", 0) != 0) d.has_modules = true;
  std::set<ModuleTimeBasis> bases;
  for (const ModuleTree* t : ua) bases.insert(t->basis);
  for (const ModuleTree* t : ub) bases.insert(t->basis);
  if (bases.size() > 1) {
    std::vector<std::string> names;
    for (ModuleTimeBasis basis : bases) names.push_back(ModuleTimeBasisName(basis));
    d.notes.push_back(fmt::format(
        "modules not compared: the runs' op times are on different bases ({}); give both sides "
        "the same artifacts (an optrace on both, or profiles on both)",
        fmt::join(names, ", ")));
    return d;
  }
  const ModuleTimeBasis basis = *bases.begin();
  d.basis = ModuleTimeBasisName(basis);
  d.unit = ModuleTimeUnit(basis);
  std::map<std::string, Samples> samples;
  Collect(ua, true, samples);
  Collect(ub, false, samples);
  const std::string basis_text =
      fmt::format("module time: {}; one sample per run", ModuleTimeBasisLabel(basis));
  for (auto& [path, s] : samples) {
    ModuleDelta m;
    m.path = path;
    m.depth = s.depth;
    m.block = s.block;
    m.status = s.a.empty()   ? ModuleMatch::kAdded
               : s.b.empty() ? ModuleMatch::kRemoved
                             : ModuleMatch::kMatched;
    m.time = CompareSamples(std::move(s.a), std::move(s.b), d.unit, basis_text);
    d.modules.push_back(std::move(m));
  }
  auto magnitude = [](const ModuleDelta& m) {
    if (m.time.change) return std::fabs(*m.time.change);
    // An added or removed module changes by its whole time.
    return m.time.a ? m.time.a->median : m.time.b ? m.time.b->median : 0.0;
  };
  std::stable_sort(d.modules.begin(), d.modules.end(),
                   [&](const ModuleDelta& x, const ModuleDelta& y) {
                     double mx = magnitude(x), my = magnitude(y);
                     if (mx != my) return mx > my;
                     return x.path < y.path;
                   });
  // The deepest block among those that grew most (a stage grows with its layer).
  double most = 0;
  int most_depth = -1;
  for (const auto& m : d.modules) {
    if (!m.block || !m.time.change || *m.time.change <= 0 || m.time.within_noise) continue;
    if (*m.time.change > most || (*m.time.change == most && m.depth > most_depth)) {
      most = *m.time.change;
      most_depth = m.depth;
      d.slowest_block = m.path;
    }
  }
  if (ua.size() < kMinSamplesForNoise || ub.size() < kMinSamplesForNoise)
    d.notes.push_back(fmt::format(
        "module times are one sample per run: the noise rule needs {} runs a side (A has {}, B {})",
        kMinSamplesForNoise, ua.size(), ub.size()));
  return d;
}

void AppendModuleGateSubjects(const ModuleDiff& diff, std::vector<GateSubject>& out) {
  for (const auto& m : diff.modules) out.push_back({"module", m.path, diff.unit, &m.time});
}

}  // namespace htpscope
