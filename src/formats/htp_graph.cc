#include "formats/htp_graph.h"

#include <fmt/format.h>
#include <malloc.h>

#include <algorithm>
#include <charconv>
#include <deque>

#include "base/gather.h"
#include "formats/byte_source.h"
#include "formats/json_parallel.h"
#include "formats/json_util.h"

namespace htpscope {

const std::string* ParamTexts::Intern(std::string_view text) {
  auto it = index_.find(text);
  if (it != index_.end()) return it->second;
  const std::string* pooled = &texts_.emplace_back(text);
  index_.emplace(*pooled, pooled);
  return pooled;
}

std::optional<int64_t> ScalarParam::AsInt() const {
  if (auto* i = std::get_if<int64_t>(&value)) return *i;
  if (auto* b = std::get_if<bool>(&value)) return *b ? 1 : 0;
  // A writer may print an integer as 1668827862868.0 or 1.5e3 (as GetInteger reads them).
  if (auto* d = std::get_if<double>(&value)) return IntegralValue(*d);
  return std::nullopt;
}

std::optional<double> ScalarParam::AsDouble() const {
  if (auto* d = std::get_if<double>(&value)) return *d;
  if (auto* i = std::get_if<int64_t>(&value)) return static_cast<double>(*i);
  return std::nullopt;
}

const std::string* ScalarParam::AsString() const {
  auto* text = std::get_if<const std::string*>(&value);
  return text ? *text : nullptr;
}

namespace {

template <typename Entries>
auto FindKey(Entries& entries, std::string_view key) {
  auto it = std::lower_bound(entries.begin(), entries.end(), key,
                             [](const auto& entry, std::string_view k) { return entry.first < k; });
  return it != entries.end() && it->first == key ? it : entries.end();
}

}  // namespace

ScalarParams::iterator ScalarParams::find(std::string_view key) { return FindKey(entries_, key); }

ScalarParams::const_iterator ScalarParams::find(std::string_view key) const {
  return FindKey(entries_, key);
}

const ScalarParam& ScalarParams::at(std::string_view key) const {
  auto it = find(key);
  if (it == end()) throw std::out_of_range("no scalar_params key " + std::string(key));
  return it->second;
}

ParamTexts& ScalarParams::texts() {
  if (!texts_) texts_ = std::make_shared<ParamTexts>();
  return *texts_;
}

ScalarParam& ScalarParams::operator[](std::string_view key) {
  if (entries_.empty() || entries_.back().first < key)  // past the last key: appended
    return entries_.emplace_back(*texts().Intern(key), ScalarParam{0, int64_t{0}}).second;
  auto it =
      std::lower_bound(entries_.begin(), entries_.end(), key,
                       [](const value_type& entry, std::string_view k) { return entry.first < k; });
  if (it != entries_.end() && it->first == key) return it->second;
  return entries_.insert(it, {*texts().Intern(key), ScalarParam{0, int64_t{0}}})->second;
}

void ScalarParams::SetString(std::string_view key, int type_code, std::string_view text) {
  const std::string* pooled = texts().Intern(text);
  (*this)[key] = ScalarParam{type_code, pooled};
}

std::optional<int64_t> HtpNode::IntParam(const std::string& key) const {
  auto it = scalar_params.find(key);
  if (it == scalar_params.end()) return std::nullopt;
  return it->second.AsInt();
}

namespace {

using simdjson::ondemand::value;

// The chunker's tags for the two maps.
enum Section : int { kNodes = 1, kTensors = 2 };

// "graph.<section>[\"<id>\"]", composed only for a message.
struct MemberWhere {
  std::string_view section, id_text;
  std::string operator()() const { return fmt::format("graph.{}[\"{}\"]", section, id_text); }
};

// The id a member's key names; throws InputError when it is no hex id.
template <typename Where>
uint64_t ReadMemberId(FieldReader<Where>& member, std::string_view id_text) {
  auto id = ParseHexId(id_text);
  if (!id) member.reader().Invalid(fmt::format("{}: key is not a hex id", member.Path()));
  return *id;
}

// The hex ids of list `v`, member `key` of `member`.
template <typename Where>
std::vector<uint64_t> ReadIdList(FieldReader<Where>& member, value v, std::string_view key) {
  JsonReader& reader = member.reader();
  simdjson::ondemand::array list;
  if (auto err = v.get_array().get(list))
    reader.Fail(err, fmt::format("{}: expected an array", member.Path(key)));
  std::vector<uint64_t> ids;
  AppendGathered(ids, [&](auto add) {
    for (auto element : list) {
      value id;
      if (auto err = element.get(id)) reader.Fail(err, member.Path(key));
      add(member.HexId(id, key));
    }
  });
  return ids;
}

// The scalar_params keys a node keeps (ReadHtpGraphOptions::kept_params).
class KeptParams {
 public:
  // Keeps `keys` (not copied; empty keeps every key).
  explicit KeptParams(const std::vector<std::string>& keys) : keys_(keys) {}
  bool Keeps(std::string_view key) const {
    if (keys_.empty()) return true;
    // A handful of keys: most differ from `key` in length alone.
    return std::find(keys_.begin(), keys_.end(), key) != keys_.end();
  }

 private:
  const std::vector<std::string>& keys_;
};

const std::vector<std::string> kEveryParam;

// scalar_params member `key` (`v`, a one-member {"<code>": value} object)
// into `params`, or, when `params` is null, only checked.
template <typename Where>
void ReadScalarParam(FieldReader<Where>& param, value v, std::string_view key,
                     ScalarParams* params) {
  JsonReader& reader = param.reader();
  auto typed = param.Object(v);
  int members = 0;
  param.Fields(typed, [&](std::string_view code, value inner) {
    ++members;
    int type_code = 0;
    auto [ptr, ec] = std::from_chars(code.data(), code.data() + code.size(), type_code);
    if (ec != std::errc() || ptr != code.data() + code.size())
      reader.Invalid(fmt::format("{}: data-type code \"{}\" is not a number", param.Path(), code));
    simdjson::ondemand::json_type type;
    if (auto err = inner.type().get(type)) reader.Fail(err, param.Path());
    switch (type) {
      case simdjson::ondemand::json_type::string: {
        const std::string_view text = param.String(inner);
        if (params) params->SetString(key, type_code, text);
        break;
      }
      case simdjson::ondemand::json_type::boolean: {
        const bool flag = param.Bool(inner);
        if (params) (*params)[key] = ScalarParam{type_code, flag};
        break;
      }
      case simdjson::ondemand::json_type::number: {
        simdjson::ondemand::number_type number_type;
        if (auto err = inner.get_number_type().get(number_type)) reader.Fail(err, param.Path());
        if (number_type == simdjson::ondemand::number_type::signed_integer) {
          const int64_t number = param.Int(inner);
          if (params) (*params)[key] = ScalarParam{type_code, number};
        } else {
          const double number = param.Number(inner);
          if (params) (*params)[key] = ScalarParam{type_code, number};
        }
        break;
      }
      default:
        reader.Invalid(fmt::format("{}: expected a string, number or boolean value", param.Path()));
    }
  });
  if (members != 1)
    reader.Invalid(
        fmt::format("{}: expected exactly one {{\"<type code>\": value}} member", param.Path()));
}

// Room made up front for at most this many scalar_params (real nodes have
// about fourteen): one hostile node of millions of params does not make the
// next node reserve as many.
constexpr size_t kMaxReservedParams = 64;

// A node's object (`nv`) under key `id_text` of graph.nodes, keeping the
// scalar_params `kept` keeps; its texts are pooled in `texts`.  Room for
// `*params_hint` scalar_params (at most kMaxReservedParams) is made up front
// (a graph's nodes mostly have as many as the node before: one allocation
// instead of one per doubling), and *params_hint becomes this node's count.
HtpNode ReadNode(JsonReader& reader, std::string_view id_text, value nv,
                 const std::shared_ptr<ParamTexts>& texts, size_t* params_hint,
                 const KeptParams& kept) {
  FieldReader member(reader, MemberWhere{"nodes", id_text});
  HtpNode node;
  node.id = ReadMemberId(member, id_text);
  node.scalar_params = ScalarParams(texts);
  auto obj = member.Object(nv);
  member.Fields(obj, [&](std::string_view k, value fv) {
    if (k == "type") {
      node.type = std::string(member.String(fv, k));
    } else if (k == "grouping") {
      node.grouping = std::string(member.String(fv, k));
    } else if (k == "input_names") {
      node.input_ids = ReadIdList(member, fv, k);
    } else if (k == "output_names") {
      node.output_ids = ReadIdList(member, fv, k);
    } else if (k == "scalar_params") {
      simdjson::ondemand::object params;
      if (auto err = fv.get_object().get(params))
        reader.Fail(err, fmt::format("{}: expected an object", member.Path(k)));
      node.scalar_params.reserve(std::min(*params_hint, kMaxReservedParams));
      member.Fields(params, [&](std::string_view pk, value pv) {
        FieldReader param(reader,
                          [&] { return fmt::format("{}.scalar_params.{}", member.Path(), pk); });
        ReadScalarParam(param, pv, pk, kept.Keeps(pk) ? &node.scalar_params : nullptr);
      });
      *params_hint = node.scalar_params.size();
    }
  });
  return node;
}

// A tensor's object (`tv`) under key `id_text` of graph.tensors.
HtpTensor ReadTensor(JsonReader& reader, std::string_view id_text, value tv) {
  FieldReader member(reader, MemberWhere{"tensors", id_text});
  HtpTensor tensor;
  tensor.id = ReadMemberId(member, id_text);
  auto obj = member.Object(tv);
  member.Fields(obj, [&](std::string_view k, value fv) {
    if (k == "id") {
      tensor.index = member.Int(fv, k);
    } else if (k == "type") {
      tensor.type = static_cast<int>(member.Int(fv, k));
    } else if (k == "data_type") {
      tensor.data_type = static_cast<int>(member.Int(fv, k));
    } else if (k == "dims") {
      simdjson::ondemand::array dims;
      if (auto err = fv.get_array().get(dims))
        reader.Fail(err, fmt::format("{}: expected an array", member.Path(k)));
      AppendGathered(tensor.dims, [&](auto add) {
        for (auto element : dims) {
          value d;
          if (auto err = element.get(d)) reader.Fail(err, member.Path());
          add(member.Int(d, "dims[]"));
        }
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
void Insert(JsonReader& reader, absl::btree_map<uint64_t, T>* map, T&& item,
            std::string_view section) {
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
// Nodes keep the scalar_params `kept` keeps.
HtpGraph ParseDocument(const std::string& path, simdjson::padded_string_view buffer,
                       const KeptParams& kept, StreamedContainers* streamed = nullptr,
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
        auto texts = std::make_shared<ParamTexts>();
        size_t params_hint = 0;  // see ReadNode
        reader.Fields(members, ctx, [&](std::string_view id_text, value mv) {
          if (nodes) {
            auto id = ParseHexId(id_text);
            if (id && out.nodes.count(*id))
              reader.Invalid(fmt::format("graph.nodes[\"{}\"]: duplicate node id", id_text));
            HtpNode node = ReadNode(reader, id_text, mv, texts, &params_hint, kept);
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

std::optional<HtpGraph> ReadStreamed(const std::string& path, const ReadHtpGraphOptions& options,
                                     const KeptParams& kept) {
  auto select = [](const std::vector<std::string>& keys, bool is_array) {
    if (is_array || keys.size() != 2 || keys[0] != "graph") return 0;
    return keys[1] == "nodes" ? int{kNodes} : keys[1] == "tensors" ? int{kTensors} : 0;
  };
  // Each worker keeps the last node's scalar_params count (see ReadNode).
  auto read_chunk = [&kept, params_hint = size_t{0}](JsonReader& reader, const JsonChunk& chunk,
                                                     GraphPart& part) mutable {
    auto members = reader.Root();
    auto texts = std::make_shared<ParamTexts>();  // the chunk's nodes share it
    reader.Fields(members, "members", [&](std::string_view id_text, value v) {
      if (chunk.tag == kNodes)
        part.nodes.push_back(ReadNode(reader, id_text, v, texts, &params_hint, kept));
      else
        part.tensors.push_back(ReadTensor(reader, id_text, v));
    });
  };
  auto merge = [](GraphPart& into, GraphPart&& part, const ChunkMergeInfo& info) {
    AppendChunk(std::move(part.nodes), &into.nodes, info);
    AppendChunk(std::move(part.tensors), &into.tensors, info);
  };
  return ReadStreamedJson<HtpGraph, GraphPart>(
      path, select, options, read_chunk, merge,
      [&](const simdjson::padded_string& skeleton, StreamedContainers& containers,
          std::deque<GraphPart>& parts) {
        return ParseDocument(path, skeleton, kept, &containers, &parts);
      });
}

}  // namespace

HtpGraph ReadHtpGraph(const std::string& path, const ReadHtpGraphOptions& options) {
  const KeptParams kept(options.kept_params);
  if (std::optional<HtpGraph> streamed = ReadStreamed(path, options, kept)) {
    malloc_trim(0);  // the workers' freed buffers (see ReadOptrace)
    return std::move(*streamed);
  }
  LoadedFile file = ReadWholeFile(path);
  return ParseDocument(path, file.bytes, kept);
}

HtpGraph ParseHtpGraph(const std::string& path, std::string_view json) {
  return ParseDocument(path, PaddedJsonText(json), KeptParams(kEveryParam));
}

}  // namespace htpscope
