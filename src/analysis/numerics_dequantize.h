// Dequantization of stored integers to real values for the numerics
// comparison: (q − offset) × scale, per tensor or per axis.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/tensor_types.h"
#include "model/tensor_set.h"

namespace htpscope {

class Dequantizer {
 public:
  Dequantizer() = default;  // identity
  // `shape` is the tensor's own (stored) shape; `q.axis` indexes it.
  // Preconditions (checked by the manifest loader): sizes match the axis.
  Dequantizer(const Quantization& q, const std::vector<int64_t>& shape);
  // Replaces the stored values of elements [first_flat_index,
  // first_flat_index + count) (C order, own layout) by (q − offset) × scale.
  void Apply(double* values, size_t count, uint64_t first_flat_index) const;
  bool active() const { return !scale_.empty(); }

 private:
  std::vector<double> scale_, offset_;
  uint64_t stride_ = 1;    // elements per step along the axis
  uint64_t axis_dim_ = 1;  // entries along the axis (1 per-tensor)
};

// The tensor's dequantizer: identity when it states no quantization.
Dequantizer DequantizerFor(const TensorEntry& tensor);

// Reads elements [first, first + count) of `reader` into `out` and dequantizes them.
void ReadDequantized(const TensorReader& reader, const Dequantizer& q, uint64_t first, size_t count,
                     double* out, std::vector<char>& scratch);

// The first `count` values of a tensor (fewer when it is smaller), dequantized.
std::vector<double> Preview(const TensorReader& reader, const Dequantizer& q, size_t count);

}  // namespace htpscope
