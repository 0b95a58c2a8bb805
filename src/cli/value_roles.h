// Where the values lower layers may refuse come from on the command line.
// Below src/cli a refused value is a ValueError, or an InputNeedsValueError
// for an input that needs one, that says what the value is (a ValueRole);
// here each role is mapped to the option that gives it, once.
#pragma once

#include <string>

#include "base/errors.h"

namespace htpscope::cli {

// The option(s) that give values of `role`: "--graph", "--stage", ...
const char* OptionOf(ValueRole role);

// `e`'s message with the option in place of the role's name:
// "--graph nope: no graph named "nope" in the profile (...)".
std::string OptionMessage(const ValueError& e);

// `e` as an InputError whose problem ends with how to give the needed value
// on the command line: "...; state it (manifest "layout", or
// --ref-layout/--device-layout)".
InputError WithOptionAdvice(const InputNeedsValueError& e);

}  // namespace htpscope::cli
