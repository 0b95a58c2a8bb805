// `htpscope diff` for AI Hub and Genie profiles and ExecuTorch LLM runner
// logs (docs/formats-beyond-sdk.md): diff_command.cc hands over when every
// input of both sides is one.
#pragma once

#include <string>
#include <vector>

#include "analysis/gate.h"
#include "report/diff_report.h"

namespace htpscope::cli {

// True when `inputs` are all files holding an AI Hub or a Genie profile or a
// runner's log.
bool AllInputsAreDeviceProfiles(const std::vector<std::string>& inputs);

// Compares side A with side B, each file one run; prints the diff in
// `format` and returns the gates' exit status.  Throws InputError when the
// sides do not all hold AI Hub profiles, Genie profiles or runner logs.
int RunDeviceProfileDiff(const std::vector<std::string>& inputs_a,
                         const std::vector<std::string>& inputs_b, const std::vector<Gate>& gates,
                         DiffFormat format, int top_n);

}  // namespace htpscope::cli
