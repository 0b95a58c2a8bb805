// Cross-checks: wherever two artifacts give the same figure, both values and
// whether they agree.  A disagreement is evidence, never corrected silently.
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <fmt/format.h>

#include <cmath>
#include <span>
#include <string_view>

#include "model/join.h"

namespace htpscope {
namespace {

void AddCheck(Run& run, const char* topic, std::string name, std::string unit, std::string a_source,
              double a, std::string b_source, double b, double tolerance = 0,
              std::string note = "") {
  run.cross_checks.push_back({topic, std::move(name), std::move(unit), std::move(a_source),
                              std::move(b_source), a, b, std::fabs(a - b) <= tolerance,
                              std::move(note)});
}

// Two counters of the same execution's work cycles (the profile's, QHAS's
// per-thread sum) agree to within this share: on the real runs QHAS counts a
// few hundred cycles more (0.006 %, 0.19 % and 0.38 % on v8c8, native and
// chain8).
constexpr double kCountersTolerance = 0.005;

const PhaseRow* FindPhase(const Run& run, int32_t execution, std::string_view name) {
  for (const auto& p : run.phases)
    if (p.execution == execution && p.phase == name) return &p;
  return nullptr;
}

void QhasTimeChecks(Run& run) {
  const QhasCoreRow& core = run.qhas_cores.front();
  const RunFigures& f = run.figures;
  if (f.fine_source == Source::kOptrace && f.graph_wall_cycles) {
    AddCheck(run, "time", "graph wall cycles", "cycles", "optrace span (recomputed)",
             static_cast<double>(*f.graph_wall_cycles), "QHAS timeline_cycles",
             static_cast<double>(core.timeline_cycles));
    const std::span<const QhasResourceRow> qhas_resources = run.QhasResourcesOf(0);
    for (const auto& u : run.units)
      for (const auto& r : qhas_resources)
        if (r.tid == u.tid)
          AddCheck(run, "time", fmt::format("cycles_used tid {} ({})", u.tid, UnitKindName(u.kind)),
                   "cycles", "optrace union of slices", static_cast<double>(u.cycles_used),
                   "QHAS htp_resources", static_cast<double>(r.cycles_used));
    if (f.work_cycles) {
      int64_t qhas_work = 0;
      for (const auto& row : run.qhas_qnn_op_rows) qhas_work += row.cycles;
      AddCheck(run, "time", "work cycles", "cycles", "optrace Σ slice durations",
               static_cast<double>(*f.work_cycles), "QHAS Σ qnn_op_instances cycles",
               static_cast<double>(qhas_work));
    }
    // Per QNN op DPC: how many agree, disagreements listed.
    absl::flat_hash_map<std::string_view, int64_t> qhas_dpc;
    qhas_dpc.reserve(run.qhas_qnn_op_rows.size());
    for (const auto& row : run.qhas_qnn_op_rows)
      qhas_dpc[run.QhasStr(row.name)] = row.dominant_path_cycles;
    int agree = 0, compared = 0;
    std::vector<std::string> differing;
    for (const auto& g : run.qnn_ops) {
      auto it = qhas_dpc.find(run.Str(g.name));
      if (it == qhas_dpc.end() || !g.dpc_cycles) continue;
      ++compared;
      if (it->second == *g.dpc_cycles)
        ++agree;
      else
        differing.push_back(
            fmt::format("{}: optrace {}{} vs QHAS {}", run.Str(g.name), *g.dpc_cycles,
                        g.dpc_lower_bound() ? " (lower bound, multi-slice)" : "", it->second));
    }
    if (compared)
      AddCheck(run, "time", "QNN ops with equal DPC", "ops", "optrace (once per op ID)", agree,
               "QNN ops compared", compared, 0, fmt::format("{}", fmt::join(differing, "; ")));
  }
  if (run.figures.peak_vtcm_source == Source::kOptrace)
    AddCheck(run, "memory", "peak VTCM allocation", "bytes", "optrace max \"VTCM alloc\" counter",
             static_cast<double>(*run.figures.peak_vtcm_bytes), "QHAS peak_vtcm_alloc",
             static_cast<double>(core.peak_vtcm_alloc_bytes));
  if (!run.phases.empty()) {
    // QHAS truncates its µs to integers: agreement within one µs.
    if (const PhaseRow* dsp = FindPhase(run, run.phases.front().execution, "QNN DSP Execute"))
      AddCheck(run, "time", "execution 1 time", "us", "runtrace QNN DSP Execute", dsp->wall_us(),
               "QHAS time_us", core.time_us, 1.0);
    if (const PhaseRow* graph = FindPhase(run, run.phases.front().execution, "Graph Execute"))
      AddCheck(run, "time", "execution 1 graph execute time", "us", "runtrace Graph Execute",
               graph->wall_us(), "QHAS graph_execute_us", core.graph_execute_us, 1.0);
  }
}

void ProfileChecks(Run& run, const ProfileNodesVsQhas& nodes_vs_qhas) {
  if (run.executions.empty()) return;
  const ExecutionRow& first = run.executions.front();
  const ProfileBlockRow& block = run.profile_blocks[first.block];
  if (!run.qhas_cores.empty()) {
    // QHAS covers the first execution: its whole-graph work and graph time
    // against the profile's first execution, optrace or not.
    const QhasCoreRow& core = run.qhas_cores.front();
    if (first.accelerator_cycles && core.resources_cycles_used > 0)
      AddCheck(run, "time", "execution 1 work cycles vs QHAS", "cycles",
               "profile Accelerator (execute) time (cycles)",
               static_cast<double>(*first.accelerator_cycles), "QHAS Σ htp_resources cycles_used",
               static_cast<double>(core.resources_cycles_used),
               kCountersTolerance * static_cast<double>(core.resources_cycles_used),
               "two counters of one execution: agreement within 0.5 %");
    if (first.accelerator_excluding_wait_us && core.graph_execute_us > 0)
      AddCheck(run, "time", "execution 1 graph execute time vs QHAS", "us",
               "profile Accelerator (execute excluding wait) time",
               *first.accelerator_excluding_wait_us, "QHAS graph_execute_us", core.graph_execute_us,
               1.0);
  }
  if (first.accelerator_cycles && run.figures.fine_source == Source::kOptrace) {
    // The profile lists only some QNN ops (not e.g. SystemService_0):
    // compare with the trace's work over the same QNN op ids.
    absl::flat_hash_set<uint32_t> listed;
    for (uint32_t i = block.first_node; i < block.first_node + block.node_count; ++i)
      if (run.profile_nodes[i].op_id) listed.insert(*run.profile_nodes[i].op_id);
    int64_t trace_work = 0;
    for (const auto& op : run.op_instances)
      if (listed.empty() || listed.count(QnnOpIdOf(op.op_id))) trace_work += op.work_cycles;
    AddCheck(run, "time", "execution 1 work cycles", "cycles",
             "profile Accelerator (execute) time (cycles)",
             static_cast<double>(*first.accelerator_cycles),
             listed.empty() ? "optrace Σ slice durations"
                            : "optrace Σ slice durations of the listed QNN ops",
             static_cast<double>(trace_work));
  }
  if (nodes_vs_qhas.compared)
    AddCheck(run, "time", "execution 1 node cycles equal to QHAS", "ops",
             "profile per-node (cycles)", nodes_vs_qhas.agree, "nodes matched to QHAS",
             nodes_vs_qhas.compared, 0,
             fmt::format("{}", fmt::join(nodes_vs_qhas.differing, "; ")));
}

void MemoryChecks(Run& run) {
  const QhasCoreRow* core = run.qhas_cores.empty() ? nullptr : &run.qhas_cores.front();
  if (!core) return;
  if (run.traffic_source == Source::kQhas) {
    int64_t dram_read = 0, dram_write = 0, vtcm_read = 0, vtcm_write = 0;
    for (const auto& t : run.traffic) {
      dram_read += t.dram_read_bytes;
      dram_write += t.dram_write_bytes;
      vtcm_read += t.vtcm_read_bytes;
      vtcm_write += t.vtcm_write_bytes;
    }
    // The HTP graph's mem_* params against QHAS, node by node: against each
    // op's summed rows, as the traffic rows hold them (found through the
    // import's index of op IDs rather than a map of the traffic rows).
    size_t compared = 0, agreeing = 0;
    for (const auto& node : run.graph_nodes) {
      if (!node.dram_read_bytes || !node.dram_write_bytes || !node.vtcm_read_bytes ||
          !node.vtcm_write_bytes)
        continue;
      auto it = run.qhas_op_index.find(node.id);
      if (it == run.qhas_op_index.end()) continue;
      ++compared;
      const QhasOpTotalsRow& q = run.qhas_op_totals[it->second];
      agreeing += q.dram_read_bytes == *node.dram_read_bytes &&
                  q.dram_write_bytes == *node.dram_write_bytes &&
                  q.vtcm_read_bytes == *node.vtcm_read_bytes &&
                  q.vtcm_write_bytes == *node.vtcm_write_bytes;
    }
    if (compared)
      AddCheck(run, "memory", "per-op traffic of HTP graph nodes", "ops",
               "nodes whose mem_* equal QHAS", static_cast<double>(agreeing), "nodes compared",
               static_cast<double>(compared));
    AddCheck(run, "memory", "DRAM read", "bytes", "Σ QHAS htp_op_instances", dram_read,
             "QHAS total_dram_read", core->total_dram_read_bytes);
    AddCheck(run, "memory", "DRAM write", "bytes", "Σ QHAS htp_op_instances", dram_write,
             "QHAS total_dram_write", core->total_dram_write_bytes);
    AddCheck(run, "memory", "VTCM read", "bytes", "Σ QHAS htp_op_instances", vtcm_read,
             "QHAS total_vtcm_read", core->total_vtcm_read_bytes);
    AddCheck(run, "memory", "VTCM write", "bytes", "Σ QHAS htp_op_instances", vtcm_write,
             "QHAS total_vtcm_write", core->total_vtcm_write_bytes);
  }
}

}  // namespace

ProfileNodesVsQhas CompareProfileNodesWithQhas(const Run& run) {
  ProfileNodesVsQhas out;
  if (run.executions.empty() || !run.Has(ArtifactKind::kQhas)) return out;
  const ProfileBlockRow& block = run.profile_blocks[run.executions.front().block];
  if (!block.node_count) return out;
  // Join by QNN op id: OpId_<n> == low 32 bits of an instance ID.
  // The last row of each QNN op id names it, as the last row of each name
  // gives its cycles.
  absl::flat_hash_map<uint32_t, std::string_view> name_of_op;
  name_of_op.reserve(run.qhas_op_instances.size());
  for (const auto& i : run.qhas_op_instances)
    name_of_op[QnnOpIdOf(i.op_id)] = run.QhasStr(i.qnn_op_name);
  absl::flat_hash_map<std::string_view, int64_t> qhas_cycles;
  qhas_cycles.reserve(run.qhas_qnn_op_rows.size());
  for (const auto& row : run.qhas_qnn_op_rows) qhas_cycles[run.QhasStr(row.name)] = row.cycles;
  for (uint32_t i = block.first_node; i < block.first_node + block.node_count; ++i) {
    const ProfileNodeRow& node = run.profile_nodes[i];
    std::string_view name = node.qnn_op_name;
    if (node.op_id) {
      auto it = name_of_op.find(*node.op_id);
      if (it != name_of_op.end()) name = it->second;
    }
    auto it = qhas_cycles.find(name);
    if (it == qhas_cycles.end()) continue;
    ++out.compared;
    if (it->second == node.cycles)
      ++out.agree;
    else
      out.differing.push_back(
          fmt::format("{}: profile {} vs QHAS {}", node.label, node.cycles, it->second));
  }
  return out;
}

void BuildCrossChecks(Run& run, const ProfileNodesVsQhas& nodes_vs_qhas) {
  if (!run.qhas_cores.empty()) QhasTimeChecks(run);
  ProfileChecks(run, nodes_vs_qhas);
  BuildProfileNodeSumChecks(run);
  MemoryChecks(run);
  size_t disagreements = 0;
  for (const auto& c : run.cross_checks) disagreements += !c.agree;
  if (disagreements)
    run.warnings.push_back(
        {WarningCode::cross_check_mismatch,
         fmt::format("{} of {} cross-checks between artifacts disagree (see cross-checks)",
                     disagreements, run.cross_checks.size())});
}

}  // namespace htpscope
