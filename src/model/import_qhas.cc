#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <map>
#include <memory>
#include <span>

#include "base/huge_pages.h"
#include "model/import.h"

namespace htpscope::model_import {
namespace {

// QHAS rows of htp_op_instances are slices (one per op ID and thread): the
// op instances and slices of a run that has no optrace.
void InstancesFromQhas(const QhasTables& qhas, TraceTables& trace) {
  const std::vector<QhasOpInstanceRow>& rows = qhas.qhas_op_instances;
  QhasTextsIn texts(qhas.qhas_strings, trace.strings);
  std::vector<uint32_t> order(rows.size());
  for (uint32_t i = 0; i < rows.size(); ++i) order[i] = i;
  // An instance is an op ID on one core: cores may reuse op IDs.
  auto key = [&](uint32_t i) { return std::pair(rows[i].op_id, rows[i].htp_core); };
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
  std::vector<std::pair<uint32_t, uint32_t>> ranges;  // per instance: [begin, end) of `order`
  for (uint32_t k = 0; k < order.size();) {
    uint32_t end = k + 1;
    while (end < order.size() && key(order[end]) == key(order[k])) ++end;
    ranges.emplace_back(k, end);
    k = end;
  }
  // Room for what the instances take from their first rows.
  size_t dims = 0, input_ids = 0;
  for (const auto& range : ranges) {
    dims += rows[order[range.first]].dims_count;
    input_ids += rows[order[range.first]].inputs_count;
  }
  trace.op_instances.reserve(trace.op_instances.size() + ranges.size());
  trace.dims.reserve(trace.dims.size() + dims);
  trace.input_ids.reserve(trace.input_ids.size() + input_ids);
  for (const auto& [begin, end] : ranges) {
    const QhasOpInstanceRow& first = rows[order[begin]];
    OpInstanceRow op;
    op.op_id = first.op_id;
    op.htp_op_type = texts(first.htp_op_type);
    op.qnn_op_name = texts(first.qnn_op_name);
    op.qnn_op_type = texts(first.qnn_op_type);
    op.data_type = texts(first.data_type);
    op.cycles_per_packet = first.cycles_per_packet;
    op.source = Source::kQhas;
    op.dpc_basis = DpcBasis::kQhas;
    op.htp_core = first.htp_core;
    op.dims_begin = static_cast<uint32_t>(trace.dims.size());
    trace.dims.insert(trace.dims.end(), qhas.qhas_dims.begin() + first.dims_begin,
                      qhas.qhas_dims.begin() + first.dims_begin + first.dims_count);
    op.dims_count = first.dims_count;
    op.inputs_begin = static_cast<uint32_t>(trace.input_ids.size());
    trace.input_ids.insert(trace.input_ids.end(), qhas.qhas_input_ids.begin() + first.inputs_begin,
                           qhas.qhas_input_ids.begin() + first.inputs_begin + first.inputs_count);
    op.inputs_count = first.inputs_count;
    op.first_start_cycle = INT64_MAX;
    op.last_end_cycle = INT64_MIN;
    for (uint32_t k = begin; k < end; ++k) {
      const QhasOpInstanceRow& r = rows[order[k]];
      op.flags |= r.flags;
      op.format_change = op.format_change || r.format_change;
      op.reference_op = op.reference_op || r.reference_op;
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
    op.category =
        ClassifyOp(qhas.QhasStr(first.htp_op_type), qhas.QhasStr(first.qnn_op_type), op.flags);
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
      const QhasOpInstanceRow& r = rows[order[o]];
      trace.slices.push_back({r.op_id, r.start_cycle, r.cycles, r.tid, k});
    }
    std::sort(trace.slices.begin() + op.first_slice, trace.slices.end(),
              [](const SliceRow& a, const SliceRow& b) {
                return a.start_cycle != b.start_cycle ? a.start_cycle < b.start_cycle
                                                      : a.tid < b.tid;
              });
  }
}

// A QHAS file may hold millions of op instance rows, all kept in the run.
static_assert(sizeof(QhasOpInstanceRow) <= 120, "keep QHAS's op instance rows compact");

// The OpFlag bits of a QHAS htp_op_instances row.
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

// `rows` (qnn_op_instances_nodes or htp_op_types) as the model's rows;
// frees `rows`.
std::vector<QhasOpAggregateRow> QhasAggregateRows(std::vector<QhasOpAggregate>&& rows) {
  std::vector<QhasOpAggregateRow> out;
  out.reserve(rows.size());
  for (const QhasOpAggregate& r : rows)
    out.push_back({.name = r.name,
                   .qnn_op_type = r.qnn_op_type,
                   .cycles = r.cycles,
                   .dominant_path_cycles = r.dominant_path_cycles,
                   .count = r.count});
  std::vector<QhasOpAggregate>().swap(rows);
  return out;
}

}  // namespace

void ImportQhas(Qhas&& qhas, QhasTables& tables, std::vector<WarningRow>& warnings) {
  // The reader's texts become the run's QHAS strings, ids and all, and its
  // dims and input IDs the run's, offsets and all.
  if (tables.qhas_strings.size() > 1 || !tables.qhas_op_instances.empty() ||
      !tables.qhas_dims.empty() || !tables.qhas_input_ids.empty())
    throw InternalError("ImportQhas: the QHAS tables are not empty");
  tables.qhas_strings = std::move(qhas.store.texts);
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
  // Room made for the runs of rows of one op ID (as many as its distinct op
  // IDs, or a few more when an op's rows are apart) before they are summed.
  size_t op_runs = 0;
  const QhasOpInstance* previous = nullptr;
  for (const auto& r : qhas.htp_op_instances) {
    op_runs += !previous || r.op_id != previous->op_id;
    previous = &r;
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
    for (const auto& r : o.resources)
      tables.qhas_resources.push_back({.core_row = static_cast<uint32_t>(tables.qhas_cores.size()),
                                       .tid = r.tid,
                                       .type = tables.qhas_strings.Intern(r.type),
                                       .start_cycle = r.start_cycle,
                                       .end_cycle = r.end_cycle,
                                       .cycles_used = r.cycles_used});
    tables.qhas_cores.push_back(row);
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
  // Each row converted to the model's (120 bytes, a third less than the
  // reader's), on two threads (a run directory's import waits for this one,
  // the last; the fresh pages the rows fill are most of its time), while
  // each op's rows are summed for the dominant path and traffic joins.  The
  // rows keep their offsets: the input IDs are the reader's array, the dims
  // the same array in 32 bits (TraceTables::dims, as QHAS's are taken).  The
  // reader's arrays are freed after the last row.
  const std::vector<QhasOpInstance>& rows = qhas.htp_op_instances;
  tables.qhas_input_ids = std::move(qhas.store.input_ids);
  tables.qhas_dims.reserve(qhas.store.dims.size());
  for (int64_t d : qhas.store.dims) tables.qhas_dims.push_back(static_cast<int32_t>(d));
  std::vector<int64_t>().swap(qhas.store.dims);
  ReservePrefaulted(tables.qhas_op_instances, rows.size());
  tables.qhas_op_instances.resize(rows.size());
  auto convert = [&rows, &tables](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      const QhasOpInstance& i = rows[k];
      QhasOpInstanceRow& row = tables.qhas_op_instances[k];
      row.op_id = i.op_id;
      row.htp_core = i.htp;
      row.start_cycle = i.start_cycle;
      row.cycles = i.cycles;
      row.dominant_path_cycles = i.dominant_path_cycles;
      row.dram_read_bytes = i.dram_read_bytes;
      row.dram_write_bytes = i.dram_write_bytes;
      row.vtcm_read_bytes = i.vtcm_read_bytes;
      row.vtcm_write_bytes = i.vtcm_write_bytes;
      row.cycles_per_packet = i.cycles_per_packet;
      row.tid = i.tid;
      row.htp_op_type = i.htp_op;
      row.qnn_op_name = i.qnn_op;
      row.qnn_op_type = i.qnn_op_type;
      row.data_type = i.dtype;
      row.dims_begin = i.dims_begin;
      row.dims_count = i.dims_count;
      row.inputs_begin = i.inputs_begin;
      row.inputs_count = i.inputs_count;
      row.flags = QhasOpFlags(i);
      row.format_change = i.fmt_change;
      row.reference_op = i.ref_op;
    }
  };
  std::future<void> second_half =
      std::async(std::launch::async | std::launch::deferred, convert, rows.size() / 2, rows.size());
  convert(0, rows.size() / 2);
  // An op's rows (one per thread) mostly follow each other: its totals are
  // looked up once per run of them.  The sums fit: their totals over every
  // row were checked above.
  tables.qhas_op_index.reserve(op_runs);
  tables.qhas_op_totals.reserve(op_runs);
  uint32_t totals = 0;
  uint64_t previous_op_id = 0;
  for (uint32_t k = 0; k < rows.size(); ++k) {
    const QhasOpInstance& i = rows[k];
    if (k == 0 || i.op_id != previous_op_id) {
      auto [it, inserted] = tables.qhas_op_index.try_emplace(
          i.op_id, static_cast<uint32_t>(tables.qhas_op_totals.size()));
      if (inserted) tables.qhas_op_totals.push_back({i.op_id, k});
      totals = it->second;
      previous_op_id = i.op_id;
    }
    QhasOpTotalsRow& t = tables.qhas_op_totals[totals];
    t.cycles += i.cycles;
    t.dominant_path_cycles += i.dominant_path_cycles;
    t.dram_read_bytes += i.dram_read_bytes;
    t.dram_write_bytes += i.dram_write_bytes;
    t.vtcm_read_bytes += i.vtcm_read_bytes;
    t.vtcm_write_bytes += i.vtcm_write_bytes;
  }
  second_half.get();
  std::vector<QhasOpInstance>().swap(qhas.htp_op_instances);
  tables.qhas_op_ids.reserve(tables.qhas_op_totals.size());
  for (const QhasOpTotalsRow& t : tables.qhas_op_totals) tables.qhas_op_ids.push_back(t.op_id);
  std::sort(tables.qhas_op_ids.begin(), tables.qhas_op_ids.end());
  auto path = qhas.dominant_path.find(0);
  if (path != qhas.dominant_path.end()) {
    tables.qhas_dominant_path.reserve(path->second.size());  // 300 k rows on an 80k-op run
    for (const auto& s : path->second)
      tables.qhas_dominant_path.push_back(
          {s.start_cycle, s.end_cycle, s.is_idle() ? 0 : s.op_id, -1, s.partial, s.is_idle()});
  }
  tables.qhas_qnn_op_rows = QhasAggregateRows(std::move(qhas.qnn_op_instances));
  tables.qhas_htp_op_type_rows = QhasAggregateRows(std::move(qhas.htp_op_types));
}

void ImportQhasInstances(const QhasTables& qhas, TraceTables& trace) {
  InstancesFromQhas(qhas, trace);
}

QhasTextsIn::QhasTextsIn(const StringPool& qhas_strings, StringPool& pool)
    : qhas_strings_(qhas_strings), pool_(pool), ids_(qhas_strings.size(), kNotYet) {}

StringId QhasTextsIn::operator()(StringId qhas_id) {
  StringId& id = ids_[qhas_id];
  if (id == kNotYet) id = pool_.Intern(qhas_strings_.View(qhas_id));
  return id;
}

}  // namespace htpscope::model_import

namespace htpscope {

std::span<const QhasResourceRow> QhasTables::QhasResourcesOf(size_t core_row) const {
  const auto begin =
      std::partition_point(qhas_resources.begin(), qhas_resources.end(),
                           [&](const QhasResourceRow& r) { return r.core_row < core_row; });
  const auto end = std::partition_point(begin, qhas_resources.end(), [&](const QhasResourceRow& r) {
    return r.core_row == core_row;
  });
  return {begin, end};
}

}  // namespace htpscope
