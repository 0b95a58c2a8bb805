// Numerics by module: the per-handle gaps of `numerics` (analysis/numerics.h)
// rolled up the same module tree as time (docs/modules.md), so "where does
// accuracy go" has the answer shape of "where does time go".  A handle's
// module comes from its reference op's name (else its reference tensor's,
// else its device tensor's, "__debugID_<n>" dropped), read as op names are.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/module_tree.h"
#include "analysis/numerics.h"

namespace htpscope {

struct ModuleNumericsRow {
  std::string path;  // "" for the root; "(no module)" for handles whose names carry none
  int depth = 0;
  size_t compared = 0;   // compared outputs at or below it
  size_t divergent = 0;  // of those, past the threshold
  // The worst gap at or below it: the lowest for cosine and SNR, the
  // highest for the error metrics; absent when nothing there was compared.
  std::optional<double> worst_gap;
  std::optional<size_t> worst_row;            // index into NumericsResult::rows
  std::optional<size_t> first_divergent_row;  // the earliest in execution order
};

// One row per module with at least one handle at or below it, the root
// first, then by path.  Empty when no handle name carries a module.
std::vector<ModuleNumericsRow> NumericsByModule(const NumericsResult& result);

}  // namespace htpscope
