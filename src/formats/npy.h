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

#include "base/tensor_types.h"

namespace htpscope {

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

// Where the elements of the .npy file at `path` with `header` are.
TensorData NpyTensorData(const std::string& path, const NpyHeader& header);

// Reads and parses the header of the .npy file at `path`.  Throws InputError
// when the file cannot be read or the header is invalid (see ParseNpyHeader).
NpyHeader ReadNpyHeader(const std::string& path);

// Converts `count` stored elements at `bytes` to doubles in `out`.  Integers
// and bools convert exactly (int64/uint64 beyond 2^53 round to nearest); every
// float type converts exactly, NaN/Inf/subnormals kept.  `bytes` need not be
// aligned.
void DecodeElements(DType dtype, bool big_endian, const char* bytes, size_t count, double* out);

// The value of an IEEE binary16 bit pattern.
double HalfToDouble(uint16_t bits);
// The value of a bfloat16 bit pattern (the top half of a float32).
double BFloat16ToDouble(uint16_t bits);
// The value of an 8-bit float of type `dtype` (one of the kFloat8* types).
double Float8ToDouble(DType dtype, uint8_t bits);

// Random-access reader of one tensor's elements.  Movable, not copyable.
class TensorFileReader {
 public:
  // Opens `data.path`.  Throws InputError naming the file and `tensor_name`
  // when it cannot be opened or does not hold the elements (see
  // CheckTensorFileSize).
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
  // Reads elements of a strided (not C-contiguous) tensor.
  void ReadStrided(uint64_t first_element, size_t count, double* out,
                   std::vector<char>& scratch) const;
  // Reads `bytes` bytes at `offset` or throws (the file shrank, or I/O failed).
  void ReadBytes(uint64_t offset, size_t bytes, char* out, uint64_t first_element,
                 size_t count) const;

  uint64_t element_count_ = 0;
  bool contiguous_ = true;
  int fd_ = -1;
};

// One past the last byte of `data`'s elements (data_offset_bytes for a
// tensor without elements).  nullopt when the shape, the strides (negative,
// or a rank other than the shape's) or the byte arithmetic is invalid.
std::optional<uint64_t> TensorEndByte(const TensorData& data);

// Checks that a file of `file_bytes` holds the elements `data` describes:
// exactly, when data.whole_file, else within its length.  Throws InputError
// naming `tensor_name` and the file otherwise, e.g. "file has 396 bytes but
// float32 × [1, 10, 10] = 100 elements needs 400".
void CheckTensorFileSize(const std::string& tensor_name, const TensorData& data,
                         uint64_t file_bytes);

}  // namespace htpscope
