#include "analysis/numerics.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <set>
#include <thread>
#include <tuple>

#include "base/errors.h"
#include "formats/npy.h"

namespace htpscope {
namespace {

constexpr std::string_view kDebugSuffix = "__debugID_";

bool IsChannelsLayout(TensorLayout layout) {
  return layout == TensorLayout::kChannelsFirst || layout == TensorLayout::kChannelsLast;
}

// The layout a tensor is treated as having: its own statement, else the
// default for its side (applied only to ranks 3..5, which have a channel axis).
TensorLayout EffectiveLayout(const TensorEntry& t, TensorLayout side_default) {
  if (t.layout != TensorLayout::kUnstated) return t.layout;
  size_t rank = t.data.shape.size();
  if (IsChannelsLayout(side_default) && rank >= 3 && rank <= 5) return side_default;
  return TensorLayout::kUnstated;
}

std::string LayoutLabel(const TensorEntry& t, TensorLayout effective) {
  if (!t.layout_name.empty()) return t.layout_name;
  if (!IsChannelsLayout(effective)) return "";
  static constexpr std::string_view kSpatial[] = {"W", "HW", "DHW"};
  std::string_view spatial = kSpatial[t.data.shape.size() - 3];
  return effective == TensorLayout::kChannelsFirst ? fmt::format("NC{}", spatial)
                                                   : fmt::format("N{}C", spatial);
}

// `shape` stored in layout `from` (channels first or last), as the other layout.
std::vector<int64_t> OtherLayoutShape(const std::vector<int64_t>& shape, TensorLayout from) {
  std::vector<int64_t> out = shape;
  if (shape.size() < 3) return out;
  if (from == TensorLayout::kChannelsLast) {
    std::rotate(out.begin() + 1, out.end() - 1, out.end());  // [N, S..., C] → [N, C, S...]
  } else {
    std::rotate(out.begin() + 1, out.begin() + 2, out.end());  // [N, C, S...] → [N, S..., C]
  }
  return out;
}

// Size-1 dimensions never change where elements sit in C order.
std::vector<int64_t> Squeezed(const std::vector<int64_t>& shape) {
  std::vector<int64_t> out;
  for (int64_t d : shape)
    if (d != 1) out.push_back(d);
  return out;
}

uint64_t Product(const std::vector<int64_t>& shape, size_t begin, size_t end) {
  uint64_t p = 1;
  for (size_t i = begin; i < end; ++i) p *= static_cast<uint64_t>(shape[i]);
  return p;
}

std::string RowLabel(const HandleRow& row) {
  if (!row.handle) return fmt::format("tensor \"{}\"", row.reference_tensor);
  if (row.handle_outputs > 1)
    return fmt::format("debug handle {} output {}", *row.handle, row.output_index);
  return fmt::format("debug handle {}", *row.handle);
}

// How a reference/device pair lines up element by element.  The reference is
// viewed as [n][a][b] and, when transposed, the device as [n][b][a].
struct PairGeometry {
  bool layout_converted = false;
  bool transposed = false;
  uint64_t n = 1, a = 1, b = 1;
  uint64_t elements = 0;
};

// [n][a][b] view of a reference of shape `r` in channels `layout`, for a
// device in the other layout viewed as [n][b][a].
void ConversionDims(const std::vector<int64_t>& r, TensorLayout layout, PairGeometry& g) {
  g.n = static_cast<uint64_t>(r[0]);
  if (layout == TensorLayout::kChannelsFirst) {
    g.a = static_cast<uint64_t>(r[1]);  // channels
    g.b = Product(r, 2, r.size());      // pixels
  } else {
    g.a = Product(r, 1, r.size() - 1);  // pixels
    g.b = static_cast<uint64_t>(r.back());
  }
  // With one channel or one pixel both orders coincide.
  g.transposed = g.a > 1 && g.b > 1;
}

PairGeometry ResolveGeometry(const TensorEntry& ref, const TensorEntry& dev,
                             const NumericsOptions& options, HandleRow& row) {
  TensorLayout ref_layout = EffectiveLayout(ref, options.reference_layout);
  TensorLayout dev_layout = EffectiveLayout(dev, options.device_layout);
  row.reference_layout = LayoutLabel(ref, ref_layout);
  row.device_layout = LayoutLabel(dev, dev_layout);
  const auto& r = ref.data.shape;
  const auto& d = dev.data.shape;
  PairGeometry g;
  g.elements = *ElementCount(r);

  // One side states channels-first/last, the other nothing: the shapes decide
  // (PyTorch references are NCHW, QNN outputs NHWC).  When both readings fit
  // and would order elements differently, guessing could be silently wrong.
  bool ref_open = ref_layout == TensorLayout::kUnstated;
  bool dev_open = dev_layout == TensorLayout::kUnstated;
  if (ref_open != dev_open && r.size() == d.size() && r.size() >= 3 && r.size() <= 5 &&
      IsChannelsLayout(ref_open ? dev_layout : ref_layout)) {
    TensorLayout stated = ref_open ? dev_layout : ref_layout;
    TensorLayout opposite = stated == TensorLayout::kChannelsFirst ? TensorLayout::kChannelsLast
                                                                   : TensorLayout::kChannelsFirst;
    bool fits_converted =
        ref_open ? OtherLayoutShape(d, dev_layout) == r : OtherLayoutShape(r, ref_layout) == d;
    bool fits_same = Squeezed(r) == Squeezed(d);
    PairGeometry probe;
    ConversionDims(r, ref_open ? opposite : ref_layout, probe);
    const TensorEntry& open = ref_open ? ref : dev;
    const TensorEntry& known = ref_open ? dev : ref;
    if (fits_converted && fits_same && probe.transposed)
      throw InputError(
          open.data.path,
          fmt::format("{}: layout is ambiguous: {} tensor \"{}\" is {} {} and {} tensor \"{}\" "
                      "{} states no layout, which fits both {} and {}; state it (manifest "
                      "\"layout\", or --ref-layout/--device-layout)",
                      RowLabel(row), ref_open ? "device" : "reference", known.name,
                      ref_open ? row.device_layout : row.reference_layout,
                      FormatShape(known.data.shape), ref_open ? "reference" : "device", open.name,
                      FormatShape(open.data.shape), LayoutLabel(open, stated),
                      LayoutLabel(open, opposite)));
    if (fits_converted && !fits_same) {
      (ref_open ? ref_layout : dev_layout) = opposite;
      (ref_open ? row.reference_layout : row.device_layout) =
          LayoutLabel(open, opposite) + " (inferred)";
    }
  }

  bool convert =
      IsChannelsLayout(ref_layout) && IsChannelsLayout(dev_layout) && ref_layout != dev_layout;
  // `as_reference` shows the device shape in the reference layout; `hint` says how to fix it.
  auto mismatch = [&](std::string as_reference, std::string hint) {
    throw InputError(
        dev.data.path,
        fmt::format("{}: shape mismatch: reference tensor \"{}\" ({}) has shape {}{} but device "
                    "tensor \"{}\" has shape {}{}{}; shapes must agree (size-1 dimensions aside), "
                    "nothing is broadcast{}",
                    RowLabel(row), ref.name, ref.data.path, FormatShape(r),
                    row.reference_layout.empty() ? "" : " " + row.reference_layout, dev.name,
                    FormatShape(d), row.device_layout.empty() ? "" : " " + row.device_layout,
                    as_reference, hint));
  };
  if (convert) {
    std::vector<int64_t> d_as_ref = OtherLayoutShape(d, dev_layout);
    if (d_as_ref != r)
      mismatch(fmt::format(" = {} as {}", FormatShape(d_as_ref), row.reference_layout), "");
    g.layout_converted = true;
    ConversionDims(r, ref_layout, g);
  } else if (Squeezed(r) != Squeezed(d)) {
    bool permuted = r.size() >= 3 && r.size() == d.size() &&
                    (OtherLayoutShape(d, TensorLayout::kChannelsLast) == r ||
                     OtherLayoutShape(d, TensorLayout::kChannelsFirst) == r);
    mismatch("", permuted ? "; if one side is channels-last, state the layouts (manifest "
                            "\"layout\", or --ref-layout/--device-layout)"
                          : "");
  }
  return g;
}

// Work for one pair: readers, dequantizers and geometry.
struct PairPlan {
  const TensorFileReader* ref = nullptr;
  const TensorFileReader* dev = nullptr;
  Dequantizer ref_q, dev_q;
  PairGeometry g;
  size_t block = 1 << 16;
  uint64_t tile_a = 1, tile_b = 1, tiles_a = 1, tiles_b = 1;

  uint64_t WorkUnits() const { return g.transposed ? g.n * tiles_a * tiles_b : g.elements; }
};

// Picks a tile of about `block` elements whose contiguous runs on both sides
// stay long: a run on the reference side is tile_b values, on the device
// side tile_a values; short runs mean many small reads.
void ChooseTiles(PairPlan& p) {
  uint64_t block = std::max<uint64_t>(p.block, 1);
  uint64_t min_run = std::max<uint64_t>(
      1, std::min<uint64_t>(256, static_cast<uint64_t>(std::sqrt(static_cast<double>(block)))));
  uint64_t a = p.g.a, b = p.g.b;
  if (a <= block / b) {
    p.tile_a = a;
    p.tile_b = b;
  } else if (a <= block / min_run) {
    p.tile_a = a;
    p.tile_b = std::max<uint64_t>(1, block / a);
  } else if (b <= block / min_run) {
    p.tile_b = b;
    p.tile_a = std::max<uint64_t>(1, block / b);
  } else {
    p.tile_a = p.tile_b = min_run;
  }
  p.tiles_a = (a + p.tile_a - 1) / p.tile_a;
  p.tiles_b = (b + p.tile_b - 1) / p.tile_b;
}

void ReadDequantized(const TensorFileReader& reader, const Dequantizer& q, uint64_t first,
                     size_t count, double* out, std::vector<char>& scratch) {
  reader.Read(first, count, out, scratch);
  q.Apply(out, count, first);
}

void RunContiguous(const PairPlan& p, uint64_t begin, uint64_t end, ErrorSums& sums) {
  size_t block = std::max<size_t>(p.block, 1);
  std::vector<double> ref(std::min<uint64_t>(block, end - begin));
  std::vector<double> dev(ref.size());
  std::vector<char> scratch;
  for (uint64_t i = begin; i < end;) {
    size_t count = static_cast<size_t>(std::min<uint64_t>(block, end - i));
    ReadDequantized(*p.ref, p.ref_q, i, count, ref.data(), scratch);
    ReadDequantized(*p.dev, p.dev_q, i, count, dev.data(), scratch);
    sums.Add(ref.data(), dev.data(), count);
    i += count;
  }
}

void RunTiles(const PairPlan& p, uint64_t tile_begin, uint64_t tile_end, ErrorSums& sums) {
  const uint64_t A = p.g.a, B = p.g.b;
  std::vector<double> ref(p.tile_a * p.tile_b), dev(ref.size()), staged(ref.size());
  std::vector<char> scratch;
  for (uint64_t t = tile_begin; t < tile_end; ++t) {
    uint64_t n = t / (p.tiles_a * p.tiles_b);
    uint64_t rest = t % (p.tiles_a * p.tiles_b);
    uint64_t a0 = (rest / p.tiles_b) * p.tile_a, b0 = (rest % p.tiles_b) * p.tile_b;
    size_t ta = static_cast<size_t>(std::min(A - a0, p.tile_a));
    size_t tb = static_cast<size_t>(std::min(B - b0, p.tile_b));
    // Reference rows ref[n][a][b0, b0 + tb): one read when they are whole rows.
    if (tb == B) {
      ReadDequantized(*p.ref, p.ref_q, (n * A + a0) * B, ta * tb, ref.data(), scratch);
    } else {
      for (size_t i = 0; i < ta; ++i)
        ReadDequantized(*p.ref, p.ref_q, (n * A + a0 + i) * B + b0, tb, ref.data() + i * tb,
                        scratch);
    }
    // Device rows dev[n][b][a0, a0 + ta), staged as [b][a].
    if (ta == A) {
      ReadDequantized(*p.dev, p.dev_q, (n * B + b0) * A, ta * tb, staged.data(), scratch);
    } else {
      for (size_t j = 0; j < tb; ++j)
        ReadDequantized(*p.dev, p.dev_q, (n * B + b0 + j) * A + a0, ta, staged.data() + j * ta,
                        scratch);
    }
    for (size_t j = 0; j < tb; ++j)
      for (size_t i = 0; i < ta; ++i) dev[i * tb + j] = staged[j * ta + i];
    sums.Add(ref.data(), dev.data(), ta * tb);
  }
}

// Splits the work units into one contiguous range per thread and merges the
// partial sums in range order.
ErrorSums RunPlan(const PairPlan& p, const NumericsOptions& options) {
  uint64_t units = p.WorkUnits();
  uint64_t per_thread = std::max<uint64_t>(options.min_elements_per_thread, 1);
  uint64_t threads = std::max(1, options.threads);
  threads = std::min(threads, std::max<uint64_t>(1, p.g.elements / per_thread));
  threads = std::max<uint64_t>(1, std::min(threads, units));
  std::vector<ErrorSums> partial(threads);
  std::vector<std::exception_ptr> errors(threads);
  auto work = [&](uint64_t k) {
    try {
      uint64_t base = units / threads, extra = units % threads;
      uint64_t begin = k * base + std::min(k, extra);
      uint64_t end = begin + base + (k < extra ? 1 : 0);
      if (p.g.transposed) {
        RunTiles(p, begin, end, partial[k]);
      } else {
        RunContiguous(p, begin, end, partial[k]);
      }
    } catch (...) {
      errors[k] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (uint64_t k = 1; k < threads; ++k) pool.emplace_back(work, k);
  work(0);
  for (auto& thread : pool) thread.join();
  for (auto& error : errors)
    if (error) std::rethrow_exception(error);
  ErrorSums total;
  for (const auto& part : partial) total.Merge(part);
  return total;
}

std::vector<double> Preview(const TensorFileReader& reader, const Dequantizer& q, size_t count) {
  std::vector<double> out(static_cast<size_t>(std::min<uint64_t>(count, reader.element_count())));
  std::vector<char> scratch;
  if (!out.empty()) ReadDequantized(reader, q, 0, out.size(), out.data(), scratch);
  return out;
}

// The device's first values in reference order.
std::vector<double> DevicePreview(const PairPlan& p, size_t count) {
  if (!p.g.transposed) return Preview(*p.dev, p.dev_q, count);
  std::vector<double> out(static_cast<size_t>(std::min<uint64_t>(count, p.g.elements)));
  std::vector<char> scratch;
  for (size_t i = 0; i < out.size(); ++i) {
    uint64_t n = i / (p.g.a * p.g.b), a = (i / p.g.b) % p.g.a, b = i % p.g.b;
    ReadDequantized(*p.dev, p.dev_q, (n * p.g.b + b) * p.g.a + a, 1, &out[i], scratch);
  }
  return out;
}

Dequantizer DequantizerFor(const TensorEntry& t) {
  return t.quantization ? Dequantizer(*t.quantization, t.data.shape) : Dequantizer();
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
    order_source = "device_manifest";
    for (size_t r = 0; r < rows.size(); ++r) position[r] = dev_index[r];
  } else if (reference.ordered()) {
    order_source = "reference_manifest";
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

std::optional<NumericsMetric> ParseNumericsMetric(std::string_view name) {
  if (name == "mse") return NumericsMetric::kMse;
  if (name == "mean_abs") return NumericsMetric::kMeanAbs;
  if (name == "max_abs") return NumericsMetric::kMaxAbs;
  if (name == "cosine") return NumericsMetric::kCosine;
  if (name == "snr" || name == "snr_db") return NumericsMetric::kSnrDb;
  return std::nullopt;
}

std::string_view NumericsMetricName(NumericsMetric metric) {
  switch (metric) {
    case NumericsMetric::kMse:
      return "mse";
    case NumericsMetric::kMeanAbs:
      return "mean_abs";
    case NumericsMetric::kMaxAbs:
      return "max_abs";
    case NumericsMetric::kCosine:
      return "cosine";
    case NumericsMetric::kSnrDb:
      return "snr_db";
  }
  return "";
}

bool DivergesAbove(NumericsMetric metric) {
  return metric != NumericsMetric::kCosine && metric != NumericsMetric::kSnrDb;
}

std::optional<double> DefaultThreshold(NumericsMetric metric) {
  if (metric == NumericsMetric::kCosine) return 0.99;
  if (metric == NumericsMetric::kSnrDb) return 20.0;
  return std::nullopt;
}

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

void ErrorSums::Add(const double* ref, const double* dev, size_t count) {
  // Chunks of finite values take a fast path: double sums over 4 independent
  // lanes (short dependency chains, no x87), added to the long double totals
  // per chunk, so rounding stays at the level of one 256-term double sum.
  constexpr size_t kChunk = 256;
  constexpr int kLanes = 4;
  for (size_t start = 0; start < count; start += kChunk) {
    const size_t n = std::min(kChunk, count - start);
    const double* r = ref + start;
    const double* d = dev + start;
    bool finite = true;
    for (size_t i = 0; i < n; ++i) finite &= (r[i] - r[i] == 0) & (d[i] - d[i] == 0);
    if (!finite) {
      AddWithNonFinite(r, d, n);
      continue;
    }
    double sq[kLanes] = {}, ab[kLanes] = {}, rd[kLanes] = {}, rr[kLanes] = {}, dd[kLanes] = {};
    double mx[kLanes] = {};
    size_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
      for (int k = 0; k < kLanes; ++k) {
        double e = d[i + k] - r[i + k];
        sq[k] += e * e;
        ab[k] += std::fabs(e);
        rd[k] += r[i + k] * d[i + k];
        rr[k] += r[i + k] * r[i + k];
        dd[k] += d[i + k] * d[i + k];
        mx[k] = std::max(mx[k], std::fabs(e));
      }
    }
    for (; i < n; ++i) {
      double e = d[i] - r[i];
      sq[0] += e * e;
      ab[0] += std::fabs(e);
      rd[0] += r[i] * d[i];
      rr[0] += r[i] * r[i];
      dd[0] += d[i] * d[i];
      mx[0] = std::max(mx[0], std::fabs(e));
    }
    for (int k = 0; k < kLanes; ++k) {
      sum_sq_error += sq[k];
      sum_abs_error += ab[k];
      sum_ref_dev += rd[k];
      sum_ref_sq += rr[k];
      sum_dev_sq += dd[k];
      max_abs_error = std::max(max_abs_error, mx[k]);
    }
    elements += n;
    compared += n;
  }
}

void ErrorSums::AddWithNonFinite(const double* ref, const double* dev, size_t count) {
  elements += count;
  for (size_t i = 0; i < count; ++i) {
    double r = ref[i], d = dev[i];
    bool r_finite = std::isfinite(r), d_finite = std::isfinite(d);
    if (!r_finite || !d_finite) {
      if (!r_finite) ++(std::isnan(r) ? reference_nan : reference_inf);
      if (!d_finite) ++(std::isnan(d) ? device_nan : device_inf);
      bool same =
          !r_finite && !d_finite && (std::isnan(r) ? std::isnan(d) : (!std::isnan(d) && r == d));
      if (!same) ++nonfinite_mismatch;
      continue;
    }
    ++compared;
    double error = d - r;
    sum_sq_error += error * error;
    sum_abs_error += std::fabs(error);
    sum_ref_dev += r * d;
    sum_ref_sq += r * r;
    sum_dev_sq += d * d;
    max_abs_error = std::max(max_abs_error, std::fabs(error));
  }
}

void ErrorSums::Merge(const ErrorSums& o) {
  elements += o.elements;
  compared += o.compared;
  reference_nan += o.reference_nan;
  reference_inf += o.reference_inf;
  device_nan += o.device_nan;
  device_inf += o.device_inf;
  nonfinite_mismatch += o.nonfinite_mismatch;
  sum_sq_error += o.sum_sq_error;
  sum_abs_error += o.sum_abs_error;
  sum_ref_dev += o.sum_ref_dev;
  sum_ref_sq += o.sum_ref_sq;
  sum_dev_sq += o.sum_dev_sq;
  max_abs_error = std::max(max_abs_error, o.max_abs_error);
}

ErrorMetrics FinishMetrics(const ErrorSums& s) {
  ErrorMetrics m;
  if (s.compared == 0) return m;
  long double n = static_cast<long double>(s.compared);
  m.mse = static_cast<double>(s.sum_sq_error / n);
  m.mean_abs = static_cast<double>(s.sum_abs_error / n);
  m.max_abs = s.max_abs_error;
  if (s.sum_ref_sq == 0 && s.sum_dev_sq == 0) {
    m.cosine = 1.0;
  } else if (s.sum_ref_sq == 0 || s.sum_dev_sq == 0) {
    m.cosine = 0.0;
  } else {
    long double c = s.sum_ref_dev / std::sqrt(s.sum_ref_sq * s.sum_dev_sq);
    m.cosine = static_cast<double>(std::clamp<long double>(c, -1, 1));
  }
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (s.sum_sq_error == 0) {
    m.snr_db = kInf;
  } else if (s.sum_ref_sq == 0) {
    m.snr_db = -kInf;
  } else {
    m.snr_db = static_cast<double>(10 * std::log10(s.sum_ref_sq / s.sum_sq_error));
  }
  return m;
}

std::optional<double> MetricValue(const ErrorMetrics& m, NumericsMetric metric) {
  switch (metric) {
    case NumericsMetric::kMse:
      return m.mse;
    case NumericsMetric::kMeanAbs:
      return m.mean_abs;
    case NumericsMetric::kMaxAbs:
      return m.max_abs;
    case NumericsMetric::kCosine:
      return m.cosine;
    case NumericsMetric::kSnrDb:
      return m.snr_db;
  }
  return std::nullopt;
}

Dequantizer::Dequantizer(const Quantization& q, const std::vector<int64_t>& shape)
    : scale_(q.scale), offset_(q.offset) {
  if (q.axis) {
    axis_dim_ = static_cast<uint64_t>(shape[*q.axis]);
    stride_ = Product(shape, *q.axis + 1, shape.size());
  }
}

void Dequantizer::Apply(double* values, size_t count, uint64_t first_flat_index) const {
  if (scale_.empty()) return;
  if (axis_dim_ == 1 || stride_ == 0) {
    double scale = scale_[0], offset = offset_[0];
    for (size_t i = 0; i < count; ++i) values[i] = (values[i] - offset) * scale;
    return;
  }
  // Walk the axis coordinate incrementally instead of dividing per element.
  uint64_t within = first_flat_index % stride_;
  uint64_t coord = (first_flat_index / stride_) % axis_dim_;
  for (size_t i = 0; i < count; ++i) {
    values[i] = (values[i] - offset_[coord]) * scale_[coord];
    if (++within == stride_) {
      within = 0;
      if (++coord == axis_dim_) coord = 0;
    }
  }
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

void CompareTensorPair(const TensorEntry& reference, const TensorEntry& device,
                       const NumericsOptions& options, HandleRow& row) {
  row.reference_tensor = reference.name;
  row.device_tensor = device.name;
  row.reference_file = reference.data.path;
  row.device_file = device.data.path;
  PairPlan plan;
  plan.g = ResolveGeometry(reference, device, options, row);
  TensorFileReader ref_reader(reference.name, reference.data);
  TensorFileReader dev_reader(device.name, device.data);
  plan.ref = &ref_reader;
  plan.dev = &dev_reader;
  plan.ref_q = DequantizerFor(reference);
  plan.dev_q = DequantizerFor(device);
  plan.block = options.block_elements;
  if (plan.g.transposed) ChooseTiles(plan);
  row.shape = reference.data.shape;
  row.layout_converted = plan.g.layout_converted;
  row.dequantized = plan.dev_q.active();
  row.sums = RunPlan(plan, options);
  row.metrics = FinishMetrics(row.sums);
  row.reference_preview = Preview(ref_reader, plan.ref_q, options.preview_values);
  row.device_preview = DevicePreview(plan, options.preview_values);
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
      TensorFileReader reader(t.name, t.data);
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
