#include "analysis/module_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/op_steady_state.h"
#include "analysis/statistics.h"

namespace htpscope {
namespace {

// DPC per QNN op of the traced execution; false when no op has DPC.
bool DpcOps(const Run& run, std::vector<ModuleOpInput>& out, std::vector<std::string>& notes) {
  out.reserve(run.qnn_ops.size());
  int64_t without = 0;
  for (const auto& g : run.qnn_ops) {
    if (!g.dpc_cycles) {
      ++without;
      continue;
    }
    out.push_back({run.Str(g.name), static_cast<double>(*g.dpc_cycles), ""});
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

// Per (graph, op) the profile's per-node cycles (op_steady_state.h): the
// median over executions 2..N, or the only execution's cycles.  An op whose
// profile row names the ONNX nodes it came from (ONNX Runtime's "ONNX Source
// Ops") is placed by the first of them: the user's node name, not the EP's.
void ProfileOps(const Run& run, std::vector<ModuleOpInput>& out, ModuleTimeBasis& basis,
                int& steady_executions, std::vector<std::string>& notes) {
  const bool named_graphs = run.graphs.size() > 1;
  std::vector<int> executions(run.graphs.size(), 0);
  for (const auto& e : run.executions)
    if (e.graph < executions.size() && e.block < run.profile_blocks.size()) ++executions[e.graph];
  bool any_single = false, any_steady = false;
  int64_t cold_only = 0, by_source = 0;
  for (const OpSteadyState& op : ComputeOpSteadyState(run)) {
    const std::string_view graph = named_graphs ? run.graphs[op.graph].name : std::string_view();
    std::string_view name = FirstSourceOp(op.source_ops);
    if (name.empty()) name = op.name;
    if (executions[op.graph] == 1) {
      any_single = true;
      out.push_back({name, static_cast<double>(op.cold_cycles), graph});
    } else if (op.steady_median_cycles) {
      any_steady = true;
      steady_executions = std::max(steady_executions, op.steady_executions);
      out.push_back({name, *op.steady_median_cycles, graph});
    } else {
      ++cold_only;
      continue;
    }
    by_source += name != op.name;
  }
  if (by_source > 0)
    notes.push_back(fmt::format(
        "{} op(s) named and placed by their first ONNX source op (the profile's \"ONNX Source "
        "Ops\" column), not their QNN op name",
        by_source));
  if (cold_only > 0)
    notes.push_back(
        fmt::format("{} op(s) listed only in the cold first execution left out", cold_only));
  if (any_steady && any_single)
    notes.push_back(
        "graphs with one execution contribute that execution's cycles; the others their "
        "steady-state medians");
  basis = any_steady ? ModuleTimeBasis::kSteadyMedianCycles : ModuleTimeBasis::kExecutionCycles;
}

// Each AI Hub layer's execution_time with the unit it ran on; false when no
// layer has one.
bool AihubLayerOps(const Run& run, std::vector<ModuleOpInput>& out,
                   std::vector<std::string>& notes) {
  if (!run.aihub || run.aihub->layers.empty()) return false;
  int64_t untimed = 0;
  for (const AihubLayerRow& l : run.aihub->layers) {
    if (!l.time_us) {
      ++untimed;
      continue;
    }
    out.push_back({l.name, static_cast<double>(*l.time_us), "", l.compute_unit, l.type});
  }
  if (out.empty()) {
    notes.push_back(
        "the AI Hub profile's layers have no execution_time (profiles before version 1.2 have "
        "none): no per-layer time");
    return false;
  }
  if (untimed > 0)
    notes.push_back(fmt::format("{} AI Hub layer(s) without an execution_time left out", untimed));
  return true;
}

// The note of a run whose HTP op times win over its AI Hub profile's layers.
void NoteAihubLeftOut(const Run& run, std::vector<std::string>& notes) {
  if (run.aihub && !run.aihub->layers.empty())
    notes.push_back(
        "the AI Hub profile's per-layer times are not in this tree (one basis per tree): "
        "summarise the AI Hub profile alone for its modules");
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
    NoteAihubLeftOut(run, notes);
    return out;
  }
  out.clear();
  ProfileOps(run, out, basis, steady_executions, notes);
  if (!out.empty()) {
    source = "profile";
    NoteAihubLeftOut(run, notes);
    return out;
  }
  if (AihubLayerOps(run, out, notes)) {
    basis = ModuleTimeBasis::kAihubLayerMicroseconds;
    source = "aihub";
  }
  return out;
}

RunModules ComputeRunModules(const Run& run, const ModuleTreeOptions& options) {
  RunModules m;
  ModuleTimeBasis basis = ModuleTimeBasis::kSteadyMedianCycles;
  std::vector<ModuleOpInput> ops = RunModuleOps(run, basis, m.source, m.steady_executions, m.notes);
  const bool no_ops = ops.empty();
  m.tree = BuildModuleTree(std::move(ops), basis, options);
  if (no_ops)
    m.notes.push_back("no per-op time: the run has no optrace, QHAS or per-node profile lines");
  return m;
}

}  // namespace htpscope
