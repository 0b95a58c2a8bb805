#include "formats/qhas_rows.h"

#include <fmt/format.h>

#include "base/checked_math.h"
#include "base/errors.h"
#include "formats/json_parallel.h"

namespace htpscope::qhas_internal {
namespace {

using simdjson::ondemand::object;
using simdjson::ondemand::value;

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// "<section>.data[<index>]", composed only for a message.
struct RowWhere {
  std::string_view section;
  size_t index;
  std::string operator()() const { return fmt::format("{}.data[{}]", section, index); }
};

template <typename Where>
uint32_t ReadTid(FieldReader<Where>& row, value v, std::string_view key) {
  const int64_t tid = row.Count(v, key);
  if (tid > UINT32_MAX)
    row.reader().Invalid(fmt::format("{}: tid {} out of range", row.Path(key), tid));
  return static_cast<uint32_t>(tid);
}

// The bytes fields several row kinds share; false when `key` is none.
template <typename Where>
bool ReadTraffic(FieldReader<Where>& row, std::string_view key, value v, int64_t* dram_read,
                 int64_t* dram_write, int64_t* vtcm_read, int64_t* vtcm_write) {
  int64_t* slot = key == "dram_read"    ? dram_read
                  : key == "dram_write" ? dram_write
                  : key == "vtcm_read"  ? vtcm_read
                  : key == "vtcm_write" ? vtcm_write
                                        : nullptr;
  if (!slot) return false;
  *slot = row.Count(v, key);
  return true;
}

template <typename Where>
QhasOpAggregate ReadAggregate(FieldReader<Where>& row, object& o, QhasRowWriter& writer) {
  QhasOpAggregate a;
  row.Fields(o, [&](std::string_view key, value v) {
    if (key == "op" || key == "qnn_op")
      a.name = writer.Intern(TextColumn::kAggregateName, row.String(v, key));
    else if (key == "qnn_op_type")
      a.qnn_op_type = writer.Intern(TextColumn::kAggregateQnnOpType, row.String(v, key));
    else if (key == "cycles")
      a.cycles = row.Count(v, key);
    else if (key == "percent_active_cycles")
      a.percent_active_cycles = row.Number(v, key);
    else if (StartsWith(key, "num_dominant_path_cycles")) {
      // One column per HTP core (_htp_0, _htp_1, ...): the op's DPC on every core.
      std::optional<int64_t> sum = CheckedAdd(a.dominant_path_cycles, row.Count(v, key));
      if (!sum)
        row.reader().Invalid(fmt::format("{}: dominant-path cycles sum past 2^63", row.Path(key)));
      a.dominant_path_cycles = *sum;
    } else if (StartsWith(key, "percent_dominant_path_cycles"))
      a.percent_dominant_path = row.Number(v, key);
    else if (key == "num_htp_ops" || key == "instances")
      a.count = row.Count(v, key);
    else if (key == "format_change")
      a.format_change = row.Bool(v, key);
    else if (key == "reference_op")
      a.reference_op = row.Bool(v, key);
    else
      ReadTraffic(row, key, v, &a.dram_read_bytes, &a.dram_write_bytes, &a.vtcm_read_bytes,
                  &a.vtcm_write_bytes);
  });
  return a;
}

// Appends the elements of array `v` (read by `read(element)`) to `array`,
// a store's, as the row's [*begin, *begin + *count): a repeated key's
// elements follow the first's, which are the array's last.  Offsets stay
// 32-bit.
template <typename Where, typename T, typename Read>
void AppendRowArray(FieldReader<Where>& row, value v, std::string_view key, std::vector<T>& array,
                    uint32_t* begin, uint32_t* count, Read&& read) {
  if (*count == 0) {
    if (array.size() > UINT32_MAX)
      row.reader().Invalid(fmt::format("{}: more than 2^32 values in all", row.Path(key)));
    *begin = static_cast<uint32_t>(array.size());
  }
  row.Elements(v, key, [&](value element, size_t) { array.push_back(read(element)); });
  if (array.size() - *begin > UINT32_MAX)
    row.reader().Invalid(fmt::format("{}: more than 2^32 values", row.Path(key)));
  *count = static_cast<uint32_t>(array.size() - *begin);
}

template <typename Where>
QhasOpInstance ReadInstance(FieldReader<Where>& row, object& o, QhasRowWriter& writer) {
  QhasOpInstance i;
  QhasRowStore& store = writer.store();
  row.Fields(o, [&](std::string_view key, value v) {
    // One byte rules out most keys before a full compare.
    switch (key.empty() ? '\0' : key.front()) {
      case 'c':
        if (key == "cycles")
          i.cycles = row.Count(v, key);
        else if (key == "cycles_per_packet")
          i.cycles_per_packet = row.Number(v, key);
        return;
      case 'd':
        if (key == "dtype") {
          i.dtype = writer.Intern(TextColumn::kDtype, row.String(v, key));
        } else if (key == "dims") {
          AppendRowArray(row, v, key, store.dims, &i.dims_begin, &i.dims_count,
                         [&](value d) { return row.Count(d, key); });
        } else if (key == "dma_wait") {
          i.dma_wait = row.Bool(v, key);
        } else if (key == "dma_set") {
          i.dma_set = row.Bool(v, key);
        } else if (key == "dma") {
          i.dma = row.Bool(v, key);
        } else {
          ReadTraffic(row, key, v, &i.dram_read_bytes, &i.dram_write_bytes, &i.vtcm_read_bytes,
                      &i.vtcm_write_bytes);
        }
        return;
      case 'h':
        if (key == "htp")
          i.htp = row.Count(v, key);
        else if (key == "htp_op")
          i.htp_op = writer.Intern(TextColumn::kHtpOp, row.String(v, key));
        else if (key == "hmx")
          i.hmx = row.Bool(v, key);
        else if (key == "hvx")
          i.hvx = row.Bool(v, key);
        return;
      case 'i':
        if (key == "input_nodes") {
          AppendRowArray(row, v, key, store.input_ids, &i.inputs_begin, &i.inputs_count,
                         [&](value d) { return row.HexId(d, key); });
        }
        return;
      case 'n':
        if (key == "num_dominant_path_cycles") i.dominant_path_cycles = row.Count(v, key);
        return;
      case 'o':
        if (key == "op_id") i.op_id = row.HexId(v, key);
        return;
      case 'p':
        if (key == "percent_dominant_path_cycles") i.percent_dominant_path = row.Number(v, key);
        return;
      case 'q':
        if (key == "qnn_op")
          i.qnn_op = writer.Intern(TextColumn::kQnnOp, row.String(v, key));
        else if (key == "qnn_op_type")
          i.qnn_op_type = writer.Intern(TextColumn::kQnnOpType, row.String(v, key));
        return;
      case 'r':
        if (key == "rank")
          i.rank = row.Count(v, key);
        else if (key == "ref_op")
          i.ref_op = row.Bool(v, key);
        return;
      case 's':
        if (key == "step_size")
          i.step_size = row.Number(v, key);
        else if (key == "start_cycle")
          i.start_cycle = row.Count(v, key);
        else if (key == "sync")
          i.sync = row.Bool(v, key);
        return;
      case 't':
        if (key == "tid") i.tid = ReadTid(row, v, key);
        return;
      case 'z':
        if (key == "zero_offset") i.zero_offset = row.Int(v, key);
        return;
      case 'f':
        if (key == "fmt_change") i.fmt_change = row.Bool(v, key);
        return;
      case 'v':
        ReadTraffic(row, key, v, &i.dram_read_bytes, &i.dram_write_bytes, &i.vtcm_read_bytes,
                    &i.vtcm_write_bytes);
        return;
      default:
        return;
    }
  });
  return i;
}

template <typename Where>
QhasPathSegment ReadPathSegment(FieldReader<Where>& row, object& o, QhasRowWriter& writer) {
  QhasPathSegment s;
  bool has_start = false, has_end = false;
  row.Fields(o, [&](std::string_view key, value v) {
    if (key == "op_id") {
      s.op_id = row.HexId(v, key);
    } else if (key == "htp_op") {
      const std::string_view text = row.String(v, key);
      s.htp_op = writer.Intern(TextColumn::kPathHtpOp, text);
      s.idle = text == "Accumulated Idle";
    } else if (key == "qnn_op") {
      s.qnn_op = writer.Intern(TextColumn::kPathQnnOp, row.String(v, key));
    } else if (key == "start_cycle") {
      s.start_cycle = row.Count(v, key);
      has_start = true;
    } else if (key == "end_cycle") {
      s.end_cycle = row.Count(v, key);
      has_end = true;
    } else if (key == "partial") {
      s.partial = row.Bool(v, key);
    } else if (key == "dp_cycles") {
      s.dp_cycles = row.Count(v, key);
    } else if (key == "cycles") {
      s.cycles = row.Count(v, key);
    }
  });
  if (has_start && has_end && s.end_cycle < s.start_cycle)
    row.reader().Invalid(fmt::format("{}: end_cycle {} before start_cycle {}", row.Path(),
                                     s.end_cycle, s.start_cycle));
  return s;
}

// Each section is {"data": [rows...]}; calls fn(row value, index) per row.
template <typename Fn>
void ForEachRow(JsonReader& reader, value section, const std::string& name, Fn&& fn) {
  auto obj = reader.Object(section, name);
  reader.Fields(obj, name, [&](std::string_view key, value v) {
    if (key != "data") return;
    auto rows = reader.Array(v, name + ".data");
    reader.Elements(rows, name, fn);
  });
}

QhasResource ReadResource(JsonReader& reader, const std::string& section, size_t index, value v) {
  FieldReader row(reader, RowWhere{section, index});
  object o = row.Object(v);
  QhasResource r;
  bool has_start = false, has_end = false;
  row.Fields(o, [&](std::string_view key, value rv) {
    if (key == "type") {
      r.type = std::string(row.String(rv, key));
    } else if (key == "tid") {
      r.tid = ReadTid(row, rv, key);
    } else if (key == "start_cycle") {
      r.start_cycle = row.Count(rv, key);
      has_start = true;
    } else if (key == "end_cycle") {
      r.end_cycle = row.Count(rv, key);
      has_end = true;
    } else if (key == "timeline_cycles") {
      r.timeline_cycles = row.Count(rv, key);
    } else if (key == "cycles_used") {
      r.cycles_used = row.Count(rv, key);
    } else if (key == "utilization") {
      r.utilization_pct = row.Number(rv, key);
    } else {
      ReadTraffic(row, key, rv, &r.dram_read_bytes, &r.dram_write_bytes, &r.vtcm_read_bytes,
                  &r.vtcm_write_bytes);
    }
  });
  if (has_start && has_end && r.end_cycle < r.start_cycle)
    reader.Invalid(fmt::format("{}: end_cycle {} before start_cycle {}", row.Path(), r.end_cycle,
                               r.start_cycle));
  return r;
}

}  // namespace

std::optional<RowKind> KindOfSection(std::string_view section) {
  if (section == "qnn_op_types" || section == "qnn_op_instances_nodes" || section == "htp_op_types")
    return RowKind::kAggregate;
  if (section == "htp_op_instances") return RowKind::kInstance;
  if (StartsWith(section, "dominant_path_htp_")) return RowKind::kPath;
  return std::nullopt;
}

StringId QhasRowWriter::Intern(TextColumn column, std::string_view text) {
  StringId& last = last_[static_cast<int>(column)];
  if (text != store_.texts.View(last)) last = store_.texts.Intern(text);
  return last;
}

void ReadRow(JsonReader& reader, RowKind kind, std::string_view section, size_t index, value v,
             QhasRows* rows, QhasRowWriter& writer) {
  FieldReader row(reader, RowWhere{section, index});
  object o = row.Object(v);
  switch (kind) {
    case RowKind::kAggregate:
      rows->aggregates.push_back(ReadAggregate(row, o, writer));
      break;
    case RowKind::kInstance:
      rows->instances.push_back(ReadInstance(row, o, writer));
      break;
    case RowKind::kPath:
      rows->path.push_back(ReadPathSegment(row, o, writer));
      break;
  }
}

void MergeRows(const std::string& path, QhasRows& into, QhasRows&& part, QhasRowStore& store,
               const ChunkMergeInfo& info) {
  const std::vector<StringId> ids = store.texts.InternAll(part.store.texts);
  const uint64_t dims_at = store.dims.size(), inputs_at = store.input_ids.size();
  if (dims_at + part.store.dims.size() > UINT32_MAX ||
      inputs_at + part.store.input_ids.size() > UINT32_MAX)
    throw InputError(path, "htp_op_instances: more than 2^32 dims or input IDs in all");
  for (QhasOpAggregate& a : part.aggregates) {
    a.name = ids[a.name];
    a.qnn_op_type = ids[a.qnn_op_type];
  }
  for (QhasOpInstance& i : part.instances) {
    i.htp_op = ids[i.htp_op];
    i.qnn_op = ids[i.qnn_op];
    i.qnn_op_type = ids[i.qnn_op_type];
    i.dtype = ids[i.dtype];
    i.dims_begin += static_cast<uint32_t>(dims_at);
    i.inputs_begin += static_cast<uint32_t>(inputs_at);
  }
  for (QhasPathSegment& s : part.path) {
    s.htp_op = ids[s.htp_op];
    s.qnn_op = ids[s.qnn_op];
  }
  AppendChunk(std::move(part.store.dims), &store.dims, info);
  AppendChunk(std::move(part.store.input_ids), &store.input_ids, info);
  AppendChunk(std::move(part.aggregates), &into.aggregates, info);
  AppendChunk(std::move(part.instances), &into.instances, info);
  AppendChunk(std::move(part.path), &into.path, info);
}

void ReadOverallRow(JsonReader& reader, size_t index, value v, Qhas* out) {
  FieldReader row(reader, RowWhere{"htp_overall_summary", index});
  object obj = row.Object(v);
  QhasOverall o;
  row.Fields(obj, [&](std::string_view key, value fv) {
    if (key == "htp_resources") {
      const std::string name = row.Path(key);
      ForEachRow(reader, fv, name, [&](value res, size_t res_index) {
        o.resources.push_back(ReadResource(reader, name, res_index, res));
      });
    } else if (key == "htp") {
      o.htp = row.Count(fv, key);
    } else if (key == "percent_idle") {
      o.percent_idle = row.Number(fv, key);
    } else if (key == "percent_utilization") {
      o.percent_utilization = row.Number(fv, key);
    } else if (key == "time_us") {
      o.time_us = row.Number(fv, key);
    } else if (key == "graph_execute_us") {
      o.graph_execute_us = row.Number(fv, key);
    } else if (key == "inf_per_s") {
      o.inf_per_s = row.Number(fv, key);
    } else if (key == "timeline_cycles") {
      o.timeline_cycles = row.Count(fv, key);
    } else if (key == "total_dram_read") {
      o.total_dram_read_bytes = row.Count(fv, key);
    } else if (key == "total_dram_write") {
      o.total_dram_write_bytes = row.Count(fv, key);
    } else if (key == "total_dram") {
      o.total_dram_bytes = row.Count(fv, key);
    } else if (key == "total_vtcm_read") {
      o.total_vtcm_read_bytes = row.Count(fv, key);
    } else if (key == "total_vtcm_write") {
      o.total_vtcm_write_bytes = row.Count(fv, key);
    } else if (key == "total_vtcm") {
      o.total_vtcm_bytes = row.Count(fv, key);
    } else if (key == "peak_vtcm_alloc") {
      o.peak_vtcm_alloc_bytes = row.Count(fv, key);
    } else if (key == "unique_qnn_ops") {
      o.unique_qnn_ops = row.Count(fv, key);
    } else if (key == "qnn_nodes") {
      o.qnn_nodes = row.Count(fv, key);
    } else if (key == "unique_htp_ops") {
      o.unique_htp_ops = row.Count(fv, key);
    } else if (key == "htp_nodes") {
      o.htp_nodes = row.Count(fv, key);
    }
  });
  out->overall.push_back(std::move(o));
}

}  // namespace htpscope::qhas_internal
