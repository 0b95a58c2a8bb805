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

// Loads the run the arguments name (then ReturnFreedMemory()).
Run LoadRunFromArgs(const RunArgs& args);

// Hands memory freed so far back to the system.  The readers' threads free
// their buffers into their own malloc arenas, which keep up to the trim
// threshold each; called after a run is loaded (an 80k-op run's report
// peaked ~70 MB higher without it) and after a loaded run is dropped.
void ReturnFreedMemory();

// The runs that `inputs` name when they may be several: every directory is
// one run (in the order given); the plain files, if any, together form one
// more run, after them.
std::vector<std::vector<std::string>> GroupRunInputs(const std::vector<std::string>& inputs);

}  // namespace htpscope::cli
