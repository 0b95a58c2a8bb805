#include "report/memory_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "model/figures.h"
#include "report/format_util.h"
#include "report/json_values.h"
#include "report/run_sections.h"

namespace htpscope {
namespace {

using nlohmann::json;

void AddTraffic(json& j, const TrafficBytes& b) {
  j[FigureName(Figure::kDramReadBytes)] = b.dram_read;
  j[FigureName(Figure::kDramWriteBytes)] = b.dram_write;
  j[FigureName(Figure::kVtcmReadBytes)] = b.vtcm_read;
  j[FigureName(Figure::kVtcmWriteBytes)] = b.vtcm_write;
  j["vtcm_read_hit_pct"] = OptionalJson(b.vtcm_read_hit_pct());
}

json PeakJson(const CounterPeak& p, bool has_cycle) {
  return {{"counter", p.counter},
          {"peak_bytes", p.peak_bytes},
          {"peak_cycle", has_cycle ? json(p.peak_cycle) : json(nullptr)},
          {"peak_offset_cycles", OptionalJson(p.peak_offset_cycles)},
          {"samples", p.samples}};
}

std::string At(const CounterPeak& p) {
  return p.peak_offset_cycles
             ? fmt::format("at cycle {} ({} cycles into the execution)", GroupDigits(p.peak_cycle),
                           GroupDigits(*p.peak_offset_cycles))
             : "at cycle " + GroupDigits(p.peak_cycle);
}

void RenderPeak(const MemoryView& m, std::string& out) {
  AppendSection(out, "VTCM allocation");
  if (!m.peak_vtcm) {
    out += "  no VTCM allocation data (needs the optrace or the QHAS summary)\n";
    return;
  }
  const CounterPeak& p = *m.peak_vtcm;
  bool has_cycle = p.samples > 0;
  out += fmt::format("  peak {} bytes ({}){}  [{}]\n", GroupDigits(p.peak_bytes),
                     HumanBytes(p.peak_bytes),
                     has_cycle ? fmt::format(" {}", At(p)) : std::string(), m.peak_vtcm_source);
  if (!m.active_at_peak.empty()) {
    out += "  ops running at that cycle:\n";
    for (const auto& a : m.active_at_peak) out += fmt::format("    {}\n", a);
  }
  if (!m.traffic_counters.empty()) {
    out +=
        "  Largest bytes of concurrently active ops (optrace counters: Σ bytes of the ops running "
        "at a cycle — bytes, not bandwidth):\n";
    for (const auto& c : m.traffic_counters)
      out += fmt::format("    {:<10} {:>13} bytes ({}) {}\n", c.counter, GroupDigits(c.peak_bytes),
                         HumanBytes(c.peak_bytes), At(c));
  }
}

std::string Share(const std::optional<double>& v) {
  return v ? fmt::format("{:.1f}", *v) : std::string("-");
}

void RenderTraffic(const MemoryView& m, int top_n, std::string& out) {
  AppendSection(out, fmt::format("DRAM and VTCM traffic per op, in bytes ({})", m.traffic_source));
  const TrafficBytes& t = *m.totals;
  out += fmt::format(
      "  total  DRAM read {} ({})  DRAM write {} ({})  VTCM read {} ({})  VTCM write {} ({})\n",
      GroupDigits(t.dram_read), HumanBytes(t.dram_read), GroupDigits(t.dram_write),
      HumanBytes(t.dram_write), GroupDigits(t.vtcm_read), HumanBytes(t.vtcm_read),
      GroupDigits(t.vtcm_write), HumanBytes(t.vtcm_write));
  size_t rows = std::min(m.qnn_ops.size(), static_cast<size_t>(std::max(top_n, 0)));
  out += fmt::format("  QNN ops by DRAM bytes (top {} of {}):\n", FormatCount(rows),
                     FormatCount(m.qnn_ops.size()));
  out +=
      fmt::format("    {:<28} {:>5} {:>12} {:>12} {:>12} {:>12} {:>7} {:>9}\n", "QNN op", "inst.",
                  "DRAM read", "DRAM write", "VTCM read", "VTCM write", "% DRAM", "VTCM hit");
  for (size_t i = 0; i < rows; ++i) {
    const QnnOpTraffic& g = m.qnn_ops[i];
    out +=
        fmt::format("    {:<28} {:>5} {:>12} {:>12} {:>12} {:>12} {:>7} {:>9}{}\n",
                    Ellipsize(m.run->Str(g.name), 28), g.instances, GroupDigits(g.bytes.dram_read),
                    GroupDigits(g.bytes.dram_write), GroupDigits(g.bytes.vtcm_read),
                    GroupDigits(g.bytes.vtcm_write), Share(g.dram_share_pct),
                    Share(g.bytes.vtcm_read_hit_pct()), g.dram_dominant ? "  *" : "");
  }
  out += fmt::format(
      "    * DRAM-dominant: the fewest QNN ops that together carry ≥ {:.0f} % of DRAM bytes\n"
      "    VTCM hit = VTCM read ÷ (VTCM read + DRAM read): the share of bytes read that VTCM "
      "served\n",
      kDramDominantCoverPct);
  rows = std::min(m.ops.size(), static_cast<size_t>(std::max(top_n, 0)));
  out += fmt::format("  HTP op instances by DRAM bytes (top {} of {}):\n", FormatCount(rows),
                     FormatCount(m.ops.size()));
  out += fmt::format("    {:<18} {:<36} {:<16} {:<14} {:>10} {:>10} {:>10} {:>10}\n", "op id",
                     "HTP op type", "QNN op", "kind", "DRAM rd", "DRAM wr", "VTCM rd", "VTCM wr");
  for (size_t i = 0; i < rows; ++i) {
    const OpTraffic& op = m.ops[i];
    out += fmt::format("    {:<18} {:<36} {:<16} {:<14} {:>10} {:>10} {:>10} {:>10}\n",
                       OpIdHex(op.op_id), Ellipsize(op.htp_op_type, 36),
                       Ellipsize(op.qnn_op_name, 16), OpCategoryName(op.category),
                       GroupDigits(op.bytes.dram_read), GroupDigits(op.bytes.dram_write),
                       GroupDigits(op.bytes.vtcm_read), GroupDigits(op.bytes.vtcm_write));
  }
}

void RenderSpillFill(const MemoryView& m, std::string& out) {
  AppendSection(out, "Spill/Fill (compiler-inserted VTCM<->DRAM round trips)");
  const SpillFillTotals& s = *m.spill_fill;
  if (s.instances == 0) {
    out += fmt::format("  none: no HTP op type contains \"Spill\" or \"Fill\" ({})\n", s.source);
    return;
  }
  out += fmt::format("  {} instances ({}) of {}\n", FormatCount(s.instances), s.source,
                     fmt::join(s.htp_op_types, ", "));
  if (s.work_cycles)
    out += fmt::format("  work {} cycles, on the dominant path {} cycles\n",
                       GroupDigits(*s.work_cycles), GroupDigits(s.dpc_cycles.value_or(0)));
  if (s.bytes)
    out += fmt::format("  DRAM read {} ({})  DRAM write {} ({})  VTCM read {}  VTCM write {}\n",
                       GroupDigits(s.bytes->dram_read), HumanBytes(s.bytes->dram_read),
                       GroupDigits(s.bytes->dram_write), HumanBytes(s.bytes->dram_write),
                       GroupDigits(s.bytes->vtcm_read), GroupDigits(s.bytes->vtcm_write));
  else
    out += "  bytes unknown (needs the QHAS summary or the HTP graph)\n";
}

}  // namespace

std::string RenderMemoryText(const MemoryView& m, int top_n) {
  std::string out = fmt::format("htpscope memory: {}\n", m.run->label);
  out += ReadArtifactLines(m.run->artifacts);
  out += "  one traced execution (the optrace and QHAS cover the first, cold one)\n";
  RenderPeak(m, out);
  if (m.totals) RenderTraffic(m, top_n, out);
  if (m.spill_fill) RenderSpillFill(m, out);
  out += CrossChecksSection(m.run->cross_checks, "memory");
  if (!m.notes.empty()) {
    AppendSection(out, "Notes");
    for (const auto& n : m.notes) out += fmt::format("  {}\n", n);
  }
  out += MissingArtifactsSection(m.missing);
  return out;
}

LazyObject MemoryJson(const MemoryView& m) {
  LazyObject doc;
  json& j = doc.members;
  j["schema"] = "htpscope.memory/1";
  j["label"] = m.run->label;
  j["artifacts"] = ArtifactsJson(m.run->artifacts);
  if (m.peak_vtcm) {
    json p = PeakJson(*m.peak_vtcm, m.peak_vtcm->samples > 0);
    p["source"] = m.peak_vtcm_source;
    j["peak_vtcm"] = p;
  } else {
    j["peak_vtcm"] = nullptr;
  }
  j["active_at_peak"] = m.active_at_peak;
  j["traffic_counters"] = json::array();
  for (const auto& c : m.traffic_counters) j["traffic_counters"].push_back(PeakJson(c, true));
  j["traffic_source"] = m.traffic_source.empty() ? json(nullptr) : json(m.traffic_source);
  if (m.totals) {
    json t = json::object();
    AddTraffic(t, *m.totals);
    j["totals"] = t;
  } else {
    j["totals"] = nullptr;
  }
  doc.AddArray("qnn_ops", m.qnn_ops.size(), [&m](size_t i) {
    const auto& g = m.qnn_ops[i];
    json row = {{"name", m.run->Str(g.name)},
                {"type", m.run->Str(g.type)},
                {"instances", g.instances},
                {"dram_share_pct", OptionalJson(g.dram_share_pct)},
                {"dram_dominant", g.dram_dominant}};
    AddTraffic(row, g.bytes);
    return row;
  });
  doc.AddArray("ops", m.ops.size(), [&m](size_t i) {
    const auto& op = m.ops[i];
    json row = {{"op_id", OpIdHex(op.op_id)},
                {"htp_op_type", op.htp_op_type},
                {"qnn_op_name", op.qnn_op_name},
                {"qnn_op_type", op.qnn_op_type},
                {"category", OpCategoryName(op.category)},
                {"cycles", OptionalJson(op.cycles)}};
    AddTraffic(row, op.bytes);
    return row;
  });
  if (m.spill_fill) {
    const SpillFillTotals& s = *m.spill_fill;
    json sf = {{"instances", s.instances},
               {"htp_op_types", s.htp_op_types},
               {ItemFigureName(ItemFigure::kWorkCycles), OptionalJson(s.work_cycles)},
               {"dpc_cycles", OptionalJson(s.dpc_cycles)},
               {"source", s.source}};
    if (s.bytes) {
      AddTraffic(sf, *s.bytes);
    } else {
      for (Figure f : {Figure::kDramReadBytes, Figure::kDramWriteBytes, Figure::kVtcmReadBytes,
                       Figure::kVtcmWriteBytes})
        sf[FigureName(f)] = nullptr;
    }
    j["spill_fill"] = sf;
  } else {
    j["spill_fill"] = nullptr;
  }
  j["cross_checks"] = CrossChecksJson(m.run->cross_checks, "memory");
  j["missing"] = MissingArtifactsJson(m.missing);
  j["notes"] = m.notes;
  return doc;
}

}  // namespace htpscope
