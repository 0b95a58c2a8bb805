// Per-op memory traffic: QHAS htp_op_instances (every executed op, one row
// per slice, summed per op ID), else the HTP graph's mem_* node params
// (compiled nodes only: DMA checkpoints, sync and output slices have none).
#include <map>

#include "model/join.h"

namespace htpscope {

void BuildTraffic(Run& run, const model_import::QhasFacts& qhas) {
  if (!qhas.instances.empty()) {
    std::map<uint64_t, size_t> row_of;
    for (const auto& i : qhas.instances) {
      auto [it, inserted] = row_of.try_emplace(i.op_id, run.traffic.size());
      if (inserted) {
        TrafficRow row;
        row.op_id = i.op_id;
        row.htp_op_type = run.strings.Intern(i.htp_op);
        row.qnn_op_name = run.strings.Intern(i.qnn_op);
        row.qnn_op_type = run.strings.Intern(i.qnn_op_type);
        uint8_t flags = (i.dma ? kFlagDma : 0) | (i.dma_set ? kFlagDmaSet : 0) |
                        (i.dma_wait ? kFlagDmaWait : 0) | (i.hmx ? kFlagUsesHmx : 0) |
                        (i.hvx ? kFlagUsesHvx : 0) | (i.sync ? kFlagSync : 0);
        row.category = ClassifyOp(i.htp_op, i.qnn_op_type, flags);
        row.cycles = 0;
        row.source = Source::kQhas;
        run.traffic.push_back(row);
      }
      TrafficRow& row = run.traffic[it->second];
      row.dram_read_bytes += i.dram_read_bytes;
      row.dram_write_bytes += i.dram_write_bytes;
      row.vtcm_read_bytes += i.vtcm_read_bytes;
      row.vtcm_write_bytes += i.vtcm_write_bytes;
      *row.cycles += i.cycles;
    }
    run.traffic_source = Source::kQhas;
    return;
  }
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

}  // namespace htpscope
