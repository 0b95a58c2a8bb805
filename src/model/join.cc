#include "model/join.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <map>
#include <span>

#include "base/checked_math.h"
#include "base/errors.h"
#include "base/intervals.h"
#include "base/warning_sink.h"
#include "model/artifact_registry.h"
#include "model/import.h"

namespace htpscope {

void ChooseInstanceDpc(Run& run) {
  if (!run.Has(ArtifactKind::kOptrace)) return;  // QHAS instances carry QHAS's own sums
  bool need_path = false;
  const bool qhas_whole = !run.qhas_cores.empty() && run.qhas_cores.front().lists_complete;
  size_t multi_slice = 0, from_qhas = 0;
  for (auto& op : run.op_instances) {
    if (op.slice_count <= 1) continue;
    ++multi_slice;
    auto it = run.qhas_op_index.find(op.op_id);
    if (qhas_whole && it != run.qhas_op_index.end()) {
      op.dpc_cycles = run.qhas_op_totals[it->second].dominant_path_cycles;
      op.dpc_basis = DpcBasis::kQhas;
      ++from_qhas;
    } else {
      need_path = true;
    }
  }
  if (multi_slice)
    run.warnings.push_back(
        {WarningCode::multi_slice_dpc,
         fmt::format("{} op instances ran as several slices on different threads, and the optrace "
                     "repeats one slice's Dominant Path Cycles on each: their DPC is each slice's "
                     "share of the dominant path, summed ({} from QHAS, {} from the path "
                     "reconstructed from the optrace)",
                     multi_slice, from_qhas, multi_slice - from_qhas)});
  if (!need_path) return;
  // Multi-slice ops QHAS cannot give: each slice's share of the dominant
  // path reconstructed at import, summed per op.
  for (auto& op : run.op_instances) {
    if (op.slice_count <= 1 || op.dpc_basis == DpcBasis::kQhas) continue;
    int64_t sum = 0;
    for (uint32_t s = op.first_slice; s < op.first_slice + op.slice_count; ++s)
      sum += run.slice_dominant_cycles[s];
    op.dpc_cycles = sum;
    op.dpc_basis = DpcBasis::kReconstructed;
  }
}

void BuildUnits(Run& run) {
  const std::span<const QhasResourceRow> qhas_resources = run.QhasResourcesOf(0);
  if (run.Has(ArtifactKind::kOptrace)) {
    // A unit per hardware thread: a handful, found by a short scan from the
    // last slice's (consecutive slices often share a thread).
    struct ThreadUnit {
      UnitRow unit;
      std::vector<std::pair<int64_t, int64_t>> busy;  // [start, end) of each slice
    };
    std::vector<ThreadUnit> threads;
    size_t at = 0;
    for (const auto& s : run.slices) {
      if (at == threads.size() || threads[at].unit.tid != s.tid) {
        at = 0;
        while (at < threads.size() && threads[at].unit.tid != s.tid) ++at;
        if (at == threads.size()) {
          UnitRow& u = threads.emplace_back().unit;
          u.tid = s.tid;
          u.kind = UnitKindOfTid(s.tid);
          u.first_start_cycle = s.start_cycle;
          u.last_end_cycle = s.end_cycle();
          u.source = Source::kOptrace;
        }
      }
      ThreadUnit& t = threads[at];
      t.busy.emplace_back(s.start_cycle, s.end_cycle());
      UnitRow& u = t.unit;
      u.busy_cycles += s.dur_cycles;
      u.first_start_cycle = std::min(u.first_start_cycle, s.start_cycle);
      u.last_end_cycle = std::max(u.last_end_cycle, s.end_cycle());
      ++u.slices;
    }
    std::sort(threads.begin(), threads.end(),
              [](const ThreadUnit& a, const ThreadUnit& b) { return a.unit.tid < b.unit.tid; });
    for (auto& t : threads) {
      t.unit.cycles_used = UnionLength(t.busy);
      run.units.push_back(t.unit);
    }
  } else {
    for (const auto& r : qhas_resources) {
      UnitRow u;
      u.tid = r.tid;
      u.kind = UnitKindOfTid(r.tid);
      u.cycles_used = r.cycles_used;
      u.busy_cycles = r.cycles_used;
      u.first_start_cycle = r.start_cycle;
      u.last_end_cycle = r.end_cycle;
      u.source = Source::kQhas;
      for (const auto& s : run.slices) u.slices += s.tid == r.tid;
      run.units.push_back(u);
    }
    std::sort(run.units.begin(), run.units.end(),
              [](const UnitRow& a, const UnitRow& b) { return a.tid < b.tid; });
  }
  for (auto& u : run.units)
    for (const auto& r : qhas_resources)
      if (r.tid == u.tid) u.qhas_type = run.QhasStr(r.type);
}

void BuildFigures(Run& run) {
  RunFigures& f = run.figures;
  const std::string& trace_path = run.PathOf(ArtifactKind::kOptrace);
  const QhasCoreRow* core = run.qhas_cores.empty() ? nullptr : &run.qhas_cores.front();
  if (run.Has(ArtifactKind::kOptrace)) {
    f.fine_source = Source::kOptrace;
  } else if (core) {
    f.fine_source = Source::kQhas;
  } else if (!run.executions.empty() &&
             run.profile_blocks[run.executions.front().block].node_count) {
    f.fine_source = Source::kProfile;
  }
  if (f.fine_source == Source::kOptrace && !run.slices.empty()) {
    int64_t start = INT64_MAX, end = INT64_MIN;
    for (const auto& s : run.slices) {
      start = std::min(start, s.start_cycle);
      end = std::max(end, s.end_cycle());
    }
    f.start_cycle = start;
    f.end_cycle = end;
    f.graph_wall_cycles = CheckedSub(end, start);
    if (!f.graph_wall_cycles)
      throw InputError(trace_path, "the executed slices span more than 2^63 cycles");
    f.graph_wall_source = Source::kOptrace;
    f.work_cycles = model_import::RequireSumFits(
        run.slices, [](const SliceRow& s) { return s.dur_cycles; }, trace_path,
        "the slice durations");
    f.work_source = Source::kOptrace;
  } else if (f.fine_source == Source::kQhas) {
    f.graph_wall_cycles = core->timeline_cycles;
    f.graph_wall_source = Source::kQhas;
    // Σ htp_resources cycles_used: the whole graph's work even when the op
    // lists cover only some ops.
    f.work_cycles = core->resources_cycles_used;
    f.work_source = Source::kQhas;
  }
  if (f.fine_source == Source::kOptrace || f.fine_source == Source::kQhas) {
    for (const auto& u : run.units)
      if (!f.domain_cycles || u.cycles_used > *f.domain_cycles) {
        f.domain_cycles = u.cycles_used;
        f.domain_tid = u.tid;
      }
    const bool instances_whole = f.fine_source == Source::kOptrace || core->lists_complete;
    if (instances_whole && !run.op_instances.empty()) {
      f.op_instances = static_cast<int64_t>(run.op_instances.size());
      f.dpc_sum_cycles = model_import::RequireSumFits(
          run.op_instances, [](const OpInstanceRow& op) { return op.dpc_cycles; },
          run.artifacts.front().path, "the dominant-path cycles");
      f.dpc_basis = DpcBasis::kOptrace;
      for (const auto& op : run.op_instances)
        if (op.dpc_basis == DpcBasis::kLowerBound)
          f.dpc_basis = DpcBasis::kLowerBound;
        else if (f.dpc_basis != DpcBasis::kLowerBound && op.dpc_basis != DpcBasis::kOptrace)
          f.dpc_basis = op.dpc_basis;
    } else if (core && core->timeline_cycles > 0) {
      // The op lists are partial: the path's length from the whole-graph row.
      f.dpc_sum_cycles = std::llround(static_cast<double>(core->timeline_cycles) *
                                      (1.0 - core->percent_idle / 100.0));
      f.dpc_basis = DpcBasis::kQhas;
    }
    // With several QHAS cores the wall is core 0's but the ops are every core's.
    const bool one_core = f.fine_source == Source::kOptrace || run.qhas_cores.size() <= 1;
    if (one_core && f.dpc_sum_cycles && f.graph_wall_cycles && f.dpc_basis != DpcBasis::kLowerBound)
      f.idle_cycles = *f.graph_wall_cycles - *f.dpc_sum_cycles;
  }
  for (const auto& track : run.counters) {
    if (track.name != "VTCM alloc") continue;
    for (const auto& sample : track.samples)
      if (!f.peak_vtcm_bytes || sample.value > *f.peak_vtcm_bytes) {
        f.peak_vtcm_bytes = sample.value;
        f.peak_vtcm_cycle = sample.ts_cycles;
        f.peak_vtcm_source = Source::kOptrace;
      }
  }
  if (!f.peak_vtcm_bytes && core) {
    f.peak_vtcm_bytes = core->peak_vtcm_alloc_bytes;
    f.peak_vtcm_source = Source::kQhas;
  }
  if (core && core->graph_execute_us > 0 && core->timeline_cycles > 0)
    f.qhas_clock_ghz = static_cast<double>(core->timeline_cycles) / core->graph_execute_us / 1000.0;
  for (const auto& p : run.phases)
    if (auto ghz = p.effective_ghz(); ghz && *ghz > 0)
      f.runtrace_max_ghz = std::max(f.runtrace_max_ghz.value_or(0), *ghz);
}

void BuildMissing(Run& run) {
  for (const model_import::RunDataSpec& spec : model_import::RunDataSpecs())
    if (spec.missing_name && !run.Gives(spec.data))
      run.missing.push_back({spec.missing_name, spec.withholds(run)});
}

// At most kMaxWarningsShown warnings of each code, then one "N more warnings
// not shown" of that code: a damaged file cannot bury the others' warnings.
void CapWarnings(std::vector<WarningRow>& warnings) {
  std::map<WarningCode, size_t> shown;
  std::map<std::string_view, std::pair<WarningCode, size_t>> dropped;  // in the order of names
  std::vector<WarningRow> kept;
  for (auto& w : warnings) {
    if (shown[w.code] < kMaxWarningsShown) {
      ++shown[w.code];
      kept.push_back(std::move(w));
    } else {
      auto& [code, n] = dropped[WarningName(w.code)];
      code = w.code;
      ++n;
    }
  }
  for (const auto& [name, d] : dropped) kept.push_back({d.first, MoreWarningsNotShown(d.second)});
  warnings = std::move(kept);
}

void JoinRun(Run& run, const LoadOptions& options) {
  if (!options.graph.empty()) SelectGraph(run, options.graph);
  BuildProfilePhases(run);
  // It reads only the profile's tables, which the steps before the
  // cross-checks leave alone: on another core meanwhile.  Its destructor
  // waits for it when a step throws.
  std::future<ProfileNodesVsQhas> nodes_vs_qhas =
      std::async(std::launch::async | std::launch::deferred,
                 [&run] { return CompareProfileNodesWithQhas(run); });
  CheckArtifactsBelongTogether(run, options);
  if (!run.qhas_cores.empty() && !run.qhas_cores.front().lists_complete) {
    const QhasCoreRow& c = run.qhas_cores.front();
    run.warnings.push_back(
        {WarningCode::partial_qhas,
         fmt::format("{}: its op lists cover {} of {} QNN nodes and {} of {} HTP op rows; "
                     "whole-graph figures come from htp_overall_summary (work = Σ htp_resources "
                     "cycles_used, dominant path = timeline_cycles × (1 − percent_idle)), per-op "
                     "tables list only what the file holds",
                     run.PathOf(ArtifactKind::kQhas), c.listed_qnn_nodes, c.qnn_nodes,
                     c.listed_htp_nodes, c.htp_nodes)});
  }
  if (run.Has(ArtifactKind::kOptrace) && run.slices.empty())
    run.warnings.push_back(
        {WarningCode::empty_trace, "the optrace has no executed op events: no fine view"});
  ChooseInstanceDpc(run);
  BuildUnits(run);
  MarkQhasStaging(run);
  CheckQhasUnitTypes(run);
  NoteQhasCores(run);
  BuildFigures(run);
  BuildOpGroups(run);
  BuildTraffic(run);
  BuildCrossChecks(run, nodes_vs_qhas.get());
  BuildMissing(run);
  CapWarnings(run.warnings);
}

}  // namespace htpscope
