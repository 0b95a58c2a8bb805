#include "analysis/numerics_dequantize.h"

#include <algorithm>

namespace htpscope {

Dequantizer::Dequantizer(const Quantization& q, const std::vector<int64_t>& shape)
    : scale_(q.scale), offset_(q.offset) {
  if (q.axis) {
    axis_dim_ = static_cast<uint64_t>(shape[*q.axis]);
    stride_ = 1;
    for (size_t i = *q.axis + 1; i < shape.size(); ++i) stride_ *= static_cast<uint64_t>(shape[i]);
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

Dequantizer DequantizerFor(const TensorEntry& t) {
  return t.quantization ? Dequantizer(*t.quantization, t.data.shape) : Dequantizer();
}

void ReadDequantized(const TensorReader& reader, const Dequantizer& q, uint64_t first, size_t count,
                     double* out, std::vector<char>& scratch) {
  reader.Read(first, count, out, scratch);
  q.Apply(out, count, first);
}

std::vector<double> Preview(const TensorReader& reader, const Dequantizer& q, size_t count) {
  std::vector<double> out(static_cast<size_t>(std::min<uint64_t>(count, reader.element_count())));
  std::vector<char> scratch;
  if (!out.empty()) ReadDequantized(reader, q, 0, out.size(), out.data(), scratch);
  return out;
}

}  // namespace htpscope
