// The profile's phase and per-op steady-state tables of the run schema
// (run_tables.h): profile_phases is the model's table as it is;
// op_steady_state is the analysis ComputeOpSteadyState (op_steady_state.h),
// computed when a reader asks for the table's row count and kept per thread
// for the cells that follow (every reader of RunTables asks for the count
// first).
#include "report/run_tables_profile.h"

#include <optional>

#include "analysis/op_steady_state.h"
#include "report/run_tables.h"

namespace htpscope {
namespace {

// The op steady state of the run last counted on this thread.
struct SteadyCache {
  const Run* run = nullptr;
  std::vector<OpSteadyState> ops;
};
thread_local SteadyCache steady_cache;

const std::vector<OpSteadyState>& SteadyOps(const Run& run, bool refresh) {
  if (refresh || steady_cache.run != &run) {
    steady_cache.ops = ComputeOpSteadyState(run);
    steady_cache.run = &run;
  }
  return steady_cache.ops;
}

using PhaseCell = std::function<void(const Run&, const ProfilePhaseRow&, CellSink&)>;
std::function<void(const Run&, size_t, CellSink&)> Phase(PhaseCell cell) {
  return [cell](const Run& r, size_t i, CellSink& s) { cell(r, r.profile_phases[i], s); };
}

using OpCell = std::function<void(const Run&, const OpSteadyState&, CellSink&)>;
std::function<void(const Run&, size_t, CellSink&)> Op(OpCell cell) {
  return [cell](const Run& r, size_t i, CellSink& s) { cell(r, SteadyOps(r, false)[i], s); };
}

}  // namespace

void AddProfileTables(std::vector<RunTable>& t) {
  t.push_back(
      {"profile_phases",
       "one row per figure of a phase of the profile (init, compose, finalize and its stages, "
       "execute, execute_ips, deinit), in clock order",
       {TextColumn("phase", "init, compose, finalize, execute, execute_ips or deinit",
                   Phase([](const Run&, const ProfilePhaseRow& p, CellSink& s) {
                     s.Text(ProfilePhaseName(p.phase));
                   })),
        IntColumn("graph_id", "its graph; null for the application's phases",
                  Phase([](const Run&, const ProfilePhaseRow& p, CellSink& s) {
                    p.graph ? s.Int(*p.graph) : s.Null();
                  })),
        TextColumn(
            "graph", "the graph as the profile labels it, \"\" when it names none",
            Phase([](const Run&, const ProfilePhaseRow& p, CellSink& s) { s.Text(p.graph_name); })),
        IntColumn("execution", "1-based within its graph, for an execution's rows; else null",
                  Phase([](const Run& r, const ProfilePhaseRow& p, CellSink& s) {
                    p.execution ? s.Int(r.executions[*p.execution].index) : s.Null();
                  })),
        TextColumn(
            "stage", "the figure: NetRun, a Backend line, or a stage",
            Phase([](const Run&, const ProfilePhaseRow& p, CellSink& s) { s.Text(p.stage); })),
        TextColumn("parent_stage", "the figure it is a sub-event of; \"\" for a root line",
                   Phase([](const Run&, const ProfilePhaseRow& p, CellSink& s) {
                     s.Text(p.parent_stage);
                   })),
        TextColumn(
            "source", "NetRun, Backend or \"\"",
            Phase([](const Run&, const ProfilePhaseRow& p, CellSink& s) { s.Text(p.source); })),
        RealColumn("value", "as printed, in `unit`; null when the line has none",
                   Phase([](const Run&, const ProfilePhaseRow& p, CellSink& s) {
                     PutOptional(s, p.value);
                   })),
        TextColumn(
            "unit", "us, cycles, count, inf/sec, ... (lower-cased)",
            Phase([](const Run&, const ProfilePhaseRow& p, CellSink& s) { s.Text(p.unit); })),
        IntColumn("timestamp_us", "its block's Msg Timestamp (CSV profiles), else null",
                  Phase([](const Run&, const ProfilePhaseRow& p, CellSink& s) {
                    p.timestamp_us ? s.Int(static_cast<int64_t>(*p.timestamp_us)) : s.Null();
                  }))},
       [](const Run& r) { return r.profile_phases.size(); }});
  std::vector<TableColumn> steady = {
      IntColumn("graph_id", "its graph",
                Op([](const Run&, const OpSteadyState& o, CellSink& s) { s.Int(o.graph); })),
      TextColumn("graph", "its graph's name",
                 Op([](const Run& r, const OpSteadyState& o, CellSink& s) {
                   s.Text(r.graphs[o.graph].name);
                 })),
      TextColumn("name", "the op as the profile names it",
                 Op([](const Run&, const OpSteadyState& o, CellSink& s) { s.Text(o.name); })),
      IntColumn("op_id", "the n of OpId_n; null when not printed",
                Op([](const Run&, const OpSteadyState& o, CellSink& s) {
                  o.op_id ? s.Int(*o.op_id) : s.Null();
                })),
      IntColumn("cold_cycles", "its cycles in the graph's first execution (0 if absent)",
                Op([](const Run&, const OpSteadyState& o, CellSink& s) { s.Int(o.cold_cycles); })),
      BoolColumn("in_cold", "the first execution lists it",
                 Op([](const Run&, const OpSteadyState& o, CellSink& s) { s.Bool(o.in_cold); }))};
  for (const SteadyStatistic& statistic : kSteadyStatistics)
    steady.push_back(
        RealColumn(statistic.name, statistic.description,
                   Op([value = statistic.value](const Run&, const OpSteadyState& o, CellSink& s) {
                     PutOptional(s, o.*value);
                   })));
  steady.push_back(IntColumn(
      "steady_executions", "executions 2..N that list it",
      Op([](const Run&, const OpSteadyState& o, CellSink& s) { s.Int(o.steady_executions); })));
  steady.push_back(
      RealColumn("steady_share_pct",
                 "steady median ÷ the steady median Accelerator (execute) time (cycles) × 100",
                 Op([](const Run&, const OpSteadyState& o, CellSink& s) {
                   o.steady_share ? s.Real(*o.steady_share * 100) : s.Null();
                 })));
  steady.push_back(TextColumn(
      "source_ops",
      "the ONNX nodes it was built from, ';'-separated (ONNX Runtime's \"ONNX Source Ops\"); "
      "null when the profile has no such column",
      Op([](const Run&, const OpSteadyState& o, CellSink& s) {
        o.source_ops ? s.Text(*o.source_ops) : s.Null();
      })));
  t.push_back({"op_steady_state",
               "one row per op of a graph from the profile's per-node cycles: cold execution and "
               "steady state (executions 2..N), per graph by steady median",
               std::move(steady), [](const Run& r) { return SteadyOps(r, true).size(); }});
}

}  // namespace htpscope
