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
// {"etdump": {...}}); returns the exit status.  Throws InputError for a bad
// ETDump or for more than one.
int RunEtdumpSummary(const std::vector<std::string>& inputs, bool json, int top_n);

}  // namespace htpscope::cli
