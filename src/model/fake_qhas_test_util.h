// Test support: small QHAS summary JSON documents (artifact_type QHAS) with
// known answers, in the layout the viewer writes (formats.md §3).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

namespace htpscope::testing_support {

struct FakeQhasResource {
  std::string type;  // "HMX", "HVX", "UNK"
  uint32_t tid = 256;
  int64_t cycles_used = 0;
};

// One htp_op_instances row (one slice).
struct FakeQhasInstance {
  uint64_t op_id = 0;
  std::string htp_op, qnn_op;
  std::string flag;  // "hmx", "hvx", "dma", "dma_set", "dma_wait", "sync" or ""
  uint32_t tid = 256;
  int64_t start_cycle = 0, cycles = 0, dpc_cycles = 0;
  int64_t dram_read = 0, vtcm_read = 0;
  bool fmt_change = false;
  int htp = 0;  // the core
};

// One dominant_path_htp_<core> row; op_id 0 is an "Accumulated Idle" row.
struct FakeQhasSegment {
  uint64_t op_id = 0;
  int64_t start_cycle = 0, end_cycle = 0;
};

struct FakeQhasCore {
  int htp = 0;
  int64_t timeline_cycles = 0;
  double percent_idle = 0;
  std::vector<FakeQhasResource> resources;
  std::vector<FakeQhasSegment> path;
};

inline std::string FakeQhasJson(const std::vector<FakeQhasCore>& cores,
                                const std::vector<FakeQhasInstance>& instances) {
  std::string overall, paths, rows;
  for (const auto& c : cores) {
    std::string res;
    for (const auto& r : c.resources)
      res += fmt::format(R"({}{{"type": "{}", "tid": {}, "cycles_used": {}}})",
                         res.empty() ? "" : ", ", r.type, r.tid, r.cycles_used);
    int64_t nodes = 0;
    for (const auto& i : instances) nodes += i.htp == c.htp;
    overall += fmt::format(
        R"({}{{"htp": {}, "percent_idle": {}, "percent_utilization": {}, "time_us": 100, )"
        R"("graph_execute_us": 50, "timeline_cycles": {}, "htp_nodes": {}, )"
        R"("htp_resources": {{"data": [{}]}}}})",
        overall.empty() ? "" : ", ", c.htp, c.percent_idle, 100 - c.percent_idle, c.timeline_cycles,
        nodes, res);
    std::string segs;
    for (const auto& s : c.path) {
      const bool idle = s.op_id == 0;
      segs += fmt::format(
          R"({}{{"op_id": "0x{:x}", "htp_op": "{}", "qnn_op": "{}", "start_cycle": {}, )"
          R"("end_cycle": {}, "partial": false, "dp_cycles": {}, "cycles": {}}})",
          segs.empty() ? "" : ", ", s.op_id, idle ? "Accumulated Idle" : "op",
          idle ? "Accumulated Idle" : "op", s.start_cycle, s.end_cycle, s.end_cycle - s.start_cycle,
          s.end_cycle - s.start_cycle);
    }
    paths += fmt::format(R"(, "dominant_path_htp_{}": {{"data": [{}]}})", c.htp, segs);
  }
  for (const auto& i : instances) {
    auto flag = [&](const char* name) { return i.flag == name ? "true" : "false"; };
    rows += fmt::format(
        R"({}{{"htp": {}, "tid": {}, "op_id": "0x{:x}", "htp_op": "{}", "qnn_op": "{}", )"
        R"("qnn_op_type": "{}", "start_cycle": {}, "cycles": {}, "num_dominant_path_cycles": {}, )"
        R"("fmt_change": {}, "ref_op": false, "hmx": {}, "hvx": {}, "dma_wait": {}, )"
        R"("dma_set": {}, "dma": {}, "sync": {}, "dram_read": {}, "dram_write": 0, )"
        R"("vtcm_read": {}, "vtcm_write": 0}})",
        rows.empty() ? "" : ", ", i.htp, i.tid, i.op_id, i.htp_op, i.qnn_op, i.qnn_op,
        i.start_cycle, i.cycles, i.dpc_cycles, i.fmt_change ? "true" : "false", flag("hmx"),
        flag("hvx"), flag("dma_wait"), flag("dma_set"), flag("dma"), flag("sync"), i.dram_read,
        i.vtcm_read);
  }
  return fmt::format(R"({{"header": {{"artifact_type": "QHAS"}}, "model_id": "fake", "data": {{)"
                     R"("htp_overall_summary": {{"data": [{}]}}, "qnn_op_types": {{"data": []}}, )"
                     R"("qnn_op_instances_nodes": {{"data": []}}, "htp_op_types": {{"data": []}}, )"
                     R"("htp_op_instances": {{"data": [{}]}}{}}}}})",
                     overall, rows, paths);
}

}  // namespace htpscope::testing_support
