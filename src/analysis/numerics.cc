#include "analysis/numerics.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <tuple>

#include "analysis/numerics_layout.h"
#include "base/errors.h"

namespace htpscope {
namespace {

constexpr std::string_view kDebugSuffix = "__debugID_";

// "device_manifest", "device_etdump", "reference_manifest", ...
std::string OrderSourceName(std::string_view side, const TensorSet& set) {
  return fmt::format("{}_{}", side, set.source == TensorSetSource::kEtdump ? "etdump" : "manifest");
}

std::vector<std::string> OpsOf(const TensorEntry& t) {
  if (!t.ops.empty()) return t.ops;
  return {std::string(SplitDebugHandle(t.name).base)};
}

// Identity of a row: (handle, output) or, for tensors without a handle, the name.
struct RowKey {
  std::optional<int64_t> handle;
  int64_t output = 0;
  std::string name;
  auto Tie() const { return std::tie(handle, output, name); }
  bool operator<(const RowKey& o) const { return Tie() < o.Tie(); }
  bool operator==(const RowKey& o) const { return Tie() == o.Tie(); }
};

std::vector<RowKey> KeysOf(const TensorSet& set, std::string_view side) {
  std::vector<RowKey> keys;
  std::map<int64_t, int64_t> implicit_outputs;
  std::map<RowKey, size_t> seen;
  for (size_t i = 0; i < set.tensors.size(); ++i) {
    const TensorEntry& t = set.tensors[i];
    RowKey key;
    key.handle = t.debug_handle ? t.debug_handle : SplitDebugHandle(t.name).handle;
    if (key.handle) {
      // Outputs of one op share its handle; without an explicit index they
      // are numbered in the set's order.
      key.output = t.output_index ? *t.output_index : implicit_outputs[*key.handle]++;
    } else {
      key.name = t.name;
    }
    auto [it, inserted] = seen.emplace(key, i);
    if (!inserted && key.handle)
      throw InputError(
          t.data.path,
          fmt::format("{} tensors \"{}\" and \"{}\" both claim debug handle {} output {}; give "
                      "each its \"output_index\" in the manifest",
                      side, set.tensors[it->second].name, t.name, *key.handle, key.output));
    if (!inserted)
      throw InputError(t.data.path, fmt::format("{} has two tensors named \"{}\"", side, t.name));
    keys.push_back(std::move(key));
  }
  return keys;
}

std::optional<int64_t> HandleInName(std::string_view name) {
  size_t at = name.rfind(kDebugSuffix);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view digits = name.substr(at + kDebugSuffix.size());
  size_t end = 0;
  while (end < digits.size() && digits[end] >= '0' && digits[end] <= '9') ++end;
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + end, value);
  if (end == 0 || ec != std::errc()) return std::nullopt;
  return value;
}

// Sorts rows into execution order (see CompareTensorSets).
void OrderRows(std::vector<HandleRow>& rows, const std::vector<std::optional<size_t>>& ref_index,
               const std::vector<std::optional<size_t>>& dev_index, const TensorSet& reference,
               const TensorSet& device, const NumericsOptions& options, std::string& order_source) {
  std::vector<std::optional<uint64_t>> position(rows.size());
  if (!options.execution_order_ops.empty()) {
    order_source = "htp_graph";
    std::map<int64_t, uint64_t> handle_position;
    std::map<std::string, uint64_t, std::less<>> name_position;
    for (uint64_t i = 0; i < options.execution_order_ops.size(); ++i) {
      const std::string& op = options.execution_order_ops[i];
      name_position.emplace(op, i);
      if (auto h = HandleInName(op)) handle_position.emplace(*h, i);
    }
    for (size_t r = 0; r < rows.size(); ++r) {
      auto consider = [&](uint64_t p) { position[r] = std::min(position[r].value_or(p), p); };
      if (rows[r].handle)
        if (auto it = handle_position.find(*rows[r].handle); it != handle_position.end())
          consider(it->second);
      for (const auto& op : rows[r].runtime_ops)
        if (auto it = name_position.find(op); it != name_position.end()) consider(it->second);
    }
  } else if (device.ordered()) {
    order_source = OrderSourceName("device", device);
    for (size_t r = 0; r < rows.size(); ++r) position[r] = dev_index[r];
  } else if (reference.ordered()) {
    order_source = OrderSourceName("reference", reference);
    for (size_t r = 0; r < rows.size(); ++r) position[r] = ref_index[r];
  } else {
    order_source = "debug_handle";
  }
  // Fallback order: handles ascending, then outputs, then unhandled names.
  std::vector<size_t> by_handle(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) by_handle[r] = r;
  auto name_of = [&](size_t r) -> const std::string& {
    return rows[r].reference_tensor.empty() ? rows[r].device_tensor : rows[r].reference_tensor;
  };
  std::sort(by_handle.begin(), by_handle.end(), [&](size_t x, size_t y) {
    const HandleRow &a = rows[x], &b = rows[y];
    if (a.handle.has_value() != b.handle.has_value()) return a.handle.has_value();
    if (a.handle != b.handle) return *a.handle < *b.handle;
    if (a.output_index != b.output_index) return a.output_index < b.output_index;
    return NaturalLess(name_of(x), name_of(y));
  });
  // A row without a position follows the nearest placed row below it in the fallback order.
  using SortKey = std::tuple<int64_t, int, size_t>;
  std::vector<SortKey> key(rows.size());
  int64_t anchor = -1;
  for (size_t rank = 0; rank < by_handle.size(); ++rank) {
    size_t r = by_handle[rank];
    if (position[r]) {
      anchor = static_cast<int64_t>(*position[r]);
      key[r] = {anchor, 0, rank};
    } else {
      key[r] = {anchor, 1, rank};
    }
  }
  std::vector<size_t> order = by_handle;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return key[x] < key[y]; });
  std::vector<HandleRow> sorted;
  sorted.reserve(rows.size());
  for (size_t r : order) sorted.push_back(std::move(rows[r]));
  rows = std::move(sorted);
}

}  // namespace

NameHandle SplitDebugHandle(std::string_view tensor_name) {
  size_t at = tensor_name.rfind(kDebugSuffix);
  if (at == std::string_view::npos) return {tensor_name, std::nullopt};
  std::string_view digits = tensor_name.substr(at + kDebugSuffix.size());
  if (digits.empty() || digits.size() > 18 ||
      digits.find_first_not_of("0123456789") != std::string_view::npos)
    return {tensor_name, std::nullopt};
  int64_t value = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return {tensor_name.substr(0, at), value};
}

std::string_view HandleStatusName(HandleStatus status) {
  switch (status) {
    case HandleStatus::kCompared:
      return "compared";
    case HandleStatus::kReferenceOnly:
      return "reference_only";
    case HandleStatus::kDeviceOnly:
      return "device_only";
  }
  return "";
}

NumericsResult CompareTensorSets(const TensorSet& reference, const TensorSet& device,
                                 const NumericsOptions& options) {
  NumericsResult result;
  result.reference_origin = reference.origin;
  result.device_origin = device.origin;
  result.reference_tensors = reference.tensors.size();
  result.device_tensors = device.tensors.size();
  result.metric = options.metric;
  result.threshold = options.threshold;
  result.notes = reference.notes;
  result.notes.insert(result.notes.end(), device.notes.begin(), device.notes.end());

  std::vector<RowKey> ref_keys = KeysOf(reference, "reference");
  std::vector<RowKey> dev_keys = KeysOf(device, "device");
  // Two single tensors without handles are compared whatever their names.
  if (ref_keys.size() == 1 && dev_keys.size() == 1 && !ref_keys[0].handle && !dev_keys[0].handle)
    dev_keys[0] = ref_keys[0];
  std::map<RowKey, std::pair<std::optional<size_t>, std::optional<size_t>>> pairs;
  for (size_t i = 0; i < ref_keys.size(); ++i) pairs[ref_keys[i]].first = i;
  for (size_t i = 0; i < dev_keys.size(); ++i) pairs[dev_keys[i]].second = i;
  std::map<int64_t, int64_t> outputs_per_handle;
  for (const auto& [key, sides] : pairs)
    if (key.handle) ++outputs_per_handle[*key.handle];

  std::vector<HandleRow> rows;
  std::vector<std::optional<size_t>> ref_index, dev_index;
  for (const auto& [key, sides] : pairs) {
    HandleRow row;
    row.handle = key.handle;
    row.output_index = key.output;
    row.handle_outputs = key.handle ? outputs_per_handle[*key.handle] : 1;
    row.status = !sides.second  ? HandleStatus::kReferenceOnly
                 : !sides.first ? HandleStatus::kDeviceOnly
                                : HandleStatus::kCompared;
    if (sides.first) {
      const TensorEntry& t = reference.tensors[*sides.first];
      row.reference_tensor = t.name;
      row.reference_file = t.data.path;
      row.reference_ops = OpsOf(t);
      row.shape = t.data.shape;
    }
    if (sides.second) {
      const TensorEntry& t = device.tensors[*sides.second];
      row.device_tensor = t.name;
      row.device_file = t.data.path;
      row.runtime_ops = OpsOf(t);
      if (!sides.first) row.shape = t.data.shape;
    }
    rows.push_back(std::move(row));
    ref_index.push_back(sides.first);
    dev_index.push_back(sides.second);
  }

  // Every pair's shapes are checked before any element is read, so a
  // mismatch late in a big model fails at once.
  for (size_t r = 0; r < rows.size(); ++r)
    if (rows[r].status == HandleStatus::kCompared)
      ResolveGeometry(reference.tensors[*ref_index[r]], device.tensors[*dev_index[r]], options,
                      rows[r]);

  for (size_t r = 0; r < rows.size(); ++r) {
    HandleRow& row = rows[r];
    if (row.status == HandleStatus::kCompared) {
      CompareTensorPair(reference.tensors[*ref_index[r]], device.tensors[*dev_index[r]], options,
                        row);
      row.gap = MetricValue(row.metrics, options.metric);
      bool beyond = row.gap && (DivergesAbove(options.metric) ? *row.gap > options.threshold
                                                              : *row.gap < options.threshold);
      row.divergent = beyond || row.sums.nonfinite_mismatch > 0;
    } else {
      bool ref_side = row.status == HandleStatus::kReferenceOnly;
      const TensorEntry& t =
          ref_side ? reference.tensors[*ref_index[r]] : device.tensors[*dev_index[r]];
      TensorLayout layout =
          EffectiveLayout(t, ref_side ? options.reference_layout : options.device_layout);
      (ref_side ? row.reference_layout : row.device_layout) = LayoutLabel(t, layout);
      TensorReader reader(t);
      (ref_side ? row.reference_preview : row.device_preview) =
          Preview(reader, DequantizerFor(t), options.preview_values);
      row.dequantized = !ref_side && t.quantization.has_value();
    }
  }

  OrderRows(rows, ref_index, dev_index, reference, device, options, result.order_source);
  result.rows = std::move(rows);
  for (size_t r = 0; r < result.rows.size(); ++r) {
    const HandleRow& row = result.rows[r];
    result.compared += row.status == HandleStatus::kCompared;
    result.reference_only += row.status == HandleStatus::kReferenceOnly;
    result.device_only += row.status == HandleStatus::kDeviceOnly;
    result.divergent += row.divergent;
    if (row.divergent && !result.first_divergent) result.first_divergent = r;
  }
  return result;
}

}  // namespace htpscope
