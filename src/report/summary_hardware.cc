#include "report/summary_hardware.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "base/number_text.h"
#include "model/figures.h"
#include "report/format_util.h"
#include "report/json_values.h"
#include "report/run_sections.h"
#include "report/text_sanitize.h"

namespace htpscope {
namespace {

using nlohmann::json;

constexpr PathUnit kPathUnits[] = {PathUnit::kHmx,     PathUnit::kHvx,  PathUnit::kDma,
                                   PathUnit::kDmaWait, PathUnit::kSync, PathUnit::kOther,
                                   PathUnit::kIdle};
constexpr RollupClass kRollupClasses[] = {RollupClass::kCompute, RollupClass::kStaging,
                                          RollupClass::kDma, RollupClass::kOther};

// Column labels by PathUnit value.
constexpr const char* kPathUnitLabels[kPathUnitCount] = {
    "HMX", "HVX", "DMA transfer", "DMA wait", "sync", "other", "idle"};
const char* PathUnitLabel(PathUnit unit) { return kPathUnitLabels[static_cast<size_t>(unit)]; }

// JSON member names by PathUnit / RollupClass value, made once: a big run's
// tables print them on tens of thousands of rows.
const std::string& PathUnitCyclesKey(PathUnit unit) {
  static const auto keys = [] {
    std::array<std::string, kPathUnitCount> k;
    for (PathUnit u : kPathUnits)
      k[static_cast<size_t>(u)] = fmt::format("{}_cycles", PathUnitName(u));
    return k;
  }();
  return keys[static_cast<size_t>(unit)];
}
struct RollupKeys {
  std::string work, dpc;  // "<class>_work_cycles", "<class>_dpc_cycles"
};
const RollupKeys& RollupClassKeys(RollupClass c) {
  static const auto keys = [] {
    std::array<RollupKeys, kRollupClassCount> k;
    for (RollupClass r : kRollupClasses)
      k[static_cast<size_t>(r)] = {fmt::format("{}_work_cycles", RollupClassName(r)),
                                   fmt::format("{}_dpc_cycles", RollupClassName(r))};
    return k;
  }();
  return keys[static_cast<size_t>(c)];
}

std::string OpLabel(std::string_view name) {
  return name.empty() ? std::string("(ops QHAS does not list)") : TerminalSafe(name);
}

void RenderPathByUnit(const Run& run, const PathByUnit& p, int top_n, std::string& out) {
  AppendSection(out, fmt::format("Dominant path by hardware ({})",
                                 p.source == Source::kQhas
                                     ? "QHAS dominant_path_htp_0"
                                     : "recomputed from the optrace the way QHAS does"));
  out += fmt::format("  {:<14} {:>13} {:>8}\n", "unit", "path cycles", "% path");
  for (PathUnit u : kPathUnits)
    out += fmt::format("  {:<14} {:>13} {:>8}\n", PathUnitLabel(u), GroupDigits(p.total[u]),
                       OrDash(SharePct(p.total[u], p.path_cycles), 1));
  out += fmt::format("  {:<14} {:>13} {:>8}\n", "total", GroupDigits(p.path_cycles), "100.0");
  out += fmt::format("  QNN ops (top {} of {}, by cycles on the path):\n",
                     FormatCount(std::min<size_t>(top_n, p.ops.size())), FormatCount(p.ops.size()));
  out += fmt::format("    {:<30} {:>11}", "name", "path cycles");
  for (const char* unit : {"HMX", "HVX", "DMA", "DMA wait", "sync", "other"})
    out += fmt::format(" {:>10}", unit);
  out += "\n";
  int shown = 0;
  for (const auto& op : p.ops) {
    if (shown++ >= top_n) break;
    out += fmt::format("    {:<30} {:>11}", Ellipsize(OpLabel(run.Str(op.name)), 30),
                       GroupDigits(op.path_cycles));
    for (size_t u = 0; u + 1 < kPathUnitCount; ++u)
      out += fmt::format(" {:>10}", GroupDigits(op.cycles[kPathUnits[u]]));
    out += "\n";
  }
  out +=
      "  unit = the flags of the op holding the path: uses_hmx, uses_hvx, dma or dma_set\n"
      "  (transfer), dma_wait, sync; other = none of them.  The units sum to the path (= wall).\n";
}

void RenderRollup(const Run& run, const OpRollup& r, int top_n, std::string& out) {
  AppendSection(out, "Compute / staging / DMA per QNN op (work cycles, Σ over threads)");
  out += fmt::format("  QNN ops (top {} of {}, by work):\n",
                     FormatCount(std::min<size_t>(top_n, r.ops.size())), FormatCount(r.ops.size()));
  out += fmt::format("    {:<30} {:>12} {:>12} {:>12} {:>10} {:>12} {:>10}\n", "name", "compute",
                     "staging", "DMA", "other", "work", "% staging");
  auto row = [&](const std::string& name, const OpRollupRow& o) {
    out += fmt::format("    {:<30} {:>12} {:>12} {:>12} {:>10} {:>12} {:>10}\n",
                       Ellipsize(name, 30), GroupDigits(o.work[RollupClass::kCompute]),
                       GroupDigits(o.work[RollupClass::kStaging]),
                       GroupDigits(o.work[RollupClass::kDma]),
                       GroupDigits(o.work[RollupClass::kOther]), GroupDigits(o.work.Total()),
                       OrDash(SharePct(o.work[RollupClass::kStaging], o.work.Total()), 1));
  };
  int shown = 0;
  for (const auto& o : r.ops)
    if (shown++ < top_n) row(TerminalSafe(run.Str(o.name)), o);
  row("all ops", r.total);
  out +=
      "  compute = HMX/HVX ops; staging = format changes, reference ops, slices and other\n"
      "  boundary ops; DMA = dma, dma_set, dma_wait ops; other = sync and unflagged ops\n";
}

void RenderCores(const Run& run, std::string& out) {
  AppendSection(out, "HTP cores (QHAS htp_overall_summary, dominant_path_htp_N)");
  out += fmt::format("  {:>4} {:>15} {:>7} {:>13} {:>12} {:>17} {:>20}\n", "core",
                     "timeline cycles", "util %", "path cycles", "idle cycles", "HMX used (util %)",
                     "busiest HVX (util %)");
  for (const auto& c : run.qhas_cores) {
    auto used = [&](int64_t cycles) {
      return fmt::format("{} ({})", GroupDigits(cycles),
                         OrDash(SharePct(cycles, c.timeline_cycles), 1));
    };
    out += fmt::format("  {:>4} {:>15} {:>7.1f} {:>13} {:>12} {:>17} {:>20}\n", c.core,
                       GroupDigits(c.timeline_cycles), c.percent_utilization,
                       OrDash(c.path_op_cycles), OrDash(c.path_idle_cycles),
                       used(c.hmx_cycles_used), used(c.busiest_hvx_cycles_used));
  }
  out += "  path cycles = Σ op rows of the core's dominant path; util % = of its timeline\n";
}

void RenderVtcmHits(const Run& run, const QnnOpTrafficTable& t, int top_n, std::string& out) {
  AppendSection(out, fmt::format("VTCM read hit ratio per QNN op, in bytes ({})", t.source));
  const TrafficBytes& all = t.totals;
  if (auto hit = all.vtcm_read_hit_pct())
    out += fmt::format(
        "  all ops: VTCM served {:.1f} % of the bytes read (VTCM read {} ({}), DRAM read {} "
        "({}))\n",
        *hit, GroupDigits(all.vtcm_read), HumanBytes(all.vtcm_read), GroupDigits(all.dram_read),
        HumanBytes(all.dram_read));
  else
    out += "  all ops: no bytes read\n";
  out += fmt::format("  QNN ops (top {} of {}, by DRAM bytes read):\n",
                     FormatCount(std::min<size_t>(top_n, t.ops.size())), FormatCount(t.ops.size()));
  out += fmt::format("    {:<30} {:>14} {:>14} {:>11} {:>7}\n", "name", "DRAM read", "VTCM read",
                     "VTCM hit %", "% DRAM");
  int shown = 0;
  for (const auto& op : t.ops) {
    if (shown++ >= top_n) break;
    out += fmt::format("    {:<30} {:>14} {:>14} {:>11} {:>7}\n",
                       Ellipsize(OpLabel(run.Str(op.name)), 30), GroupDigits(op.bytes.dram_read),
                       GroupDigits(op.bytes.vtcm_read), OrDash(op.bytes.vtcm_read_hit_pct(), 1),
                       OrDash(op.dram_share_pct, 1));
  }
  out +=
      "  VTCM hit = VTCM read ÷ (VTCM read + DRAM read): the share of bytes read that VTCM "
      "served;\n"
      "  % DRAM = the op's share of all DRAM bytes (read + write).  Writes: htpscope memory\n";
  if (run.traffic_source == Source::kHtpGraph)
    out +=
        "  (HTP graph nodes with mem_* params only: DMA checkpoints, sync and output slices have "
        "no node)\n";
}

void CyclesRow(const PathUnitCycles& c, bool with_idle, JsonRow& row) {
  for (PathUnit u : kPathUnits)
    if (with_idle || u != PathUnit::kIdle) row.Number(PathUnitCyclesKey(u), c[u]);
}

void RollupRow(const Run& run, const OpRollupRow& o, JsonRow& row) {
  row.String("name", run.Str(o.name));
  row.String("type", run.Str(o.type));
  row.Number("instances", o.instances);
  row.Number(ItemFigureName(ItemFigure::kWorkCycles), o.work.Total());
  row.Number("dpc_cycles", o.dpc.Total());
  row.Optional("staging_share_of_work_pct",
               SharePct(o.work[RollupClass::kStaging], o.work.Total()));
  for (RollupClass c : kRollupClasses) {
    row.Number(RollupClassKeys(c).work, o.work[c]);
    row.Number(RollupClassKeys(c).dpc, o.dpc[c]);
  }
}

}  // namespace

std::string RenderHardwareSections(const Summary& s, int top_n) {
  std::string out;
  if (s.path_by_unit) RenderPathByUnit(*s.run, *s.path_by_unit, top_n, out);
  if (!s.op_rollup.ops.empty()) RenderRollup(*s.run, s.op_rollup, top_n, out);
  if (s.traffic) RenderVtcmHits(*s.run, *s.traffic, top_n, out);
  if (s.run->qhas_cores.size() > 1) RenderCores(*s.run, out);
  return out;
}

void AddHardwareJson(const Summary& s, LazyObject& doc) {
  json& out = doc.members;
  if (s.path_by_unit) {
    const PathByUnit& p = *s.path_by_unit;
    json shares = json::object();
    for (PathUnit u : kPathUnits)
      shares[fmt::format("{}_pct", PathUnitName(u))] =
          OptionalJson(SharePct(p.total[u], p.path_cycles));
    LazyObject table;
    table.members = {{"source", SourceName(p.source)},
                     {"path_cycles", p.path_cycles},
                     {"segments", p.segments},
                     {"total", RowJson([&p](JsonRow& row) { CyclesRow(p.total, true, row); })},
                     {"share_of_path", std::move(shares)}};
    table.AddRowArray("ops", p.ops.size(), [&p, &s](size_t i, JsonRow& row) {
      CyclesRow(p.ops[i].cycles, false, row);
      row.String("name", s.run->Str(p.ops[i].name));
      row.Number("path_cycles", p.ops[i].path_cycles);
    });
    doc.AddObject("dominant_path_by_unit", std::move(table));
  } else {
    out["dominant_path_by_unit"] = nullptr;
  }
  if (!s.op_rollup.ops.empty()) {
    const OpRollup& r = s.op_rollup;
    json total = RowJson([&r, &s](JsonRow& row) { RollupRow(*s.run, r.total, row); });
    total.erase("name");
    total.erase("type");
    LazyObject table;
    table.members = {{"total", std::move(total)}};
    table.AddRowArray("ops", r.ops.size(),
                      [&r, &s](size_t i, JsonRow& row) { RollupRow(*s.run, r.ops[i], row); });
    doc.AddObject("op_rollup", std::move(table));
  } else {
    out["op_rollup"] = nullptr;
  }
  if (s.traffic) {
    const QnnOpTrafficTable& t = *s.traffic;
    LazyObject table;
    table.members = {{"source", SourceName(s.run->traffic_source)},
                     {FigureName(Figure::kDramReadBytes), t.totals.dram_read},
                     {FigureName(Figure::kVtcmReadBytes), t.totals.vtcm_read},
                     {"vtcm_read_hit_pct", OptionalJson(t.totals.vtcm_read_hit_pct())}};
    table.AddRowArray("ops", t.ops.size(), [&t, &s](size_t i, JsonRow& row) {
      const QnnOpTraffic& op = t.ops[i];
      row.String("name", s.run->Str(op.name));
      row.String("type", s.run->Str(op.type));
      row.Number("instances", op.instances);
      row.Number(FigureName(Figure::kDramReadBytes), op.bytes.dram_read);
      row.Number(FigureName(Figure::kVtcmReadBytes), op.bytes.vtcm_read);
      row.Optional("vtcm_read_hit_pct", op.bytes.vtcm_read_hit_pct());
      row.Optional("dram_share_pct", op.dram_share_pct);
    });
    doc.AddObject("vtcm_read_hits", std::move(table));
  } else {
    out["vtcm_read_hits"] = nullptr;
  }
  out["qhas_cores"] = json::array();
  for (const auto& c : s.run->qhas_cores)
    out["qhas_cores"].push_back(
        {{"core", c.core},
         {"timeline_cycles", c.timeline_cycles},
         {"percent_utilization", c.percent_utilization},
         {"percent_idle", c.percent_idle},
         {"time_us", c.time_us},
         {"graph_execute_us", c.graph_execute_us},
         {"path_op_cycles", OptionalJson(c.path_op_cycles)},
         {"path_idle_cycles", OptionalJson(c.path_idle_cycles)},
         {"hmx_cycles_used", c.hmx_cycles_used},
         {"hmx_utilization_pct", OptionalJson(SharePct(c.hmx_cycles_used, c.timeline_cycles))},
         {"busiest_hvx_cycles_used", c.busiest_hvx_cycles_used},
         {"busiest_hvx_utilization_pct",
          OptionalJson(SharePct(c.busiest_hvx_cycles_used, c.timeline_cycles))},
         {"hvx_threads", c.hvx_threads}});
}

}  // namespace htpscope
