// Comparing AI Hub profiles, or Genie profiles, or ExecuTorch LLM runner
// logs between two sides (A = baseline, B = candidate), each side one or more
// runs of the same configuration, by the noise rule and gates of
// analysis/gate.h (docs/diff.md, docs/formats-beyond-sdk.md).
//
// The run-level figures (gate family "") are the registry's device figures
// that the artifact gives, in its order (DeviceFiguresOf, model/figures.h):
// their names, units, labels and what one side's samples are come from
// there (docs/metrics.md lists them).  In short: AI Hub's steady inference
// pools all_inference_times 2..N; Genie's steady figures pool the queries
// 2..N of each dialog (a dialog of one query gives that query, a note says
// so), a runner's the generations 2..N of each log (likewise); cold figures
// take each profile's, dialog's or log's first; the others are one per
// profile, dialog or log, or per query or generation.
//
// AI Hub profiles also compare per layer (family "layer", fields time_us and
// cycles): layers match by name, the k-th layer of a name on A with the k-th
// of that name on B (a repeated name's key is "name#k" from k = 2), so
// repeats keep their order; and per module of the model (family "module",
// field us): each run's layers rolled up their module paths
// (analysis/module_run.h, docs/modules.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/gate.h"
#include "analysis/run_diff.h"
#include "model/run.h"

namespace htpscope {

struct LayerDelta {
  std::string key;  // name, or "name#k" for the k-th layer of that name (k >= 2)
  std::string name;
  uint32_t occurrence = 1;
  std::string type;            // B's, else A's
  std::string a_unit, b_unit;  // compute units; "" on the side without the layer
  OpMatch status = OpMatch::kMatched;
  MetricDelta time_us, cycles;  // medians over the side's runs
  bool unit_changed() const { return !a_unit.empty() && !b_unit.empty() && a_unit != b_unit; }
};

struct DeviceProfileDiff {
  std::string kind;                             // "aihub", "genie" or "llm_runner"
  std::vector<std::string> a_labels, b_labels;  // one per run
  std::vector<NamedDelta> metrics;              // in the order of the header's list
  // AI Hub only: every layer of either side, in B's order, A-only layers
  // after the B layer they followed on A; units that changed, fallbacks.
  std::vector<LayerDelta> layers;
  // AI Hub only: the layers' execution_time by module (analysis/module_diff.h).
  ModuleDiff modules;
  std::vector<std::string> notes;

  // The run-level row named `name` (a DeviceFigureInfo::name), or nullptr.
  const NamedDelta* Find(std::string_view name) const;
};

// Each side needs at least one run, each with an AI Hub profile
// (Run::aihub) — or each with a Genie profile (Run::genie), or each with a
// runner's log.
// Throws std::invalid_argument otherwise.
DeviceProfileDiff DiffAihubRuns(const std::vector<const Run*>& a, const std::vector<const Run*>& b);
DeviceProfileDiff DiffGenieRuns(const std::vector<const Run*>& a, const std::vector<const Run*>& b);
// Each run with an ExecuTorch runner's log (Run::llm_runner).
DeviceProfileDiff DiffLlmRunnerRuns(const std::vector<const Run*>& a,
                                    const std::vector<const Run*>& b);

// The figures gates may test: run-level metrics (family "") and, for AI
// Hub, every layer (family "layer", name = its key: time_us, cycles) and
// every module (family "module", name = its path: us).
std::vector<GateSubject> GateSubjects(const DeviceProfileDiff& diff);

}  // namespace htpscope
