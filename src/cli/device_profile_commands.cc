#include "cli/device_profile_commands.h"

#include <fmt/format.h>

#include "analysis/device_profile_diff.h"
#include "base/errors.h"
#include "cli/terminal.h"
#include "model/run.h"
#include "report/device_profile_report.h"

namespace htpscope::cli {

bool AllInputsAreDeviceProfiles(const std::vector<std::string>& inputs) {
  if (inputs.empty()) return false;
  for (const auto& input : inputs)
    if (!IsDeviceProfileFile(input)) return false;
  return true;
}

int RunDeviceProfileDiff(const std::vector<std::string>& inputs_a,
                         const std::vector<std::string>& inputs_b, const std::vector<Gate>& gates,
                         DiffFormat format, int top_n) {
  // Each file is one run: a profile is a whole run of its own.
  std::vector<Run> runs;
  runs.reserve(inputs_a.size() + inputs_b.size());
  for (const auto& path : inputs_a) runs.push_back(LoadRun({path}));
  for (const auto& path : inputs_b) runs.push_back(LoadRun({path}));
  std::vector<const Run*> a, b;
  for (size_t i = 0; i < runs.size(); ++i) (i < inputs_a.size() ? a : b).push_back(&runs[i]);
  bool aihub = true, genie = true, llm_runner = true;
  for (const Run& r : runs) {
    aihub &= r.aihub.has_value();
    genie &= r.genie.has_value();
    llm_runner &= r.llm_runner.has_value();
  }
  if (!aihub && !genie && !llm_runner)
    throw InputError("<arguments>",
                     "the sides do not hold profiles of one kind: compare AI Hub profiles with AI "
                     "Hub profiles, Genie profiles with Genie profiles, ExecuTorch runner logs "
                     "with runner logs");
  const DeviceProfileDiff diff = aihub   ? DiffAihubRuns(a, b)
                                 : genie ? DiffGenieRuns(a, b)
                                         : DiffLlmRunnerRuns(a, b);
  const std::vector<GateResult> results = EvaluateGates(gates, diff);
  PrintText(RenderDeviceDiff(diff, results, format, top_n),
            format != DiffFormat::kText && format != DiffFormat::kMarkdown);
  return GateExitStatus(results);
}

}  // namespace htpscope::cli
