#include "formats/htp_graph.h"

#include <fmt/format.h>

#include <charconv>

#include "formats/byte_source.h"
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

std::vector<uint64_t> ReadIdList(JsonReader& reader, JsonReader::value v, std::string_view ctx) {
  std::vector<uint64_t> ids;
  auto list = reader.Array(v, ctx);
  reader.Elements(list, ctx, [&](JsonReader::value element, size_t) {
    ids.push_back(reader.HexId(element, ctx));
  });
  return ids;
}

ScalarParam ReadScalarParam(JsonReader& reader, JsonReader::value v, const std::string& ctx) {
  ScalarParam param;
  auto typed = reader.Object(v, ctx);
  int members = 0;
  reader.Fields(typed, ctx, [&](std::string_view code, JsonReader::value inner) {
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

HtpGraph ParseBuffer(const std::string& path, const simdjson::padded_string& buffer) {
  HtpGraph out;
  out.path = path;
  JsonReader reader(path, buffer);
  auto root = reader.Root();
  bool saw_header = false, saw_graph = false;
  reader.Fields(root, "top level", [&](std::string_view key, JsonReader::value v) {
    if (key == "header") {
      out.version = reader.CheckHeader(v, "HTP_GRAPH");
      saw_header = true;
    } else if (key == "op_types") {
      auto types = reader.Array(v, "op_types");
      reader.Elements(types, "op_types", [&](JsonReader::value t, size_t) {
        out.op_types.emplace_back(reader.String(t, "op_types[]"));
      });
    } else if (key == "graph") {
      saw_graph = true;
      auto graph = reader.Object(v, "graph");
      reader.Fields(graph, "graph", [&](std::string_view section, JsonReader::value sv) {
        if (section == "nodes") {
          auto nodes = reader.Object(sv, "graph.nodes");
          reader.Fields(nodes, "graph.nodes", [&](std::string_view id_text, JsonReader::value nv) {
            std::string ctx = fmt::format("graph.nodes[\"{}\"]", id_text);
            auto id = ParseHexId(id_text);
            if (!id) reader.Invalid(fmt::format("{}: key is not a hex id", ctx));
            if (out.nodes.count(*id)) reader.Invalid(fmt::format("{}: duplicate node id", ctx));
            HtpNode node;
            node.id = *id;
            auto obj = reader.Object(nv, ctx);
            reader.Fields(obj, ctx, [&](std::string_view k, JsonReader::value fv) {
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
                reader.Fields(params, ctx, [&](std::string_view pk, JsonReader::value pv) {
                  std::string pctx = fmt::format("{}.scalar_params.{}", ctx, pk);
                  node.scalar_params[std::string(pk)] = ReadScalarParam(reader, pv, pctx);
                });
              }
            });
            out.nodes.emplace(node.id, std::move(node));
          });
        } else if (section == "tensors") {
          auto tensors = reader.Object(sv, "graph.tensors");
          reader.Fields(
              tensors, "graph.tensors", [&](std::string_view id_text, JsonReader::value tv) {
                std::string ctx = fmt::format("graph.tensors[\"{}\"]", id_text);
                auto id = ParseHexId(id_text);
                if (!id) reader.Invalid(fmt::format("{}: key is not a hex id", ctx));
                if (out.tensors.count(*id))
                  reader.Invalid(fmt::format("{}: duplicate tensor id", ctx));
                HtpTensor tensor;
                tensor.id = *id;
                auto obj = reader.Object(tv, ctx);
                reader.Fields(obj, ctx, [&](std::string_view k, JsonReader::value fv) {
                  if (k == "id")
                    tensor.index = reader.Int(fv, ctx + ".id");
                  else if (k == "type")
                    tensor.type = static_cast<int>(reader.Int(fv, ctx + ".type"));
                  else if (k == "data_type")
                    tensor.data_type = static_cast<int>(reader.Int(fv, ctx + ".data_type"));
                  else if (k == "dims") {
                    auto dims = reader.Array(fv, ctx + ".dims");
                    reader.Elements(dims, ctx, [&](JsonReader::value d, size_t) {
                      tensor.dims.push_back(reader.Int(d, ctx + ".dims[]"));
                    });
                  }
                });
                out.tensors.emplace(tensor.id, std::move(tensor));
              });
        }
      });
    }
  });
  reader.ExpectEnd();
  if (!saw_header) throw InputError(path, "no \"header\" object: not an HTP graph", 0);
  if (!saw_graph) throw InputError(path, "no \"graph\" object", 0);
  return out;
}

}  // namespace

HtpGraph ReadHtpGraph(const std::string& path) {
  LoadedFile file = ReadWholeFile(path);
  return ParseBuffer(path, file.bytes);
}

HtpGraph ParseHtpGraph(const std::string& path, std::string_view json) {
  simdjson::padded_string buffer(json);
  return ParseBuffer(path, buffer);
}

}  // namespace htpscope
