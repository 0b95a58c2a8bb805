// `diff` by module: each module's time on side A and side B (one sample per
// run: the module's time in that run's module tree), compared with the
// noise rule of analysis/gate.h, and gated as `module:GLOB:cycles` (or
// `module:GLOB:us`).  The two sides' trees must share a basis (DPC cycles,
// steady-state median cycles, ...): times on different bases are never
// compared (docs/modules.md, docs/diff.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/gate.h"
#include "analysis/module_tree.h"

namespace htpscope {

enum class ModuleMatch : uint8_t { kMatched, kAdded, kRemoved };
const char* ModuleMatchName(ModuleMatch match);  // "matched", "added", "removed"

struct ModuleDelta {
  std::string path;  // "(all)" for the root
  int depth = 0;
  ModuleMatch status = ModuleMatch::kMatched;
  bool block = false;  // a repeated block ("layers.3")
  MetricDelta time;    // unit "cycles" or "us"; basis the trees' basis
};

struct ModuleDiff {
  // The trees' common basis; empty when a side has no tree or the sides'
  // bases differ (then `modules` is empty and `notes` says why).
  std::string basis;
  std::string unit;                  // "cycles" or "us"
  std::vector<ModuleDelta> modules;  // by |change| (descending; absent last), then path
  // The repeated block whose time grew the most beyond noise (or, without
  // a noise assessment, the most; the deepest of equals), e.g. "model/layers.2";
  // "" when none grew.
  std::string slowest_block;
  // Some op on either side has a module (not only the root and "(no module)").
  bool has_modules = false;
  std::vector<std::string> notes;
};

// Compares the trees of side A's runs with side B's (each tree a run's).
ModuleDiff DiffModules(const std::vector<const ModuleTree*>& a,
                       const std::vector<const ModuleTree*>& b);

// The figures a gate "module:GLOB:<unit>" tests: one per module present on
// either side, field = the unit ("cycles" or "us").  Pointers refer into `diff`.
void AppendModuleGateSubjects(const ModuleDiff& diff, std::vector<GateSubject>& out);

}  // namespace htpscope
