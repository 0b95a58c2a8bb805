// A check within the profile: at detailed level each execution's per-node
// cycles add up to its "Accelerator (execute) time (cycles)", the root line
// they are sub-events of (exactly, on every real profile seen).  Linting
// level's main-thread cycles under the critical-path line are left out:
// no real profile shows how exactly they add up.
#include <fmt/format.h>

#include <cmath>

#include "base/text_util.h"
#include "model/join.h"

namespace htpscope {

void BuildProfileNodeSumChecks(Run& run) {
  for (uint32_t g = 0; g < run.graphs.size(); ++g) {
    int compared = 0, agree = 0;
    std::vector<std::string> differing;
    std::string parent;
    for (const ExecutionRow& e : run.executions) {
      if (e.graph != g || e.block >= run.profile_blocks.size()) continue;
      const ProfileBlockRow& block = run.profile_blocks[e.block];
      if (block.node_count == 0 ||
          !EqualsIgnoreCase(block.nodes_parent, "Accelerator (execute) time (cycles)"))
        continue;
      const ProfileMetricRow* root = run.FindMetric(block, block.nodes_parent);
      if (!root || !root->value || root->unit != "cycles") continue;
      int64_t sum = 0;  // the import refused blocks whose sum overflows
      for (uint32_t i = block.first_node; i < block.first_node + block.node_count; ++i)
        sum += run.profile_nodes[i].cycles;
      const auto total = static_cast<int64_t>(std::llround(*root->value));
      if (parent.empty()) parent = block.nodes_parent;
      ++compared;
      if (sum == total) {
        ++agree;
      } else if (differing.size() < 10) {
        differing.push_back(fmt::format("execution {}: Σ {} vs {}", e.index, sum, total));
      }
    }
    if (!compared) continue;
    std::string name = fmt::format("Σ per-node cycles = {} (per execution)", parent);
    if (run.graphs.size() > 1)
      name += fmt::format(
          " of {}", run.graphs[g].name.empty() ? fmt::format("graph {}", g) : run.graphs[g].name);
    std::string note = fmt::format("{}", fmt::join(differing, "; "));
    if (compared - agree > static_cast<int>(differing.size()))
      note += fmt::format("; {} more", compared - agree - static_cast<int>(differing.size()));
    run.cross_checks.push_back({"time", std::move(name), "executions",
                                "profile executions where they are equal",
                                "profile executions compared", static_cast<double>(agree),
                                static_cast<double>(compared), agree == compared, std::move(note)});
  }
}

}  // namespace htpscope
