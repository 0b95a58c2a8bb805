// Per-debug-handle comparison of reference (CPU / ahead-of-time) and device
// tensors: where do the device's numerics diverge from the reference?
//
// Tensors are paired by (debug handle, output index).  The handle comes from
// the manifest or from a name suffix "__debugID_<n>"; tensors without one are
// paired by name.  Device tensors are dequantized ((q − offset) × scale, per
// tensor or per axis) and converted to the reference's layout (NHWC ↔ NCHW)
// by index mapping while streaming; shapes must then agree exactly (size-1
// dimensions aside), nothing is ever broadcast.  When only one side of a
// pair states a channels layout, the other's is inferred from the shapes if
// exactly one reading fits; if both fit and differ, that is an error.
//
// Metrics and their range safety: analysis/numerics_metrics.h.  Stages:
// numerics_metrics (maths), numerics_dequantize, numerics_layout (shapes
// and NHWC/NCHW mapping), numerics_pair (blocks, tiles, threads) and
// numerics.cc (pairing by handle, execution order).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/numerics_dequantize.h"
#include "analysis/numerics_metrics.h"
#include "model/tensor_set.h"

namespace htpscope {

// A tensor name split at a trailing "__debugID_<n>" suffix.
struct NameHandle {
  std::string_view base;          // the name without the suffix
  std::optional<int64_t> handle;  // nullopt when there is no (valid) suffix
};
NameHandle SplitDebugHandle(std::string_view tensor_name);

struct NumericsOptions {
  NumericsMetric metric = NumericsMetric::kCosine;
  double threshold = 0.99;
  int threads = 2;
  // A tensor is split across threads only when every thread gets this many elements.
  uint64_t min_elements_per_thread = 1 << 16;
  // Elements per read and per layout tile: bounds memory to a few such
  // blocks of doubles per thread.
  size_t block_elements = 1 << 16;
  size_t preview_values = 4;
  // Layout assumed for tensors whose source does not state one.
  TensorLayout reference_layout = TensorLayout::kUnstated;
  TensorLayout device_layout = TensorLayout::kUnstated;
  // Op names in execution order (e.g. from the HTP graph), used for ordering when given.
  std::vector<std::string> execution_order_ops;
};

enum class HandleStatus { kCompared, kReferenceOnly, kDeviceOnly };
// "compared", "reference_only", "device_only".
std::string_view HandleStatusName(HandleStatus status);

// One compared output: a (debug handle, output index), or a name when the
// tensors carry no handle.
struct HandleRow {
  std::optional<int64_t> handle;
  int64_t output_index = 0;
  int64_t handle_outputs = 1;  // outputs the handle has on either side
  HandleStatus status = HandleStatus::kCompared;
  std::string reference_tensor, device_tensor;  // "" when absent
  std::string reference_file, device_file;
  std::vector<std::string> reference_ops, runtime_ops;
  std::vector<int64_t> shape;                   // reference shape (the device's when device-only)
  std::string reference_layout, device_layout;  // as stated ("NCHW"), "" when unstated
  bool layout_converted = false;                // device values were re-ordered
  bool dequantized = false;                     // device values were dequantized
  std::vector<double> reference_preview, device_preview;  // first values, reference order
  ErrorSums sums;
  ErrorMetrics metrics;
  std::optional<double> gap;  // the chosen metric
  bool divergent = false;
};

struct NumericsResult {
  std::string reference_origin, device_origin;
  size_t reference_tensors = 0, device_tensors = 0;
  std::vector<std::string> notes;  // what the loaders left out (both sides)
  NumericsMetric metric = NumericsMetric::kCosine;
  double threshold = 0;
  // Where the row order comes from: "htp_graph", "device_manifest",
  // "device_etdump", "reference_manifest", "reference_etdump" or "debug_handle".
  std::string order_source;
  std::vector<HandleRow> rows;            // execution order
  std::optional<size_t> first_divergent;  // index into rows
  size_t compared = 0, reference_only = 0, device_only = 0, divergent = 0;
};

// Pairs and compares two tensor sets.  Rows are in execution order: by the
// execution_order_ops when given (names carrying "__debugID_<n>" or equal to
// a row's runtime op), else device manifest or ETDump order, else reference
// manifest or ETDump order, else debug handle; rows the chosen order does not place follow the
// row with the next lower handle.  Throws InputError (naming both tensors and
// files) on a shape mismatch, two tensors of one side claiming the same
// handle and output, or a file that cannot be read.
NumericsResult CompareTensorSets(const TensorSet& reference, const TensorSet& device,
                                 const NumericsOptions& options);

// Compares one reference/device pair (the core of CompareTensorSets); fills
// the row's tensor names and files, sums, metrics, previews and
// layout/dequantization flags.  Throws InputError like CompareTensorSets.
void CompareTensorPair(const TensorEntry& reference, const TensorEntry& device,
                       const NumericsOptions& options, HandleRow& row);

}  // namespace htpscope
