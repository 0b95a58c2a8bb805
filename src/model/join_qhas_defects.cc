// QHAS's staging marks (fmt_change, ref_op) joined onto the op instances,
// and QHAS's known defects: resource type "UNK" (seen when two HMX tiles
// share a thread id) and traffic counters reported as 0 on every row.  Each
// defect is a warning with a stable code, and the run keeps the figures the
// other artifacts give (docs/metrics.md, "QHAS defects").
#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

#include <span>
#include <string_view>
#include <unordered_map>

#include "model/join.h"

namespace htpscope {
namespace {

// The unit an optrace thread name gives ("Type: HMX", "Core:0 Type: HVX
// Tid: 512"), or kUnknown.
UnitKind UnitKindOfThreadName(std::string_view name) {
  if (name.find("HMX") != std::string_view::npos) return UnitKind::kHmx;
  if (name.find("HVX") != std::string_view::npos) return UnitKind::kHvx;
  return UnitKind::kUnknown;
}

const ThreadNameRow* FindThreadName(const Run& run, uint32_t tid) {
  for (const auto& t : run.thread_names)
    if (t.tid == tid) return &t;
  return nullptr;
}

}  // namespace

void MarkQhasStaging(Run& run) {
  // Instances read from QHAS itself carry their own rows' marks (one per
  // core when cores share an op ID); the optrace's get them here, the first
  // instance of each op ID all of its rows' marks.  Few rows mark anything
  // (none to a sixth of them): those are indexed, and the instances walked
  // once against them, rather than an index of every instance built.
  struct Marks {
    bool format_change = false, reference_op = false;
    bool given = false;  // to the first optrace instance of the op ID
  };
  absl::flat_hash_map<uint64_t, Marks> marks;
  for (const auto& row : run.qhas_op_instances) {
    if (!row.format_change && !row.reference_op) continue;
    Marks& m = marks[row.op_id];
    m.format_change = m.format_change || row.format_change;
    m.reference_op = m.reference_op || row.reference_op;
  }
  if (marks.empty()) return;
  for (auto& op : run.op_instances) {
    if (op.source != Source::kOptrace) continue;
    auto it = marks.find(op.op_id);
    if (it == marks.end() || it->second.given) continue;
    it->second.given = true;
    op.format_change = op.format_change || it->second.format_change;
    op.reference_op = op.reference_op || it->second.reference_op;
  }
}

void CheckQhasUnitTypes(Run& run) {
  for (size_t core = 0; core < run.qhas_cores.size(); ++core) {
    const std::span<const QhasResourceRow> resources = run.QhasResourcesOf(core);
    std::vector<std::string> fixed;
    std::unordered_map<uint32_t, int> rows_of_tid;
    for (const auto& r : resources) ++rows_of_tid[r.tid];
    for (const auto& r : resources) {
      const std::string_view type = run.QhasStr(r.type);
      if (type == "HMX" || type == "HVX") continue;
      // The optrace's own name for the thread first, else the tid convention
      // (256 main/HMX thread, 512 and up HVX threads).
      UnitKind kind = UnitKindOfTid(r.tid);
      std::string basis = r.tid == 256             ? "tid 256 is the main/HMX thread"
                          : kind == UnitKind::kHvx ? "tids from 512 are HVX threads"
                                                   : "no known thread has this tid";
      if (const ThreadNameRow* name = FindThreadName(run, r.tid);
          name && UnitKindOfThreadName(name->name) != UnitKind::kUnknown) {
        kind = UnitKindOfThreadName(name->name);
        basis = fmt::format("the optrace names the thread \"{}\"", name->name);
      }
      if (core == 0)
        for (auto& u : run.units)
          if (u.tid == r.tid && kind != UnitKind::kUnknown) u.kind = kind;
      fixed.push_back(fmt::format(
          "tid {} type \"{}\" taken as {} ({}){}", r.tid, type, UnitKindName(kind), basis,
          rows_of_tid[r.tid] > 1 ? fmt::format("; {} rows share this tid", rows_of_tid[r.tid])
                                 : ""));
    }
    if (!fixed.empty())
      run.warnings.push_back(
          {WarningCode::qhas_unit_type_unknown,
           fmt::format("{}: htp_resources of core {} name no unit for {} thread{} (a known QHAS "
                       "defect, seen when two HMX tiles share a thread id): {}",
                       run.PathOf(ArtifactKind::kQhas), run.qhas_cores[core].core, fixed.size(),
                       fixed.size() == 1 ? "" : "s", fmt::join(fixed, "; "))});
  }
}

bool QhasTrafficAllZero(const Run& run) {
  if (run.qhas_op_instances.empty()) return false;
  for (const auto& i : run.qhas_op_instances)
    if (i.dram_read_bytes || i.dram_write_bytes || i.vtcm_read_bytes || i.vtcm_write_bytes)
      return false;
  return true;
}

}  // namespace htpscope

namespace htpscope {

void NoteQhasCores(Run& run) {
  if (run.qhas_cores.size() < 2) return;
  run.warnings.push_back(
      {WarningCode::multi_core_qhas,
       fmt::format("QHAS describes {} HTP cores: the per-core figures (timeline, dominant path, "
                   "utilisation) are listed core by core; the fine view's graph wall, units and "
                   "dominant-path split are {}, and its op tables list the ops of every core",
                   run.qhas_cores.size(),
                   run.Has(ArtifactKind::kOptrace)
                       ? std::string("the optrace's")
                       : fmt::format("core {}'s", run.qhas_cores.front().core))});
}

}  // namespace htpscope
