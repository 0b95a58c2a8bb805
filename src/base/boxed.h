// Boxed<T>: a T kept on the heap with a value's semantics.
#pragma once

#include <memory>

namespace htpscope {

// A T kept on the heap, or none: copying a Boxed copies its T, moving it
// moves the pointer.  For the part of a row that most rows lack (a profile
// node's linting entries), so that a row pays a pointer, not the part's
// size, inline.
template <typename T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(const Boxed& other) : value_(Copy(other)) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& other) {
    if (this != &other) value_ = Copy(other);
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;

  // Whether there is a T.
  explicit operator bool() const { return value_ != nullptr; }
  // The T, made (value-initialised) when there is none.
  T& Make() {
    if (!value_) value_ = std::make_unique<T>();
    return *value_;
  }
  // The T, or a value-initialised one when there is none.
  const T& ValueOrEmpty() const {
    static const T kEmpty{};
    return value_ ? *value_ : kEmpty;
  }

 private:
  static std::unique_ptr<T> Copy(const Boxed& other) {
    return other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
  }

  std::unique_ptr<T> value_;
};

}  // namespace htpscope
