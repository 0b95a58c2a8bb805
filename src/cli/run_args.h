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

// Loads the run the arguments name.
Run LoadRunFromArgs(const RunArgs& args);

// The runs that `inputs` name when they may be several: every directory is
// one run (in the order given); the plain files, if any, together form one
// more run, after them.
std::vector<std::vector<std::string>> GroupRunInputs(const std::vector<std::string>& inputs);

}  // namespace htpscope::cli
