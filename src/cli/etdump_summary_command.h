// `htpscope summary` for ExecuTorch ETDump input (docs/summary-json.md,
// `etdump` object).  summary_command.cc hands over when every input is an
// ETDump.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace htpscope::cli {

// True when `inputs` are all ETDump files (by content); false for
// directories and any other file.
bool AllInputsAreEtdumps(const std::vector<std::string>& inputs);

// Prints the summary of the one ETDump in `inputs` (text, or JSON
// {"etdump": {...}}) and returns the exit status; nullopt, printing
// nothing, when the ETDump holds the QNN delegate's per-node events: it is
// then summarised as a run (LoadRun reads it as the run's profile).  Throws
// InputError for a bad ETDump or for more than one.
std::optional<int> SummarizeLoneEtdump(const std::vector<std::string>& inputs, bool json,
                                       int top_n);

}  // namespace htpscope::cli
