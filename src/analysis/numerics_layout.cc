#include "analysis/numerics_layout.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/errors.h"

namespace htpscope {

bool IsChannelsLayout(TensorLayout layout) {
  return layout == TensorLayout::kChannelsFirst || layout == TensorLayout::kChannelsLast;
}

namespace {

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

}  // namespace

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
      throw InputNeedsValueError(
          open.data.path,
          fmt::format("{}: layout is ambiguous: {} tensor \"{}\" is {} {} and {} tensor \"{}\" "
                      "{} states no layout, which fits both {} and {}; state it",
                      RowLabel(row), ref_open ? "device" : "reference", known.name,
                      ref_open ? row.device_layout : row.reference_layout,
                      FormatShape(known.data.shape), ref_open ? "reference" : "device", open.name,
                      FormatShape(open.data.shape), LayoutLabel(open, stated),
                      LayoutLabel(open, opposite)),
          ValueRole::kTensorLayouts);
    if (fits_converted && !fits_same) {
      (ref_open ? ref_layout : dev_layout) = opposite;
      (ref_open ? row.reference_layout : row.device_layout) =
          LayoutLabel(open, opposite) + " (inferred)";
    }
  }

  bool convert =
      IsChannelsLayout(ref_layout) && IsChannelsLayout(dev_layout) && ref_layout != dev_layout;
  // `as_reference` shows the device shape in the reference layout;
  // `unstated_layouts`: whether stating the layouts may settle it.
  auto mismatch = [&](std::string as_reference, bool unstated_layouts) {
    std::string problem = fmt::format(
        "{}: shape mismatch: reference tensor \"{}\" ({}) has shape {}{} but device "
        "tensor \"{}\" has shape {}{}{}; shapes must agree (size-1 dimensions aside), "
        "nothing is broadcast",
        RowLabel(row), ref.name, ref.data.path, FormatShape(r),
        row.reference_layout.empty() ? "" : " " + row.reference_layout, dev.name, FormatShape(d),
        row.device_layout.empty() ? "" : " " + row.device_layout, as_reference);
    if (!unstated_layouts) throw InputError(dev.data.path, std::move(problem));
    throw InputNeedsValueError(dev.data.path,
                               problem + "; if one side is channels-last, state the layouts",
                               ValueRole::kTensorLayouts);
  };
  if (convert) {
    std::vector<int64_t> d_as_ref = OtherLayoutShape(d, dev_layout);
    if (d_as_ref != r)
      mismatch(fmt::format(" = {} as {}", FormatShape(d_as_ref), row.reference_layout), false);
    g.layout_converted = true;
    ConversionDims(r, ref_layout, g);
  } else if (Squeezed(r) != Squeezed(d)) {
    bool permuted = r.size() >= 3 && r.size() == d.size() &&
                    (OtherLayoutShape(d, TensorLayout::kChannelsLast) == r ||
                     OtherLayoutShape(d, TensorLayout::kChannelsFirst) == r);
    mismatch("", permuted);
  }
  return g;
}

}  // namespace htpscope
