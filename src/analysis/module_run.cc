#include "analysis/module_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/statistics.h"

namespace htpscope {
namespace {

// DPC per QNN op of the traced execution; false when no op has DPC.
bool DpcOps(const Run& run, std::vector<ModuleOpInput>& out, std::vector<std::string>& notes) {
  int64_t without = 0;
  for (const auto& g : run.qnn_ops) {
    if (!g.dpc_cycles) {
      ++without;
      continue;
    }
    out.push_back({std::string(run.Str(g.name)), static_cast<double>(*g.dpc_cycles), ""});
  }
  if (out.empty()) return false;
  if (without > 0)
    notes.push_back(fmt::format("{} QNN op(s) without dominant-path cycles left out", without));
  int64_t lower_bound = 0;
  for (const auto& g : run.qnn_ops) lower_bound += g.dpc_cycles && g.dpc_lower_bound();
  if (lower_bound > 0)
    notes.push_back(fmt::format(
        "{} QNN op(s) have only a lower bound of their DPC (multi-slice ops, docs/metrics.md)",
        lower_bound));
  return true;
}

// Per (graph, op) the profile's per-node cycles in each execution, and the
// median over executions 2..N (or the only execution's cycles).
void ProfileOps(const Run& run, std::vector<ModuleOpInput>& out, ModuleTimeBasis& basis,
                int& steady_executions, std::vector<std::string>& notes) {
  const bool named_graphs = run.graphs.size() > 1;
  bool any_single = false, any_steady = false;
  for (uint32_t g = 0; g < run.graphs.size(); ++g) {
    std::vector<const ExecutionRow*> executions;
    for (const auto& e : run.executions)
      if (e.graph == g && e.block < run.profile_blocks.size()) executions.push_back(&e);
    if (executions.empty()) continue;
    // An op is its OpId when printed, else its name; first-seen order.
    std::map<std::pair<int64_t, std::string>, size_t> index;
    std::vector<std::string> names;
    std::vector<std::vector<double>> samples;  // per op: cycles of executions 2..N
    std::vector<double> first;                 // per op: cycles of execution 1
    for (size_t x = 0; x < executions.size(); ++x) {
      const ProfileBlockRow& block = run.profile_blocks[executions[x]->block];
      // Several lines of one op in one execution add up.
      std::map<size_t, double> this_execution;
      for (uint32_t k = 0; k < block.node_count; ++k) {
        const ProfileNodeRow& node = run.profile_nodes[block.first_node + k];
        std::string name = node.qnn_op_name.empty() ? node.label : node.qnn_op_name;
        std::pair<int64_t, std::string> key{node.op_id ? int64_t(*node.op_id) : -1,
                                            node.op_id ? std::string() : name};
        auto [it, inserted] = index.try_emplace(std::move(key), names.size());
        if (inserted) {
          names.push_back(std::move(name));
          samples.emplace_back();
          first.push_back(0);
        }
        this_execution[it->second] += static_cast<double>(node.cycles);
      }
      for (const auto& [op, cycles] : this_execution) {
        if (x == 0)
          first[op] = cycles;
        else
          samples[op].push_back(cycles);
      }
    }
    const std::string graph = named_graphs ? run.graphs[g].name : std::string();
    if (executions.size() == 1) {
      any_single = true;
      for (size_t op = 0; op < names.size(); ++op) out.push_back({names[op], first[op], graph});
      continue;
    }
    any_steady = true;
    steady_executions = std::max(steady_executions, static_cast<int>(executions.size()) - 1);
    int64_t cold_only = 0;
    for (size_t op = 0; op < names.size(); ++op) {
      auto stats = StatsOf(samples[op]);
      if (!stats) {
        ++cold_only;
        continue;
      }
      out.push_back({names[op], stats->median, graph});
    }
    if (cold_only > 0)
      notes.push_back(
          fmt::format("{} op(s) listed only in the cold first execution left out", cold_only));
  }
  if (any_steady && any_single)
    notes.push_back(
        "graphs with one execution contribute that execution's cycles; the others their "
        "steady-state medians");
  basis = any_steady ? ModuleTimeBasis::kSteadyMedianCycles : ModuleTimeBasis::kExecutionCycles;
}

}  // namespace

std::vector<ModuleOpInput> RunModuleOps(const Run& run, ModuleTimeBasis& basis, std::string& source,
                                        int& steady_executions, std::vector<std::string>& notes) {
  std::vector<ModuleOpInput> out;
  steady_executions = 0;
  source = "none";
  const Source fine = run.figures.fine_source;
  if ((fine == Source::kOptrace || fine == Source::kQhas) && DpcOps(run, out, notes)) {
    basis = ModuleTimeBasis::kDpcCycles;
    source = SourceName(fine);
    return out;
  }
  out.clear();
  ProfileOps(run, out, basis, steady_executions, notes);
  if (!out.empty()) source = "profile";
  return out;
}

RunModules ComputeRunModules(const Run& run, const ModuleTreeOptions& options) {
  RunModules m;
  ModuleTimeBasis basis = ModuleTimeBasis::kSteadyMedianCycles;
  std::vector<ModuleOpInput> ops = RunModuleOps(run, basis, m.source, m.steady_executions, m.notes);
  m.tree = BuildModuleTree(ops, basis, options);
  if (ops.empty())
    m.notes.push_back("no per-op time: the run has no optrace, QHAS or per-node profile lines");
  return m;
}

}  // namespace htpscope
