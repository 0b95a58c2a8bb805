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

// The arguments of a command that shows one run: the run, --json and --top.
struct RunViewArgs {
  RunArgs run;
  bool json = false;
  int top_n = 10;
};

// Adds the run's arguments (AddRunArgs), --json (its schema documented in
// `schema_doc`) and --top N (at least 1; `top_help` says of what) to `cmd`.
void AddRunViewArgs(CLI::App* cmd, RunViewArgs& args, const std::string& schema_doc,
                    const std::string& top_help);

// What LoadRunFromArgs does with the memory that loading freed (the
// readers' buffers: ~120 MB on an 80k-op run).
enum class FreedMemory {
  kReturn,  // ReturnFreedMemory(): the lowest peak, for commands that build little after the load
  kKeep,    // kept for what follows, which reuses it: for a command that builds more than it
            // (report: ~380 MB) trimming costs 0.03-0.045 s and buys no lower peak
};

// Loads the run the arguments name, then handles freed memory as `freed` says.
Run LoadRunFromArgs(const RunArgs& args, FreedMemory freed = FreedMemory::kReturn);

// Hands memory freed so far back to the system.  The readers' threads free
// their buffers into their own malloc arenas, which keep up to the trim
// threshold each.  Called after a run is loaded (FreedMemory::kReturn), and
// by diff after each run it loads, while the other side is still loading.
void ReturnFreedMemory();

// The runs that `inputs` name when they may be several: every directory is
// one run (in the order given); the plain files, if any, together form one
// more run, after them.
std::vector<std::vector<std::string>> GroupRunInputs(const std::vector<std::string>& inputs);

}  // namespace htpscope::cli
