#include "report/run_tables.h"

#include <fmt/format.h>

#include <optional>

#include "model/figures.h"
#include "report/device_profile_tables.h"
#include "report/run_tables_modules.h"
#include "report/run_tables_profile.h"

namespace htpscope {

TableColumn IntColumn(std::string name, std::string description, TableCell cell) {
  return {std::move(name), ColumnType::kInt64, std::move(description), std::move(cell)};
}
TableColumn RealColumn(std::string name, std::string description, TableCell cell) {
  return {std::move(name), ColumnType::kDouble, std::move(description), std::move(cell)};
}
TableColumn TextColumn(std::string name, std::string description, TableCell cell) {
  return {std::move(name), ColumnType::kText, std::move(description), std::move(cell)};
}
TableColumn BoolColumn(std::string name, std::string description, TableCell cell) {
  return {std::move(name), ColumnType::kBool, std::move(description), std::move(cell)};
}
void PutOptional(CellSink& s, const std::optional<int64_t>& v) { v ? s.Int(*v) : s.Null(); }
void PutOptional(CellSink& s, const std::optional<uint32_t>& v) { v ? s.Int(*v) : s.Null(); }
void PutOptional(CellSink& s, const std::optional<int32_t>& v) { v ? s.Int(*v) : s.Null(); }
void PutOptional(CellSink& s, const std::optional<double>& v) { v ? s.Real(*v) : s.Null(); }

namespace {

// op IDs are unsigned 64-bit; SQLite and NumPy int64 hold their bits.
int64_t IdBits(uint64_t id) { return static_cast<int64_t>(id); }

const OpInstanceRow& InstanceOf(const Run& r, size_t slice) {
  return r.op_instances[r.slices[slice].instance];
}

std::vector<TableColumn> GroupColumns(const std::vector<OpGroupRow> Run::*table, bool qnn) {
  std::vector<TableColumn> c = {
      TextColumn(
          "name", qnn ? "QNN op name" : "HTP op type",
          [table](const Run& r, size_t i, CellSink& s) { s.Text(r.Str((r.*table)[i].name)); }),
  };
  if (qnn)
    c.push_back(TextColumn("type", "QNN op type", [table](const Run& r, size_t i, CellSink& s) {
      s.Text(r.Str((r.*table)[i].type));
    }));
  std::vector<TableColumn> rest = {
      TextColumn("category", "compute, system_service or boundary (docs/metrics.md)",
                 [table](const Run& r, size_t i, CellSink& s) {
                   s.Text(OpCategoryName((r.*table)[i].category));
                 }),
      IntColumn("dpc_cycles", "Σ dominant-path cycles of its instances; null without a source",
                [table](const Run& r, size_t i, CellSink& s) {
                  PutOptional(s, (r.*table)[i].dpc_cycles);
                }),
      TextColumn("dpc_basis", "where its DPC comes from: optrace, qhas, reconstructed, lower_bound",
                 [table](const Run& r, size_t i, CellSink& s) {
                   s.Text(DpcBasisName((r.*table)[i].dpc_basis));
                 }),
      IntColumn(ItemFigureName(ItemFigure::kWorkCycles), "Σ slice durations: thread-aggregate work",
                [table](const Run& r, size_t i, CellSink& s) { s.Int((r.*table)[i].work_cycles); }),
      IntColumn("instances", "op instances (op IDs, i.e. tiles)",
                [table](const Run& r, size_t i, CellSink& s) { s.Int((r.*table)[i].instances); }),
      TextColumn("source", "optrace, qhas or profile",
                 [table](const Run& r, size_t i, CellSink& s) {
                   s.Text(SourceName((r.*table)[i].source));
                 }),
  };
  c.insert(c.end(), rest.begin(), rest.end());
  return c;
}

std::vector<RunTable> MakeTables() {
  std::vector<RunTable> t;
  t.push_back(
      {"runs",
       "one row per run: its label and the traced execution's whole-graph figures",
       {TextColumn("label", "the run directory or first file, as given",
                   [](const Run& r, size_t, CellSink& s) { s.Text(r.label); }),
        TextColumn(
            "fine_source", "where the op tables come from: optrace, qhas, profile or none",
            [](const Run& r, size_t, CellSink& s) { s.Text(SourceName(r.figures.fine_source)); }),
        IntColumn(
            FigureName(Figure::kGraphWallCycles),
            "span of the executed ops (else QHAS timeline_cycles)",
            [](const Run& r, size_t, CellSink& s) { PutOptional(s, r.figures.graph_wall_cycles); }),
        IntColumn("start_cycle", "absolute cycle of the first executed slice",
                  [](const Run& r, size_t, CellSink& s) { PutOptional(s, r.figures.start_cycle); }),
        IntColumn("end_cycle", "absolute cycle of the last slice's end",
                  [](const Run& r, size_t, CellSink& s) { PutOptional(s, r.figures.end_cycle); }),
        // The traced execution's work: the figure traced_work_cycles.
        IntColumn(FigureName(Figure::kWorkCycles), "Σ slice durations: thread-aggregate work",
                  [](const Run& r, size_t, CellSink& s) { PutOptional(s, r.figures.work_cycles); }),
        IntColumn(
            FigureName(Figure::kDomainCycles), "the busiest hardware thread's cycles_used",
            [](const Run& r, size_t, CellSink& s) { PutOptional(s, r.figures.domain_cycles); }),
        IntColumn("domain_tid", "that thread",
                  [](const Run& r, size_t, CellSink& s) { PutOptional(s, r.figures.domain_tid); }),
        IntColumn(
            FigureName(Figure::kDpcSumCycles), "Σ dominant-path cycles: the dominant path's length",
            [](const Run& r, size_t, CellSink& s) { PutOptional(s, r.figures.dpc_sum_cycles); }),
        IntColumn("idle_cycles", "graph wall − Σ DPC",
                  [](const Run& r, size_t, CellSink& s) { PutOptional(s, r.figures.idle_cycles); }),
        IntColumn(
            FigureName(Figure::kOpInstances), "executed HTP op instances (op IDs)",
            [](const Run& r, size_t, CellSink& s) { PutOptional(s, r.figures.op_instances); }),
        IntColumn(
            FigureName(Figure::kPeakVtcmBytes), "peak VTCM allocation",
            [](const Run& r, size_t, CellSink& s) { PutOptional(s, r.figures.peak_vtcm_bytes); }),
        IntColumn(
            "peak_vtcm_cycle", "absolute cycle of the first sample at the peak",
            [](const Run& r, size_t, CellSink& s) { PutOptional(s, r.figures.peak_vtcm_cycle); }),
        IntColumn(
            "traced_execution", "the runtrace execution whose Graph Execute window holds the trace",
            [](const Run& r, size_t, CellSink& s) { PutOptional(s, r.figures.traced_execution); })},
       [](const Run&) -> size_t { return 1; }});
  t.push_back(
      {"artifacts",
       "one row per file read",
       {TextColumn("path", "as given or found",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(r.artifacts[i].path); }),
        TextColumn("kind", "what its content is",
                   [](const Run& r, size_t i, CellSink& s) {
                     s.Text(ArtifactKindName(r.artifacts[i].type));
                   }),
        TextColumn("version", "the header's or viewer's version, \"\" when unknown",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(r.artifacts[i].version); }),
        TextColumn("application_version", "a profile's runner (qnn-net-run) version, or \"\"",
                   [](const Run& r, size_t i, CellSink& s) {
                     s.Text(r.artifacts[i].application_version);
                   }),
        TextColumn(
            "backend_version", "a profile's backend version, or \"\"",
            [](const Run& r, size_t i, CellSink& s) { s.Text(r.artifacts[i].backend_version); })},
       [](const Run& r) { return r.artifacts.size(); }});
  t.push_back(
      {"graphs",
       "one row per graph of the profile",
       {IntColumn("graph_id", "0-based, in file order",
                  [](const Run&, size_t i, CellSink& s) { s.Int(static_cast<int64_t>(i)); }),
        TextColumn("name", "as the profile names it",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(r.graphs[i].name); }),
        IntColumn("executions", "its executions in the profile",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.graphs[i].executions); })},
       [](const Run& r) { return r.graphs.size(); }});
  auto exec_us = [](std::optional<double> ExecutionRow::*field) -> TableCell {
    return [field](const Run& r, size_t i, CellSink& s) { PutOptional(s, r.executions[i].*field); };
  };
  auto exec_int = [](std::optional<int64_t> ExecutionRow::*field) -> TableCell {
    return [field](const Run& r, size_t i, CellSink& s) { PutOptional(s, r.executions[i].*field); };
  };
  t.push_back(
      {"executions",
       "one row per execution of a graph, µs as the profile viewer printed them",
       {IntColumn("graph_id", "its graph",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.executions[i].graph); }),
        TextColumn("graph", "its graph's name",
                   [](const Run& r, size_t i, CellSink& s) {
                     s.Text(r.graphs[r.executions[i].graph].name);
                   }),
        IntColumn("execution", "1-based within its graph",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.executions[i].index); }),
        BoolColumn("cold", "the graph's first execution",
                   [](const Run& r, size_t i, CellSink& s) { s.Bool(r.executions[i].cold); }),
        RealColumn("qnn_accelerator_us", "graph wall: QNN accelerator (execute) time",
                   exec_us(&ExecutionRow::qnn_accelerator_us)),
        RealColumn("accelerator_us", "compute-busy: Accelerator (execute) time",
                   exec_us(&ExecutionRow::accelerator_us)),
        RealColumn("accelerator_excluding_wait_us", "Accelerator (execute excluding wait) time",
                   exec_us(&ExecutionRow::accelerator_excluding_wait_us)),
        RealColumn("rpc_us", "RPC (execute) time", exec_us(&ExecutionRow::rpc_us)),
        RealColumn("qnn_execute_us", "QNN (execute) time", exec_us(&ExecutionRow::qnn_execute_us)),
        RealColumn("netrun_us", "NetRun", exec_us(&ExecutionRow::netrun_us)),
        IntColumn("accelerator_cycles",
                  "Accelerator (execute) time (cycles): thread-aggregate work",
                  exec_int(&ExecutionRow::accelerator_cycles)),
        IntColumn("critical_path_cycles", "Accelerator (critical path execute) time (cycles)",
                  exec_int(&ExecutionRow::critical_path_cycles)),
        IntColumn("hvx_threads", "Number of HVX threads used",
                  exec_int(&ExecutionRow::hvx_threads)),
        IntColumn("timestamp_us", "the profiling clock when it started (CSV profiles)",
                  [](const Run& r, size_t i, CellSink& s) {
                    auto ts = r.executions[i].timestamp_us;
                    ts ? s.Int(static_cast<int64_t>(*ts)) : s.Null();
                  })},
       [](const Run& r) { return r.executions.size(); }});
  t.push_back({"ops", "one row per QNN op of the traced execution, by DPC descending",
               GroupColumns(&Run::qnn_ops, true), [](const Run& r) { return r.qnn_ops.size(); }});
  t.push_back({"htp_op_types", "one row per HTP op type, by DPC descending",
               GroupColumns(&Run::htp_op_types, false),
               [](const Run& r) { return r.htp_op_types.size(); }});
  auto inst = [](auto get) -> TableCell {
    return [get](const Run& r, size_t i, CellSink& s) { get(r, r.op_instances[i], s); };
  };
  t.push_back(
      {"op_instances",
       "one row per executed HTP op instance (op ID), by first start",
       {IntColumn(
            "op_id", "the 64-bit op ID (as signed 64-bit bits)",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) { s.Int(IdBits(o.op_id)); })),
        TextColumn("op_id_hex", "the op ID as the optrace writes it",
                   inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
                     s.Text(OpIdHex(o.op_id));
                   })),
        TextColumn("qnn_op_name", "the QNN op it belongs to",
                   inst([](const Run& r, const OpInstanceRow& o, CellSink& s) {
                     s.Text(r.Str(o.qnn_op_name));
                   })),
        TextColumn("qnn_op_type", "its QNN op's type",
                   inst([](const Run& r, const OpInstanceRow& o, CellSink& s) {
                     s.Text(r.Str(o.qnn_op_type));
                   })),
        TextColumn("htp_op_type", "the HTP op type the compiler chose",
                   inst([](const Run& r, const OpInstanceRow& o, CellSink& s) {
                     s.Text(r.Str(o.htp_op_type));
                   })),
        TextColumn("category", "compute, system_service or boundary",
                   inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
                     s.Text(OpCategoryName(o.category));
                   })),
        TextColumn("flags", "its flags, comma-separated",
                   inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
                     s.Text(OpFlagNames(o.flags));
                   })),
        IntColumn(
            "dpc_cycles", "its dominant-path cycles",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) { s.Int(o.dpc_cycles); })),
        TextColumn("dpc_basis", "optrace, qhas, reconstructed or lower_bound",
                   inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
                     s.Text(DpcBasisName(o.dpc_basis));
                   })),
        IntColumn(
            ItemFigureName(ItemFigure::kWorkCycles), "Σ its slices' durations",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) { s.Int(o.work_cycles); })),
        IntColumn("first_start_cycle", "earliest slice start (absolute)",
                  inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
                    s.Int(o.first_start_cycle);
                  })),
        IntColumn(
            "last_end_cycle", "latest slice end (absolute)",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) { s.Int(o.last_end_cycle); })),
        IntColumn("duration_cycles", "the optrace's op-level Duration (cycles)",
                  inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
                    s.Int(o.op_duration_cycles);
                  })),
        IntColumn(
            "slices", "slices it ran as (threads it was split across)",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) { s.Int(o.slice_count); })),
        RealColumn("cycles_per_packet", "VLIW packet efficiency (lower is better)",
                   inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
                     s.Real(o.cycles_per_packet);
                   })),
        TextColumn("source", "optrace or qhas",
                   inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
                     s.Text(SourceName(o.source));
                   })),
        BoolColumn(
            "format_change", "QHAS fmt_change of any of its rows (false without QHAS)",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) { s.Bool(o.format_change); })),
        BoolColumn(
            "reference_op", "QHAS ref_op of any of its rows (false without QHAS)",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) { s.Bool(o.reference_op); })),
        IntColumn("htp_core", "the HTP core that ran it (QHAS htp); null from the optrace",
                  inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
                    o.htp_core >= 0 ? s.Int(o.htp_core) : s.Null();
                  }))},
       [](const Run& r) { return r.op_instances.size(); }});
  t.push_back(
      {"slices",
       "one row per executed slice of an op on a hardware thread (de-duplicated)",
       {IntColumn("op_id", "its op ID (as signed 64-bit bits)",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(IdBits(r.slices[i].op_id)); }),
        TextColumn("qnn_op_name", "its QNN op",
                   [](const Run& r, size_t i, CellSink& s) {
                     s.Text(r.Str(InstanceOf(r, i).qnn_op_name));
                   }),
        TextColumn("htp_op_type", "its HTP op type",
                   [](const Run& r, size_t i, CellSink& s) {
                     s.Text(r.Str(InstanceOf(r, i).htp_op_type));
                   }),
        IntColumn("tid", "the hardware thread: 256 HMX, 512.. HVX",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.slices[i].tid); }),
        IntColumn("start_cycle", "absolute HTP cycle of its start",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.slices[i].start_cycle); }),
        IntColumn("dur_cycles", "its duration",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.slices[i].dur_cycles); }),
        IntColumn("end_cycle", "absolute HTP cycle of its end",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.slices[i].end_cycle()); })},
       [](const Run& r) { return r.slices.size(); }});
  t.push_back(
      {"units",
       "one row per hardware thread",
       {IntColumn("tid", "256 HMX (also the main sequencer), 512.. HVX",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.units[i].tid); }),
        TextColumn(
            "kind", "HMX or HVX",
            [](const Run& r, size_t i, CellSink& s) { s.Text(UnitKindName(r.units[i].kind)); }),
        IntColumn("cycles_used", "union of its slices' intervals",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.units[i].cycles_used); }),
        IntColumn("busy_cycles", "Σ its slices' durations",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.units[i].busy_cycles); }),
        RealColumn("utilization_pct", "cycles_used ÷ graph wall × 100",
                   [](const Run& r, size_t i, CellSink& s) {
                     const auto& wall = r.figures.graph_wall_cycles;
                     wall&&* wall > 0 ? s.Real(static_cast<double>(r.units[i].cycles_used) /
                                               static_cast<double>(*wall) * 100)
                                      : s.Null();
                   }),
        IntColumn("slices", "slices it ran",
                  [](const Run& r, size_t i, CellSink& s) {
                    s.Int(static_cast<int64_t>(r.units[i].slices));
                  }),
        TextColumn(
            "source", "optrace or qhas",
            [](const Run& r, size_t i, CellSink& s) { s.Text(SourceName(r.units[i].source)); })},
       [](const Run& r) { return r.units.size(); }});
  t.push_back({"counters",
               "one row per counter sample of the optrace (VTCM alloc, DRAM/VTCM read/write)",
               {TextColumn("counter", "the track's name",
                           [](const Run& r, size_t i, CellSink& s) {
                             for (const auto& track : r.counters) {
                               if (i < track.samples.size()) return s.Text(track.name);
                               i -= track.samples.size();
                             }
                             s.Null();
                           }),
                IntColumn("ts_cycle", "absolute HTP cycle",
                          [](const Run& r, size_t i, CellSink& s) {
                            for (const auto& track : r.counters) {
                              if (i < track.samples.size())
                                return s.Int(track.samples[i].ts_cycles);
                              i -= track.samples.size();
                            }
                            s.Null();
                          }),
                IntColumn("value_bytes", "its value in bytes",
                          [](const Run& r, size_t i, CellSink& s) {
                            for (const auto& track : r.counters) {
                              if (i < track.samples.size()) return s.Int(track.samples[i].value);
                              i -= track.samples.size();
                            }
                            s.Null();
                          })},
               [](const Run& r) {
                 size_t n = 0;
                 for (const auto& track : r.counters) n += track.samples.size();
                 return n;
               }});
  t.push_back(
      {"phases",
       "one row per runtrace phase of an execution (each has its own clock)",
       {IntColumn("execution", "1-based, in time order",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.phases[i].execution); }),
        TextColumn("phase", "QNN DSP Execute, VTCM Acquire, Resource Power On, Graph Execute, ...",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(r.phases[i].phase); }),
        TextColumn("graph", "the runtrace's graph_name",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(r.phases[i].graph_name); }),
        IntColumn("wall_ticks", "19.2 MHz ticks",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.phases[i].wall_ticks()); }),
        RealColumn(ItemFigureName(ItemFigure::kPhaseWallUs), "ticks ÷ 19.2",
                   [](const Run& r, size_t i, CellSink& s) { s.Real(r.phases[i].wall_us()); }),
        IntColumn(
            "start_cycle", "absolute HTP cycle",
            [](const Run& r, size_t i, CellSink& s) { PutOptional(s, r.phases[i].start_cycle); }),
        IntColumn(
            "wall_cycles", "end − start cycle",
            [](const Run& r, size_t i, CellSink& s) { PutOptional(s, r.phases[i].wall_cycles()); }),
        RealColumn("effective_ghz", "wall cycles ÷ wall µs ÷ 1000",
                   [](const Run& r, size_t i, CellSink& s) {
                     PutOptional(s, r.phases[i].effective_ghz());
                   })},
       [](const Run& r) { return r.phases.size(); }});
  t.push_back(
      {"traffic",
       "one row per op's memory traffic (QHAS, else the HTP graph's mem_* params)",
       {IntColumn("op_id", "its op ID (as signed 64-bit bits)",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(IdBits(r.traffic[i].op_id)); }),
        TextColumn(
            "qnn_op_name", "the QNN op it belongs to",
            [](const Run& r, size_t i, CellSink& s) { s.Text(r.Str(r.traffic[i].qnn_op_name)); }),
        TextColumn(
            "htp_op_type", "the HTP op type the compiler chose",
            [](const Run& r, size_t i, CellSink& s) { s.Text(r.Str(r.traffic[i].htp_op_type)); }),
        IntColumn(FigureName(Figure::kDramReadBytes), "bytes read from DRAM",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.traffic[i].dram_read_bytes); }),
        IntColumn(
            FigureName(Figure::kDramWriteBytes), "bytes written to DRAM",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.traffic[i].dram_write_bytes); }),
        IntColumn(FigureName(Figure::kVtcmReadBytes), "bytes read from VTCM",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.traffic[i].vtcm_read_bytes); }),
        IntColumn(
            FigureName(Figure::kVtcmWriteBytes), "bytes written to VTCM",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.traffic[i].vtcm_write_bytes); }),
        TextColumn(
            "source", "qhas or htp_graph",
            [](const Run& r, size_t i, CellSink& s) { s.Text(SourceName(r.traffic[i].source)); })},
       [](const Run& r) { return r.traffic.size(); }});
  auto core = [](auto get) -> TableCell {
    return [get](const Run& r, size_t i, CellSink& s) { get(r.qhas_cores[i], s); };
  };
  t.push_back(
      {"qhas_cores",
       "one row per HTP core of the QHAS summary (htp_overall_summary, dominant_path_htp_N)",
       {IntColumn("core", "QHAS htp",
                  core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.core); })),
        IntColumn("timeline_cycles", "the core's span of the traced execution",
                  core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.timeline_cycles); })),
        RealColumn("utilization_pct", "QHAS percent_utilization",
                   core([](const QhasCoreRow& c, CellSink& s) { s.Real(c.percent_utilization); })),
        RealColumn("idle_pct", "QHAS percent_idle",
                   core([](const QhasCoreRow& c, CellSink& s) { s.Real(c.percent_idle); })),
        RealColumn("time_us", "QHAS time_us",
                   core([](const QhasCoreRow& c, CellSink& s) { s.Real(c.time_us); })),
        RealColumn("graph_execute_us", "QHAS graph_execute_us",
                   core([](const QhasCoreRow& c, CellSink& s) { s.Real(c.graph_execute_us); })),
        IntColumn(FigureName(Figure::kDramReadBytes), "QHAS total_dram_read",
                  core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.total_dram_read_bytes); })),
        IntColumn(FigureName(Figure::kDramWriteBytes), "QHAS total_dram_write",
                  core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.total_dram_write_bytes); })),
        IntColumn(FigureName(Figure::kVtcmReadBytes), "QHAS total_vtcm_read",
                  core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.total_vtcm_read_bytes); })),
        IntColumn(FigureName(Figure::kVtcmWriteBytes), "QHAS total_vtcm_write",
                  core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.total_vtcm_write_bytes); })),
        IntColumn(FigureName(Figure::kPeakVtcmBytes), "QHAS peak_vtcm_alloc",
                  core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.peak_vtcm_alloc_bytes); })),
        IntColumn("qnn_nodes", "QHAS qnn_nodes: rows of qnn_op_instances_nodes it has",
                  core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.qnn_nodes); })),
        IntColumn("htp_nodes", "QHAS htp_nodes: rows of htp_op_instances it has (one per slice)",
                  core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.htp_nodes); })),
        IntColumn("listed_htp_nodes", "rows of htp_op_instances the file lists for this core",
                  core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.listed_htp_nodes); })),
        BoolColumn("lists_complete", "the op lists cover every node",
                   core([](const QhasCoreRow& c, CellSink& s) { s.Bool(c.lists_complete); })),
        IntColumn(FigureName(Figure::kWorkCycles),
                  "Σ htp_resources cycles_used: the core's thread-aggregate work",
                  core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.resources_cycles_used); })),
        IntColumn(
            "path_op_cycles", "Σ op rows of dominant_path_htp_N; null without that path",
            core([](const QhasCoreRow& c, CellSink& s) { PutOptional(s, c.path_op_cycles); })),
        IntColumn(
            "path_idle_cycles", "Σ Accumulated Idle rows of that path; null without it",
            core([](const QhasCoreRow& c, CellSink& s) { PutOptional(s, c.path_idle_cycles); })),
        IntColumn("hmx_cycles_used", "the HMX (main) thread's cycles_used",
                  core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.hmx_cycles_used); })),
        IntColumn(
            "busiest_hvx_cycles_used", "the busiest HVX thread's cycles_used",
            core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.busiest_hvx_cycles_used); })),
        IntColumn("hvx_threads", "HVX threads in its htp_resources",
                  core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.hvx_threads); }))},
       [](const Run& r) { return r.qhas_cores.size(); }});
  t.push_back(
      {"dominant_path",
       "one row per segment of the reconstructed dominant path (idle ones included)",
       {IntColumn(
            "start_cycle", "absolute",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.dominant_path[i].start_cycle); }),
        IntColumn("dur_cycles", "its length",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.dominant_path[i].cycles()); }),
        IntColumn("op_id", "the op on the path; null when idle",
                  [](const Run& r, size_t i, CellSink& s) {
                    r.dominant_path[i].idle ? s.Null() : s.Int(IdBits(r.dominant_path[i].op_id));
                  }),
        BoolColumn(
            "partial", "only part of the op's slice is on the path",
            [](const Run& r, size_t i, CellSink& s) { s.Bool(r.dominant_path[i].partial); })},
       [](const Run& r) { return r.dominant_path.size(); }});
  t.push_back(
      {"profile_nodes",
       "one row per per-node line of a profile block (linting entries when present)",
       {TextColumn("block", "the block's title (and graph)",
                   [](const Run& r, size_t i, CellSink& s) {
                     s.Text(r.profile_blocks[r.profile_nodes[i].block].Name());
                   }),
        TextColumn("label", "as printed",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(r.profile_nodes[i].label); }),
        TextColumn(
            "qnn_op_name", "the QNN op it belongs to",
            [](const Run& r, size_t i, CellSink& s) { s.Text(r.profile_nodes[i].qnn_op_name); }),
        IntColumn("node_cycles", "main-thread (linting) or thread-aggregate (detailed) cycles",
                  [](const Run& r, size_t i, CellSink& s) { s.Int(r.profile_nodes[i].cycles); }),
        IntColumn("wait_cycles", "Wait (Scheduler) time",
                  [](const Run& r, size_t i, CellSink& s) {
                    PutOptional(s, r.profile_nodes[i].lint.ValueOrEmpty().wait_cycles);
                  }),
        IntColumn("overlap_cycles", "Overlap time",
                  [](const Run& r, size_t i, CellSink& s) {
                    PutOptional(s, r.profile_nodes[i].lint.ValueOrEmpty().overlap_cycles);
                  }),
        TextColumn("source_ops",
                   "the ONNX nodes the op was built from, ';'-separated, as ONNX Runtime's "
                   "\"ONNX Source Ops\" cell gives them; null when the profile has no such column",
                   [](const Run& r, size_t i, CellSink& s) {
                     const Boxed<std::string>& ops = r.profile_nodes[i].source_ops;
                     ops ? s.Text(ops.ValueOrEmpty()) : s.Null();
                   })},
       [](const Run& r) { return r.profile_nodes.size(); }});
  t.push_back(
      {"cross_checks",
       "one row per figure two artifacts share",
       {TextColumn("topic", "time or memory",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(r.cross_checks[i].topic); }),
        TextColumn("name", "the figure compared",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(r.cross_checks[i].name); }),
        TextColumn("unit", "cycles, bytes, us or ops",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(r.cross_checks[i].unit); }),
        RealColumn("a", "the first artifact's value",
                   [](const Run& r, size_t i, CellSink& s) { s.Real(r.cross_checks[i].a); }),
        RealColumn("b", "the second artifact's value",
                   [](const Run& r, size_t i, CellSink& s) { s.Real(r.cross_checks[i].b); }),
        BoolColumn("agree", "equal within the stated tolerance",
                   [](const Run& r, size_t i, CellSink& s) { s.Bool(r.cross_checks[i].agree); })},
       [](const Run& r) { return r.cross_checks.size(); }});
  t.push_back(
      {"warnings",
       "one row per warning, with its stable code",
       {TextColumn(
            "code", "stable identifier (docs/errors.md)",
            [](const Run& r, size_t i, CellSink& s) { s.Text(WarningName(r.warnings[i].code)); }),
        TextColumn("message", "what it says, for people",
                   [](const Run& r, size_t i, CellSink& s) { s.Text(r.warnings[i].message); })},
       [](const Run& r) { return r.warnings.size(); }});
  AddProfileTables(t);
  AppendDeviceProfileTables(t);  // aihub_*, genie_*: empty for other runs
  t.push_back(ModulesTable());
  return t;
}

}  // namespace

const char* ColumnTypeName(ColumnType type) {
  switch (type) {
    case ColumnType::kInt64:
      return "INTEGER";
    case ColumnType::kDouble:
      return "REAL";
    case ColumnType::kText:
      return "TEXT";
    case ColumnType::kBool:
      return "BOOLEAN";
  }
  return "TEXT";
}

const std::vector<RunTable>& RunTables() {
  static const std::vector<RunTable> tables = MakeTables();
  return tables;
}

const RunTable* FindRunTable(std::string_view name) {
  for (const auto& t : RunTables())
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace htpscope
