// The `modules` table of the run's schema (report/run_tables.h): one row per
// module of the run's module tree (analysis/module_run.h, docs/modules.md).
// The tree is computed once per run and thread, then read row by row.
#include "report/run_tables_modules.h"

#include <memory>

#include "analysis/module_run.h"

namespace htpscope {
namespace {

size_t AihubLayersOf(const Run& run) { return run.aihub ? run.aihub->layers.size() : 0; }

// The module tree of `run`, computed once for consecutive reads of the same
// run on this thread (a table is read cell by cell).  A run at the same
// address with other contents (a run freed and another loaded there) is told
// apart by what the tree is computed from.
const RunModules& ModulesOf(const Run& run) {
  struct Cached {
    const Run* run = nullptr;
    std::string label;
    size_t qnn_ops = 0, profile_nodes = 0, executions = 0, aihub_layers = 0;
    std::optional<int64_t> dpc_sum;
    std::unique_ptr<RunModules> modules;
  };
  thread_local Cached cache;
  if (cache.modules && cache.run == &run && cache.label == run.label &&
      cache.qnn_ops == run.qnn_ops.size() && cache.profile_nodes == run.profile_nodes.size() &&
      cache.executions == run.executions.size() && cache.dpc_sum == run.figures.dpc_sum_cycles &&
      cache.aihub_layers == AihubLayersOf(run))
    return *cache.modules;
  // Its op names copied: the cache outlives the run it was made from.
  cache.modules = std::make_unique<RunModules>(ComputeRunModules(run, {.copy_names = true}));
  cache.run = &run;
  cache.label = run.label;
  cache.qnn_ops = run.qnn_ops.size();
  cache.profile_nodes = run.profile_nodes.size();
  cache.executions = run.executions.size();
  cache.dpc_sum = run.figures.dpc_sum_cycles;
  cache.aihub_layers = AihubLayersOf(run);
  return *cache.modules;
}

const ModuleNode& NodeOf(const Run& r, size_t i) { return ModulesOf(r).tree.nodes[i]; }

// The family block row of node `i`, or nullptr.
const ModuleBlock* BlockRowOf(const Run& r, size_t i) {
  for (const auto& f : ModulesOf(r).tree.families)
    for (const auto& b : f.blocks)
      if (b.node == i) return &b;
  return nullptr;
}

// `time` when the tree's unit is `unit`, else null.
void TimeIn(const Run& r, double time, std::string_view unit, CellSink& s) {
  if (ModuleTimeUnit(ModulesOf(r).tree.basis) == unit)
    s.Real(time);
  else
    s.Null();
}

// The node's time (µs basis) or op count on compute unit `unit` ("" for
// every unit but the NPU); null when no op of the run says where it ran.
void UnitTimeUs(const Run& r, size_t i, std::string_view unit, CellSink& s) {
  const ModuleTree& t = ModulesOf(r).tree;
  if (!t.has_compute_units() || ModuleTimeUnit(t.basis) != std::string_view("us")) return s.Null();
  const ModuleNode& n = t.nodes[i];
  if (unit.empty()) return s.Real(n.off_npu_time());
  const ModuleUnitTime* u = n.Unit(unit);
  s.Real(u ? u->time : 0.0);
}
void UnitOps(const Run& r, size_t i, std::string_view unit, CellSink& s) {
  const ModuleTree& t = ModulesOf(r).tree;
  if (!t.has_compute_units()) return s.Null();
  const ModuleNode& n = t.nodes[i];
  if (unit.empty()) return s.Int(n.off_npu_ops());
  const ModuleUnitTime* u = n.Unit(unit);
  s.Int(u ? u->ops : 0);
}

}  // namespace

RunTable ModulesTable() {
  return {
      "modules",
      "one row per module of the model (docs/modules.md): op time rolled up along the module "
      "path recovered from op names; the root first, parents before children",
      {TextColumn("path",
                  "the module path, segments joined with '/'; \"\" for the root, \"(no module)\" "
                  "for ops whose name gives none",
                  [](const Run& r, size_t i, CellSink& s) { s.Text(NodeOf(r, i).path); }),
       TextColumn("name", "its last segment (\"layers.3\")",
                  [](const Run& r, size_t i, CellSink& s) { s.Text(NodeOf(r, i).name); }),
       TextColumn("parent", "the parent's path; null for the root",
                  [](const Run& r, size_t i, CellSink& s) {
                    const ModuleNode& n = NodeOf(r, i);
                    if (n.parent < 0)
                      s.Null();
                    else
                      s.Text(ModulesOf(r).tree.nodes[n.parent].path);
                  }),
       IntColumn("depth", "0 for the root",
                 [](const Run& r, size_t i, CellSink& s) { s.Int(NodeOf(r, i).depth); }),
       RealColumn(
           "time_cycles", "Σ time of the ops at or below it when the basis is in cycles, else null",
           [](const Run& r, size_t i, CellSink& s) { TimeIn(r, NodeOf(r, i).time, "cycles", s); }),
       RealColumn(
           "time_us", "the same when the basis is in µs, else null",
           [](const Run& r, size_t i, CellSink& s) { TimeIn(r, NodeOf(r, i).time, "us", s); }),
       TextColumn("time_unit", "cycles or us: which of time_cycles / time_us is set",
                  [](const Run& r, size_t, CellSink& s) {
                    s.Text(ModuleTimeUnit(ModulesOf(r).tree.basis));
                  }),
       TextColumn("basis",
                  "what an op's time is: dpc_cycles, steady_median_cycles, execution_cycles, us or "
                  "aihub_layer_us (an AI Hub layer's execution_time)",
                  [](const Run& r, size_t, CellSink& s) {
                    s.Text(ModuleTimeBasisName(ModulesOf(r).tree.basis));
                  }),
       RealColumn("share_pct", "time ÷ the root's time × 100; null when that is 0",
                  [](const Run& r, size_t i, CellSink& s) {
                    const auto& v = NodeOf(r, i).share_pct;
                    if (v)
                      s.Real(*v);
                    else
                      s.Null();
                  }),
       IntColumn("ops", "ops at or below it",
                 [](const Run& r, size_t i, CellSink& s) { s.Int(NodeOf(r, i).ops); }),
       RealColumn("self_time_cycles",
                  "Σ time of the ops placed directly in it (cycles basis), else null",
                  [](const Run& r, size_t i, CellSink& s) {
                    TimeIn(r, NodeOf(r, i).self_time, "cycles", s);
                  }),
       RealColumn(
           "self_time_us", "the same in µs (µs basis), else null",
           [](const Run& r, size_t i, CellSink& s) { TimeIn(r, NodeOf(r, i).self_time, "us", s); }),
       IntColumn("self_ops", "ops placed directly in it",
                 [](const Run& r, size_t i, CellSink& s) { s.Int(NodeOf(r, i).self_ops); }),
       TextColumn("top_op", "its longest op (at or below it); null without ops",
                  [](const Run& r, size_t i, CellSink& s) {
                    const ModuleNode& n = NodeOf(r, i);
                    if (n.top_ops.empty())
                      s.Null();
                    else
                      s.Text(ModulesOf(r).tree.ops[n.top_ops.front().op].name);
                  }),
       RealColumn("block_to_median_ratio",
                  "a repeated block's time ÷ its family's median block; null for other modules",
                  [](const Run& r, size_t i, CellSink& s) {
                    const ModuleBlock* b = BlockRowOf(r, i);
                    if (b && b->ratio_to_median)
                      s.Real(*b->ratio_to_median);
                    else
                      s.Null();
                  }),
       TextColumn("block_finding", "slow or fast when the repeated-block rule names it, else null",
                  [](const Run& r, size_t i, CellSink& s) {
                    const ModuleBlock* b = BlockRowOf(r, i);
                    if (b && !b->finding.empty())
                      s.Text(b->finding);
                    else
                      s.Null();
                  }),
       RealColumn("npu_time_us",
                  "Σ µs of its ops that ran on the NPU, when the input says where each op ran (an "
                  "AI Hub profile's compute units); else null",
                  [](const Run& r, size_t i, CellSink& s) { UnitTimeUs(r, i, "NPU", s); }),
       RealColumn("gpu_time_us", "the same on the GPU",
                  [](const Run& r, size_t i, CellSink& s) { UnitTimeUs(r, i, "GPU", s); }),
       RealColumn("cpu_time_us", "the same on the CPU",
                  [](const Run& r, size_t i, CellSink& s) { UnitTimeUs(r, i, "CPU", s); }),
       RealColumn("off_npu_time_us",
                  "the same on every unit but the NPU (GPU, CPU, unspecified): the time that left "
                  "the NPU",
                  [](const Run& r, size_t i, CellSink& s) { UnitTimeUs(r, i, "", s); }),
       IntColumn("npu_ops",
                 "its ops (AI Hub layers) that ran on the NPU, when the input says; else null",
                 [](const Run& r, size_t i, CellSink& s) { UnitOps(r, i, "NPU", s); }),
       IntColumn("gpu_ops", "the same on the GPU",
                 [](const Run& r, size_t i, CellSink& s) { UnitOps(r, i, "GPU", s); }),
       IntColumn("cpu_ops", "the same on the CPU",
                 [](const Run& r, size_t i, CellSink& s) { UnitOps(r, i, "CPU", s); }),
       IntColumn("off_npu_ops", "the same on every unit but the NPU",
                 [](const Run& r, size_t i, CellSink& s) { UnitOps(r, i, "", s); })},
      [](const Run& r) -> size_t {
        const RunModules& m = ModulesOf(r);
        return m.available() ? m.tree.nodes.size() : 0;
      }};
}

}  // namespace htpscope
