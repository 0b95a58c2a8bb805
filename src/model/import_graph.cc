#include <fmt/format.h>

#include <optional>
#include <string_view>
#include <utility>

#include "model/import.h"

namespace htpscope::model_import {
namespace {

// The integer scalar_params the model keeps, and where.
constexpr std::pair<std::string_view, std::optional<int64_t> GraphNodeRow::*> kIntParams[] = {
    {"cycles_start", &GraphNodeRow::start_cycle},
    {"cycles_duration", &GraphNodeRow::duration_cycles},
    {"mem_dram_read", &GraphNodeRow::dram_read_bytes},
    {"mem_dram_write", &GraphNodeRow::dram_write_bytes},
    {"mem_vtcm_read", &GraphNodeRow::vtcm_read_bytes},
    {"mem_vtcm_write", &GraphNodeRow::vtcm_write_bytes},
};

}  // namespace

ReadHtpGraphOptions HtpGraphReadOptions() {
  ReadHtpGraphOptions options;
  options.kept_params = {"qnn_op_type", "op_flags"};
  for (const auto& [name, field] : kIntParams) options.kept_params.emplace_back(name);
  return options;
}

void ImportHtpGraph(HtpGraph&& graph, CompiledGraphTables& tables) {
  tables.graph_nodes.reserve(graph.nodes.size());
  for (auto& [node_id, graph_node] : graph.nodes) {
    auto& node = graph_node;  // a plain reference: clang 14 cannot capture structured bindings
    GraphNodeRow row;
    row.id = node_id;
    row.htp_op_type = std::move(node.type);
    row.qnn_op_name = std::move(node.grouping);
    row.input_ids = std::move(node.input_ids);
    row.output_ids = std::move(node.output_ids);
    // One pass over the node's params (about fourteen, in key order)
    // rather than a lookup for each of the eight the model keeps.
    for (const auto& [key, param] : node.scalar_params) {
      if (key == "qnn_op_type") {
        if (const std::string* text = param.AsString()) row.qnn_op_type = *text;
      } else if (key == "op_flags") {
        const std::string* text = param.AsString();
        row.flags = text && !text->empty() ? OpFlagOfName(*text) : 0;
      } else {
        for (const auto& [name, field] : kIntParams)
          if (key == name) row.*field = param.AsInt();
      }
    }
    tables.graph_nodes.push_back(std::move(row));
  }
  tables.graph_tensors.reserve(graph.tensors.size());
  for (auto& [id, t] : graph.tensors)
    tables.graph_tensors.push_back({id, t.index, t.type, t.data_type, std::move(t.dims)});
}

void ImportRuntrace(Runtrace&& runtrace, RuntraceTables& tables,
                    std::vector<WarningRow>& warnings) {
  for (const auto& w : runtrace.warnings)
    Warn(warnings, WarningCode::reader, fmt::format("{}: {}", runtrace.path, w));
  for (const auto& e : runtrace.executions) {
    for (const auto& p : e.phases) {
      const auto cycle = [&p](int64_t c) { return p.has_cycles ? std::optional(c) : std::nullopt; };
      tables.phases.push_back({.execution = e.index,
                               .phase = p.name,
                               .graph_name = p.graph_name,
                               .start_ticks = p.start_ticks,
                               .end_ticks = p.end_ticks,
                               .start_cycle = cycle(p.start_cycles),
                               .end_cycle = cycle(p.end_cycles),
                               .reported_time_us = p.reported_time_us,
                               .reported_ghz = p.reported_frequency_ghz});
    }
  }
}

}  // namespace htpscope::model_import
