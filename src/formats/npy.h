// Tensor files: NumPy `.npy` headers, element types, and a random-access
// element reader that converts stored values to double in bounded blocks.
//
// A tensor file is a header (none for raw dumps) followed by the elements in
// C order.  Both `.npy` files and the `.raw` dumps qnn-net-run writes are
// read through TensorFileReader, which never loads a whole tensor: callers
// ask for element ranges and get doubles.  Reads use pread(), so one reader
// may serve several threads at once, and ranges may be read in any order
// (layout conversion needs that; a forward-only stream cannot provide it).
// Tensor files must be uncompressed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace htpscope {

// Element types of tensor files.  Names follow NumPy ("float32", "uint8").
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
};

// NumPy name of `dtype`, e.g. "float16".
std::string_view DTypeName(DType dtype);
// Bytes one element occupies in a file.
size_t DTypeBytes(DType dtype);
// True for the integer types (not bool, not floats): the ones quantization applies to.
bool IsIntegerDType(DType dtype);
// Looks up a NumPy dtype name ("float32", "int8", "bool", ...); nullopt when unknown.
std::optional<DType> DTypeFromName(std::string_view name);
// All accepted names, comma-separated, for error messages.
std::string KnownDTypeNames();

// "[1, 3, 224, 224]".
std::string FormatShape(const std::vector<int64_t>& shape);
// Product of the dimensions (1 for a scalar's empty shape); nullopt on
// overflow of 2^63 or a negative dimension.
std::optional<uint64_t> ElementCount(const std::vector<int64_t>& shape);

// Where and how a tensor's elements are stored in a file.
struct TensorData {
  std::string path;
  uint64_t data_offset_bytes = 0;  // header size; 0 for raw dumps
  DType dtype = DType::kFloat32;
  bool big_endian = false;
  std::vector<int64_t> shape;  // C order
};

// What an .npy header says.
struct NpyHeader {
  int major_version = 0;
  int minor_version = 0;
  DType dtype = DType::kFloat32;
  bool big_endian = false;
  // True only when the file was Fortran-ordered; ParseNpyHeader accepts that
  // only when at most one dimension exceeds 1, where both orders coincide.
  bool fortran_order = false;
  std::vector<int64_t> shape;
  uint64_t data_offset_bytes = 0;  // magic + version + length field + header text
};

// Largest header text accepted (NumPy itself refuses more than 10000 bytes by default).
inline constexpr uint64_t kMaxNpyHeaderBytes = 1 << 20;

// Parses the .npy header at the start of `file_prefix` (the file's first
// bytes; may extend past the header).  Supports format versions 1.0, 2.0 and
// 3.0; descr "<f4", ">i2", "|u1", "|b1", "<f2", ... for every DType.
// Throws InputError naming `path` and the byte offset when the magic,
// version, header text or dtype is invalid, when the prefix ends inside the
// header, or for a Fortran-ordered array whose two orders differ.
NpyHeader ParseNpyHeader(const std::string& path, std::string_view file_prefix);

// Reads and parses the header of the .npy file at `path`.  Throws InputError
// when the file cannot be read or the header is invalid (see ParseNpyHeader).
NpyHeader ReadNpyHeader(const std::string& path);

// Converts `count` stored elements at `bytes` to doubles in `out`.  Integers
// and bools convert exactly (int64/uint64 beyond 2^53 round to nearest);
// float16 NaN/Inf/subnormals are kept.  `bytes` need not be aligned.
void DecodeElements(DType dtype, bool big_endian, const char* bytes, size_t count, double* out);

// The value of an IEEE binary16 bit pattern.
double HalfToDouble(uint16_t bits);

// Random-access reader of one tensor's elements.  Movable, not copyable.
class TensorFileReader {
 public:
  // Opens `data.path`.  Throws InputError naming the file and `tensor_name`
  // when it cannot be opened or when its length differs from
  // data_offset + elements × dtype size (truncated file, wrong dtype or shape).
  TensorFileReader(std::string tensor_name, TensorData data);
  ~TensorFileReader();
  TensorFileReader(TensorFileReader&& other) noexcept;
  TensorFileReader& operator=(TensorFileReader&& other) noexcept;
  TensorFileReader(const TensorFileReader&) = delete;
  TensorFileReader& operator=(const TensorFileReader&) = delete;

  // Reads elements [first_element, first_element + count) into `out` as
  // doubles, using `scratch` for the raw bytes (grown as needed).  Safe to
  // call from several threads with distinct `scratch` buffers.  Throws
  // InputError if the file turns out shorter than checked at open (it
  // shrank) or on an I/O error; range errors are a caller bug (abort).
  void Read(uint64_t first_element, size_t count, double* out, std::vector<char>& scratch) const;

  const std::string& tensor_name() const { return tensor_name_; }
  const TensorData& data() const { return data_; }
  uint64_t element_count() const { return element_count_; }

 private:
  std::string tensor_name_;
  TensorData data_;
  uint64_t element_count_ = 0;
  int fd_ = -1;
};

// Checks that a file of `file_bytes` holds exactly the elements `data`
// describes; throws InputError naming `tensor_name` and the file otherwise,
// e.g. "file has 396 bytes but float32 × [1, 10, 10] = 100 elements needs 400".
void CheckTensorFileSize(const std::string& tensor_name, const TensorData& data,
                         uint64_t file_bytes);

}  // namespace htpscope
