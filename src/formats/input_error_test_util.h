// Test support: the InputError a piece of code raises, if any.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "base/errors.h"

namespace htpscope::testing_support {

// The InputError `fn` throws, or nullopt when it returns.
inline std::optional<InputError> ErrorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

}  // namespace htpscope::testing_support
