#include "analysis/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <map>
#include <tuple>
#include <utility>

#include "base/number_text.h"

namespace htpscope {
namespace {

ClockSanity ChooseClock(const Run& run, const SummaryOptions& options) {
  if (options.clock_ghz) return {*options.clock_ghz, "option"};
  if (run.figures.runtrace_max_ghz) return {*run.figures.runtrace_max_ghz, "runtrace"};
  if (run.figures.qhas_clock_ghz) return {*run.figures.qhas_clock_ghz, "qhas"};
  return {kDefaultClockCeilingGhz, "default"};
}

CoarseExecution CoarseOf(const ExecutionRow& row, const ClockSanity& clock) {
  CoarseExecution e;
  e.graph = row.graph;
  e.index = row.index;
  e.cold = row.cold;
  e.graph_wall_us = row.qnn_accelerator_us;
  e.compute_busy_us = row.accelerator_us;
  e.compute_excluding_wait_us = row.accelerator_excluding_wait_us;
  e.rpc_us = row.rpc_us;
  e.qnn_execute_us = row.qnn_execute_us;
  e.work_cycles = row.accelerator_cycles;
  if (e.graph_wall_us && e.compute_busy_us) {
    e.overhead_us = *e.graph_wall_us - *e.compute_busy_us;
    if (*e.graph_wall_us > 0) e.overhead_pct = *e.overhead_us / *e.graph_wall_us * 100.0;
  }
  if (e.work_cycles && e.compute_busy_us && *e.compute_busy_us > 0) {
    e.implied_ghz = static_cast<double>(*e.work_cycles) / *e.compute_busy_us / 1000.0;
    // µs are printed truncated to integers: judge with one µs of slack so
    // rounding alone never raises the warning.
    double lowest_possible_ghz =
        static_cast<double>(*e.work_cycles) / (*e.compute_busy_us + 1.0) / 1000.0;
    e.aggregate_cycles = lowest_possible_ghz > clock.plausible_ghz;
  }
  return e;
}

void BuildCoarse(const Run& run, Summary* out) {
  for (const auto& row : run.executions) {
    if (out->graphs.empty() || out->graphs.back().graph != row.graph)
      out->graphs.push_back({row.graph, {}, std::nullopt});
    out->graphs.back().executions.push_back(CoarseOf(row, out->clock));
  }
  std::vector<std::string> aggregate;
  for (auto& g : out->graphs) {
    const std::string& name = run.graphs[g.graph].name;
    for (const auto& e : g.executions)
      if (e.aggregate_cycles)
        aggregate.push_back(fmt::format("{}execution {}: {} cycles in {} µs = {:.2f} GHz",
                                        run.graphs.size() > 1 ? name + " " : "", e.index,
                                        GroupDigits(*e.work_cycles),
                                        FormatMeasure(*e.compute_busy_us, 0), *e.implied_ghz));
    g.steady_state = ComputeSteadyState(g.executions);
    if (g.executions.size() == 1)
      out->warnings.push_back(
          {WarningCode::cold_only,
           fmt::format("the profile holds one execution{}: its figures include the cold start "
                       "(power-on, VTCM acquire, cache warm-up) and are not steady-state latency",
                       run.graphs.size() > 1 ? " of graph " + name : "")});
  }
  if (!aggregate.empty())
    out->warnings.push_back(
        {WarningCode::aggregate_cycles,
         fmt::format(
             "Accelerator (execute) time (cycles) ÷ compute-busy µs exceeds the plausible clock of "
             "{:.2f} GHz "
             "({}): the cycle figure is summed over threads (work volume), not wall time — {}",
             out->clock.plausible_ghz, out->clock.source, fmt::join(aggregate, "; "))});
}

void BuildCategories(const Run& run, Summary* out) {
  std::map<OpCategory, CategoryTotal> categories;
  for (const auto& op : run.op_instances) {
    CategoryTotal& c = categories[op.category];
    c.category = op.category;
    c.instances += 1;
    c.work_cycles += op.work_cycles;
    c.dpc_cycles += op.dpc_cycles;
  }
  for (auto& [category, total] : categories) out->categories.push_back(total);
}

}  // namespace

std::optional<double> SharePct(std::optional<int64_t> part, std::optional<int64_t> whole) {
  if (!part || !whole || *whole <= 0) return std::nullopt;
  return static_cast<double>(*part) / static_cast<double>(*whole) * 100;
}

std::optional<SteadyState> ComputeSteadyState(const std::vector<CoarseExecution>& executions) {
  if (executions.size() < 2) return std::nullopt;
  SteadyState steady;
  std::vector<double> wall, busy, overhead, work;
  for (size_t i = 1; i < executions.size(); ++i) {
    const auto& e = executions[i];
    if (e.graph_wall_us) wall.push_back(*e.graph_wall_us);
    if (e.compute_busy_us) busy.push_back(*e.compute_busy_us);
    if (e.overhead_us) overhead.push_back(*e.overhead_us);
    if (e.work_cycles) work.push_back(static_cast<double>(*e.work_cycles));
  }
  steady.first_index = executions[1].index;
  steady.last_index = executions.back().index;
  steady.graph_wall_us = ComputeStats(wall);
  steady.compute_busy_us = ComputeStats(busy);
  steady.overhead_us = ComputeStats(overhead);
  steady.work_cycles = ComputeStats(work);
  return steady;
}

std::vector<GraphCoarse> SummarizeCoarse(const Run& run, const SummaryOptions& options) {
  Summary out;
  out.clock = ChooseClock(run, options);
  BuildCoarse(run, &out);
  return std::move(out.graphs);
}

Summary Summarize(const Run& run, const SummaryOptions& options) {
  Summary out;
  out.run = &run;
  out.warnings = run.warnings;
  // The longest parts run beside the rest (or when waited for, when no
  // thread can be started); every part only reads the run.  First the
  // profile's per-op steady state and warm-up (every node of every
  // execution), from one collection of the node series, each on a thread.
  using PerOpTables = std::pair<std::vector<OpSteadyState>, std::vector<OpWarmup>>;
  std::future<PerOpTables> per_op = std::async(std::launch::async | std::launch::deferred, [&run] {
    const std::vector<GraphNodeSeries> series = CollectNodeSeriesOfGraphs(run);
    std::future<std::vector<OpWarmup>> warmup = std::async(
        std::launch::async | std::launch::deferred, [&series] { return ComputeOpWarmup(series); });
    std::vector<OpSteadyState> steady = ComputeOpSteadyState(run, series);
    return PerOpTables(std::move(steady), warmup.get());
  });
  std::future<std::optional<PathByUnit>> path_by_unit = std::async(
      std::launch::async | std::launch::deferred, [&run] { return ComputePathByUnit(run); });
  out.clock = ChooseClock(run, options);
  BuildCoarse(run, &out);
  // The module tree first: its build's transient memory then comes before
  // the other per-op tables are held, not on top of them (a run's peak).
  out.modules = ComputeRunModules(run);
  out.op_rollup = ComputeOpRollup(run);
  out.traffic = TrafficByQnnOp(run);
  if (out.traffic)  // for the read hit ratio, the ops that read the most from DRAM first
    std::stable_sort(out.traffic->ops.begin(), out.traffic->ops.end(),
                     [](const QnnOpTraffic& a, const QnnOpTraffic& b) {
                       return a.bytes.dram_read > b.bytes.dram_read;
                     });
  out.path_by_unit = path_by_unit.get();
  std::tie(out.op_steady_state, out.op_warmup) = per_op.get();
  out.first_inference = ComputeFirstInference(run);
  if (run.figures.fine_source == Source::kOptrace || run.figures.fine_source == Source::kQhas)
    BuildCategories(run, &out);
  if (run.figures.fine_source == Source::kOptrace || run.figures.fine_source == Source::kQhas) {
    const auto& f = run.figures;
    std::string which =
        f.traced_execution
            ? fmt::format("execution {}", *f.traced_execution)
            : std::string("one execution (the first, cold one, as the viewer writes it)");
    if (f.traced_execution == 1) which = "execution 1, the cold first one";
    out.warnings.push_back(
        {WarningCode::single_execution_trace,
         fmt::format(
             "the {} covers {} only: read its cycles for structure, not as steady-state latency",
             f.fine_source == Source::kQhas ? "QHAS analysis" : "optrace", which)});
  }
  return out;
}

}  // namespace htpscope
