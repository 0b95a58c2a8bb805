#include "analysis/first_inference.h"

#include <algorithm>

#include "analysis/statistics.h"
#include "base/text_util.h"

namespace htpscope {
namespace {

bool IsNetRun(const ProfilePhaseRow& row) {
  return row.source == "NetRun" && row.stage == "NetRun" && row.parent_stage.empty();
}

// The phase's figure among `rows` (one block's): NetRun's, else the
// Backend's "QNN (<phase>) time" named by `backend_name`.
std::optional<PhaseFigure> FigureOf(const std::vector<const ProfilePhaseRow*>& rows,
                                    std::string_view backend_name) {
  std::optional<PhaseFigure> backend;
  for (const ProfilePhaseRow* row : rows) {
    if (!row->value || row->unit != "us" || !row->parent_stage.empty()) continue;
    if (IsNetRun(*row)) return PhaseFigure{*row->value, row->source, row->stage};
    if (!backend && EqualsIgnoreCase(row->stage, backend_name))
      backend = PhaseFigure{*row->value, row->source, row->stage};
  }
  return backend;
}

std::optional<double> Median(std::vector<double> values) {
  std::optional<SampleStats> stats = ComputeStats(std::move(values));
  if (!stats) return std::nullopt;
  return stats->median;
}

constexpr std::string_view kPowerOn = "Time for HVX + HMX power on and acquire";
constexpr std::string_view kVtcmAcquire = "Time for initial VTCM acquire";

}  // namespace

FirstInference ComputeFirstInference(const Run& run) {
  FirstInference out;
  // The rows of each block of a phase, the first block of each
  // (application) phase taken: a text profile prints INIT twice ("Init
  // Stats" and the raw "Create From Binary Stats").
  std::vector<std::vector<const ProfilePhaseRow*>> by_block(run.profile_blocks.size());
  for (const ProfilePhaseRow& row : run.profile_phases) by_block[row.block].push_back(&row);
  auto first_block_of = [&](ProfilePhase phase) -> const std::vector<const ProfilePhaseRow*>* {
    const std::vector<const ProfilePhaseRow*>* best = nullptr;
    for (const ProfilePhaseRow& row : run.profile_phases) {
      if (row.phase != phase) continue;
      const auto& rows = by_block[row.block];
      // Prefer a block with NetRun's figure: the statistics over the raw dump.
      bool netrun = std::any_of(rows.begin(), rows.end(),
                                [](const ProfilePhaseRow* r) { return IsNetRun(*r); });
      if (!best || netrun) {
        best = &rows;
        if (netrun) break;
      }
    }
    return best;
  };
  if (auto* rows = first_block_of(ProfilePhase::kInit))
    out.init = FigureOf(*rows, "QNN (load binary) time");
  if (auto* rows = first_block_of(ProfilePhase::kCompose))
    out.compose = FigureOf(*rows, "QNN (compose graphs) time");
  if (auto* rows = first_block_of(ProfilePhase::kDeinit))
    out.deinit = FigureOf(*rows, "QNN (deinit) time");
  if (auto* rows = first_block_of(ProfilePhase::kExecuteIps))
    for (const ProfilePhaseRow* row : *rows)
      if (row->value && row->unit == "inf/sec" && row->source == "NetRun") {
        out.inferences_per_second = *row->value;
        break;
      }

  for (uint32_t g = 0; g < run.graphs.size(); ++g) {
    GraphFirstInference graph;
    graph.graph = g;
    // The graph's first finalize block (one per graph).
    for (const ProfilePhaseRow& row : run.profile_phases) {
      if (row.phase != ProfilePhase::kFinalize || row.graph != g) continue;
      const auto& rows = by_block[row.block];
      graph.finalize = FigureOf(rows, "QNN (finalize) time");
      for (const ProfilePhaseRow* r : rows)
        if (!r->parent_stage.empty() && r->value && r->unit == "us")
          graph.finalize_stages.push_back({*r->value, r->source, r->stage});
      break;
    }
    std::vector<double> power_on, vtcm;
    bool first = true;
    for (const ExecutionRow& e : run.executions) {
      if (e.graph != g) continue;
      const ProfileBlockRow* block =
          e.block < run.profile_blocks.size() ? &run.profile_blocks[e.block] : nullptr;
      auto metric_us = [&](std::string_view name) -> std::optional<double> {
        if (!block) return std::nullopt;
        const ProfileMetricRow* m = run.FindMetric(*block, name);
        if (!m || !m->value || m->unit != "us") return std::nullopt;
        return *m->value;
      };
      if (first) {
        if (e.netrun_us)
          graph.cold_execute = PhaseFigure{*e.netrun_us, "NetRun", "NetRun"};
        else if (e.qnn_execute_us)
          graph.cold_execute = PhaseFigure{*e.qnn_execute_us, "Backend", "QNN (execute) time"};
        graph.power_on_us = metric_us(kPowerOn);
        graph.vtcm_acquire_us = metric_us(kVtcmAcquire);
      } else {
        if (auto v = metric_us(kPowerOn)) power_on.push_back(*v);
        if (auto v = metric_us(kVtcmAcquire)) vtcm.push_back(*v);
      }
      first = false;
    }
    graph.steady_power_on_us = Median(std::move(power_on));
    graph.steady_vtcm_acquire_us = Median(std::move(vtcm));
    if (graph.finalize || !graph.finalize_stages.empty() || graph.cold_execute ||
        graph.power_on_us || graph.vtcm_acquire_us)
      out.graphs.push_back(std::move(graph));
  }

  // The graph executed first: by its first execution's timestamp when the
  // profile has them, else the first graph (with a cold execute figure).
  const GraphFirstInference* first_graph = nullptr;
  std::optional<uint64_t> first_time;
  for (const GraphFirstInference& graph : out.graphs) {
    if (!graph.cold_execute) continue;
    std::optional<uint64_t> time;
    for (const ExecutionRow& e : run.executions)
      if (e.graph == graph.graph) {
        time = e.timestamp_us;
        break;
      }
    if (!first_graph || (time && first_time && *time < *first_time)) {
      first_graph = &graph;
      first_time = time;
    }
  }
  if (!out.init && !first_graph) return out;
  double set_up_us = out.compose ? out.compose->us : 0;  // compose + Σ finalize
  bool any_finalize = false;
  for (const GraphFirstInference& graph : out.graphs)
    if (graph.finalize) {
      set_up_us += graph.finalize->us;
      any_finalize = true;
    }
  out.init_spans_compose_and_finalize =
      out.init && out.init->source == "NetRun" && set_up_us > 0 && out.init->us >= set_up_us;
  if (out.init_spans_compose_and_finalize && !run.profile_graph_selected)
    out.init_alone_us = out.init->us - set_up_us;
  double total = 0;
  if (out.init)
    total += out.init->us;
  else
    out.missing.push_back("init");
  if (!out.init_spans_compose_and_finalize) {
    total += set_up_us;
    if (!out.compose) out.missing.push_back("compose");
    if (!any_finalize) out.missing.push_back("finalize");
  }
  if (first_graph)
    total += first_graph->cold_execute->us;
  else
    out.missing.push_back("cold execute");
  out.total_us = total;
  return out;
}

}  // namespace htpscope
