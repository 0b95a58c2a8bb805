#include "report/run_tables.h"

#include <fmt/format.h>

#include <optional>

#include "report/device_profile_tables.h"
#include "report/run_tables_modules.h"
#include "report/run_tables_profile.h"

namespace htpscope {
namespace {

using Cell = std::function<void(const Run&, size_t, CellSink&)>;

void Put(CellSink& s, const std::optional<int64_t>& v) { v ? s.Int(*v) : s.Null(); }
void Put(CellSink& s, const std::optional<uint32_t>& v) { v ? s.Int(*v) : s.Null(); }
void Put(CellSink& s, const std::optional<int32_t>& v) { v ? s.Int(*v) : s.Null(); }
void Put(CellSink& s, const std::optional<double>& v) { v ? s.Real(*v) : s.Null(); }
// op IDs are unsigned 64-bit; SQLite and NumPy int64 hold their bits.
int64_t IdBits(uint64_t id) { return static_cast<int64_t>(id); }

TableColumn Int(std::string name, std::string description, Cell cell) {
  return {std::move(name), ColumnType::kInt64, std::move(description), std::move(cell)};
}
TableColumn Real(std::string name, std::string description, Cell cell) {
  return {std::move(name), ColumnType::kDouble, std::move(description), std::move(cell)};
}
TableColumn Text(std::string name, std::string description, Cell cell) {
  return {std::move(name), ColumnType::kText, std::move(description), std::move(cell)};
}
TableColumn Bool(std::string name, std::string description, Cell cell) {
  return {std::move(name), ColumnType::kBool, std::move(description), std::move(cell)};
}

const OpInstanceRow& InstanceOf(const Run& r, size_t slice) {
  return r.op_instances[r.slices[slice].instance];
}

std::vector<TableColumn> GroupColumns(const std::vector<OpGroupRow> Run::*table, bool qnn) {
  std::vector<TableColumn> c = {
      Text("name", qnn ? "QNN op name" : "HTP op type",
           [table](const Run& r, size_t i, CellSink& s) { s.Text(r.Str((r.*table)[i].name)); }),
  };
  if (qnn)
    c.push_back(Text("type", "QNN op type", [table](const Run& r, size_t i, CellSink& s) {
      s.Text(r.Str((r.*table)[i].type));
    }));
  std::vector<TableColumn> rest = {
      Text("category", "compute, system_service or boundary (docs/metrics.md)",
           [table](const Run& r, size_t i, CellSink& s) {
             s.Text(OpCategoryName((r.*table)[i].category));
           }),
      Int("dpc_cycles", "Σ dominant-path cycles of its instances; null without a source",
          [table](const Run& r, size_t i, CellSink& s) { Put(s, (r.*table)[i].dpc_cycles); }),
      Text("dpc_basis", "where its DPC comes from: optrace, qhas, reconstructed, lower_bound",
           [table](const Run& r, size_t i, CellSink& s) {
             s.Text(DpcBasisName((r.*table)[i].dpc_basis));
           }),
      Int("work_cycles", "Σ slice durations: thread-aggregate work",
          [table](const Run& r, size_t i, CellSink& s) { s.Int((r.*table)[i].work_cycles); }),
      Int("instances", "op instances (op IDs, i.e. tiles)",
          [table](const Run& r, size_t i, CellSink& s) { s.Int((r.*table)[i].instances); }),
      Text("source", "optrace, qhas or profile",
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
       {Text("label", "the run directory or first file, as given",
             [](const Run& r, size_t, CellSink& s) { s.Text(r.label); }),
        Text("fine_source", "where the op tables come from: optrace, qhas, profile or none",
             [](const Run& r, size_t, CellSink& s) { s.Text(SourceName(r.figures.fine_source)); }),
        Int("graph_wall_cycles", "span of the executed ops (else QHAS timeline_cycles)",
            [](const Run& r, size_t, CellSink& s) { Put(s, r.figures.graph_wall_cycles); }),
        Int("start_cycle", "absolute cycle of the first executed slice",
            [](const Run& r, size_t, CellSink& s) { Put(s, r.figures.start_cycle); }),
        Int("end_cycle", "absolute cycle of the last slice's end",
            [](const Run& r, size_t, CellSink& s) { Put(s, r.figures.end_cycle); }),
        Int("work_cycles", "Σ slice durations: thread-aggregate work",
            [](const Run& r, size_t, CellSink& s) { Put(s, r.figures.work_cycles); }),
        Int("domain_cycles", "the busiest hardware thread's cycles_used",
            [](const Run& r, size_t, CellSink& s) { Put(s, r.figures.domain_cycles); }),
        Int("domain_tid", "that thread",
            [](const Run& r, size_t, CellSink& s) { Put(s, r.figures.domain_tid); }),
        Int("dpc_sum_cycles", "Σ dominant-path cycles: the dominant path's length",
            [](const Run& r, size_t, CellSink& s) { Put(s, r.figures.dpc_sum_cycles); }),
        Int("idle_cycles", "graph wall − Σ DPC",
            [](const Run& r, size_t, CellSink& s) { Put(s, r.figures.idle_cycles); }),
        Int("op_instances", "executed HTP op instances (op IDs)",
            [](const Run& r, size_t, CellSink& s) { Put(s, r.figures.op_instances); }),
        Int("peak_vtcm_bytes", "peak VTCM allocation",
            [](const Run& r, size_t, CellSink& s) { Put(s, r.figures.peak_vtcm_bytes); }),
        Int("peak_vtcm_cycle", "absolute cycle of the first sample at the peak",
            [](const Run& r, size_t, CellSink& s) { Put(s, r.figures.peak_vtcm_cycle); }),
        Int("traced_execution", "the runtrace execution whose Graph Execute window holds the trace",
            [](const Run& r, size_t, CellSink& s) { Put(s, r.figures.traced_execution); })},
       [](const Run&) -> size_t { return 1; }});
  t.push_back(
      {"artifacts",
       "one row per file read",
       {Text("path", "as given or found",
             [](const Run& r, size_t i, CellSink& s) { s.Text(r.artifacts[i].path); }),
        Text("kind", "what its content is",
             [](const Run& r, size_t i, CellSink& s) {
               s.Text(ArtifactTypeName(r.artifacts[i].type));
             }),
        Text("version", "the header's or viewer's version, \"\" when unknown",
             [](const Run& r, size_t i, CellSink& s) { s.Text(r.artifacts[i].version); }),
        Text("application_version", "a profile's runner (qnn-net-run) version, or \"\"",
             [](const Run& r, size_t i, CellSink& s) {
               s.Text(r.artifacts[i].application_version);
             }),
        Text("backend_version", "a profile's backend version, or \"\"",
             [](const Run& r, size_t i, CellSink& s) { s.Text(r.artifacts[i].backend_version); })},
       [](const Run& r) { return r.artifacts.size(); }});
  t.push_back({"graphs",
               "one row per graph of the profile",
               {Int("graph_id", "0-based, in file order",
                    [](const Run&, size_t i, CellSink& s) { s.Int(static_cast<int64_t>(i)); }),
                Text("name", "as the profile names it",
                     [](const Run& r, size_t i, CellSink& s) { s.Text(r.graphs[i].name); }),
                Int("executions", "its executions in the profile",
                    [](const Run& r, size_t i, CellSink& s) { s.Int(r.graphs[i].executions); })},
               [](const Run& r) { return r.graphs.size(); }});
  auto exec_us = [](std::optional<double> ExecutionRow::*field) -> Cell {
    return [field](const Run& r, size_t i, CellSink& s) { Put(s, r.executions[i].*field); };
  };
  auto exec_int = [](std::optional<int64_t> ExecutionRow::*field) -> Cell {
    return [field](const Run& r, size_t i, CellSink& s) { Put(s, r.executions[i].*field); };
  };
  t.push_back(
      {"executions",
       "one row per execution of a graph, µs as the profile viewer printed them",
       {Int("graph_id", "its graph",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.executions[i].graph); }),
        Text("graph", "its graph's name",
             [](const Run& r, size_t i, CellSink& s) {
               s.Text(r.graphs[r.executions[i].graph].name);
             }),
        Int("execution", "1-based within its graph",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.executions[i].index); }),
        Bool("cold", "the graph's first execution",
             [](const Run& r, size_t i, CellSink& s) { s.Bool(r.executions[i].cold); }),
        Real("qnn_accelerator_us", "graph wall: QNN accelerator (execute) time",
             exec_us(&ExecutionRow::qnn_accelerator_us)),
        Real("accelerator_us", "compute-busy: Accelerator (execute) time",
             exec_us(&ExecutionRow::accelerator_us)),
        Real("accelerator_excluding_wait_us", "Accelerator (execute excluding wait) time",
             exec_us(&ExecutionRow::accelerator_excluding_wait_us)),
        Real("rpc_us", "RPC (execute) time", exec_us(&ExecutionRow::rpc_us)),
        Real("qnn_execute_us", "QNN (execute) time", exec_us(&ExecutionRow::qnn_execute_us)),
        Real("netrun_us", "NetRun", exec_us(&ExecutionRow::netrun_us)),
        Int("accelerator_cycles", "Accelerator (execute) time (cycles): thread-aggregate work",
            exec_int(&ExecutionRow::accelerator_cycles)),
        Int("critical_path_cycles", "Accelerator (critical path execute) time (cycles)",
            exec_int(&ExecutionRow::critical_path_cycles)),
        Int("hvx_threads", "Number of HVX threads used", exec_int(&ExecutionRow::hvx_threads)),
        Int("timestamp_us", "the profiling clock when it started (CSV profiles)",
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
  auto inst = [](auto get) -> Cell {
    return [get](const Run& r, size_t i, CellSink& s) { get(r, r.op_instances[i], s); };
  };
  t.push_back(
      {"op_instances",
       "one row per executed HTP op instance (op ID), by first start",
       {Int("op_id", "the 64-bit op ID (as signed 64-bit bits)",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) { s.Int(IdBits(o.op_id)); })),
        Text("op_id_hex", "the op ID as the optrace writes it",
             inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
               s.Text(OpIdHex(o.op_id));
             })),
        Text("qnn_op_name", "the QNN op it belongs to",
             inst([](const Run& r, const OpInstanceRow& o, CellSink& s) {
               s.Text(r.Str(o.qnn_op_name));
             })),
        Text("qnn_op_type", "its QNN op's type",
             inst([](const Run& r, const OpInstanceRow& o, CellSink& s) {
               s.Text(r.Str(o.qnn_op_type));
             })),
        Text("htp_op_type", "the HTP op type the compiler chose",
             inst([](const Run& r, const OpInstanceRow& o, CellSink& s) {
               s.Text(r.Str(o.htp_op_type));
             })),
        Text("category", "compute, system_service or boundary",
             inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
               s.Text(OpCategoryName(o.category));
             })),
        Text("flags", "its flags, comma-separated",
             inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
               s.Text(OpFlagNames(o.flags));
             })),
        Int("dpc_cycles", "its dominant-path cycles",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) { s.Int(o.dpc_cycles); })),
        Text("dpc_basis", "optrace, qhas, reconstructed or lower_bound",
             inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
               s.Text(DpcBasisName(o.dpc_basis));
             })),
        Int("work_cycles", "Σ its slices' durations",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) { s.Int(o.work_cycles); })),
        Int("first_start_cycle", "earliest slice start (absolute)",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
              s.Int(o.first_start_cycle);
            })),
        Int("last_end_cycle", "latest slice end (absolute)",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) { s.Int(o.last_end_cycle); })),
        Int("duration_cycles", "the optrace's op-level Duration (cycles)",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
              s.Int(o.op_duration_cycles);
            })),
        Int("slices", "slices it ran as (threads it was split across)",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) { s.Int(o.slice_count); })),
        Real("cycles_per_packet", "VLIW packet efficiency (lower is better)",
             inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
               s.Real(o.cycles_per_packet);
             })),
        Text("source", "optrace or qhas", inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
               s.Text(SourceName(o.source));
             })),
        Bool(
            "format_change", "QHAS fmt_change of any of its rows (false without QHAS)",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) { s.Bool(o.format_change); })),
        Bool("reference_op", "QHAS ref_op of any of its rows (false without QHAS)",
             inst([](const Run&, const OpInstanceRow& o, CellSink& s) { s.Bool(o.reference_op); })),
        Int("htp_core", "the HTP core that ran it (QHAS htp); null from the optrace",
            inst([](const Run&, const OpInstanceRow& o, CellSink& s) {
              o.htp_core >= 0 ? s.Int(o.htp_core) : s.Null();
            }))},
       [](const Run& r) { return r.op_instances.size(); }});
  t.push_back({"slices",
               "one row per executed slice of an op on a hardware thread (de-duplicated)",
               {Int("op_id", "its op ID (as signed 64-bit bits)",
                    [](const Run& r, size_t i, CellSink& s) { s.Int(IdBits(r.slices[i].op_id)); }),
                Text("qnn_op_name", "its QNN op",
                     [](const Run& r, size_t i, CellSink& s) {
                       s.Text(r.Str(InstanceOf(r, i).qnn_op_name));
                     }),
                Text("htp_op_type", "its HTP op type",
                     [](const Run& r, size_t i, CellSink& s) {
                       s.Text(r.Str(InstanceOf(r, i).htp_op_type));
                     }),
                Int("tid", "the hardware thread: 256 HMX, 512.. HVX",
                    [](const Run& r, size_t i, CellSink& s) { s.Int(r.slices[i].tid); }),
                Int("start_cycle", "absolute HTP cycle of its start",
                    [](const Run& r, size_t i, CellSink& s) { s.Int(r.slices[i].start_cycle); }),
                Int("dur_cycles", "its duration",
                    [](const Run& r, size_t i, CellSink& s) { s.Int(r.slices[i].dur_cycles); }),
                Int("end_cycle", "absolute HTP cycle of its end",
                    [](const Run& r, size_t i, CellSink& s) { s.Int(r.slices[i].end_cycle()); })},
               [](const Run& r) { return r.slices.size(); }});
  t.push_back(
      {"units",
       "one row per hardware thread",
       {Int("tid", "256 HMX (also the main sequencer), 512.. HVX",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.units[i].tid); }),
        Text("kind", "HMX or HVX",
             [](const Run& r, size_t i, CellSink& s) { s.Text(UnitKindName(r.units[i].kind)); }),
        Int("cycles_used", "union of its slices' intervals",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.units[i].cycles_used); }),
        Int("busy_cycles", "Σ its slices' durations",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.units[i].busy_cycles); }),
        Real("utilization_pct", "cycles_used ÷ graph wall × 100",
             [](const Run& r, size_t i, CellSink& s) {
               const auto& wall = r.figures.graph_wall_cycles;
               wall&&* wall > 0 ? s.Real(static_cast<double>(r.units[i].cycles_used) /
                                         static_cast<double>(*wall) * 100)
                                : s.Null();
             }),
        Int("slices", "slices it ran",
            [](const Run& r, size_t i, CellSink& s) {
              s.Int(static_cast<int64_t>(r.units[i].slices));
            }),
        Text("source", "optrace or qhas",
             [](const Run& r, size_t i, CellSink& s) { s.Text(SourceName(r.units[i].source)); })},
       [](const Run& r) { return r.units.size(); }});
  t.push_back({"counters",
               "one row per counter sample of the optrace (VTCM alloc, DRAM/VTCM read/write)",
               {Text("counter", "the track's name",
                     [](const Run& r, size_t i, CellSink& s) {
                       for (const auto& track : r.counters) {
                         if (i < track.samples.size()) return s.Text(track.name);
                         i -= track.samples.size();
                       }
                       s.Null();
                     }),
                Int("ts_cycle", "absolute HTP cycle",
                    [](const Run& r, size_t i, CellSink& s) {
                      for (const auto& track : r.counters) {
                        if (i < track.samples.size()) return s.Int(track.samples[i].ts_cycles);
                        i -= track.samples.size();
                      }
                      s.Null();
                    }),
                Int("value_bytes", "its value in bytes",
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
       {Int("execution", "1-based, in time order",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.phases[i].execution); }),
        Text("phase", "QNN DSP Execute, VTCM Acquire, Resource Power On, Graph Execute, ...",
             [](const Run& r, size_t i, CellSink& s) { s.Text(r.phases[i].phase); }),
        Text("graph", "the runtrace's graph_name",
             [](const Run& r, size_t i, CellSink& s) { s.Text(r.phases[i].graph_name); }),
        Int("wall_ticks", "19.2 MHz ticks",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.phases[i].wall_ticks()); }),
        Real("wall_us", "ticks ÷ 19.2",
             [](const Run& r, size_t i, CellSink& s) { s.Real(r.phases[i].wall_us()); }),
        Int("start_cycle", "absolute HTP cycle",
            [](const Run& r, size_t i, CellSink& s) { Put(s, r.phases[i].start_cycle); }),
        Int("wall_cycles", "end − start cycle",
            [](const Run& r, size_t i, CellSink& s) { Put(s, r.phases[i].wall_cycles()); }),
        Real("effective_ghz", "wall cycles ÷ wall µs ÷ 1000",
             [](const Run& r, size_t i, CellSink& s) { Put(s, r.phases[i].effective_ghz()); })},
       [](const Run& r) { return r.phases.size(); }});
  t.push_back(
      {"traffic",
       "one row per op's memory traffic (QHAS, else the HTP graph's mem_* params)",
       {Int("op_id", "its op ID (as signed 64-bit bits)",
            [](const Run& r, size_t i, CellSink& s) { s.Int(IdBits(r.traffic[i].op_id)); }),
        Text("qnn_op_name", "the QNN op it belongs to",
             [](const Run& r, size_t i, CellSink& s) { s.Text(r.Str(r.traffic[i].qnn_op_name)); }),
        Text("htp_op_type", "the HTP op type the compiler chose",
             [](const Run& r, size_t i, CellSink& s) { s.Text(r.Str(r.traffic[i].htp_op_type)); }),
        Int("dram_read_bytes", "bytes read from DRAM",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.traffic[i].dram_read_bytes); }),
        Int("dram_write_bytes", "bytes written to DRAM",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.traffic[i].dram_write_bytes); }),
        Int("vtcm_read_bytes", "bytes read from VTCM",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.traffic[i].vtcm_read_bytes); }),
        Int("vtcm_write_bytes", "bytes written to VTCM",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.traffic[i].vtcm_write_bytes); }),
        Text("source", "qhas or htp_graph",
             [](const Run& r, size_t i, CellSink& s) { s.Text(SourceName(r.traffic[i].source)); })},
       [](const Run& r) { return r.traffic.size(); }});
  auto core = [](auto get) -> Cell {
    return [get](const Run& r, size_t i, CellSink& s) { get(r.qhas_cores[i], s); };
  };
  t.push_back(
      {"qhas_cores",
       "one row per HTP core of the QHAS summary (htp_overall_summary, dominant_path_htp_N)",
       {Int("core", "QHAS htp", core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.core); })),
        Int("timeline_cycles", "the core's span of the traced execution",
            core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.timeline_cycles); })),
        Real("utilization_pct", "QHAS percent_utilization",
             core([](const QhasCoreRow& c, CellSink& s) { s.Real(c.percent_utilization); })),
        Real("idle_pct", "QHAS percent_idle",
             core([](const QhasCoreRow& c, CellSink& s) { s.Real(c.percent_idle); })),
        Real("time_us", "QHAS time_us",
             core([](const QhasCoreRow& c, CellSink& s) { s.Real(c.time_us); })),
        Real("graph_execute_us", "QHAS graph_execute_us",
             core([](const QhasCoreRow& c, CellSink& s) { s.Real(c.graph_execute_us); })),
        Int("dram_read_bytes", "QHAS total_dram_read",
            core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.total_dram_read_bytes); })),
        Int("dram_write_bytes", "QHAS total_dram_write",
            core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.total_dram_write_bytes); })),
        Int("vtcm_read_bytes", "QHAS total_vtcm_read",
            core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.total_vtcm_read_bytes); })),
        Int("vtcm_write_bytes", "QHAS total_vtcm_write",
            core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.total_vtcm_write_bytes); })),
        Int("peak_vtcm_bytes", "QHAS peak_vtcm_alloc",
            core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.peak_vtcm_alloc_bytes); })),
        Int("qnn_nodes", "QHAS qnn_nodes: rows of qnn_op_instances_nodes it has",
            core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.qnn_nodes); })),
        Int("htp_nodes", "QHAS htp_nodes: rows of htp_op_instances it has (one per slice)",
            core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.htp_nodes); })),
        Int("listed_htp_nodes", "rows of htp_op_instances the file lists for this core",
            core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.listed_htp_nodes); })),
        Bool("lists_complete", "the op lists cover every node",
             core([](const QhasCoreRow& c, CellSink& s) { s.Bool(c.lists_complete); })),
        Int("work_cycles", "Σ htp_resources cycles_used: the core's thread-aggregate work",
            core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.resources_cycles_used); })),
        Int("path_op_cycles", "Σ op rows of dominant_path_htp_N; null without that path",
            core([](const QhasCoreRow& c, CellSink& s) { Put(s, c.path_op_cycles); })),
        Int("path_idle_cycles", "Σ Accumulated Idle rows of that path; null without it",
            core([](const QhasCoreRow& c, CellSink& s) { Put(s, c.path_idle_cycles); })),
        Int("hmx_cycles_used", "the HMX (main) thread's cycles_used",
            core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.hmx_cycles_used); })),
        Int("busiest_hvx_cycles_used", "the busiest HVX thread's cycles_used",
            core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.busiest_hvx_cycles_used); })),
        Int("hvx_threads", "HVX threads in its htp_resources",
            core([](const QhasCoreRow& c, CellSink& s) { s.Int(c.hvx_threads); }))},
       [](const Run& r) { return r.qhas_cores.size(); }});
  t.push_back(
      {"dominant_path",
       "one row per segment of the reconstructed dominant path (idle ones included)",
       {Int("start_cycle", "absolute",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.dominant_path[i].start_cycle); }),
        Int("dur_cycles", "its length",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.dominant_path[i].cycles()); }),
        Int("op_id", "the op on the path; null when idle",
            [](const Run& r, size_t i, CellSink& s) {
              r.dominant_path[i].idle ? s.Null() : s.Int(IdBits(r.dominant_path[i].op_id));
            }),
        Bool("partial", "only part of the op's slice is on the path",
             [](const Run& r, size_t i, CellSink& s) { s.Bool(r.dominant_path[i].partial); })},
       [](const Run& r) { return r.dominant_path.size(); }});
  t.push_back(
      {"profile_nodes",
       "one row per per-node line of a profile block (linting entries when present)",
       {Text("block", "the block's title (and graph)",
             [](const Run& r, size_t i, CellSink& s) {
               s.Text(r.profile_blocks[r.profile_nodes[i].block].Name());
             }),
        Text("label", "as printed",
             [](const Run& r, size_t i, CellSink& s) { s.Text(r.profile_nodes[i].label); }),
        Text("qnn_op_name", "the QNN op it belongs to",
             [](const Run& r, size_t i, CellSink& s) { s.Text(r.profile_nodes[i].qnn_op_name); }),
        Int("node_cycles", "main-thread (linting) or thread-aggregate (detailed) cycles",
            [](const Run& r, size_t i, CellSink& s) { s.Int(r.profile_nodes[i].cycles); }),
        Int("wait_cycles", "Wait (Scheduler) time",
            [](const Run& r, size_t i, CellSink& s) {
              Put(s, r.profile_nodes[i].lint.ValueOrEmpty().wait_cycles);
            }),
        Int("overlap_cycles", "Overlap time",
            [](const Run& r, size_t i, CellSink& s) {
              Put(s, r.profile_nodes[i].lint.ValueOrEmpty().overlap_cycles);
            })},
       [](const Run& r) { return r.profile_nodes.size(); }});
  t.push_back({"cross_checks",
               "one row per figure two artifacts share",
               {Text("topic", "time or memory",
                     [](const Run& r, size_t i, CellSink& s) { s.Text(r.cross_checks[i].topic); }),
                Text("name", "the figure compared",
                     [](const Run& r, size_t i, CellSink& s) { s.Text(r.cross_checks[i].name); }),
                Text("unit", "cycles, bytes, us or ops",
                     [](const Run& r, size_t i, CellSink& s) { s.Text(r.cross_checks[i].unit); }),
                Real("a", "the first artifact's value",
                     [](const Run& r, size_t i, CellSink& s) { s.Real(r.cross_checks[i].a); }),
                Real("b", "the second artifact's value",
                     [](const Run& r, size_t i, CellSink& s) { s.Real(r.cross_checks[i].b); }),
                Bool("agree", "equal within the stated tolerance",
                     [](const Run& r, size_t i, CellSink& s) { s.Bool(r.cross_checks[i].agree); })},
               [](const Run& r) { return r.cross_checks.size(); }});
  t.push_back({"warnings",
               "one row per warning, with its stable code",
               {Text("code", "stable identifier (docs/summary-json.md)",
                     [](const Run& r, size_t i, CellSink& s) { s.Text(r.warnings[i].code); }),
                Text("message", "what it says, for people",
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
