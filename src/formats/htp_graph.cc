#include "formats/htp_graph.h"

#include <fmt/format.h>
#include <malloc.h>

#include <charconv>
#include <deque>

#include "formats/byte_source.h"
#include "formats/json_parallel.h"
#include "formats/json_util.h"

namespace htpscope {

std::optional<int64_t> ScalarParam::AsInt() const {
  if (auto* i = std::get_if<int64_t>(&value)) return *i;
  if (auto* b = std::get_if<bool>(&value)) return *b ? 1 : 0;
  return std::nullopt;
}

std::optional<double> ScalarParam::AsDouble() const {
  if (auto* d = std::get_if<double>(&value)) return *d;
  if (auto* i = std::get_if<int64_t>(&value)) return static_cast<double>(*i);
  return std::nullopt;
}

const std::string* ScalarParam::AsString() const { return std::get_if<std::string>(&value); }

std::optional<int64_t> HtpNode::IntParam(const std::string& key) const {
  auto it = scalar_params.find(key);
  if (it == scalar_params.end()) return std::nullopt;
  return it->second.AsInt();
}

namespace {

using simdjson::ondemand::value;

// The chunker's tags for the two maps.
enum Section : int { kNodes = 1, kTensors = 2 };

// "graph.nodes[\"<id>\"]" (or tensors) and the id it names; throws
// InputError when the key is no hex id.
std::pair<std::string, uint64_t> ReadMemberId(JsonReader& reader, std::string_view section,
                                              std::string_view id_text) {
  std::string ctx = fmt::format("graph.{}[\"{}\"]", section, id_text);
  auto id = ParseHexId(id_text);
  if (!id) reader.Invalid(fmt::format("{}: key is not a hex id", ctx));
  return {std::move(ctx), *id};
}

std::vector<uint64_t> ReadIdList(JsonReader& reader, value v, std::string_view ctx) {
  std::vector<uint64_t> ids;
  auto list = reader.Array(v, ctx);
  reader.Elements(list, ctx,
                  [&](value element, size_t) { ids.push_back(reader.HexId(element, ctx)); });
  return ids;
}

ScalarParam ReadScalarParam(JsonReader& reader, value v, const std::string& ctx) {
  ScalarParam param;
  auto typed = reader.Object(v, ctx);
  int members = 0;
  reader.Fields(typed, ctx, [&](std::string_view code, value inner) {
    ++members;
    int type_code = 0;
    auto [ptr, ec] = std::from_chars(code.data(), code.data() + code.size(), type_code);
    if (ec != std::errc() || ptr != code.data() + code.size())
      reader.Invalid(fmt::format("{}: data-type code \"{}\" is not a number", ctx, code));
    param.type_code = type_code;
    simdjson::ondemand::json_type type;
    reader.Check(inner.type().get(type), ctx);
    switch (type) {
      case simdjson::ondemand::json_type::string:
        param.value = std::string(reader.String(inner, ctx));
        break;
      case simdjson::ondemand::json_type::boolean:
        param.value = reader.Bool(inner, ctx);
        break;
      case simdjson::ondemand::json_type::number: {
        simdjson::ondemand::number_type number_type;
        reader.Check(inner.get_number_type().get(number_type), ctx);
        if (number_type == simdjson::ondemand::number_type::signed_integer)
          param.value = reader.Int(inner, ctx);
        else
          param.value = reader.Number(inner, ctx);
        break;
      }
      default:
        reader.Invalid(fmt::format("{}: expected a string, number or boolean value", ctx));
    }
  });
  if (members != 1)
    reader.Invalid(fmt::format("{}: expected exactly one {{\"<type code>\": value}} member", ctx));
  return param;
}

// A node's object (`nv`) under key `id_text` of graph.nodes.
HtpNode ReadNode(JsonReader& reader, std::string_view id_text, value nv) {
  const auto [ctx, id] = ReadMemberId(reader, "nodes", id_text);
  HtpNode node;
  node.id = id;
  auto obj = reader.Object(nv, ctx);
  reader.Fields(obj, ctx, [&](std::string_view k, value fv) {
    if (k == "type") {
      node.type = std::string(reader.String(fv, ctx + ".type"));
    } else if (k == "grouping") {
      node.grouping = std::string(reader.String(fv, ctx + ".grouping"));
    } else if (k == "input_names") {
      node.input_ids = ReadIdList(reader, fv, ctx + ".input_names");
    } else if (k == "output_names") {
      node.output_ids = ReadIdList(reader, fv, ctx + ".output_names");
    } else if (k == "scalar_params") {
      auto params = reader.Object(fv, ctx + ".scalar_params");
      reader.Fields(params, ctx, [&](std::string_view pk, value pv) {
        const std::string pctx = fmt::format("{}.scalar_params.{}", ctx, pk);
        node.scalar_params[std::string(pk)] = ReadScalarParam(reader, pv, pctx);
      });
    }
  });
  return node;
}

// A tensor's object (`tv`) under key `id_text` of graph.tensors.
HtpTensor ReadTensor(JsonReader& reader, std::string_view id_text, value tv) {
  const auto [ctx, id] = ReadMemberId(reader, "tensors", id_text);
  HtpTensor tensor;
  tensor.id = id;
  auto obj = reader.Object(tv, ctx);
  reader.Fields(obj, ctx, [&](std::string_view k, value fv) {
    if (k == "id") {
      tensor.index = reader.Int(fv, ctx + ".id");
    } else if (k == "type") {
      tensor.type = static_cast<int>(reader.Int(fv, ctx + ".type"));
    } else if (k == "data_type") {
      tensor.data_type = static_cast<int>(reader.Int(fv, ctx + ".data_type"));
    } else if (k == "dims") {
      auto dims = reader.Array(fv, ctx + ".dims");
      reader.Elements(dims, ctx, [&](value d, size_t) {
        tensor.dims.push_back(reader.Int(d, ctx + ".dims[]"));
      });
    }
  });
  return tensor;
}

// The members of one streamed chunk of graph.nodes or graph.tensors.
struct GraphPart {
  std::vector<HtpNode> nodes;
  std::vector<HtpTensor> tensors;
};

// Adds `item` to `map` under its id; a second one is an error.
template <typename T>
void Insert(JsonReader& reader, std::map<uint64_t, T>* map, T&& item, std::string_view section) {
  const uint64_t id = item.id;
  const auto size = map->size();
  // Ids come sorted in real files: a hint at the end inserts in O(1).
  map->emplace_hint(map->end(), id, std::move(item));
  if (map->size() == size)
    reader.Invalid(fmt::format("graph.{}[\"0x{:016x}\"]: duplicate {} id", section, id,
                               section == "nodes" ? "node" : "tensor"));
}

// Parses the document in `buffer`: a whole HTP_GRAPH file, or the skeleton
// of a streamed one (then `streamed` and `parts` supply the maps' members).
HtpGraph ParseDocument(const std::string& path, simdjson::padded_string_view buffer,
                       StreamedContainers* streamed = nullptr,
                       std::deque<GraphPart>* parts = nullptr) {
  HtpGraph out;
  out.path = path;
  JsonReader reader(path, buffer);
  auto root = reader.Root();
  bool saw_header = false, saw_graph = false;
  reader.Fields(root, "top level", [&](std::string_view key, value v) {
    if (key == "header") {
      out.version = reader.CheckHeader(v, "HTP_GRAPH");
      saw_header = true;
    } else if (key == "op_types") {
      auto types = reader.Array(v, "op_types");
      reader.Elements(types, "op_types", [&](value t, size_t) {
        out.op_types.emplace_back(reader.String(t, "op_types[]"));
      });
    } else if (key == "graph") {
      saw_graph = true;
      auto graph = reader.Object(v, "graph");
      reader.Fields(graph, "graph", [&](std::string_view section, value sv) {
        const bool nodes = section == "nodes";
        if (!nodes && section != "tensors") return;
        if (streamed) {
          if (auto container = streamed->Take(sv)) {
            // Ids were checked as hex while the chunks were parsed; the
            // message of a duplicate is the whole parse's (see ReadHtpGraph).
            GraphPart& part = (*parts)[*container];
            for (HtpNode& n : part.nodes) Insert(reader, &out.nodes, std::move(n), section);
            for (HtpTensor& t : part.tensors) Insert(reader, &out.tensors, std::move(t), section);
            part = GraphPart();
            return;
          }
        }
        const std::string ctx = fmt::format("graph.{}", section);
        auto members = reader.Object(sv, ctx);
        reader.Fields(members, ctx, [&](std::string_view id_text, value mv) {
          if (nodes) {
            auto id = ParseHexId(id_text);
            if (id && out.nodes.count(*id))
              reader.Invalid(fmt::format("graph.nodes[\"{}\"]: duplicate node id", id_text));
            HtpNode node = ReadNode(reader, id_text, mv);
            out.nodes.emplace(node.id, std::move(node));
          } else {
            auto id = ParseHexId(id_text);
            if (id && out.tensors.count(*id))
              reader.Invalid(fmt::format("graph.tensors[\"{}\"]: duplicate tensor id", id_text));
            HtpTensor tensor = ReadTensor(reader, id_text, mv);
            out.tensors.emplace(tensor.id, std::move(tensor));
          }
        });
      });
    }
  });
  reader.ExpectEnd();
  if (!saw_header) throw InputError(path, "no \"header\" object: not an HTP graph", 0);
  if (!saw_graph) throw InputError(path, "no \"graph\" object", 0);
  return out;
}

// A worker: parses one chunk of graph.nodes or graph.tensors members.
class GraphWorker {
 public:
  explicit GraphWorker(const std::string& path) : path_(path) {}

  std::unique_ptr<GraphPart> Parse(const JsonChunk& chunk) {
    auto part = std::make_unique<GraphPart>();
    JsonReader reader(path_, chunk.view(), chunk.file_offset, &parser_);
    auto members = reader.Root();
    reader.Fields(members, "members", [&](std::string_view id_text, value v) {
      if (chunk.tag == kNodes)
        part->nodes.push_back(ReadNode(reader, id_text, v));
      else
        part->tensors.push_back(ReadTensor(reader, id_text, v));
    });
    reader.ExpectEnd();
    return part;
  }

 private:
  const std::string& path_;
  simdjson::ondemand::parser parser_;
};

std::optional<HtpGraph> ReadStreamed(const std::string& path, const ReadHtpGraphOptions& options) {
  auto select = [](const std::vector<std::string>& keys, bool is_array) {
    if (is_array || keys.size() != 2 || keys[0] != "graph") return 0;
    return keys[1] == "nodes" ? int{kNodes} : keys[1] == "tensors" ? int{kTensors} : 0;
  };
  ChunkedFile file = OpenChunkedFile(path, select, options.chunk_bytes);
  if (IsSmall(file, options.chunk_bytes)) return std::nullopt;  // one chunk: parsed whole
  std::deque<GraphPart> parts;                                  // by streamed container
  uint64_t chunks = 0;
  const bool ok = ParseChunksInParallel<GraphPart>(
      *file.chunker, options.threads, file.size, [&] { return GraphWorker(path); },
      [&](GraphPart&& part, const ChunkMergeInfo& info) {
        while (parts.size() <= info.container) parts.emplace_back();
        GraphPart& into = parts[info.container];
        for (HtpNode& n : part.nodes) into.nodes.push_back(std::move(n));
        for (HtpTensor& t : part.tensors) into.tensors.push_back(std::move(t));
        ++chunks;
      });
  if (!ok) return std::nullopt;
  parts.resize(file.chunker->streamed_offsets().size());
  const simdjson::padded_string skeleton(file.chunker->skeleton());
  StreamedContainers containers(std::string_view(skeleton.data(), skeleton.size()),
                                file.chunker->streamed_offsets());
  try {
    HtpGraph out = ParseDocument(path, skeleton, &containers, &parts);
    if (!containers.AllTaken()) return std::nullopt;
    out.chunks_parsed = chunks;
    return out;
  } catch (const InputError&) {
    return std::nullopt;  // reported with the right offset by the whole-file parse
  }
}

}  // namespace

HtpGraph ReadHtpGraph(const std::string& path) { return ReadHtpGraphChunked(path, {}); }

HtpGraph ReadHtpGraphChunked(const std::string& path, const ReadHtpGraphOptions& options) {
  if (std::optional<HtpGraph> streamed = ReadStreamed(path, options)) {
    malloc_trim(0);  // the workers' freed buffers (see ReadOptrace)
    return std::move(*streamed);
  }
  LoadedFile file = ReadWholeFile(path);
  return ParseDocument(path, file.bytes);
}

HtpGraph ParseHtpGraph(const std::string& path, std::string_view json) {
  simdjson::padded_string buffer(json);
  return ParseDocument(path, buffer);
}

}  // namespace htpscope
