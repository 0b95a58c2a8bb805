// Test support for the numerics CLI tests: .npy images written in memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace htpscope::testing_support {

// An .npy (version 1.0, little-endian float32, C order) holding `values`.
inline std::string NpyFloat32(const std::vector<int64_t>& shape, const std::vector<float>& values) {
  std::string tuple;
  for (int64_t d : shape) tuple += std::to_string(d) + ",";
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + tuple + "), }";
  dict += std::string((64 - (10 + dict.size() + 1) % 64) % 64, ' ') + "\n";
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  out += dict;
  out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
  return out;
}

}  // namespace htpscope::testing_support
