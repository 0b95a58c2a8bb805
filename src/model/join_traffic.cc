// Per-op memory traffic: QHAS htp_op_instances (every executed op, one row
// per slice, summed per op ID), else the HTP graph's mem_* node params
// (compiled nodes only: DMA checkpoints, sync and output slices have none).
#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

#include "base/string_pool.h"
#include "model/import.h"
#include "model/join.h"

namespace htpscope {

namespace {

// Σ bytes of the optrace's DRAM/VTCM read/write counter samples: non-zero
// when the trace saw any traffic.
bool OptraceCountsTraffic(const Run& run) {
  for (const auto& track : run.counters) {
    if (track.name == "VTCM alloc") continue;
    for (const auto& sample : track.samples)
      if (sample.value != 0) return true;
  }
  return false;
}

// One row per op ID, in order of its first htp_op_instances row: its names
// and flags from that row, its cycles and bytes summed over its rows
// (run.qhas_op_totals, summed at import).
void TrafficFromQhas(Run& run) {
  run.traffic.reserve(run.traffic.size() + run.qhas_op_totals.size());
  OpClassifier classify(run.strings);
  // QHAS's names in the run's pool, each looked up once.
  model_import::QhasTextsIn texts(run.qhas_strings, run.strings);
  for (const QhasOpTotalsRow& t : run.qhas_op_totals) {
    const QhasOpInstanceRow& i = run.qhas_op_instances[t.first_row];
    const StringId htp_op_type = texts(i.htp_op_type);
    const StringId qnn_op_name = texts(i.qnn_op_name);
    const StringId qnn_op_type = texts(i.qnn_op_type);
    run.traffic.push_back({.op_id = t.op_id,
                           .htp_op_type = htp_op_type,
                           .qnn_op_name = qnn_op_name,
                           .qnn_op_type = qnn_op_type,
                           .category = classify(htp_op_type, qnn_op_type, i.flags),
                           .dram_read_bytes = t.dram_read_bytes,
                           .dram_write_bytes = t.dram_write_bytes,
                           .vtcm_read_bytes = t.vtcm_read_bytes,
                           .vtcm_write_bytes = t.vtcm_write_bytes,
                           .cycles = t.cycles,
                           .source = Source::kQhas});
  }
  run.traffic_source = Source::kQhas;
}

void TrafficFromGraph(Run& run) {
  for (const auto& node : run.graph_nodes) {
    if (!node.dram_read_bytes || !node.dram_write_bytes || !node.vtcm_read_bytes ||
        !node.vtcm_write_bytes)
      continue;
    TrafficRow row;
    row.op_id = node.id;
    row.htp_op_type = run.strings.Intern(node.htp_op_type);
    row.qnn_op_name = run.strings.Intern(node.qnn_op_name);
    row.qnn_op_type = run.strings.Intern(node.qnn_op_type);
    row.category = ClassifyOp(node.htp_op_type, node.qnn_op_type, node.flags);
    row.dram_read_bytes = *node.dram_read_bytes;
    row.dram_write_bytes = *node.dram_write_bytes;
    row.vtcm_read_bytes = *node.vtcm_read_bytes;
    row.vtcm_write_bytes = *node.vtcm_write_bytes;
    row.cycles = node.duration_cycles;
    row.source = Source::kHtpGraph;
    run.traffic.push_back(row);
  }
  if (!run.traffic.empty()) run.traffic_source = Source::kHtpGraph;
}

// QHAS's known defect: every counter 0 while another artifact saw traffic.
// Warns and takes the HTP graph's figures (or none) when the evidence is
// there; returns false (QHAS's zeros stand) when nothing contradicts them.
bool ReplaceZeroQhasTraffic(Run& run) {
  TrafficFromGraph(run);
  bool graph_bytes = false;
  for (const auto& row : run.traffic)
    graph_bytes = graph_bytes || row.dram_read_bytes || row.dram_write_bytes ||
                  row.vtcm_read_bytes || row.vtcm_write_bytes;
  const bool trace_traffic = OptraceCountsTraffic(run);
  if (!graph_bytes) {
    run.traffic.clear();
    run.traffic_source = Source::kNone;
  }
  if (!graph_bytes && !trace_traffic) return false;
  std::vector<std::string> seen;
  if (graph_bytes) seen.push_back("the HTP graph's mem_* node params");
  if (trace_traffic) seen.push_back("the optrace's DRAM/VTCM counters");
  run.warnings.push_back(
      {WarningCode::qhas_zero_traffic,
       fmt::format("{}: every htp_op_instances row reports 0 DRAM and VTCM bytes while {} are not "
                   "0 (a known QHAS defect); per-op traffic {}",
                   run.PathOf(ArtifactKind::kQhas), fmt::join(seen, " and "),
                   graph_bytes ? "comes from the HTP graph (source htp_graph)"
                               : "is withheld: no other artifact gives it per op")});
  return true;
}

}  // namespace

void BuildTraffic(Run& run) {
  if (QhasTrafficAllZero(run) && ReplaceZeroQhasTraffic(run)) return;
  if (!run.qhas_op_instances.empty())
    TrafficFromQhas(run);
  else
    TrafficFromGraph(run);
}

}  // namespace htpscope
