// Layout mapping of the numerics comparison: how a reference and a device
// tensor line up element by element, converting between channels-first
// (NCHW) and channels-last (NHWC) by index mapping.  Shapes must agree
// exactly (size-1 dimensions aside); nothing is ever broadcast.  When only
// one side states a channels layout, the other's is inferred from the shapes
// if exactly one reading fits; if both fit and differ, that is an error.
#pragma once

#include <cstdint>
#include <string>

#include "analysis/numerics.h"

namespace htpscope {

bool IsChannelsLayout(TensorLayout layout);

// The layout a tensor is treated as having: its own statement, else the
// default for its side (applied only to ranks 3..5, which have a channel axis).
TensorLayout EffectiveLayout(const TensorEntry& t, TensorLayout side_default);

// "NCHW" as stated, or the effective layout's name for the tensor's rank; "" when unstated.
std::string LayoutLabel(const TensorEntry& t, TensorLayout effective);

// How a reference/device pair lines up element by element.  The reference is
// viewed as [n][a][b] and, when transposed, the device as [n][b][a].
struct PairGeometry {
  bool layout_converted = false;
  bool transposed = false;
  uint64_t n = 1, a = 1, b = 1;
  uint64_t elements = 0;
};

// Decides the geometry of a pair and fills the row's layout labels.  Throws
// InputError (naming both tensors and files) when the shapes do not agree,
// an InputNeedsValueError (kTensorLayouts) when stating the layouts would
// settle it: the layout is ambiguous, or a side may be channels-last.
PairGeometry ResolveGeometry(const TensorEntry& ref, const TensorEntry& dev,
                             const NumericsOptions& options, HandleRow& row);

}  // namespace htpscope
