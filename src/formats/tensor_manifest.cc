#include "formats/tensor_manifest.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <system_error>

#include "base/errors.h"
#include "formats/byte_source.h"
#include "formats/json_util.h"

namespace htpscope {
namespace {

namespace fs = std::filesystem;

// One "tensors[]" element as written, before its file is looked at.
struct ManifestEntry {
  ManifestTensor tensor;
  std::string file;
  std::optional<std::string> dtype;
  std::optional<std::string> byte_order;
  bool has_shape = false;
  bool qnn_offset = false;  // offsets were given as "qnn_offset"
  bool offset_given = false;
  size_t index = 0;
  uint64_t byte_offset = 0;  // where the element starts in the manifest
};

std::vector<double> NumberList(JsonReader& reader, JsonReader::value v, std::string_view ctx) {
  simdjson::ondemand::json_type type;
  reader.Check(v.type().get(type), ctx);
  std::vector<double> out;
  if (type == simdjson::ondemand::json_type::array) {
    auto list = reader.Array(v, ctx);
    reader.Elements(list, ctx,
                    [&](JsonReader::value e, size_t) { out.push_back(reader.Number(e, ctx)); });
  } else {
    out.push_back(reader.Number(v, ctx));
  }
  return out;
}

bool IsNull(JsonReader& reader, JsonReader::value v, std::string_view ctx) {
  bool null = false;
  reader.Check(v.is_null().get(null), ctx);
  return null;
}

Quantization ReadQuantization(JsonReader& reader, JsonReader::value v, ManifestEntry& entry,
                              const std::string& at) {
  Quantization q;
  auto object = reader.Object(v, at);
  bool have_scale = false;
  reader.Fields(object, at, [&](std::string_view key, JsonReader::value field) {
    if (key == "scale") {
      q.scale = NumberList(reader, field, at + ".scale");
      have_scale = true;
    } else if (key == "offset" || key == "qnn_offset") {
      if (entry.offset_given)
        reader.Invalid(fmt::format(
            "tensors[{}]: give either quantization.offset or quantization.qnn_offset, not both",
            entry.index));
      q.offset = NumberList(reader, field, fmt::format("{}.{}", at, key));
      entry.offset_given = true;
      entry.qnn_offset = key == "qnn_offset";
    } else if (key == "axis") {
      int64_t axis = reader.Int(field, at + ".axis");
      if (axis < 0 || axis > 64)
        reader.Invalid(
            fmt::format("tensors[{}]: quantization.axis {} is out of range", entry.index, axis));
      q.axis = static_cast<int>(axis);
    } else {
      reader.Invalid(fmt::format(
          "tensors[{}]: unknown key \"quantization.{}\" (known: scale, offset, qnn_offset, axis)",
          entry.index, key));
    }
  });
  if (!have_scale)
    reader.Invalid(fmt::format("tensors[{}]: quantization needs a \"scale\"", entry.index));
  if (!entry.offset_given) q.offset.assign(q.scale.size(), 0.0);  // symmetric quantization
  if (entry.qnn_offset)
    for (double& o : q.offset) o = -o;
  return q;
}

ManifestEntry ReadEntry(JsonReader& reader, JsonReader::value v, size_t index) {
  ManifestEntry entry;
  entry.index = index;
  entry.byte_offset = reader.Offset();
  ManifestTensor& t = entry.tensor;
  const std::string at = fmt::format("tensors[{}]", index);
  // JSON errors inside the entry read e.g. "tensors[3].shape[]: expected an integer".
  auto ctx = [&](std::string_view key) { return fmt::format("{}.{}", at, key); };
  auto object = reader.Object(v, at);
  reader.Fields(object, at, [&](std::string_view key, JsonReader::value field) {
    if (key == "name") {
      t.name = std::string(reader.String(field, ctx("name")));
    } else if (key == "file") {
      entry.file = std::string(reader.String(field, ctx("file")));
    } else if (key == "dtype") {
      entry.dtype = std::string(reader.String(field, ctx("dtype")));
    } else if (key == "shape") {
      auto dims = reader.Array(field, ctx("shape"));
      reader.Elements(dims, ctx("shape"), [&](JsonReader::value d, size_t) {
        t.data.shape.push_back(reader.Int(d, ctx("shape[]")));
      });
      entry.has_shape = true;
    } else if (key == "byte_order") {
      entry.byte_order = std::string(reader.String(field, ctx("byte_order")));
    } else if (key == "layout") {
      if (IsNull(reader, field, ctx("layout"))) {
        t.layout = TensorLayout::kNone;
        t.layout_name = "none";
      } else {
        t.layout_name = std::string(reader.String(field, ctx("layout")));
        auto layout = ParseTensorLayout(t.layout_name);
        if (!layout)
          reader.Invalid(fmt::format(
              "tensors[{}]: layout \"{}\" is not known (known: NHWC, NCHW, NWC, NCW, NDHWC, "
              "NCDHW, none)",
              index, t.layout_name));
        t.layout = *layout;
      }
    } else if (key == "quantization") {
      if (!IsNull(reader, field, ctx("quantization")))
        t.quantization = ReadQuantization(reader, field, entry, ctx("quantization"));
    } else if (key == "debug_handle") {
      if (!IsNull(reader, field, ctx("debug_handle"))) {
        t.debug_handle = reader.Int(field, ctx("debug_handle"));
        if (*t.debug_handle < 0)
          reader.Invalid(fmt::format("tensors[{}]: debug_handle must not be negative", index));
      }
    } else if (key == "output_index") {
      t.output_index = reader.Int(field, ctx("output_index"));
      if (*t.output_index < 0)
        reader.Invalid(fmt::format("tensors[{}]: output_index must not be negative", index));
    } else if (key == "ops") {
      simdjson::ondemand::json_type type;
      reader.Check(field.type().get(type), ctx("ops"));
      if (type == simdjson::ondemand::json_type::string) {
        t.ops.emplace_back(reader.String(field, ctx("ops")));
      } else {
        auto ops = reader.Array(field, ctx("ops"));
        reader.Elements(ops, ctx("ops"), [&](JsonReader::value op, size_t) {
          t.ops.emplace_back(reader.String(op, ctx("ops[]")));
        });
      }
    } else {
      reader.Invalid(fmt::format(
          "tensors[{}]: unknown key \"{}\" (known: name, file, dtype, shape, byte_order, layout, "
          "quantization, debug_handle, output_index, ops)",
          index, key));
    }
  });
  return entry;
}

// Problems found after an entry was read are reported at the entry's start.
[[noreturn]] void EntryError(const std::string& manifest_path, const ManifestEntry& entry,
                             std::string_view problem) {
  std::string who = entry.tensor.name.empty()
                        ? fmt::format("tensors[{}]", entry.index)
                        : fmt::format("tensors[{}] \"{}\"", entry.index, entry.tensor.name);
  throw InputError(manifest_path, fmt::format("{}: {}", who, problem), entry.byte_offset);
}

bool HasExtension(const std::string& path, std::string_view ext) {
  std::string e = fs::path(path).extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return std::tolower(c); });
  return e == ext;
}

// Checks layout rank and quantization against the (final) shape and dtype.
void CheckTensorMeta(const ManifestTensor& t, const std::function<void(std::string)>& fail) {
  size_t rank = t.data.shape.size();
  if ((t.layout == TensorLayout::kChannelsFirst || t.layout == TensorLayout::kChannelsLast) &&
      t.layout_name.size() != rank)
    fail(fmt::format("layout {} needs {} dimensions but the shape {} has {}", t.layout_name,
                     t.layout_name.size(), FormatShape(t.data.shape), rank));
  if (!t.quantization) return;
  const Quantization& q = *t.quantization;
  if (!IsIntegerDType(t.data.dtype))
    fail(fmt::format("quantization given for a {} tensor; only integer tensors are dequantized",
                     DTypeName(t.data.dtype)));
  for (double s : q.scale)
    if (!std::isfinite(s) || s <= 0) fail(fmt::format("quantization scale {} is not > 0", s));
  for (double o : q.offset)
    if (!std::isfinite(o)) fail("quantization offset is not a finite number");
  if (q.scale.size() != q.offset.size())
    fail(fmt::format("quantization has {} scales but {} offsets", q.scale.size(), q.offset.size()));
  if (!q.axis) {
    if (q.scale.size() != 1)
      fail(
          fmt::format("quantization has {} scales but no \"axis\"; per-axis quantization "
                      "needs one",
                      q.scale.size()));
    return;
  }
  if (static_cast<size_t>(*q.axis) >= rank)
    fail(fmt::format("quantization axis {} is outside the shape {}", *q.axis,
                     FormatShape(t.data.shape)));
  int64_t dim = t.data.shape[*q.axis];
  if (static_cast<int64_t>(q.scale.size()) != dim)
    fail(fmt::format("quantization has {} scales but axis {} of shape {} has {} entries",
                     q.scale.size(), *q.axis, FormatShape(t.data.shape), dim));
}

// Resolves the entry's file and reads or checks what it holds.
ManifestTensor ResolveEntry(const std::string& manifest_path, ManifestEntry& entry,
                            const std::string& data_dir) {
  auto fail = [&](std::string problem) { EntryError(manifest_path, entry, problem); };
  ManifestTensor t = entry.tensor;
  fs::path file(entry.file);
  t.data.path = file.is_absolute() ? file.string() : (fs::path(data_dir) / file).string();
  t.is_npy = HasExtension(entry.file, ".npy");
  std::error_code ec;
  if (!fs::is_regular_file(t.data.path, ec))
    fail(fmt::format("file {} {}", t.data.path,
                     fs::exists(t.data.path, ec) ? "is not a regular file" : "does not exist"));
  if (t.is_npy) {
    if (entry.byte_order) fail("\"byte_order\" applies to raw files; an .npy file states its own");
    NpyHeader header;
    try {
      header = ReadNpyHeader(t.data.path);
    } catch (const InputError& e) {
      throw InputError(e.file(), fmt::format("tensor \"{}\": {}", t.name, e.problem()),
                       e.byte_offset());
    }
    if (entry.dtype && *entry.dtype != DTypeName(header.dtype))
      fail(fmt::format("manifest says dtype {} but {} holds {}", *entry.dtype, t.data.path,
                       DTypeName(header.dtype)));
    if (entry.has_shape && t.data.shape != header.shape)
      fail(fmt::format("manifest says shape {} but {} holds {}", FormatShape(t.data.shape),
                       t.data.path, FormatShape(header.shape)));
    t.data.dtype = header.dtype;
    t.data.big_endian = header.big_endian;
    t.data.shape = header.shape;
    t.data.data_offset_bytes = header.data_offset_bytes;
  } else {
    if (!entry.dtype) fail("a raw file needs \"dtype\"");
    auto dtype = DTypeFromName(*entry.dtype);
    if (!dtype)
      fail(fmt::format("dtype \"{}\" is not known (known: {})", *entry.dtype, KnownDTypeNames()));
    t.data.dtype = *dtype;
    if (!entry.has_shape) fail("a raw file needs \"shape\"");
    for (int64_t dim : t.data.shape)
      if (dim < 0)
        fail(fmt::format("shape {} has a negative dimension", FormatShape(t.data.shape)));
    if (entry.byte_order && *entry.byte_order != "little" && *entry.byte_order != "big")
      fail(fmt::format("byte_order \"{}\" is not \"little\" or \"big\"", *entry.byte_order));
    t.data.big_endian = entry.byte_order && *entry.byte_order == "big";
  }
  CheckTensorMeta(t, fail);
  CheckTensorFileSize(t.name, t.data, fs::file_size(t.data.path, ec));
  return t;
}

}  // namespace

std::vector<ManifestTensor> ParseTensorManifest(const std::string& manifest_path,
                                                const simdjson::padded_string& json,
                                                const std::string& data_dir) {
  JsonReader reader(manifest_path, json);
  auto root = reader.Root();
  std::vector<ManifestEntry> entries;
  bool have_tensors = false;
  reader.Fields(root, "top level", [&](std::string_view key, JsonReader::value v) {
    if (key == "version") {
      int64_t version = reader.Int(v, "version");
      if (version != 1)
        reader.Invalid(fmt::format("manifest version {} is not supported (known: 1)", version));
    } else if (key == "tensors") {
      auto list = reader.Array(v, "tensors");
      reader.Elements(list, "tensors", [&](JsonReader::value e, size_t index) {
        entries.push_back(ReadEntry(reader, e, index));
      });
      have_tensors = true;
    }
    // Other top-level keys (producer, comments, ...) are free for the writer's use.
  });
  reader.ExpectEnd();
  if (!have_tensors)
    throw InputError(manifest_path, "manifest has no \"tensors\" array (see docs/numerics.md)", 0);

  std::map<std::string, size_t> seen;
  for (auto& entry : entries) {
    if (entry.tensor.name.empty()) EntryError(manifest_path, entry, "needs a \"name\"");
    auto [it, inserted] = seen.emplace(entry.tensor.name, entry.index);
    if (!inserted)
      EntryError(manifest_path, entry,
                 fmt::format("name already used by tensors[{}]; names must be unique", it->second));
    if (entry.file.empty()) entry.file = entry.tensor.name + ".raw";  // qnn-net-run's naming
  }
  std::vector<ManifestTensor> tensors;
  tensors.reserve(entries.size());
  for (auto& entry : entries) tensors.push_back(ResolveEntry(manifest_path, entry, data_dir));
  return tensors;
}

std::vector<ManifestTensor> ReadTensorManifest(const std::string& manifest_path,
                                               const std::string& data_dir) {
  LoadedFile loaded = ReadWholeFile(manifest_path);
  return ParseTensorManifest(manifest_path, loaded.bytes, data_dir);
}

ManifestTensor ReadNpyTensor(const std::string& path) {
  ManifestTensor t;
  t.name = fs::path(path).stem().string();
  t.is_npy = true;
  NpyHeader header = ReadNpyHeader(path);
  t.data = NpyTensorData(path, header);
  std::error_code ec;
  CheckTensorFileSize(t.name, t.data, fs::file_size(path, ec));
  return t;
}

}  // namespace htpscope
