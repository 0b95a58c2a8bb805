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
// Metrics, over the element pairs where both values are finite (d = device,
// r = reference, n = number of such pairs):
//   mse      = Σ(d−r)² / n
//   mean_abs = Σ|d−r| / n
//   max_abs  = max |d−r|
//   cosine   = Σdr / √(Σd² · Σr²); 1 when both sides are all zero, 0 when
//              exactly one is (a zero tensor has no direction to agree with)
//   snr_db   = 10·log10(Σr² / Σ(d−r)²); +inf when identical, −inf when the
//              reference is all zero but the device is not
// NaN and ±Inf are counted per side and left out of every sum; a pair whose
// sides are not both finite in the same way (a NaN against a number, +Inf
// against −Inf, ...) is a "non-finite mismatch" and makes its handle
// divergent whatever the metric says.  No compared pairs → metrics absent.
// Sums are long double and each thread's partial sums are merged, so results
// do not depend on block sizes beyond the last bits (runs of up to 256
// finite pairs are first summed in double).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/htp_graph.h"
#include "formats/tensor_manifest.h"

namespace htpscope {

enum class NumericsMetric { kMse, kMeanAbs, kMaxAbs, kCosine, kSnrDb };

// Accepts "mse", "mean_abs", "max_abs", "cosine", "snr" (and "snr_db").
std::optional<NumericsMetric> ParseNumericsMetric(std::string_view name);
// The metric's field name: "mse", "mean_abs", "max_abs", "cosine", "snr_db".
std::string_view NumericsMetricName(NumericsMetric metric);
// True for the error metrics (divergent above the threshold); false for
// cosine and SNR (divergent below it).
bool DivergesAbove(NumericsMetric metric);
// Threshold used when none is given: cosine 0.99, SNR 20 dB; none for the
// scale-dependent error metrics, which need an explicit threshold.
std::optional<double> DefaultThreshold(NumericsMetric metric);

// A tensor name split at a trailing "__debugID_<n>" suffix.
struct NameHandle {
  std::string_view base;          // the name without the suffix
  std::optional<int64_t> handle;  // nullopt when there is no (valid) suffix
};
NameHandle SplitDebugHandle(std::string_view tensor_name);

// Running sums over (reference, device) element pairs.
struct ErrorSums {
  uint64_t elements = 0;  // pairs seen
  uint64_t compared = 0;  // pairs with both values finite
  uint64_t reference_nan = 0;
  uint64_t reference_inf = 0;
  uint64_t device_nan = 0;
  uint64_t device_inf = 0;
  uint64_t nonfinite_mismatch = 0;
  long double sum_sq_error = 0;
  long double sum_abs_error = 0;
  long double sum_ref_dev = 0;
  long double sum_ref_sq = 0;
  long double sum_dev_sq = 0;
  double max_abs_error = 0;

  // Accumulates `count` pairs ref[i] ↔ dev[i].
  void Add(const double* ref, const double* dev, size_t count);
  // Adds another partial result (e.g. another thread's element range).
  void Merge(const ErrorSums& other);

 private:
  // Add() for a chunk holding NaN or Inf: classifies every pair.
  void AddWithNonFinite(const double* ref, const double* dev, size_t count);
};

struct ErrorMetrics {
  // All nullopt when no pair was compared.  snr_db may be ±infinity.
  std::optional<double> mse, mean_abs, max_abs, cosine, snr_db;
};
ErrorMetrics FinishMetrics(const ErrorSums& sums);
std::optional<double> MetricValue(const ErrorMetrics& metrics, NumericsMetric metric);

// Dequantization of stored integers to real values.
class Dequantizer {
 public:
  Dequantizer() = default;  // identity
  // `shape` is the tensor's own (stored) shape; `q.axis` indexes it.
  // Preconditions (checked by the manifest loader): sizes match the axis.
  Dequantizer(const Quantization& q, const std::vector<int64_t>& shape);
  // Replaces the stored values of elements [first_flat_index,
  // first_flat_index + count) (C order, own layout) by (q − offset) × scale.
  void Apply(double* values, size_t count, uint64_t first_flat_index) const;
  bool active() const { return !scale_.empty(); }

 private:
  std::vector<double> scale_, offset_;
  uint64_t stride_ = 1;    // elements per step along the axis
  uint64_t axis_dim_ = 1;  // entries along the axis (1 per-tensor)
};

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
  NumericsMetric metric = NumericsMetric::kCosine;
  double threshold = 0;
  // Where the row order comes from: "htp_graph", "device_manifest",
  // "reference_manifest" or "debug_handle".
  std::string order_source;
  std::vector<HandleRow> rows;            // execution order
  std::optional<size_t> first_divergent;  // index into rows
  size_t compared = 0, reference_only = 0, device_only = 0, divergent = 0;
};

// Pairs and compares two tensor sets.  Rows are in execution order: by the
// execution_order_ops when given (names carrying "__debugID_<n>" or equal to
// a row's runtime op), else device manifest order, else reference manifest
// order, else debug handle; rows the chosen order does not place follow the
// row with the next lower handle.  Throws InputError (naming both tensors and
// files) on a shape mismatch, two tensors of one side claiming the same
// handle and output, or a file that cannot be read.
NumericsResult CompareTensorSets(const TensorSet& reference, const TensorSet& device,
                                 const NumericsOptions& options);

// QNN op names of the compiled graph in execution order: nodes sorted by
// their cycles_start (profiled graphs), else by output tensor index; each
// op name (node grouping, else qnn_op_name) once, at its first node.
std::vector<std::string> ExecutionOrderOps(const HtpGraph& graph);

// Compares one reference/device pair (the core of CompareTensorSets); fills
// the row's tensor names and files, sums, metrics, previews and
// layout/dequantization flags.  Throws InputError like CompareTensorSets.
void CompareTensorPair(const TensorEntry& reference, const TensorEntry& device,
                       const NumericsOptions& options, HandleRow& row);

}  // namespace htpscope
