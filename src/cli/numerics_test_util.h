// Test support for the numerics CLI tests: .npy images written in memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/tensor_test_util.h"

namespace htpscope::testing_support {

// An .npy (version 1.0, little-endian float32, C order) holding `values`.
inline std::string NpyFloat32(const std::vector<int64_t>& shape, const std::vector<float>& values) {
  std::string tuple = "(";
  for (int64_t d : shape) tuple += std::to_string(d) + ",";
  return NpyImage("<f4", tuple + ")", 0) +
         std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
}

}  // namespace htpscope::testing_support
