// The optrace Chrome trace (chrometrace.json): one event per line, grouped
// like the real files — the sequencer thread's ops, then the HVX threads'
// ops (each pid-0 event followed by its copy on the op's "QNN::<name>"
// process, thread names right after the first event of each thread), tid-1
// tensors with their flow arrows, the remaining flows, late metadata,
// counters, and the overview process's metadata last.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "writers.h"

namespace htpscope::synth {

std::string HexId16(uint64_t id) { return fmt::format("0x{:016x}", id); }
std::string HexIdShort(uint64_t id) { return fmt::format("0x{:x}", id); }
std::string FormatG(double value) { return fmt::format("{:g}", value); }

std::string FormatJsonDouble(double value) {
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

namespace {

// Bit of a tid in the per-process "thread name written" masks.
uint8_t TidBit(uint16_t tid) {
  return tid == kSequencerTid ? 1 : static_cast<uint8_t>(2u << (tid - kFirstHvxTid));
}

class TraceWriter {
 public:
  TraceWriter(const Model& m, OutputFile& out)
      : m_(m), out_(out), pid_of_qnn_(m.qnn_ops.size(), 0), threads_of_qnn_(m.qnn_ops.size(), 0) {}

  TraceCounts Run() {
    out_.Write(
        "{\n  \"header\": {\n    \"header_version\": {\n      \"major\": 1,\n      \"minor\": 0,\n"
        "      \"patch\": 0\n    },\n    \"version\": {\n      \"major\": 1,\n      \"minor\": 1,\n"
        "      \"patch\": 0\n    },\n    \"artifact_type\": \"OP_TRACE\"\n  },\n\"traceEvents\": "
        "[\n");
    WriteSlices();
    WriteTensorsAndFlows();
    WriteLateMetadata();
    WriteCounters();
    Begin();
    out_.Write(
        "{ \"cat\": \"__metadata\", \"pid\": 0, \"ph\": \"M\", \"name\": \"process_name\", "
        "\"args\": {\"name\": \"Core 0 Overview\"}}");
    Begin();
    out_.Write(
        "{ \"cat\": \"__metadata\", \"pid\": 0, \"ph\": \"M\", \"name\": \"process_sort_index\", "
        "\"args\": {\"sort_index\": 1}}");
    counts_.metadata_events += 2;
    out_.Write("\n]}\n");
    return counts_;
  }

 private:
  void Begin() {
    if (!first_) out_.Write(",\n");
    first_ = false;
    ++counts_.events;
  }

  int64_t Rel(int64_t cycle) const { return cycle - m_.origin_cycle; }

  void FormatArgs(const HtpOp& op) {
    const Slice& primary = m_.slices[op.first_slice];
    const ShapeInfo& shape = Info(op.shape);
    const char* type = Info(op.type).name;
    args_.clear();
    auto it = std::back_inserter(args_);
    fmt::format_to(it, "\"ID\": \"0x{:016x}\",\"HTP Op Type\": \"{}\"", op.id, type);
    if (const char* d = m_.Description(op)) fmt::format_to(it, ",\"Description\": \"{}\"", d);
    if (shape.rank > 0)
      fmt::format_to(it, ",\"Dims\": [{},{},{},{}]", shape.dims[0], shape.dims[1], shape.dims[2],
                     shape.dims[3]);
    fmt::format_to(it,
                   ",\"Data Type\": \"{}\",\"Rank\": {},\"Step Size\": {:g},\"Zero Offset\": {}",
                   shape.dtype, shape.rank, shape.step_size, shape.zero_offset);
    if (op.inputs_count > 0) {
      fmt::format_to(it, ",\"Inputs Ops\": [");
      for (uint32_t k = 0; k < op.inputs_count; ++k) {
        const InputRef& in = m_.inputs[op.inputs_begin + k];
        uint64_t id = in.tensor ? m_.tensors[in.index].id : m_.ops[in.index].id;
        fmt::format_to(it, "{}\"0x{:016x}\"", k ? "," : "", id);
      }
      fmt::format_to(it, "]");
    }
    fmt::format_to(it,
                   ",\"Flags\": [\"{}\"],\"Cycles per Packet\": {:g},\"QNN Op Type\": \"{}\","
                   "\"QNN Op Name\": \"{}\",\"Start Cycle\": {},\"Duration (cycles)\": {},"
                   "\"Dominant Path Cycles\": {}",
                   OpFlagName(op.flag), static_cast<double>(op.cycles_per_packet),
                   m_.QnnTypeName(op.qnn), m_.QnnName(op.qnn), primary.start_cycle,
                   primary.dur_cycles, op.dpc_cycles);
  }

  void WriteSlice(uint32_t slice_index) {
    const Slice& s = m_.slices[slice_index];
    const HtpOp& op = m_.ops[s.op];
    if (args_op_ != s.op) {
      FormatArgs(op);
      args_op_ = s.op;
    }
    uint32_t& pid = pid_of_qnn_[op.qnn];
    if (pid == 0) {
      pid = next_pid_++;
      ++counts_.processes;
    }
    const std::string_view args(args_.data(), args_.size());
    const char* name = Info(op.type).name;
    const bool hmx = s.tid == kSequencerTid;
    const uint8_t bit = TidBit(s.tid);
    Begin();
    out_.Print(
        "{{ \"name\": \"{}\", \"ph\": \"X\", \"tid\": {}, \"pid\": 0, \"ts\": {}, \"dur\": {}, "
        "\"args\": {{ {}}} }}",
        name, s.tid, Rel(s.start_cycle), s.dur_cycles, args);
    ++counts_.executed_events;
    if (!(overview_threads_ & bit)) {
      overview_threads_ |= bit;
      Begin();
      out_.Print(
          "{{ \"cat\": \"__metadata\", \"pid\": 0, \"tid\": {}, \"ph\": \"M\", \"name\": "
          "\"thread_name\", \"args\": {{\"name\": \"Type: {}\"}}}}",
          s.tid, hmx ? "HMX" : "HVX");
      ++counts_.metadata_events;
    }
    Begin();
    out_.Print(
        "{{ \"name\": \"{}\", \"ph\": \"X\", \"tid\": {}, \"pid\": {}, \"ts\": {}, \"dur\": {}, "
        "\"args\": {{ {}}} }}",
        name, s.tid, pid, Rel(s.start_cycle), s.dur_cycles, args);
    ++counts_.duplicate_events;
    uint8_t& seen = threads_of_qnn_[op.qnn];
    if (!(seen & bit)) {
      seen |= bit;
      Begin();
      out_.Print(
          "{{ \"cat\": \"__metadata\", \"pid\": {}, \"tid\": {}, \"ph\": \"M\", \"name\": "
          "\"thread_name\", \"args\": {{\"name\": \"Core:0 Type: {} Tid: {}\"}}}}",
          pid, s.tid, hmx ? "HMX" : "HVX", s.tid);
      ++counts_.metadata_events;
    }
  }

  void WriteSlices() {
    // The sequencer runs in program order, so creation order is time order.
    for (uint32_t i = 0; i < m_.slices.size(); ++i)
      if (m_.slices[i].tid == kSequencerTid) WriteSlice(i);
    std::vector<uint32_t> hvx;
    for (uint32_t i = 0; i < m_.slices.size(); ++i)
      if (m_.slices[i].tid != kSequencerTid) hvx.push_back(i);
    std::sort(hvx.begin(), hvx.end(), [&](uint32_t a, uint32_t b) {
      const Slice& x = m_.slices[a];
      const Slice& y = m_.slices[b];
      if (x.start_cycle != y.start_cycle) return x.start_cycle < y.start_cycle;
      return x.tid < y.tid;
    });
    for (uint32_t i : hvx) WriteSlice(i);
  }

  void WriteFlow(const char* category, const char* name, uint16_t tid, int64_t cycle, bool start,
                 uint64_t id) {
    Begin();
    out_.Print(
        "{{ \"cat\": \"{}\", \"name\": \"{}\", \"tid\": {}, \"pid\": 0, \"ts\": {}, \"ph\": "
        "\"{}\", "
        "{}\"id\": {}}}",
        category, name, tid, Rel(cycle), start ? "s" : "f", start ? "" : "\"pb\": \"e\", ", id);
    ++counts_.flow_events;
  }

  void WriteTensorsAndFlows() {
    uint64_t flow_id = 0;
    for (TensorKind kind : {TensorKind::kConst, TensorKind::kShape}) {
      for (const auto& t : m_.tensors) {
        if (t.kind != kind || t.first_consumer >= m_.ops.size()) continue;
        const ShapeInfo& shape = Info(t.shape);
        Begin();
        out_.Print(
            "{{ \"name\": \"{}\", \"ph\": \"X\", \"tid\": 1, \"pid\": 0, \"ts\": {}, \"dur\": 5, "
            "\"args\": {{ \"ID\": \"0x{:016x}\",\"HTP Op Type\": \"{}\",\"Dims\": [{},{},{},{}],"
            "\"Data Type\": \"{}\",\"Rank\": {},\"Step Size\": {:g},\"Zero Offset\": {}}} }}",
            kind == TensorKind::kConst ? "$Const" : "$Shape", Rel(t.cycle), t.id,
            kind == TensorKind::kConst ? "$Const" : "$Shape", shape.dims[0], shape.dims[1],
            shape.dims[2], shape.dims[3], shape.dtype, shape.rank, shape.step_size,
            shape.zero_offset);
        ++counts_.non_executed_events;
        const Slice& consumer = m_.slices[m_.ops[t.first_consumer].first_slice];
        WriteFlow("input_output", "InputOutputFlowEvents", static_cast<uint16_t>(kTensorTid),
                  t.cycle + 5, true, flow_id);
        WriteFlow("input_output", "InputOutputFlowEvents", consumer.tid, consumer.start_cycle,
                  false, flow_id);
        ++flow_id;
      }
    }
    for (bool sequencer : {false, true}) {
      const char* category = sequencer ? "sequencer" : "input_output";
      const char* name = sequencer ? "SequencerFlowEvents" : "InputOutputFlowEvents";
      for (const auto& f : m_.flows) {
        if (f.sequencer != sequencer) continue;
        WriteFlow(category, name, f.from_tid, f.from_cycle, true, flow_id);
        WriteFlow(category, name, f.to_tid, f.to_cycle, false, flow_id);
        ++flow_id;
      }
    }
  }

  void WriteLateMetadata() {
    Begin();
    out_.Write(
        "{ \"cat\": \"__metadata\", \"pid\": 0, \"tid\": 1, \"ph\": \"M\", \"name\": "
        "\"thread_name\", \"args\": {\"name\": \"Non Executed Tensors\"}}");
    ++counts_.metadata_events;
    // Per-op processes sorted by their QNN op id (the sort index).
    std::vector<uint32_t> order;
    for (uint32_t q = 0; q < m_.qnn_ops.size(); ++q)
      if (pid_of_qnn_[q] != 0) order.push_back(q);
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return m_.qnn_ops[a].qnn_id < m_.qnn_ops[b].qnn_id; });
    for (uint32_t q : order) {
      const uint32_t id = m_.qnn_ops[q].qnn_id;
      Begin();
      out_.Print(
          "{{ \"cat\": \"__metadata\", \"pid\": {}, \"ph\": \"M\", \"name\": \"process_name\", "
          "\"args\": {{\"name\": \"{}\", \"opid\": \"0x{:016x}\"}}}}",
          pid_of_qnn_[q], m_.ProcessName(q), id);
      Begin();
      out_.Print(
          "{{ \"cat\": \"__metadata\", \"pid\": {}, \"ph\": \"M\", \"name\": "
          "\"process_sort_index\", \"args\": {{\"sort_index\": {}}}}}",
          pid_of_qnn_[q], id);
      counts_.metadata_events += 2;
    }
  }

  void Counter(const char* name, int64_t cycle, int64_t value) {
    Begin();
    out_.Print(
        "{{ \"name\": \"{}\", \"ph\": \"C\", \"tid\":0, \"pid\":0, \"ts\":{}, \"args\": {{\"\": "
        "{}}}}}",
        name, Rel(cycle), value);
    ++counts_.counter_events;
  }

  void WriteCounters() {
    for (const auto& v : m_.vtcm) Counter("VTCM alloc", v.cycle, v.bytes);
    // Bytes of all slices active at each start/end of a slice that moves bytes.
    struct Edge {
      int64_t cycle;
      int32_t sign;
      uint32_t slice;
    };
    std::vector<Edge> edges;
    for (uint32_t i = 0; i < m_.slices.size(); ++i) {
      const Slice& s = m_.slices[i];
      if (s.vtcm_read_bytes + s.vtcm_write_bytes + s.dram_read_bytes + s.dram_write_bytes == 0)
        continue;
      edges.push_back({s.start_cycle, 1, i});
      edges.push_back({s.end_cycle(), -1, i});
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
      return a.cycle != b.cycle ? a.cycle < b.cycle : a.slice < b.slice;
    });
    int64_t vr = 0, vw = 0, dr = 0, dw = 0;
    for (size_t i = 0; i < edges.size();) {
      const int64_t cycle = edges[i].cycle;
      for (; i < edges.size() && edges[i].cycle == cycle; ++i) {
        const Slice& s = m_.slices[edges[i].slice];
        vr += edges[i].sign * static_cast<int64_t>(s.vtcm_read_bytes);
        vw += edges[i].sign * static_cast<int64_t>(s.vtcm_write_bytes);
        dr += edges[i].sign * static_cast<int64_t>(s.dram_read_bytes);
        dw += edges[i].sign * static_cast<int64_t>(s.dram_write_bytes);
      }
      Counter("VTCM read", cycle, vr);
      Counter("VTCM write", cycle, vw);
      Counter("DRAM read", cycle, dr);
      Counter("DRAM write", cycle, dw);
    }
  }

  const Model& m_;
  OutputFile& out_;
  TraceCounts counts_;
  bool first_ = true;
  std::vector<uint32_t> pid_of_qnn_;
  std::vector<uint8_t> threads_of_qnn_;  // TidBit mask of thread names written per process
  uint8_t overview_threads_ = 0;
  uint32_t next_pid_ = 2;
  fmt::memory_buffer args_;
  uint32_t args_op_ = kIdleSlice;
};

}  // namespace

TraceCounts WriteOptrace(const Model& model, OutputFile& out) {
  return TraceWriter(model, out).Run();
}

}  // namespace htpscope::synth
