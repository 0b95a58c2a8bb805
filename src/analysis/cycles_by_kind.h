// HTP cycles per member of a small enum (units of the dominant path, classes
// of the per-op roll-up), indexed by the enum's value.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace htpscope {

template <typename Kind, size_t kCount>
struct CyclesByKind {
  std::array<int64_t, kCount> cycles{};
  int64_t& operator[](Kind kind) { return cycles[static_cast<size_t>(kind)]; }
  int64_t operator[](Kind kind) const { return cycles[static_cast<size_t>(kind)]; }
  int64_t Total() const {
    int64_t sum = 0;
    for (int64_t c : cycles) sum += c;
    return sum;
  }
};

}  // namespace htpscope
