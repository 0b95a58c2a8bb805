// Sums of cycles, bytes and counts that never wrap.  A figure that overflows
// int64 is not a number htpscope may print: callers turn the overflow into an
// InputError naming the file whose values caused it.
#pragma once

#include <cstdint>
#include <optional>

namespace htpscope {

// a + b, or nullopt when the sum does not fit in int64.
inline std::optional<int64_t> CheckedAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return std::nullopt;
  return sum;
}

// a - b, or nullopt when the difference does not fit in int64.
inline std::optional<int64_t> CheckedSub(int64_t a, int64_t b) {
  int64_t difference = 0;
  if (__builtin_sub_overflow(a, b, &difference)) return std::nullopt;
  return difference;
}

// A running int64 sum that remembers whether it ever overflowed; once it has,
// value() is meaningless and overflowed() stays true.
class CheckedSum {
 public:
  void Add(int64_t x) { overflowed_ |= __builtin_add_overflow(sum_, x, &sum_); }
  CheckedSum& operator+=(int64_t x) {
    Add(x);
    return *this;
  }
  bool overflowed() const { return overflowed_; }
  int64_t value() const { return sum_; }

 private:
  int64_t sum_ = 0;
  bool overflowed_ = false;
};

}  // namespace htpscope
