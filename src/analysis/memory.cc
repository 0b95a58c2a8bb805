#include "analysis/memory.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string_view>

#include "analysis/rows_by_name.h"
#include "base/sort_util.h"
#include "model/missing_rows.h"

namespace htpscope {
namespace {

constexpr const char* kTrafficCounters[] = {"VTCM read", "VTCM write", "DRAM read", "DRAM write"};

std::optional<CounterPeak> PeakOf(const Run& run, const std::string& name,
                                  std::optional<int64_t> origin_cycle) {
  const CounterTrack* track = nullptr;
  for (const auto& t : run.counters)
    if (t.name == name) track = &t;
  if (!track || track->samples.empty()) return std::nullopt;
  CounterPeak peak;
  peak.counter = name;
  peak.samples = track->samples.size();
  bool first = true;
  // Samples are in file order; the peak's cycle is the earliest sample at the maximum.
  for (const auto& s : track->samples) {
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

void PeakAndCounters(const Run& run, MemoryView* out) {
  const bool trace = run.Gives(RunData::kTimedSlices);
  if (trace) {
    // Offsets count from the traced execution's first op (else first sample).
    std::optional<int64_t> origin = run.figures.start_cycle;
    if (!origin)
      for (const auto& track : run.counters)
        for (const auto& s : track.samples)
          origin = origin ? std::min(*origin, s.ts_cycles) : s.ts_cycles;
    out->peak_vtcm = PeakOf(run, "VTCM alloc", origin);
    if (out->peak_vtcm) {
      out->peak_vtcm_source = "optrace \"VTCM alloc\" counter";
      int64_t at = out->peak_vtcm->peak_cycle;
      for (const auto& op : run.op_instances)
        if (op.first_start_cycle <= at && at < op.last_end_cycle)
          out->active_at_peak.push_back(fmt::format("{}: {} (tid {})", run.Str(op.qnn_op_name),
                                                    run.Str(op.htp_op_type),
                                                    run.slices[op.first_slice].tid));
    } else {
      out->notes.push_back("the optrace has no \"VTCM alloc\" counter");
    }
    for (const char* name : kTrafficCounters)
      if (auto peak = PeakOf(run, name, origin)) out->traffic_counters.push_back(*peak);
    if (out->traffic_counters.empty())
      out->notes.push_back("the optrace has no VTCM/DRAM read/write counters");
  }
  if (!out->peak_vtcm && run.figures.peak_vtcm_source == Source::kQhas) {
    CounterPeak peak;
    peak.counter = "VTCM alloc";
    peak.peak_bytes = *run.figures.peak_vtcm_bytes;
    out->peak_vtcm = peak;
    out->peak_vtcm_source = "QHAS peak_vtcm_alloc (no cycle: no optrace counter)";
  }
}

const char* TrafficSourceText(Source source) {
  return source == Source::kQhas ? "QHAS htp_op_instances" : "HTP graph mem_* params";
}

TrafficBytes BytesOf(const TrafficRow& t) {
  return {t.dram_read_bytes, t.dram_write_bytes, t.vtcm_read_bytes, t.vtcm_write_bytes};
}

void PerOpTraffic(const Run& run, MemoryView* out) {
  std::optional<QnnOpTrafficTable> table = TrafficByQnnOp(run);
  if (!table) return;
  out->traffic_source = table->source;
  if (run.traffic_source == Source::kHtpGraph) {
    size_t without_params = run.graph_nodes.size() - run.traffic.size();
    out->notes.push_back(fmt::format(
        "per-op bytes come from the {} HTP graph nodes with mem_* params ({} nodes without "
        "them); DMA checkpoints, sync and output slices have no node, so totals are partial",
        run.traffic.size(), without_params));
  }
  for (const auto& t : run.traffic) {
    OpTraffic op;
    op.op_id = t.op_id;
    op.htp_op_type = run.Str(t.htp_op_type);
    op.qnn_op_name = run.Str(t.qnn_op_name);
    op.qnn_op_type = run.Str(t.qnn_op_type);
    op.category = t.category;
    op.bytes = BytesOf(t);
    op.cycles = t.cycles;
    out->ops.push_back(std::move(op));
  }
  std::stable_sort(out->ops.begin(), out->ops.end(), [](const OpTraffic& a, const OpTraffic& b) {
    if (a.bytes.dram() != b.bytes.dram()) return a.bytes.dram() > b.bytes.dram();
    if (a.bytes.vtcm() != b.bytes.vtcm()) return a.bytes.vtcm() > b.bytes.vtcm();
    return a.op_id < b.op_id;
  });
  out->totals = table->totals;
  out->qnn_ops = std::move(table->ops);
}

void SpillFill(const Run& run, MemoryView* out) {
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
  if (run.Gives(RunData::kTimedSlices)) {
    int64_t instances = 0, work = 0, dpc = 0;
    for (const auto& op : run.op_instances) {
      std::string_view type = run.Str(op.htp_op_type);
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

std::optional<QnnOpTrafficTable> TrafficByQnnOp(const Run& run) {
  if (run.traffic.empty()) return std::nullopt;
  QnnOpTrafficTable table;
  table.source = TrafficSourceText(run.traffic_source);
  RowsByName<QnnOpTraffic> by_name(run, table.ops);
  for (const auto& t : run.traffic) {
    const TrafficBytes bytes = BytesOf(t);
    table.totals.Add(bytes);
    QnnOpTraffic& g = by_name[t.qnn_op_name];
    if (g.type == StringPool::kEmpty) g.type = t.qnn_op_type;
    ++g.instances;
    g.bytes.Add(bytes);
  }
  const TrafficBytes& totals = table.totals;
  for (auto& g : table.ops)
    if (totals.dram() > 0)
      g.dram_share_pct =
          static_cast<double>(g.bytes.dram()) / static_cast<double>(totals.dram()) * 100;
  SortByRankThenName(
      table.ops,
      [](const QnnOpTraffic& g) {
        return std::array<int64_t, 2>{g.bytes.dram(), g.bytes.vtcm()};
      },
      [&run](const QnnOpTraffic& g) { return run.Str(g.name); });
  double covered = 0;
  for (auto& g : table.ops) {
    if (totals.dram() == 0 || covered >= kDramDominantCoverPct || g.bytes.dram() == 0) break;
    g.dram_dominant = true;
    covered += g.dram_share_pct.value_or(0);
  }
  return table;
}

std::optional<double> TrafficBytes::vtcm_read_hit_pct() const {
  const int64_t read = vtcm_read + dram_read;  // each below 2^62: summed with checks upstream
  if (read <= 0) return std::nullopt;
  return static_cast<double>(vtcm_read) / static_cast<double>(read) * 100;
}

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

MemoryView AnalyzeMemory(const Run& run) {
  MemoryView out;
  out.run = &run;
  PeakAndCounters(run, &out);
  PerOpTraffic(run, &out);
  SpillFill(run, &out);
  // The artifacts the memory view reads, missing, in the run's words: the
  // optrace (counters, timed slices) and QHAS (per-op bytes, totals).
  out.missing = MissingRowsOf(run, {RunData::kTimedSlices, RunData::kQhasAnalysis});
  return out;
}

}  // namespace htpscope
