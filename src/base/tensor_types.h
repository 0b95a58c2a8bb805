// The vocabulary every layer shares to speak of tensors: element types,
// memory layouts, quantization, shapes, and where a tensor's elements sit in
// a file.  Readers (formats/) fill these in; the model and the numerics
// analysis read them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace htpscope {

// Element types of stored tensors.  Names follow NumPy ("float32", "uint8")
// and, for the types NumPy lacks, ml_dtypes ("bfloat16", "float8_e4m3fn").
enum class DType : uint8_t {
  kBool,
  kInt8,
  kUInt8,
  kInt16,
  kUInt16,
  kInt32,
  kUInt32,
  kInt64,
  kUInt64,
  kFloat16,
  kFloat32,
  kFloat64,
  kBFloat16,        // 1 sign, 8 exponent, 7 mantissa bits
  kFloat8E5M2,      // IEEE-like: bias 15, infinities and NaNs
  kFloat8E4M3FN,    // bias 7, no infinities, NaN = S.1111.111
  kFloat8E5M2FNUZ,  // bias 16, no infinities, no −0, NaN = 0x80
  kFloat8E4M3FNUZ,  // bias 8, no infinities, no −0, NaN = 0x80
};

// Name of `dtype`, e.g. "float16".
std::string_view DTypeName(DType dtype);
// Bytes one element occupies in a file.
size_t DTypeBytes(DType dtype);
// True for the integer types (not bool, not floats): the ones quantization applies to.
bool IsIntegerDType(DType dtype);
// Looks up a dtype name ("float32", "int8", "bool", "bfloat16", ...); nullopt when unknown.
std::optional<DType> DTypeFromName(std::string_view name);
// All accepted names, comma-separated, for error messages.
std::string KnownDTypeNames();

// "[1, 3, 224, 224]".
std::string FormatShape(const std::vector<int64_t>& shape);
// Product of the dimensions (1 for a scalar's empty shape); nullopt on
// overflow of 2^63 or a negative dimension.
std::optional<uint64_t> ElementCount(const std::vector<int64_t>& shape);

// Memory order of a tensor's axes, as far as layout conversion cares.
enum class TensorLayout {
  kUnstated,       // the source says nothing (a .npy file, or no "layout" key)
  kNone,           // stated as "none"/null: never converted
  kChannelsFirst,  // NCHW (also NCW, NCDHW)
  kChannelsLast,   // NHWC (also NWC, NDHWC)
};

// Parses "NHWC", "NCHW", "NWC", "NCW", "NDHWC", "NCDHW" or "none" (case-sensitive).
std::optional<TensorLayout> ParseTensorLayout(std::string_view name);

// Affine quantization: real = (stored - offset) × scale.  `offset` is the
// zero point (QNN's own "offset" field is its negation; the manifest key
// "qnn_offset" takes that convention).  Per-tensor when `axis` is empty
// (one scale and one offset), else one scale/offset per index along `axis`.
struct Quantization {
  std::vector<double> scale;
  std::vector<double> offset;
  std::optional<int> axis;
};

// Where and how a tensor's elements are stored in a file.
struct TensorData {
  std::string path;
  uint64_t data_offset_bytes = 0;  // first element's byte; the header size of an .npy file
  DType dtype = DType::kFloat32;
  bool big_endian = false;
  std::vector<int64_t> shape;  // logical dimensions, C order
  // Element strides per dimension (in elements, never negative); empty means
  // C-contiguous.  Element [i0, i1, ...] sits at data_offset_bytes +
  // Σ i_k·strides[k]·DTypeBytes(dtype).
  std::vector<int64_t> strides;
  // True when the file holds exactly this tensor after its header (an .npy
  // file, a raw dump): its length must then match.  False for a tensor inside
  // a shared buffer (an ExecuTorch debug buffer): its bytes must then lie
  // within the file.
  bool whole_file = true;
};

// Orders strings with digit runs compared as numbers: "t2" < "t10".
bool NaturalLess(std::string_view a, std::string_view b);

}  // namespace htpscope
