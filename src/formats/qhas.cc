#include "formats/qhas.h"

#include <fmt/format.h>

#include <charconv>

#include "formats/byte_source.h"
#include "formats/json_util.h"

namespace htpscope {
namespace {

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// Cycle counts, byte counts, op counts, tids, ranks and dims: never negative
// in a genuine file, and a negative one would turn into a negative share.
int64_t Count(JsonReader& reader, JsonReader::value v, const std::string& ctx) {
  int64_t n = reader.Int(v, ctx);
  if (n < 0) reader.Invalid(fmt::format("{}: {} is negative, expected a count", ctx, n));
  return n;
}

// Each section is {"data": [rows...]}; calls fn(row object, ctx) per row.
template <typename Fn>
void ForEachRow(JsonReader& reader, JsonReader::value section, const std::string& name, Fn&& fn) {
  auto obj = reader.Object(section, name);
  reader.Fields(obj, name, [&](std::string_view key, JsonReader::value v) {
    if (key != "data") return;
    auto rows = reader.Array(v, name + ".data");
    reader.Elements(rows, name, [&](JsonReader::value row, size_t index) {
      std::string ctx = fmt::format("{}.data[{}]", name, index);
      auto row_obj = reader.Object(row, ctx);
      fn(row_obj, ctx);
    });
  });
}

// Shared bytes fields of several row kinds.
bool ReadTraffic(JsonReader& reader, std::string_view key, JsonReader::value v,
                 const std::string& ctx, int64_t* dram_read, int64_t* dram_write,
                 int64_t* vtcm_read, int64_t* vtcm_write) {
  int64_t* slot = key == "dram_read"    ? dram_read
                  : key == "dram_write" ? dram_write
                  : key == "vtcm_read"  ? vtcm_read
                  : key == "vtcm_write" ? vtcm_write
                                        : nullptr;
  if (!slot) return false;
  *slot = Count(reader, v, fmt::format("{}.{}", ctx, key));
  return true;
}

QhasOpAggregate ReadAggregate(JsonReader& reader, JsonReader::object& row, const std::string& ctx) {
  QhasOpAggregate a;
  reader.Fields(row, ctx, [&](std::string_view key, JsonReader::value v) {
    auto field = [&] { return fmt::format("{}.{}", ctx, key); };
    if (key == "op" || key == "qnn_op")
      a.name = std::string(reader.String(v, field()));
    else if (key == "qnn_op_type")
      a.qnn_op_type = std::string(reader.String(v, field()));
    else if (key == "cycles")
      a.cycles = Count(reader, v, field());
    else if (key == "percent_active_cycles")
      a.percent_active_cycles = reader.Number(v, field());
    else if (StartsWith(key, "num_dominant_path_cycles"))
      a.dominant_path_cycles = Count(reader, v, field());
    else if (StartsWith(key, "percent_dominant_path_cycles"))
      a.percent_dominant_path = reader.Number(v, field());
    else if (key == "num_htp_ops" || key == "instances")
      a.count = Count(reader, v, field());
    else if (key == "format_change")
      a.format_change = reader.Bool(v, field());
    else if (key == "reference_op")
      a.reference_op = reader.Bool(v, field());
    else
      ReadTraffic(reader, key, v, ctx, &a.dram_read_bytes, &a.dram_write_bytes, &a.vtcm_read_bytes,
                  &a.vtcm_write_bytes);
  });
  return a;
}

uint32_t ReadTid(JsonReader& reader, JsonReader::value v, const std::string& ctx) {
  int64_t tid = Count(reader, v, ctx);
  if (tid > UINT32_MAX) reader.Invalid(fmt::format("{}: tid {} out of range", ctx, tid));
  return static_cast<uint32_t>(tid);
}

void ReadOverall(JsonReader& reader, JsonReader::value section, Qhas* out) {
  ForEachRow(
      reader, section, "htp_overall_summary", [&](JsonReader::object& row, const std::string& ctx) {
        QhasOverall o;
        reader.Fields(row, ctx, [&](std::string_view key, JsonReader::value v) {
          std::string field = fmt::format("{}.{}", ctx, key);
          if (key == "htp_resources") {
            ForEachRow(reader, v, field, [&](JsonReader::object& res_row, const std::string& rctx) {
              QhasResource r;
              bool has_start = false, has_end = false;
              reader.Fields(res_row, rctx, [&](std::string_view k, JsonReader::value rv) {
                std::string f = fmt::format("{}.{}", rctx, k);
                if (k == "type")
                  r.type = std::string(reader.String(rv, f));
                else if (k == "tid")
                  r.tid = ReadTid(reader, rv, f);
                else if (k == "start_cycle")
                  r.start_cycle = Count(reader, rv, f), has_start = true;
                else if (k == "end_cycle")
                  r.end_cycle = Count(reader, rv, f), has_end = true;
                else if (k == "timeline_cycles")
                  r.timeline_cycles = Count(reader, rv, f);
                else if (k == "cycles_used")
                  r.cycles_used = Count(reader, rv, f);
                else if (k == "utilization")
                  r.utilization_pct = reader.Number(rv, f);
                else
                  ReadTraffic(reader, k, rv, rctx, &r.dram_read_bytes, &r.dram_write_bytes,
                              &r.vtcm_read_bytes, &r.vtcm_write_bytes);
              });
              if (has_start && has_end && r.end_cycle < r.start_cycle)
                reader.Invalid(fmt::format("{}: end_cycle {} before start_cycle {}", rctx,
                                           r.end_cycle, r.start_cycle));
              o.resources.push_back(std::move(r));
            });
          } else if (key == "htp")
            o.htp = Count(reader, v, field);
          else if (key == "percent_idle")
            o.percent_idle = reader.Number(v, field);
          else if (key == "percent_utilization")
            o.percent_utilization = reader.Number(v, field);
          else if (key == "time_us")
            o.time_us = reader.Number(v, field);
          else if (key == "graph_execute_us")
            o.graph_execute_us = reader.Number(v, field);
          else if (key == "inf_per_s")
            o.inf_per_s = reader.Number(v, field);
          else if (key == "timeline_cycles")
            o.timeline_cycles = Count(reader, v, field);
          else if (key == "total_dram_read")
            o.total_dram_read_bytes = Count(reader, v, field);
          else if (key == "total_dram_write")
            o.total_dram_write_bytes = Count(reader, v, field);
          else if (key == "total_dram")
            o.total_dram_bytes = Count(reader, v, field);
          else if (key == "total_vtcm_read")
            o.total_vtcm_read_bytes = Count(reader, v, field);
          else if (key == "total_vtcm_write")
            o.total_vtcm_write_bytes = Count(reader, v, field);
          else if (key == "total_vtcm")
            o.total_vtcm_bytes = Count(reader, v, field);
          else if (key == "peak_vtcm_alloc")
            o.peak_vtcm_alloc_bytes = Count(reader, v, field);
          else if (key == "unique_qnn_ops")
            o.unique_qnn_ops = Count(reader, v, field);
          else if (key == "qnn_nodes")
            o.qnn_nodes = Count(reader, v, field);
          else if (key == "unique_htp_ops")
            o.unique_htp_ops = Count(reader, v, field);
          else if (key == "htp_nodes")
            o.htp_nodes = Count(reader, v, field);
        });
        out->overall.push_back(std::move(o));
      });
}

void ReadInstances(JsonReader& reader, JsonReader::value section, Qhas* out) {
  ForEachRow(reader, section, "htp_op_instances",
             [&](JsonReader::object& row, const std::string& ctx) {
               QhasOpInstance i;
               reader.Fields(row, ctx, [&](std::string_view key, JsonReader::value v) {
                 std::string f = fmt::format("{}.{}", ctx, key);
                 if (key == "htp")
                   i.htp = Count(reader, v, f);
                 else if (key == "tid")
                   i.tid = ReadTid(reader, v, f);
                 else if (key == "op_id")
                   i.op_id = reader.HexId(v, f);
                 else if (key == "htp_op")
                   i.htp_op = std::string(reader.String(v, f));
                 else if (key == "qnn_op")
                   i.qnn_op = std::string(reader.String(v, f));
                 else if (key == "qnn_op_type")
                   i.qnn_op_type = std::string(reader.String(v, f));
                 else if (key == "dtype")
                   i.dtype = std::string(reader.String(v, f));
                 else if (key == "rank")
                   i.rank = Count(reader, v, f);
                 else if (key == "step_size")
                   i.step_size = reader.Number(v, f);
                 else if (key == "zero_offset")
                   i.zero_offset = reader.Int(v, f);
                 else if (key == "dims") {
                   auto dims = reader.Array(v, f);
                   reader.Elements(dims, f, [&](JsonReader::value d, size_t) {
                     i.dims.push_back(Count(reader, d, f));
                   });
                 } else if (key == "input_nodes") {
                   auto ids = reader.Array(v, f);
                   reader.Elements(ids, f, [&](JsonReader::value d, size_t) {
                     i.input_ids.push_back(reader.HexId(d, f));
                   });
                 } else if (key == "start_cycle")
                   i.start_cycle = Count(reader, v, f);
                 else if (key == "cycles")
                   i.cycles = Count(reader, v, f);
                 else if (key == "num_dominant_path_cycles")
                   i.dominant_path_cycles = Count(reader, v, f);
                 else if (key == "percent_dominant_path_cycles")
                   i.percent_dominant_path = reader.Number(v, f);
                 else if (key == "cycles_per_packet")
                   i.cycles_per_packet = reader.Number(v, f);
                 else if (key == "fmt_change")
                   i.fmt_change = reader.Bool(v, f);
                 else if (key == "ref_op")
                   i.ref_op = reader.Bool(v, f);
                 else if (key == "hmx")
                   i.hmx = reader.Bool(v, f);
                 else if (key == "hvx")
                   i.hvx = reader.Bool(v, f);
                 else if (key == "dma_wait")
                   i.dma_wait = reader.Bool(v, f);
                 else if (key == "dma_set")
                   i.dma_set = reader.Bool(v, f);
                 else if (key == "dma")
                   i.dma = reader.Bool(v, f);
                 else if (key == "sync")
                   i.sync = reader.Bool(v, f);
                 else
                   ReadTraffic(reader, key, v, ctx, &i.dram_read_bytes, &i.dram_write_bytes,
                               &i.vtcm_read_bytes, &i.vtcm_write_bytes);
               });
               out->htp_op_instances.push_back(std::move(i));
             });
}

void ReadDominantPath(JsonReader& reader, JsonReader::value section, const std::string& name,
                      int core, Qhas* out) {
  auto& segments = out->dominant_path[core];
  ForEachRow(reader, section, name, [&](JsonReader::object& row, const std::string& ctx) {
    QhasPathSegment s;
    bool has_start = false, has_end = false;
    reader.Fields(row, ctx, [&](std::string_view key, JsonReader::value v) {
      std::string f = fmt::format("{}.{}", ctx, key);
      if (key == "op_id")
        s.op_id = reader.HexId(v, f);
      else if (key == "htp_op")
        s.htp_op = std::string(reader.String(v, f));
      else if (key == "qnn_op")
        s.qnn_op = std::string(reader.String(v, f));
      else if (key == "start_cycle")
        s.start_cycle = Count(reader, v, f), has_start = true;
      else if (key == "end_cycle")
        s.end_cycle = Count(reader, v, f), has_end = true;
      else if (key == "partial")
        s.partial = reader.Bool(v, f);
      else if (key == "dp_cycles")
        s.dp_cycles = Count(reader, v, f);
      else if (key == "cycles")
        s.cycles = Count(reader, v, f);
    });
    if (has_start && has_end && s.end_cycle < s.start_cycle)
      reader.Invalid(
          fmt::format("{}: end_cycle {} before start_cycle {}", ctx, s.end_cycle, s.start_cycle));
    segments.push_back(std::move(s));
  });
}

Qhas ParseBuffer(const std::string& path, const simdjson::padded_string& buffer) {
  Qhas out;
  out.path = path;
  JsonReader reader(path, buffer);
  auto root = reader.Root();
  bool saw_header = false, saw_data = false;
  reader.Fields(root, "top level", [&](std::string_view key, JsonReader::value v) {
    if (key == "header") {
      out.version = reader.CheckHeader(v, "QHAS");
      saw_header = true;
    } else if (key == "model_id") {
      out.model_id = std::string(reader.String(v, "model_id"));
    } else if (key == "data") {
      saw_data = true;
      auto data = reader.Object(v, "data");
      reader.Fields(data, "data", [&](std::string_view section, JsonReader::value sv) {
        std::string name(section);
        out.sections.push_back(name);
        if (section == "htp_overall_summary") {
          ReadOverall(reader, sv, &out);
        } else if (section == "qnn_op_types" || section == "qnn_op_instances_nodes" ||
                   section == "htp_op_types") {
          auto& rows = section == "qnn_op_types"             ? out.qnn_op_types
                       : section == "qnn_op_instances_nodes" ? out.qnn_op_instances
                                                             : out.htp_op_types;
          ForEachRow(reader, sv, name, [&](JsonReader::object& row, const std::string& ctx) {
            rows.push_back(ReadAggregate(reader, row, ctx));
          });
        } else if (section == "htp_op_instances") {
          ReadInstances(reader, sv, &out);
        } else if (StartsWith(section, "dominant_path_htp_")) {
          std::string_view digits = section.substr(18);
          int core = 0;
          auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), core);
          if (ec != std::errc() || ptr != digits.data() + digits.size())
            reader.Invalid(fmt::format("data.{}: core number is not an integer", section));
          ReadDominantPath(reader, sv, name, core, &out);
        } else {
          out.warnings.push_back(fmt::format("unknown QHAS section \"{}\" ignored", section));
        }
      });
    }
  });
  reader.ExpectEnd();
  if (!saw_header) throw InputError(path, "no \"header\" object: not a QHAS summary", 0);
  if (!saw_data) throw InputError(path, "no \"data\" object", 0);
  for (const char* required : {"htp_overall_summary", "qnn_op_types", "qnn_op_instances_nodes",
                               "htp_op_types", "htp_op_instances"}) {
    bool found = false;
    for (const auto& s : out.sections) found = found || s == required;
    if (!found) out.warnings.push_back(fmt::format("QHAS section \"{}\" is missing", required));
  }
  if (out.dominant_path.empty())
    out.warnings.push_back("QHAS section \"dominant_path_htp_0\" is missing");
  return out;
}

}  // namespace

Qhas ReadQhas(const std::string& path) {
  LoadedFile file = ReadWholeFile(path);
  return ParseBuffer(path, file.bytes);
}

Qhas ParseQhas(const std::string& path, std::string_view json) {
  simdjson::padded_string buffer(json);
  return ParseBuffer(path, buffer);
}

}  // namespace htpscope
