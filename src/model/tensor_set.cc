#include "model/tensor_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "base/errors.h"
#include "formats/etdump.h"
#include "formats/htp_graph.h"
#include "formats/npy.h"
#include "formats/tensor_manifest.h"
#include "model/etdump_run.h"

namespace htpscope {
namespace {

namespace fs = std::filesystem;

bool HasExtension(const std::string& path, std::string_view ext) {
  std::string e = fs::path(path).extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return std::tolower(c); });
  return e == ext;
}

TensorEntry FromManifest(ManifestTensor&& m) {
  TensorEntry t;
  t.name = std::move(m.name);
  t.data = std::move(m.data);
  t.layout = m.layout;
  t.layout_name = std::move(m.layout_name);
  t.quantization = std::move(m.quantization);
  t.debug_handle = m.debug_handle;
  t.output_index = m.output_index;
  t.ops = std::move(m.ops);
  return t;
}

TensorSet ManifestSet(const std::string& manifest_path, const std::string& data_dir) {
  TensorSet set;
  set.origin = manifest_path;
  set.manifest_path = manifest_path;
  set.source = TensorSetSource::kManifest;
  for (ManifestTensor& m : ReadTensorManifest(manifest_path, data_dir))
    set.tensors.push_back(FromManifest(std::move(m)));
  return set;
}

TensorSet ScanNpyDirectory(const std::string& dir) {
  TensorSet set;
  set.origin = dir;
  std::vector<std::string> npy_files;
  size_t raw_files = 0;
  std::error_code ec;
  for (const auto& item : fs::directory_iterator(dir, ec)) {
    if (!item.is_regular_file(ec)) continue;
    std::string path = item.path().string();
    if (HasExtension(path, ".npy")) npy_files.push_back(path);
    if (HasExtension(path, ".raw")) ++raw_files;
  }
  if (ec) throw InputError(dir, fmt::format("cannot list directory: {}", ec.message()));
  if (raw_files > 0)
    throw InputError(dir, fmt::format("has {} .raw files but no manifest.json; raw dumps need a "
                                      "manifest giving dtype and shape (see docs/numerics.md)",
                                      raw_files));
  if (npy_files.empty())
    throw InputError(dir, "has no .npy files and no manifest.json; nothing to compare");
  std::sort(npy_files.begin(), npy_files.end(), [](const std::string& a, const std::string& b) {
    return NaturalLess(fs::path(a).filename().string(), fs::path(b).filename().string());
  });
  for (const auto& path : npy_files) set.tensors.push_back(FromManifest(ReadNpyTensor(path)));
  return set;
}

// The name a debug event's tensors are known by when it has no integer handle.
std::string EventBaseName(const Etdump& dump, const EtdumpEvent& e) {
  if (e.delegate_debug_id_str != StringPool::kEmpty)
    return std::string(dump.strings.View(e.delegate_debug_id_str));
  if (e.name != StringPool::kEmpty) return std::string(dump.strings.View(e.name));
  return fmt::format("instruction_{}", e.instruction_id);
}

// Builds the tensor of one debug event's value, checking what the ETDump
// says about it against the debug buffer.
TensorEntry DebugTensor(const Etdump& dump, const EtdumpRunData& run, size_t event_index,
                        const EtdumpEvent& e, const EtdumpTensor& t,
                        const std::string& debug_buffer, uint64_t buffer_bytes) {
  std::string where = fmt::format("run '{}' event {}", run.name, event_index);
  auto fail = [&](const std::string& problem) {
    throw InputError(dump.path, fmt::format("{}: {}", where, problem), t.table_byte);
  };
  auto dtype = EtdumpScalarTypeDType(t.scalar_type);
  if (!dtype)
    fail(
        fmt::format("tensor of scalar type {} has no numeric decoding (supported: every "
                    "integer, float, bool and quantized-int type of ExecuTorch's schema)",
                    EtdumpScalarTypeName(t.scalar_type)));
  TensorEntry out;
  out.data.path = debug_buffer;
  out.data.dtype = *dtype;
  out.data.shape = t.sizes;
  out.data.strides = t.strides;
  out.data.whole_file = false;
  if (t.offset_bytes < 0) fail(fmt::format("tensor offset {} is negative", t.offset_bytes));
  out.data.data_offset_bytes = static_cast<uint64_t>(t.offset_bytes);
  if (!ElementCount(t.sizes))
    fail(fmt::format("tensor sizes {} are negative or too large", FormatShape(t.sizes)));
  if (!t.strides.empty() && t.strides.size() != t.sizes.size())
    fail(fmt::format("tensor has {} strides for {} sizes", t.strides.size(), t.sizes.size()));
  for (int64_t stride : t.strides)
    if (stride < 0) fail(fmt::format("tensor stride {} is negative", stride));
  auto end = TensorEndByte(out.data);
  if (!end)
    fail(fmt::format("tensor sizes {} with strides {} overflow a byte offset", FormatShape(t.sizes),
                     FormatShape(t.strides)));
  if (*end > buffer_bytes)
    fail(
        fmt::format("{} tensor {} at offset {} needs debug-buffer bytes up to {}, but {} has {} "
                    "bytes",
                    EtdumpScalarTypeName(t.scalar_type), FormatShape(t.sizes), t.offset_bytes, *end,
                    debug_buffer, buffer_bytes));
  if (e.delegate_debug_id_int >= 0) out.debug_handle = e.delegate_debug_id_int;
  if (e.name != StringPool::kEmpty) out.ops.emplace_back(dump.strings.View(e.name));
  if (e.delegate_debug_id_str != StringPool::kEmpty)
    out.ops.emplace_back(dump.strings.View(e.delegate_debug_id_str));
  return out;
}

uint64_t FileBytes(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw InputError(path, fs::exists(path, ec) ? "is not a regular file" : "does not exist");
  uint64_t bytes = fs::file_size(path, ec);
  if (ec) throw InputError(path, fmt::format("cannot read its size: {}", ec.message()));
  return bytes;
}

}  // namespace

TensorSet LoadEtdumpTensorSet(const std::string& etdump_path,
                              const std::string& debug_buffer_path) {
  if (debug_buffer_path.empty())
    throw InputNeedsValueError(etdump_path,
                               "is an ExecuTorch ETDump: its tensors are in the debug buffer "
                               "the runtime wrote beside it; give it",
                               ValueRole::kEtdumpDebugBuffer);
  Etdump dump = ReadEtdump(etdump_path);
  uint64_t buffer_bytes = FileBytes(debug_buffer_path);
  TensorSet set;
  set.origin = etdump_path;
  set.source = TensorSetSource::kEtdump;
  const EtdumpRunData* chosen = nullptr;
  size_t runs_with_debug = 0;
  for (const auto& run : dump.runs) {
    bool has_debug = std::any_of(run.events.begin(), run.events.end(), [](const EtdumpEvent& e) {
      return e.kind == EtdumpEventKind::kDebug;
    });
    runs_with_debug += has_debug;
    if (has_debug && !chosen) chosen = &run;
  }
  if (!chosen)
    throw InputError(etdump_path,
                     fmt::format("has no debug events (intermediate outputs) in its {} run-data "
                                 "blocks; run with intermediate-output logging on",
                                 dump.runs.size()),
                     0);
  if (runs_with_debug > 1)
    set.notes.push_back(
        fmt::format("{}: debug events of run '{}' compared; {} later run(s) with "
                    "debug events ignored",
                    etdump_path, chosen->name, runs_with_debug - 1));
  std::map<int64_t, int64_t> next_output;  // per handle
  std::map<std::string, int> name_uses;    // per unhandled base name
  size_t non_tensor_values = 0, empty_tensor_values = 0;
  for (size_t i = 0; i < chosen->events.size(); ++i) {
    const EtdumpEvent& e = chosen->events[i];
    if (e.kind != EtdumpEventKind::kDebug) continue;
    if (e.value_type != EtdumpValueType::kTensor && e.value_type != EtdumpValueType::kTensorList) {
      ++non_tensor_values;
      continue;
    }
    if (e.tensors.empty()) ++empty_tensor_values;
    std::string base;
    if (e.delegate_debug_id_int < 0) {
      base = EventBaseName(dump, e);
      int use = ++name_uses[base];
      if (use > 1) base += fmt::format("#{}", use);
    }
    for (size_t k = 0; k < e.tensors.size(); ++k) {
      TensorEntry t =
          DebugTensor(dump, *chosen, i, e, e.tensors[k], debug_buffer_path, buffer_bytes);
      if (t.debug_handle) {
        t.output_index = next_output[*t.debug_handle]++;
        t.name = *t.output_index == 0
                     ? fmt::format("debug_handle_{}", *t.debug_handle)
                     : fmt::format("debug_handle_{}:{}", *t.debug_handle, *t.output_index);
      } else {
        t.name =
            e.value_type == EtdumpValueType::kTensorList ? fmt::format("{}[{}]", base, k) : base;
      }
      set.tensors.push_back(std::move(t));
    }
  }
  if (non_tensor_values)
    set.notes.push_back(fmt::format("{}: {} debug event(s) holding a scalar, not a tensor, skipped",
                                    etdump_path, non_tensor_values));
  if (empty_tensor_values)
    set.notes.push_back(fmt::format("{}: {} debug event(s) say they hold a tensor but have none",
                                    etdump_path, empty_tensor_values));
  if (set.tensors.empty())
    throw InputError(etdump_path,
                     fmt::format("run '{}' logged no tensors in its debug events", chosen->name),
                     chosen->table_byte);
  return set;
}

std::optional<TensorSetSource> TensorSetSourceOf(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec))
    return fs::exists(fs::path(path) / "manifest.json", ec) ? TensorSetSource::kManifest
                                                            : TensorSetSource::kNpyDirectory;
  if (!fs::exists(path, ec)) return std::nullopt;
  if (IsEtdumpFile(path)) return TensorSetSource::kEtdump;
  if (HasExtension(path, ".json")) return TensorSetSource::kManifest;
  if (HasExtension(path, ".npy")) return TensorSetSource::kNpyFile;
  return std::nullopt;
}

const char* TensorSetSourceName(TensorSetSource source) {
  switch (source) {
    case TensorSetSource::kNpyDirectory:
      return "directory of .npy files";
    case TensorSetSource::kNpyFile:
      return ".npy file";
    case TensorSetSource::kManifest:
      return "manifest";
    case TensorSetSource::kEtdump:
      return "ExecuTorch ETDump";
  }
  return "?";
}

TensorSet LoadTensorSet(const std::string& path, const std::string& manifest_override,
                        const std::string& debug_buffer) {
  std::error_code ec;
  bool is_dir = fs::is_directory(path, ec);
  if (!debug_buffer.empty() && fs::exists(path, ec) && (is_dir || !IsEtdumpFile(path)))
    throw InputError(path, fmt::format("a debug buffer ({}) was given for it, but it is not an "
                                       "ExecuTorch ETDump",
                                       debug_buffer));
  if (!manifest_override.empty()) {
    if (!is_dir)
      throw InputError(path,
                       "with a manifest option the tensor location must be the directory the "
                       "manifest's files are relative to");
    return ManifestSet(manifest_override, path);
  }
  const std::optional<TensorSetSource> source = TensorSetSourceOf(path);
  if (!source)
    throw InputError(path, fs::exists(path, ec) ? "is not a directory, a .json manifest, an .npy "
                                                  "file or an ExecuTorch ETDump"
                                                : "does not exist");
  switch (*source) {
    case TensorSetSource::kNpyDirectory:
      return ScanNpyDirectory(path);
    case TensorSetSource::kManifest: {
      if (is_dir) return ManifestSet((fs::path(path) / "manifest.json").string(), path);
      std::string dir = fs::path(path).parent_path().string();
      return ManifestSet(path, dir.empty() ? "." : dir);
    }
    case TensorSetSource::kEtdump:
      return LoadEtdumpTensorSet(path, debug_buffer);
    case TensorSetSource::kNpyFile: {
      TensorSet set;
      set.origin = path;
      set.source = TensorSetSource::kNpyFile;
      set.tensors.push_back(FromManifest(ReadNpyTensor(path)));
      return set;
    }
  }
  throw InternalError("a tensor set source without its loader");
}

TensorReader::TensorReader(const TensorEntry& tensor)
    : file_(std::make_unique<TensorFileReader>(tensor.name, tensor.data)) {}
TensorReader::~TensorReader() = default;
TensorReader::TensorReader(TensorReader&&) noexcept = default;
TensorReader& TensorReader::operator=(TensorReader&&) noexcept = default;

void TensorReader::Read(uint64_t first_element, size_t count, double* out,
                        std::vector<char>& scratch) const {
  file_->Read(first_element, count, out, scratch);
}

uint64_t TensorReader::element_count() const { return file_->element_count(); }

std::vector<std::string> ExecutionOrderOps(const HtpGraph& graph) {
  struct Step {
    int64_t cycles_start;
    int64_t tensor_index;
    uint64_t id;
    const HtpNode* node;
  };
  std::vector<Step> steps;
  bool all_timed = !graph.nodes.empty();
  for (const auto& [id, node] : graph.nodes) {
    auto start = node.IntParam("cycles_start");
    all_timed = all_timed && start.has_value();
    auto tensor = graph.tensors.find(id);
    int64_t index =
        tensor != graph.tensors.end() ? tensor->second.index : std::numeric_limits<int64_t>::max();
    steps.push_back({start.value_or(0), index, id, &node});
  }
  std::stable_sort(steps.begin(), steps.end(), [&](const Step& a, const Step& b) {
    if (all_timed && a.cycles_start != b.cycles_start) return a.cycles_start < b.cycles_start;
    return std::tie(a.tensor_index, a.id) < std::tie(b.tensor_index, b.id);
  });
  std::vector<std::string> ops;
  std::set<std::string, std::less<>> seen;
  for (const Step& step : steps) {
    std::string name = step.node->grouping;
    if (name.empty())
      if (auto it = step.node->scalar_params.find("qnn_op_name");
          it != step.node->scalar_params.end() && it->second.AsString())
        name = *it->second.AsString();
    if (!name.empty() && seen.insert(name).second) ops.push_back(name);
  }
  return ops;
}

std::vector<std::string> ExecutionOrderOps(const std::string& htp_graph_path) {
  ReadHtpGraphOptions options;
  options.kept_params = {"cycles_start", "qnn_op_name"};  // what ExecutionOrderOps reads
  return ExecutionOrderOps(ReadHtpGraph(htp_graph_path, options));
}

}  // namespace htpscope
