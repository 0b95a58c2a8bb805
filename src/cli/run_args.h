// The command-line arguments every command that reads one run shares: the
// run's directory or files, and how to join them.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "model/run.h"

namespace htpscope::cli {

struct RunArgs {
  std::vector<std::string> inputs;
  bool allow_mismatch = false;
  std::string graph;  // --graph NAME: one graph of a multi-graph profile
};

// Adds the positional RUN argument(s), --allow-mismatch and --graph to `cmd`.
void AddRunArgs(CLI::App* cmd, RunArgs& args);

// Loads the run the arguments name.  (Not followed by ReturnFreedMemory():
// each reader already hands its threads' freed buffers back, and the trim
// after the load, 0.03 s on an 80k-op run, no longer lowered any command's
// peak.)
Run LoadRunFromArgs(const RunArgs& args);

// Hands memory freed so far back to the system: the malloc arenas of the
// threads that loaded a run keep what they freed after their reader's own
// trim.  Called by diff after each run it loads, while the other side is
// still loading (its peak holds both runs: 20-35 MB lower with it).
void ReturnFreedMemory();

// The runs that `inputs` name when they may be several: every directory is
// one run (in the order given); the plain files, if any, together form one
// more run, after them.
std::vector<std::vector<std::string>> GroupRunInputs(const std::vector<std::string>& inputs);

}  // namespace htpscope::cli
