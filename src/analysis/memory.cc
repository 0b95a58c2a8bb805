#include "analysis/memory.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace htpscope {
namespace {

constexpr const char* kTrafficCounters[] = {"VTCM read", "VTCM write", "DRAM read", "DRAM write"};

// The HTP graph's op_flags param: "uses_hmx", "uses_hvx", "dma", "dma_set", ...
uint8_t FlagsOfNode(const HtpNode& node) {
  auto it = node.scalar_params.find("op_flags");
  if (it == node.scalar_params.end() || !it->second.AsString()) return 0;
  return OpFlagOfName(*it->second.AsString());
}

std::string StringParam(const HtpNode& node, const std::string& key) {
  auto it = node.scalar_params.find(key);
  if (it == node.scalar_params.end() || !it->second.AsString()) return "";
  return *it->second.AsString();
}

// The four mem_* params of a node, when it has all of them.
std::optional<TrafficBytes> NodeTraffic(const HtpNode& node) {
  auto dr = node.IntParam("mem_dram_read"), dw = node.IntParam("mem_dram_write");
  auto vr = node.IntParam("mem_vtcm_read"), vw = node.IntParam("mem_vtcm_write");
  if (!dr || !dw || !vr || !vw) return std::nullopt;
  return TrafficBytes{*dr, *dw, *vr, *vw};
}

TrafficBytes QhasTraffic(const QhasOpInstance& i) {
  return {i.dram_read_bytes, i.dram_write_bytes, i.vtcm_read_bytes, i.vtcm_write_bytes};
}

std::optional<CounterPeak> PeakOf(const Optrace& trace, const std::string& name,
                                  std::optional<int64_t> origin_cycle) {
  auto it = trace.counters.find(name);
  if (it == trace.counters.end() || it->second.empty()) return std::nullopt;
  CounterPeak peak;
  peak.counter = name;
  peak.samples = it->second.size();
  bool first = true;
  // Samples are in file order; the peak's cycle is the earliest sample at the maximum.
  for (const auto& s : it->second) {
    if (first || s.value > peak.peak_bytes ||
        (s.value == peak.peak_bytes && s.ts_cycles < peak.peak_cycle)) {
      peak.peak_bytes = s.value;
      peak.peak_cycle = s.ts_cycles;
      first = false;
    }
  }
  if (origin_cycle) peak.peak_offset_cycles = peak.peak_cycle - *origin_cycle;
  return peak;
}

void AddCheck(MemoryView* out, std::string name, std::string unit, std::string a_source, double a,
              std::string b_source, double b, std::string note = "") {
  CrossCheck c;
  c.name = std::move(name);
  c.unit = std::move(unit);
  c.a_source = std::move(a_source);
  c.b_source = std::move(b_source);
  c.a = a;
  c.b = b;
  c.agree = a == b;
  c.note = std::move(note);
  out->cross_checks.push_back(std::move(c));
}

void PeakAndCounters(const ProfiledRun& run, MemoryView* out) {
  const QhasOverall* overall =
      run.qhas && !run.qhas->overall.empty() ? &run.qhas->overall.front() : nullptr;
  if (run.optrace) {
    const Optrace& trace = *run.optrace;
    // Offsets count from the traced execution's first op (else first sample).
    std::optional<int64_t> origin;
    for (const auto& op : run.ops)
      origin = origin ? std::min(*origin, op.first_start_cycles) : op.first_start_cycles;
    if (!origin)
      for (const auto& [name, samples] : trace.counters)
        for (const auto& s : samples)
          origin = origin ? std::min(*origin, s.ts_cycles) : s.ts_cycles;
    out->peak_vtcm = PeakOf(trace, "VTCM alloc", origin);
    if (out->peak_vtcm) {
      out->peak_vtcm_source = "optrace \"VTCM alloc\" counter";
      int64_t at = out->peak_vtcm->peak_cycle;
      for (const auto& op : run.ops)
        if (op.first_start_cycles <= at && at < op.last_end_cycles)
          out->active_at_peak.push_back(fmt::format("{}: {} (tid {})", trace.Str(op.qnn_op_name),
                                                    trace.Str(op.htp_op_type),
                                                    trace.slices[op.first_slice].tid));
    } else {
      out->notes.push_back("the optrace has no \"VTCM alloc\" counter");
    }
    for (const char* name : kTrafficCounters)
      if (auto peak = PeakOf(trace, name, origin)) out->traffic_counters.push_back(*peak);
    if (out->traffic_counters.empty())
      out->notes.push_back("the optrace has no VTCM/DRAM read/write counters");
  }
  if (overall) {
    if (out->peak_vtcm) {
      AddCheck(out, "peak VTCM allocation", "bytes", "optrace max \"VTCM alloc\" counter",
               static_cast<double>(out->peak_vtcm->peak_bytes), "QHAS peak_vtcm_alloc",
               static_cast<double>(overall->peak_vtcm_alloc_bytes));
    } else {
      CounterPeak peak;
      peak.counter = "VTCM alloc";
      peak.peak_bytes = overall->peak_vtcm_alloc_bytes;
      out->peak_vtcm = peak;
      out->peak_vtcm_source = "QHAS peak_vtcm_alloc (no cycle: no optrace counter)";
    }
  }
}

void PerOpTraffic(const ProfiledRun& run, MemoryView* out) {
  std::unordered_map<uint64_t, TrafficBytes> qhas_by_id;
  if (run.qhas && !run.qhas->htp_op_instances.empty()) {
    out->traffic_source = "QHAS htp_op_instances";
    for (const auto& i : run.qhas->htp_op_instances) {
      OpTraffic op;
      op.op_id = i.op_id;
      op.htp_op_type = i.htp_op;
      op.qnn_op_name = i.qnn_op;
      op.qnn_op_type = i.qnn_op_type;
      op.category = ClassifyOp(i.htp_op, i.qnn_op_type, OpFlagsOf(i));
      op.bytes = QhasTraffic(i);
      op.cycles = i.cycles;
      qhas_by_id.emplace(i.op_id, op.bytes);
      out->ops.push_back(std::move(op));
    }
  }
  if (run.htp_graph) {
    size_t compared = 0, agreeing = 0, without_params = 0;
    std::vector<OpTraffic> from_graph;
    for (const auto& [id, node] : run.htp_graph->nodes) {
      std::optional<TrafficBytes> bytes = NodeTraffic(node);
      if (!bytes) {
        ++without_params;
        continue;
      }
      auto it = qhas_by_id.find(id);
      if (it != qhas_by_id.end()) {
        ++compared;
        const TrafficBytes& q = it->second;
        if (q.dram_read == bytes->dram_read && q.dram_write == bytes->dram_write &&
            q.vtcm_read == bytes->vtcm_read && q.vtcm_write == bytes->vtcm_write)
          ++agreeing;
      }
      OpTraffic op;
      op.op_id = id;
      op.htp_op_type = node.type;
      op.qnn_op_name = node.grouping;
      op.qnn_op_type = StringParam(node, "qnn_op_type");
      op.category = ClassifyOp(node.type, op.qnn_op_type, FlagsOfNode(node));
      op.bytes = *bytes;
      op.cycles = node.IntParam("cycles_duration");
      from_graph.push_back(std::move(op));
    }
    if (!qhas_by_id.empty() && compared > 0)
      AddCheck(out, "per-op traffic of HTP graph nodes", "ops", "nodes whose mem_* equal QHAS",
               static_cast<double>(agreeing), "nodes compared", static_cast<double>(compared));
    if (out->traffic_source.empty() && !from_graph.empty()) {
      out->traffic_source = "HTP graph mem_* params";
      out->ops = std::move(from_graph);
      out->notes.push_back(fmt::format(
          "per-op bytes come from the {} HTP graph nodes with mem_* params ({} nodes without "
          "them); DMA checkpoints, sync and output slices have no node, so totals are partial",
          out->ops.size(), without_params));
    }
  }
  if (out->ops.empty()) return;
  TrafficBytes totals;
  for (const auto& op : out->ops) totals.Add(op.bytes);
  out->totals = totals;
  std::stable_sort(out->ops.begin(), out->ops.end(), [](const OpTraffic& a, const OpTraffic& b) {
    if (a.bytes.dram() != b.bytes.dram()) return a.bytes.dram() > b.bytes.dram();
    if (a.bytes.vtcm() != b.bytes.vtcm()) return a.bytes.vtcm() > b.bytes.vtcm();
    return a.op_id < b.op_id;
  });

  std::map<std::string, QnnOpTraffic> groups;
  for (const auto& op : out->ops) {
    QnnOpTraffic& g = groups[op.qnn_op_name];
    g.name = op.qnn_op_name;
    if (g.type.empty()) g.type = op.qnn_op_type;
    ++g.instances;
    g.bytes.Add(op.bytes);
  }
  for (auto& [name, g] : groups) {
    if (totals.dram() > 0)
      g.dram_share_pct =
          static_cast<double>(g.bytes.dram()) / static_cast<double>(totals.dram()) * 100;
    out->qnn_ops.push_back(std::move(g));
  }
  std::stable_sort(out->qnn_ops.begin(), out->qnn_ops.end(),
                   [](const QnnOpTraffic& a, const QnnOpTraffic& b) {
                     if (a.bytes.dram() != b.bytes.dram()) return a.bytes.dram() > b.bytes.dram();
                     return a.bytes.vtcm() > b.bytes.vtcm();
                   });
  double covered = 0;
  for (auto& g : out->qnn_ops) {
    if (totals.dram() == 0 || covered >= kDramDominantCoverPct || g.bytes.dram() == 0) break;
    g.dram_dominant = true;
    covered += g.dram_share_pct.value_or(0);
  }

  if (out->traffic_source == "QHAS htp_op_instances" && !run.qhas->overall.empty()) {
    const QhasOverall& o = run.qhas->overall.front();
    AddCheck(out, "DRAM read", "bytes", "Σ QHAS htp_op_instances", totals.dram_read,
             "QHAS total_dram_read", o.total_dram_read_bytes);
    AddCheck(out, "DRAM write", "bytes", "Σ QHAS htp_op_instances", totals.dram_write,
             "QHAS total_dram_write", o.total_dram_write_bytes);
    AddCheck(out, "VTCM read", "bytes", "Σ QHAS htp_op_instances", totals.vtcm_read,
             "QHAS total_vtcm_read", o.total_vtcm_read_bytes);
    AddCheck(out, "VTCM write", "bytes", "Σ QHAS htp_op_instances", totals.vtcm_write,
             "QHAS total_vtcm_write", o.total_vtcm_write_bytes);
  }
}

void SpillFill(const ProfiledRun& run, MemoryView* out) {
  SpillFillTotals sf;
  std::set<std::string> types;
  bool listed = false;
  if (!out->ops.empty()) {
    listed = true;
    sf.source = out->traffic_source;
    TrafficBytes bytes;
    for (const auto& op : out->ops) {
      if (!IsSpillFillOp(op.htp_op_type)) continue;
      ++sf.instances;
      types.insert(op.htp_op_type);
      bytes.Add(op.bytes);
    }
    sf.bytes = bytes;
  }
  if (run.optrace) {
    const Optrace& trace = *run.optrace;
    int64_t instances = 0, work = 0, dpc = 0;
    for (const auto& op : run.ops) {
      std::string_view type = trace.Str(op.htp_op_type);
      if (!IsSpillFillOp(type)) continue;
      ++instances;
      work += op.work_cycles;
      dpc += op.dpc_cycles;
      types.insert(std::string(type));
    }
    sf.work_cycles = work;
    sf.dpc_cycles = dpc;
    if (!listed) {
      listed = true;
      sf.instances = instances;
      sf.source = "optrace";
    } else if (instances != sf.instances) {
      // The HTP graph lists nodes, the optrace executed instances.
      out->notes.push_back(fmt::format(
          "Spill/Fill instances: {} in the optrace, {} in the {}; the optrace count is used",
          instances, sf.instances, sf.source));
      sf.instances = instances;
    }
  }
  if (!listed) return;
  sf.htp_op_types.assign(types.begin(), types.end());
  out->spill_fill = std::move(sf);
}

}  // namespace

void TrafficBytes::Add(const TrafficBytes& other) {
  dram_read += other.dram_read;
  dram_write += other.dram_write;
  vtcm_read += other.vtcm_read;
  vtcm_write += other.vtcm_write;
}

bool IsSpillFillOp(std::string_view htp_op_type) {
  return htp_op_type.find("Spill") != std::string_view::npos ||
         htp_op_type.find("Fill") != std::string_view::npos;
}

MemoryView AnalyzeMemory(const ProfiledRun& run) {
  MemoryView out;
  out.label = run.label;
  out.artifacts = run.artifacts;
  PeakAndCounters(run, &out);
  PerOpTraffic(run, &out);
  SpillFill(run, &out);
  if (!run.optrace)
    out.missing.push_back(
        {"optrace (chrometrace.json)",
         "VTCM allocation over time and the cycle of its peak, bytes of concurrently active ops, "
         "Spill/Fill cycles"});
  if (!run.qhas)
    out.missing.push_back(
        {"QHAS summary",
         run.htp_graph ? "traffic of ops without an HTP graph node (DMA checkpoints, sync, output "
                         "slices), QHAS totals to cross-check"
                       : "per-op DRAM/VTCM bytes (also in the HTP graph's mem_* params)"});
  return out;
}

}  // namespace htpscope
