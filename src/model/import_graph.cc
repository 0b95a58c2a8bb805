#include <fmt/format.h>

#include "model/import.h"

namespace htpscope::model_import {

void ImportHtpGraph(HtpGraph&& graph, Run& run) {
  run.graph_nodes.reserve(graph.nodes.size());
  for (auto& [id, node] : graph.nodes) {
    GraphNodeRow row;
    row.id = id;
    row.htp_op_type = std::move(node.type);
    row.qnn_op_name = std::move(node.grouping);
    auto string_param = [&node](const char* key) -> std::string {
      auto it = node.scalar_params.find(key);
      return it != node.scalar_params.end() && it->second.AsString() ? *it->second.AsString() : "";
    };
    row.qnn_op_type = string_param("qnn_op_type");
    std::string flags = string_param("op_flags");
    row.flags = flags.empty() ? 0 : OpFlagOfName(flags);
    row.input_ids = std::move(node.input_ids);
    row.output_ids = std::move(node.output_ids);
    row.start_cycle = node.IntParam("cycles_start");
    row.duration_cycles = node.IntParam("cycles_duration");
    row.dram_read_bytes = node.IntParam("mem_dram_read");
    row.dram_write_bytes = node.IntParam("mem_dram_write");
    row.vtcm_read_bytes = node.IntParam("mem_vtcm_read");
    row.vtcm_write_bytes = node.IntParam("mem_vtcm_write");
    run.graph_nodes.push_back(std::move(row));
  }
  run.graph_tensors.reserve(graph.tensors.size());
  for (auto& [id, t] : graph.tensors)
    run.graph_tensors.push_back({id, t.index, t.type, t.data_type, std::move(t.dims)});
}

void ImportRuntrace(Runtrace&& runtrace, Run& run) {
  for (const auto& w : runtrace.warnings)
    Warn(run, "reader", fmt::format("{}: {}", runtrace.path, w));
  for (const auto& e : runtrace.executions) {
    for (const auto& p : e.phases) {
      PhaseRow row;
      row.execution = e.index;
      row.phase = p.name;
      row.graph_name = p.graph_name;
      row.start_ticks = p.start_ticks;
      row.end_ticks = p.end_ticks;
      if (p.has_cycles) {
        row.start_cycle = p.start_cycles;
        row.end_cycle = p.end_cycles;
      }
      row.reported_time_us = p.reported_time_us;
      row.reported_ghz = p.reported_frequency_ghz;
      run.phases.push_back(std::move(row));
    }
  }
}

}  // namespace htpscope::model_import
