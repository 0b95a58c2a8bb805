#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "model/import.h"

namespace htpscope::model_import {
namespace {

// QHAS rows of htp_op_instances are slices (one per op ID and thread): the
// op instances and slices of a run that has no optrace.
void InstancesFromQhas(const std::vector<QhasOpInstance>& rows, TraceTables& trace) {
  std::vector<uint32_t> order(rows.size());
  for (uint32_t i = 0; i < rows.size(); ++i) order[i] = i;
  // An instance is an op ID on one core: cores may reuse op IDs.
  auto key = [&](uint32_t i) { return std::pair(rows[i].op_id, rows[i].htp); };
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
  std::vector<std::pair<uint32_t, uint32_t>> ranges;  // per instance: [begin, end) of `order`
  for (uint32_t k = 0; k < order.size();) {
    uint32_t end = k + 1;
    while (end < order.size() && key(order[end]) == key(order[k])) ++end;
    ranges.emplace_back(k, end);
    k = end;
  }
  for (const auto& [begin, end] : ranges) {
    const QhasOpInstance& first = rows[order[begin]];
    OpInstanceRow op;
    op.op_id = first.op_id;
    op.htp_op_type = trace.strings.Intern(first.htp_op);
    op.qnn_op_name = trace.strings.Intern(first.qnn_op);
    op.qnn_op_type = trace.strings.Intern(first.qnn_op_type);
    op.data_type = trace.strings.Intern(first.dtype);
    op.cycles_per_packet = first.cycles_per_packet;
    op.source = Source::kQhas;
    op.dpc_basis = DpcBasis::kQhas;
    op.htp_core = first.htp;
    op.dims_begin = static_cast<uint32_t>(trace.dims.size());
    for (int64_t d : first.dims) trace.dims.push_back(static_cast<int32_t>(d));
    op.dims_count = static_cast<uint32_t>(first.dims.size());
    op.inputs_begin = static_cast<uint32_t>(trace.input_ids.size());
    trace.input_ids.insert(trace.input_ids.end(), first.input_ids.begin(), first.input_ids.end());
    op.inputs_count = static_cast<uint32_t>(first.input_ids.size());
    op.first_start_cycle = INT64_MAX;
    op.last_end_cycle = INT64_MIN;
    for (uint32_t k = begin; k < end; ++k) {
      const QhasOpInstance& r = rows[order[k]];
      op.flags |= QhasOpFlags(r);
      op.format_change = op.format_change || r.fmt_change;
      op.reference_op = op.reference_op || r.ref_op;
      op.work_cycles += r.cycles;
      op.dpc_cycles += r.dominant_path_cycles;
      op.first_start_cycle = std::min(op.first_start_cycle, r.start_cycle);
      op.last_end_cycle = std::max(op.last_end_cycle, r.start_cycle + r.cycles);
      UnitKind unit = UnitKindOfTid(r.tid);
      op.on_hmx_thread = op.on_hmx_thread || unit == UnitKind::kHmx;
      op.on_hvx_thread = op.on_hvx_thread || unit == UnitKind::kHvx;
    }
    op.op_start_cycle = op.first_start_cycle;
    op.op_duration_cycles = op.last_end_cycle - op.first_start_cycle;
    op.slice_count = end - begin;
    op.category = ClassifyOp(first.htp_op, first.qnn_op_type, op.flags);
    op.first_slice = begin;  // into `order` until renumbered below
    trace.op_instances.push_back(op);
  }
  std::sort(trace.op_instances.begin(), trace.op_instances.end(),
            [](const OpInstanceRow& a, const OpInstanceRow& b) {
              return a.first_start_cycle != b.first_start_cycle
                         ? a.first_start_cycle < b.first_start_cycle
                         : a.op_id < b.op_id;
            });
  trace.slices.reserve(rows.size());
  for (uint32_t k = 0; k < trace.op_instances.size(); ++k) {
    OpInstanceRow& op = trace.op_instances[k];
    const uint32_t begin = op.first_slice;
    op.first_slice = static_cast<uint32_t>(trace.slices.size());
    for (uint32_t o = begin; o < begin + op.slice_count; ++o) {
      const QhasOpInstance& r = rows[order[o]];
      trace.slices.push_back({r.op_id, r.start_cycle, r.cycles, r.tid, k});
    }
    std::sort(trace.slices.begin() + op.first_slice, trace.slices.end(),
              [](const SliceRow& a, const SliceRow& b) {
                return a.start_cycle != b.start_cycle ? a.start_cycle < b.start_cycle
                                                      : a.tid < b.tid;
              });
  }
}

}  // namespace

QhasFacts ImportQhas(Qhas&& qhas, QhasTables& tables, std::vector<WarningRow>& warnings) {
  // Every sum of the op instances checked in one pass over them (a pass per
  // sum streamed 90 MB of rows each on an 80k-op run), then reported in a
  // fixed order: cycles, dominant-path cycles, traffic bytes, an end past
  // the largest cycle count.
  CheckedSum cycles, dominant_path_cycles, traffic_bytes[4];
  const QhasOpInstance* ends_past = nullptr;  // the first such row
  // Rows per HTP core, counted in the same pass (a core's rows mostly follow
  // each other).
  absl::flat_hash_map<int64_t, int64_t> rows_of_core;
  int64_t* core_rows = nullptr;
  int64_t core_of_rows = 0;
  for (const auto& r : qhas.htp_op_instances) {
    if (!core_rows || r.htp != core_of_rows) {
      core_rows = &rows_of_core[r.htp];
      core_of_rows = r.htp;
    }
    ++*core_rows;
    cycles += r.cycles;
    dominant_path_cycles += r.dominant_path_cycles;
    traffic_bytes[0] += r.dram_read_bytes;
    traffic_bytes[1] += r.dram_write_bytes;
    traffic_bytes[2] += r.vtcm_read_bytes;
    traffic_bytes[3] += r.vtcm_write_bytes;
    if (!ends_past && !CheckedAdd(r.start_cycle, r.cycles)) ends_past = &r;
  }
  RequireFits(cycles, qhas.path, "the op instances' cycles");
  RequireFits(dominant_path_cycles, qhas.path, "the op instances' dominant-path cycles");
  for (const CheckedSum& bytes : traffic_bytes)
    RequireFits(bytes, qhas.path, "the op instances' traffic bytes");
  if (ends_past)
    throw InputError(qhas.path, fmt::format("op instance {} ends past the largest cycle count",
                                            OpIdHex(ends_past->op_id)));
  for (const auto* rows : {&qhas.qnn_op_instances, &qhas.htp_op_types}) {
    RequireSumFits(
        *rows, [](const QhasOpAggregate& r) { return r.cycles; }, qhas.path, "the op rows' cycles");
    RequireSumFits(
        *rows, [](const QhasOpAggregate& r) { return r.dominant_path_cycles; }, qhas.path,
        "the op rows' dominant-path cycles");
  }
  for (const auto& o : qhas.overall)
    RequireSumFits(
        o.resources, [](const QhasResource& r) { return r.cycles_used; }, qhas.path,
        "htp_resources cycles_used");
  QhasFacts facts;
  facts.present = true;
  facts.path = qhas.path;
  for (const auto& w : qhas.warnings)
    Warn(warnings, WarningCode::reader, fmt::format("{}: {}", qhas.path, w));
  for (const auto& o : qhas.overall) {
    QhasCoreRow row;
    row.core = o.htp;
    row.timeline_cycles = o.timeline_cycles;
    row.percent_idle = o.percent_idle;
    row.percent_utilization = o.percent_utilization;
    row.time_us = o.time_us;
    row.graph_execute_us = o.graph_execute_us;
    row.total_dram_read_bytes = o.total_dram_read_bytes;
    row.total_dram_write_bytes = o.total_dram_write_bytes;
    row.total_vtcm_read_bytes = o.total_vtcm_read_bytes;
    row.total_vtcm_write_bytes = o.total_vtcm_write_bytes;
    row.peak_vtcm_alloc_bytes = o.peak_vtcm_alloc_bytes;
    row.qnn_nodes = o.qnn_nodes;
    row.htp_nodes = o.htp_nodes;
    for (const auto& r : o.resources) {
      row.resources_cycles_used += r.cycles_used;
      if (UnitKindOfTid(r.tid) == UnitKind::kHmx) row.hmx_cycles_used += r.cycles_used;
      if (UnitKindOfTid(r.tid) == UnitKind::kHvx) {
        row.busiest_hvx_cycles_used = std::max(row.busiest_hvx_cycles_used, r.cycles_used);
        ++row.hvx_threads;
      }
    }
    if (auto path = qhas.dominant_path.find(static_cast<int>(o.htp));
        path != qhas.dominant_path.end()) {
      CheckedSum ops, idle;  // a hostile file's sums are withheld, never wrapped
      bool fits = true;
      for (const auto& s : path->second) {
        std::optional<int64_t> cycles = CheckedSub(s.end_cycle, s.start_cycle);
        fits = fits && cycles;
        (s.is_idle() ? idle : ops) += cycles.value_or(0);
      }
      if (fits && !ops.overflowed() && !idle.overflowed()) {
        row.path_op_cycles = ops.value();
        row.path_idle_cycles = idle.value();
      }
    }
    tables.qhas_cores.push_back(row);
    facts.core_resources.push_back(o.resources);
  }
  // What the op lists cover.  htp_nodes counts htp_op_instances rows (one
  // per slice); qnn_nodes the rows of qnn_op_instances_nodes.
  for (auto& core : tables.qhas_cores) {
    core.listed_qnn_nodes = static_cast<int64_t>(qhas.qnn_op_instances.size());
    const auto rows = rows_of_core.find(core.core);
    core.listed_htp_nodes = rows == rows_of_core.end() ? 0 : rows->second;
    core.lists_complete = (core.qnn_nodes == 0 || core.listed_qnn_nodes >= core.qnn_nodes) &&
                          (core.htp_nodes == 0 || core.listed_htp_nodes >= core.htp_nodes);
  }
  // Each op's rows summed here, on the reader's thread, for the dominant
  // path and traffic joins.  An op's rows (one per thread) mostly follow
  // each other: its totals are looked up once per run of them.  The sums
  // fit: their totals over every row were checked above.
  const std::vector<QhasOpInstance>& rows = qhas.htp_op_instances;
  facts.op_index.reserve(rows.size());
  uint32_t totals = 0;
  for (uint32_t k = 0; k < rows.size(); ++k) {
    const QhasOpInstance& i = rows[k];
    if (k == 0 || i.op_id != rows[k - 1].op_id) {
      auto [it, inserted] =
          facts.op_index.try_emplace(i.op_id, static_cast<uint32_t>(facts.op_totals.size()));
      if (inserted) facts.op_totals.push_back({i.op_id, k});
      totals = it->second;
    }
    QhasOpTotals& t = facts.op_totals[totals];
    t.cycles += i.cycles;
    t.dominant_path_cycles += i.dominant_path_cycles;
    t.dram_read_bytes += i.dram_read_bytes;
    t.dram_write_bytes += i.dram_write_bytes;
    t.vtcm_read_bytes += i.vtcm_read_bytes;
    t.vtcm_write_bytes += i.vtcm_write_bytes;
  }
  facts.op_ids.reserve(facts.op_totals.size());
  for (const QhasOpTotals& t : facts.op_totals) facts.op_ids.push_back(t.op_id);
  std::sort(facts.op_ids.begin(), facts.op_ids.end());
  auto path = qhas.dominant_path.find(0);
  if (path != qhas.dominant_path.end()) {
    tables.qhas_dominant_path.reserve(path->second.size());  // 300 k rows on an 80k-op run
    for (const auto& s : path->second)
      tables.qhas_dominant_path.push_back(
          {s.start_cycle, s.end_cycle, s.is_idle() ? 0 : s.op_id, -1, s.partial, s.is_idle()});
  }
  if (!qhas.overall.empty()) facts.resources = qhas.overall.front().resources;
  facts.qnn_op_rows = std::move(qhas.qnn_op_instances);
  facts.htp_op_type_rows = std::move(qhas.htp_op_types);
  facts.instances = std::move(qhas.htp_op_instances);
  return facts;
}

void ImportQhasInstances(const QhasFacts& qhas, TraceTables& trace) {
  InstancesFromQhas(qhas.instances, trace);
}

uint8_t QhasOpFlags(const QhasOpInstance& op) {
  uint8_t flags = 0;
  if (op.dma) flags |= kFlagDma;
  if (op.dma_set) flags |= kFlagDmaSet;
  if (op.dma_wait) flags |= kFlagDmaWait;
  if (op.hmx) flags |= kFlagUsesHmx;
  if (op.hvx) flags |= kFlagUsesHvx;
  if (op.sync) flags |= kFlagSync;
  return flags;
}

}  // namespace htpscope::model_import
