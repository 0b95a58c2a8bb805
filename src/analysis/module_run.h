// The module tree of one run (analysis/module_tree.h): which time each op
// contributes, decided once here (docs/modules.md, "What the time is"):
//  1. the traced execution's DPC per QNN op (Run::qnn_ops), when the run's
//     op tables come from an optrace or a whole QHAS summary;
//  2. else, from the profile's per-node cycles, each op's median over the
//     steady-state executions 2..N of its graph (a profile with one
//     execution: that execution's cycles, labelled as such);
//  3. else, from an AI Hub profile (Run::aihub), each layer's execution_time
//     (µs: the runtime's time per layer, not a DPC figure) with the compute
//     unit it ran on; layers without an execution_time are left out;
//  4. else no tree (the run has no per-op figure).
// One basis for the whole tree, never mixed: a run holding both HTP op
// times and an AI Hub profile has the HTP tree, and a note says the AI Hub
// layers are left out.
#pragma once

#include <string>
#include <vector>

#include "analysis/module_tree.h"
#include "model/run.h"

namespace htpscope {

struct RunModules {
  ModuleTree tree;
  std::string source;  // "optrace", "qhas", "profile", "aihub" or "none"
  // Steady-state executions per op's graph (profile basis; 0 otherwise).
  int steady_executions = 0;
  std::vector<std::string> notes;  // what was left out, and why
  bool available() const { return !tree.empty(); }
};

// Every op's time on the basis above, rolled up.  Pure over `run`.
RunModules ComputeRunModules(const Run& run, const ModuleTreeOptions& options = {});

// The op times ComputeRunModules rolls up (same rules), for a caller that
// builds its own tree.  `basis` receives the basis, `source` the source
// name; `notes` what was left out.  The ops view the run's strings.
std::vector<ModuleOpInput> RunModuleOps(const Run& run, ModuleTimeBasis& basis, std::string& source,
                                        int& steady_executions, std::vector<std::string>& notes);

}  // namespace htpscope
