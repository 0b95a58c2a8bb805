// The compiled HTP graph (chrometrace_htp.json) with the real file's
// irregular indentation: "tensors" (every node's output tensor plus the
// static $Const/$Shape tensors, sorted by id, each closed after a blank
// line), then "nodes" (sorted by id; DMA checkpoints, DMA waits, sync ops and
// output slices have no node, as in real graphs), then "op_types".
// scalar_params are one-member objects keyed by the QNN data-type code; the
// cycles_* values equal the optrace args of the same ID.
#include <fmt/format.h>

#include <algorithm>

#include "writers.h"

namespace htpscope::synth {
namespace {

constexpr int kTensorNative = 3;
constexpr int kTensorStatic = 4;

struct TensorRow {
  uint64_t id = 0;
  int type = kTensorNative;
  Shape shape = Shape::kNone;
};

}  // namespace

uint64_t WriteHtpGraph(const Model& m, OutputFile& out) {
  std::vector<uint32_t> nodes;
  for (uint32_t i = 0; i < m.ops.size(); ++i)
    if (m.ops[i].in_graph) nodes.push_back(i);
  std::sort(nodes.begin(), nodes.end(),
            [&](uint32_t a, uint32_t b) { return m.ops[a].id < m.ops[b].id; });

  std::vector<TensorRow> tensors;
  tensors.reserve(nodes.size() + m.tensors.size());
  for (uint32_t i : nodes) tensors.push_back({m.ops[i].id, kTensorNative, m.ops[i].shape});
  for (const auto& t : m.tensors) tensors.push_back({t.id, kTensorStatic, t.shape});
  std::sort(tensors.begin(), tensors.end(),
            [](const TensorRow& a, const TensorRow& b) { return a.id < b.id; });

  out.Write(
      "{\n \"header\": {\n      \"header_version\": {\n          \"major\": 1,\n"
      "         \"minor\": 0,\n          \"patch\": 0\n      },\n       \"version\": {\n"
      "           \"major\": 1,\n           \"minor\": 0,\n           \"patch\": 0\n       },\n"
      "      \"artifact_type\": \"HTP_GRAPH\"\n   },\n  \"model.cpp\": \"htp_graph\",\n"
      "  \"graph\": {\n    \"tensors\": {\n");
  for (size_t i = 0; i < tensors.size(); ++i) {
    const TensorRow& t = tensors[i];
    const ShapeInfo& shape = Info(t.shape);
    out.Print(
        "      \"{}\": {{\n        \"id\": {},\n        \"type\": {},\n        \"data_type\": {},\n"
        "        \"dims\": [\n          {},\n          {},\n          {},\n          {}\n"
        "        ]\n\n      }}{}\n",
        HexId16(t.id), i, t.type, shape.qnn_data_type, shape.dims[0], shape.dims[1], shape.dims[2],
        shape.dims[3], i + 1 < tensors.size() ? "," : "");
  }
  out.Write("    },\n    \"nodes\": {\n");
  for (size_t n = 0; n < nodes.size(); ++n) {
    const HtpOp& op = m.ops[nodes[n]];
    const Slice& primary = m.slices[op.first_slice];
    const ShapeInfo& shape = Info(op.shape);
    int64_t dram_read = 0, dram_write = 0, vtcm_read = 0, vtcm_write = 0;
    for (uint32_t k = 0; k < op.slice_count; ++k) {
      const Slice& s = m.slices[op.first_slice + k];
      dram_read += s.dram_read_bytes;
      dram_write += s.dram_write_bytes;
      vtcm_read += s.vtcm_read_bytes;
      vtcm_write += s.vtcm_write_bytes;
    }
    auto param = [&](const char* key, int code, const std::string& value, bool last = false) {
      out.Print("            \"{}\": {{\n              \"{}\": {}\n             }}{}\n", key, code,
                value, last ? "" : ",");
    };
    auto quoted = [](const std::string& s) { return fmt::format("\"{}\"", s); };
    out.Print(
        "      \"{}\": {{\n        \"type\": \"{}\", \n        \"grouping\": \"{}\", \n"
        "        \"tensor_params\": {{}},\n        \"scalar_params\": {{\n",
        HexId16(op.id), Info(op.type).name, m.QnnName(op.qnn));
    param("output_step_size", 562, FormatG(shape.step_size));
    param("output_zero_offset", 50, fmt::format("{}", shape.zero_offset));
    param("output_rank", 50, fmt::format("{}", shape.rank));
    param("qnn_op_type", 1544, quoted(m.QnnTypeName(op.qnn)));
    param("qnn_op_name", 1544, quoted(m.QnnName(op.qnn)));
    param("mem_dram_read", 100, fmt::format("{}", dram_read));
    param("mem_dram_write", 100, fmt::format("{}", dram_write));
    param("mem_vtcm_read", 100, fmt::format("{}", vtcm_read));
    param("mem_vtcm_write", 100, fmt::format("{}", vtcm_write));
    param("cycles_start", 100, fmt::format("{}", primary.start_cycle));
    param("cycles_duration", 100, fmt::format("{}", primary.dur_cycles));
    param("cycles_dominant", 100, fmt::format("{}", op.dpc_cycles));
    param("cycles_per_packet", 100, FormatG(static_cast<double>(op.cycles_per_packet)));
    param("op_flags", 1544, quoted(OpFlagName(op.flag)), true);
    out.Write("        },\n        \"input_names\": [");
    for (uint32_t k = 0; k < op.inputs_count; ++k) {
      const InputRef& in = m.inputs[op.inputs_begin + k];
      uint64_t id = in.tensor ? m.tensors[in.index].id : m.ops[in.index].id;
      out.Print("{}\n          \"{}\"", k ? "," : "", HexId16(id));
    }
    out.Print("{}],\n        \"output_names\": [\"{}\"]\n      }}{}\n",
              op.inputs_count ? "\n        " : "", HexId16(op.id), n + 1 < nodes.size() ? "," : "");
  }
  out.Write("    }\n  },\n  \"op_types\": [\n");
  std::vector<std::string> types;
  for (uint32_t i : nodes) types.push_back(Info(m.ops[i].type).name);
  std::sort(types.begin(), types.end());
  types.erase(std::unique(types.begin(), types.end()), types.end());
  for (size_t i = 0; i < types.size(); ++i)
    out.Print("    \"{}\"{}\n", types[i], i + 1 < types.size() ? "," : "");
  out.Write("  ]\n}\n");
  return nodes.size();
}

}  // namespace htpscope::synth
