// The QHAS analysis summary (chrometrace_qnn_htp_analysis_summary.json),
// 4-space pretty-printed like the viewer's: htp_overall_summary (with
// htp_resources), qnn_op_types, qnn_op_instances_nodes, htp_op_types,
// htp_op_instances (one row per slice, by start cycle, unpadded hex ids) and
// dominant_path_htp_0 (op segments in time order, "Accumulated Idle" rows
// appended at the end).  Every figure is derived from the model's slices, so
// QHAS agrees with the optrace by construction.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "writers.h"

namespace htpscope::synth {
namespace {

struct Aggregate {
  std::string name;
  std::string qnn_type;  // qnn_op_instances_nodes only
  int64_t cycles = 0, dp_cycles = 0, count = 0;
  int64_t dram_read = 0, dram_write = 0, vtcm_read = 0, vtcm_write = 0;
  bool format_change = false;

  void Add(const Slice& s) {
    cycles += s.dur_cycles;
    dp_cycles += s.dp_cycles;
    ++count;
    dram_read += s.dram_read_bytes;
    dram_write += s.dram_write_bytes;
    vtcm_read += s.vtcm_read_bytes;
    vtcm_write += s.vtcm_write_bytes;
  }
};

struct Resource {
  uint32_t tid = 0;
  int64_t start = 0, end = 0, used = 0;
  int64_t dram_read = 0, dram_write = 0, vtcm_read = 0, vtcm_write = 0;
};

const char* Bool(bool b) { return b ? "true" : "false"; }

std::vector<Aggregate> SortedByCycles(std::vector<Aggregate> rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const Aggregate& a, const Aggregate& b) {
    if (a.cycles != b.cycles) return a.cycles > b.cycles;
    return a.name < b.name;
  });
  return rows;
}

class QhasWriter {
 public:
  QhasWriter(const Model& m, OutputFile& out) : m_(m), out_(out) {}

  void Run() {
    for (const auto& s : m_.slices) total_cycles_ += s.dur_cycles;
    timeline_ = m_.span_cycles();
    path_cycles_ = timeline_ - m_.idle_cycles;
    BuildAggregates();
    out_.Print(
        "{{\n    \"header\": {{\n        \"header_version\": {{\n            \"major\": 1,\n"
        "            \"minor\": 0,\n            \"patch\": 0\n        }},\n"
        "        \"version\": {{\n            \"major\": 1,\n            \"minor\": 0,\n"
        "            \"patch\": 0\n        }},\n        \"artifact_type\": \"QHAS\"\n    }},\n"
        "    \"model_id\": \"{}\",\n    \"data\": {{\n",
        m_.options.graph_name);
    WriteOverall();
    WriteAggregates("qnn_op_types", qnn_types_, false, "num_htp_ops");
    WriteAggregates("qnn_op_instances_nodes", qnn_instances_, true, "num_htp_ops");
    WriteAggregates("htp_op_types", htp_types_, false, "instances");
    WriteInstances();
    WritePath();
    out_.Write("    }\n}\n");
  }

 private:
  double Percent(int64_t part, int64_t whole) const {
    return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) * 100.0 : 0.0;
  }

  void BuildAggregates() {
    std::map<std::string, Aggregate> by_qnn_type, by_htp_type;
    std::vector<Aggregate> by_qnn(m_.qnn_ops.size());
    std::map<uint32_t, Resource> resources;
    std::map<uint32_t, std::vector<std::pair<int64_t, int64_t>>> intervals;
    for (const auto& s : m_.slices) {
      const HtpOp& op = m_.ops[s.op];
      Aggregate& qt = by_qnn_type[m_.QnnTypeName(op.qnn)];
      qt.name = m_.QnnTypeName(op.qnn);
      qt.Add(s);
      Aggregate& q = by_qnn[op.qnn];
      if (q.count == 0) {
        q.name = m_.QnnName(op.qnn);
        q.qnn_type = m_.QnnTypeName(op.qnn);
      }
      q.Add(s);
      Aggregate& ht = by_htp_type[Info(op.type).name];
      ht.name = Info(op.type).name;
      ht.format_change = Info(op.type).format_change;
      ht.Add(s);
      auto [it, inserted] = resources.try_emplace(s.tid);
      Resource& r = it->second;
      if (inserted) {
        r.tid = s.tid;
        r.start = s.start_cycle;
        r.end = s.end_cycle();
      }
      r.start = std::min(r.start, s.start_cycle);
      r.end = std::max(r.end, s.end_cycle());
      r.dram_read += s.dram_read_bytes;
      r.dram_write += s.dram_write_bytes;
      r.vtcm_read += s.vtcm_read_bytes;
      r.vtcm_write += s.vtcm_write_bytes;
      intervals[s.tid].emplace_back(s.start_cycle, s.end_cycle());
    }
    for (auto& [name, a] : by_qnn_type) qnn_types_.push_back(a);
    for (auto& a : by_qnn)
      if (a.count > 0) qnn_instances_.push_back(a);
    for (auto& [name, a] : by_htp_type) htp_types_.push_back(a);
    qnn_types_ = SortedByCycles(std::move(qnn_types_));
    qnn_instances_ = SortedByCycles(std::move(qnn_instances_));
    htp_types_ = SortedByCycles(std::move(htp_types_));
    for (auto& [tid, r] : resources) {
      r.used = UnionCycles(intervals[tid]);
      resources_.push_back(r);
    }
  }

  void WriteOverall() {
    out_.Write(
        "        \"htp_overall_summary\": {\n            \"data\": [\n                {\n"
        "                    \"htp_resources\": {\n                        \"data\": [\n");
    int64_t dram_read = 0, dram_write = 0, vtcm_read = 0, vtcm_write = 0;
    for (size_t i = 0; i < resources_.size(); ++i) {
      const Resource& r = resources_[i];
      dram_read += r.dram_read;
      dram_write += r.dram_write;
      vtcm_read += r.vtcm_read;
      vtcm_write += r.vtcm_write;
      const std::string pad(32, ' ');
      out_.Print(
          "                            {{\n"
          "{0}\"type\": \"{1}\",\n{0}\"tid\": {2},\n{0}\"start_cycle\": {3},\n"
          "{0}\"end_cycle\": {4},\n{0}\"timeline_cycles\": {5},\n{0}\"cycles_used\": {6},\n"
          "{0}\"utilization\": {7},\n{0}\"dram_read\": {8},\n{0}\"dram_write\": {9},\n"
          "{0}\"vtcm_read\": {10},\n{0}\"vtcm_write\": {11}\n"
          "                            }}{12}\n",
          pad, r.tid == kSequencerTid ? "HMX" : "HVX", r.tid, r.start, r.end, r.end - r.start,
          r.used, FormatJsonDouble(Percent(r.used, timeline_)), r.dram_read, r.dram_write,
          r.vtcm_read, r.vtcm_write, i + 1 < resources_.size() ? "," : "");
    }
    const Execution& first = m_.executions.front();
    const auto time_us =
        static_cast<int64_t>(static_cast<double>(first.phases[0].ticks()) / kTicksPerUs);
    const auto graph_us =
        static_cast<int64_t>(static_cast<double>(first.phases[3].ticks()) / kTicksPerUs);
    const double idle_pct = Percent(m_.idle_cycles, timeline_);
    const std::string pad(20, ' ');
    out_.Print(
        "                        ]\n                    }},\n"
        "{0}\"htp\": 0,\n{0}\"percent_idle\": {1},\n{0}\"percent_utilization\": {2},\n"
        "{0}\"time_us\": {3},\n{0}\"graph_execute_us\": {4},\n{0}\"inf_per_s\": {5},\n"
        "{0}\"timeline_cycles\": {6},\n{0}\"total_dram_read\": {7},\n"
        "{0}\"total_dram_write\": {8},\n{0}\"total_dram\": {9},\n{0}\"peak_vtcm_alloc\": {10},\n"
        "{0}\"total_vtcm_read\": {11},\n{0}\"total_vtcm_write\": {12},\n{0}\"total_vtcm\": {13},\n"
        "{0}\"unique_qnn_ops\": {14},\n{0}\"qnn_nodes\": {15},\n{0}\"unique_htp_ops\": {16},\n"
        "{0}\"htp_nodes\": {17}\n"
        "                }}\n            ]\n        }},\n",
        pad, FormatJsonDouble(idle_pct), FormatJsonDouble(100.0 - idle_pct), time_us, graph_us,
        FormatJsonDouble(time_us > 0 ? 1e6 / static_cast<double>(time_us) : 0.0), timeline_,
        dram_read, dram_write, dram_read + dram_write, m_.peak_vtcm_bytes, vtcm_read, vtcm_write,
        vtcm_read + vtcm_write, qnn_types_.size(), qnn_instances_.size(), htp_types_.size(),
        m_.slices.size());
  }

  void WriteAggregates(const char* section, const std::vector<Aggregate>& rows, bool instances,
                       const char* count_key) {
    out_.Print("        \"{}\": {{\n            \"data\": [\n", section);
    const std::string pad(20, ' ');
    for (size_t i = 0; i < rows.size(); ++i) {
      const Aggregate& a = rows[i];
      out_.Write("                {\n");
      if (instances) {
        out_.Print("{0}\"qnn_op\": \"{1}\",\n{0}\"qnn_op_type\": \"{2}\",\n", pad, a.name,
                   a.qnn_type);
      } else {
        out_.Print("{0}\"op\": \"{1}\",\n", pad, a.name);
      }
      out_.Print(
          "{0}\"cycles\": {1},\n{0}\"percent_active_cycles\": {2},\n"
          "{0}\"num_dominant_path_cycles_htp_0\": {3},\n"
          "{0}\"percent_dominant_path_cycles_htp_0\": {4},\n{0}\"{5}\": {6},\n"
          "{0}\"dram_read\": {7},\n{0}\"dram_write\": {8},\n{0}\"vtcm_read\": {9},\n"
          "{0}\"vtcm_write\": {10}",
          pad, a.cycles, FormatJsonDouble(Percent(a.cycles, total_cycles_)), a.dp_cycles,
          FormatJsonDouble(Percent(a.dp_cycles, path_cycles_)), count_key, a.count, a.dram_read,
          a.dram_write, a.vtcm_read, a.vtcm_write);
      if (std::string_view(section) == "htp_op_types")
        out_.Print(",\n{0}\"format_change\": {1},\n{0}\"reference_op\": false", pad,
                   Bool(a.format_change));
      out_.Print("\n                }}{}\n", i + 1 < rows.size() ? "," : "");
    }
    out_.Write("            ]\n        },\n");
  }

  void WriteInstances() {
    std::vector<uint32_t> order(m_.slices.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      const Slice& x = m_.slices[a];
      const Slice& y = m_.slices[b];
      if (x.start_cycle != y.start_cycle) return x.start_cycle < y.start_cycle;
      return x.tid < y.tid;
    });
    out_.Write("        \"htp_op_instances\": {\n            \"data\": [\n");
    const std::string pad(20, ' ');
    const std::string item(24, ' ');
    for (size_t n = 0; n < order.size(); ++n) {
      const Slice& s = m_.slices[order[n]];
      const HtpOp& op = m_.ops[s.op];
      const ShapeInfo& shape = Info(op.shape);
      out_.Print(
          "                {{\n{0}\"htp\": 0,\n{0}\"tid\": {1},\n{0}\"op_id\": \"{2}\",\n"
          "{0}\"htp_op\": \"{3}\",\n{0}\"qnn_op\": \"{4}\",\n{0}\"qnn_op_type\": \"{5}\",\n"
          "{0}\"dtype\": \"{6}\",\n{0}\"rank\": {7},\n{0}\"step_size\": {8},\n"
          "{0}\"zero_offset\": {9},\n",
          pad, s.tid, HexIdShort(op.id), Info(op.type).name, m_.QnnName(op.qnn),
          m_.QnnTypeName(op.qnn), shape.dtype, shape.rank, FormatJsonDouble(shape.step_size),
          shape.zero_offset);
      if (shape.rank > 0) {
        out_.Print("{0}\"dims\": [\n{1}{2},\n{1}{3},\n{1}{4},\n{1}{5}\n{0}],\n", pad, item,
                   shape.dims[0], shape.dims[1], shape.dims[2], shape.dims[3]);
      } else {
        out_.Print("{}\"dims\": [],\n", pad);
      }
      if (op.inputs_count == 0) {
        out_.Print("{}\"input_nodes\": [],\n", pad);
      } else {
        out_.Print("{}\"input_nodes\": [\n", pad);
        for (uint32_t k = 0; k < op.inputs_count; ++k) {
          const InputRef& in = m_.inputs[op.inputs_begin + k];
          uint64_t id = in.tensor ? m_.tensors[in.index].id : m_.ops[in.index].id;
          out_.Print("{}\"{}\"{}\n", item, HexIdShort(id), k + 1 < op.inputs_count ? "," : "");
        }
        out_.Print("{}],\n", pad);
      }
      out_.Print(
          "{0}\"start_cycle\": {1},\n{0}\"cycles\": {2},\n{0}\"num_dominant_path_cycles\": {3},\n"
          "{0}\"percent_dominant_path_cycles\": {4},\n{0}\"cycles_per_packet\": {5},\n"
          "{0}\"fmt_change\": {6},\n{0}\"ref_op\": false,\n{0}\"hmx\": {7},\n{0}\"hvx\": {8},\n"
          "{0}\"dma_wait\": {9},\n{0}\"dma_set\": {10},\n{0}\"dma\": {11},\n{0}\"sync\": {12},\n"
          "{0}\"dram_read\": {13},\n{0}\"dram_write\": {14},\n{0}\"vtcm_read\": {15},\n"
          "{0}\"vtcm_write\": {16}\n                }}{17}\n",
          pad, s.start_cycle, s.dur_cycles, s.dp_cycles,
          FormatJsonDouble(Percent(s.dp_cycles, path_cycles_)),
          FormatJsonDouble(static_cast<double>(op.cycles_per_packet)),
          Bool(Info(op.type).format_change), Bool(op.flag == OpFlag::kUsesHmx),
          Bool(op.flag == OpFlag::kUsesHvx), Bool(op.flag == OpFlag::kDmaWait),
          Bool(op.flag == OpFlag::kDmaSet), Bool(op.flag == OpFlag::kDma),
          Bool(op.flag == OpFlag::kSync), s.dram_read_bytes, s.dram_write_bytes, s.vtcm_read_bytes,
          s.vtcm_write_bytes, n + 1 < order.size() ? "," : "");
    }
    out_.Write("            ]\n        },\n");
  }

  void WritePath() {
    out_.Write("        \"dominant_path_htp_0\": {\n            \"data\": [\n");
    const std::string pad(20, ' ');
    size_t rows = m_.path.size(), written = 0;
    for (bool idle : {false, true}) {
      for (const auto& seg : m_.path) {
        if ((seg.slice == kIdleSlice) != idle) continue;
        const int64_t dp = seg.end_cycle - seg.start_cycle;
        std::string id = "0x0", htp = "Accumulated Idle", qnn = "Accumulated Idle";
        int64_t cycles = dp;
        bool partial = false;
        if (!idle) {
          const Slice& s = m_.slices[seg.slice];
          const HtpOp& op = m_.ops[s.op];
          id = HexIdShort(op.id);
          htp = Info(op.type).name;
          qnn = m_.QnnName(op.qnn);
          cycles = s.dur_cycles;
          partial = seg.start_cycle != s.start_cycle || seg.end_cycle != s.end_cycle();
        }
        ++written;
        out_.Print(
            "                {{\n{0}\"op_id\": \"{1}\",\n{0}\"htp_op\": \"{2}\",\n"
            "{0}\"qnn_op\": \"{3}\",\n{0}\"start_cycle\": {4},\n{0}\"end_cycle\": {5},\n"
            "{0}\"partial\": {6},\n{0}\"dp_cycles\": {7},\n{0}\"cycles\": {8}\n"
            "                }}{9}\n",
            pad, id, htp, qnn, seg.start_cycle, seg.end_cycle, Bool(partial), dp, cycles,
            written < rows ? "," : "");
      }
    }
    out_.Write("            ]\n        }\n");
  }

  const Model& m_;
  OutputFile& out_;
  int64_t total_cycles_ = 0, timeline_ = 0, path_cycles_ = 0;
  std::vector<Aggregate> qnn_types_, qnn_instances_, htp_types_;
  std::vector<Resource> resources_;
};

}  // namespace

void WriteQhas(const Model& model, OutputFile& out) { QhasWriter(model, out).Run(); }

}  // namespace htpscope::synth
