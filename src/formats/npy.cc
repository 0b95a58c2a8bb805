#include "formats/npy.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "base/errors.h"

namespace htpscope {
namespace {

struct DTypeInfo {
  DType dtype;
  std::string_view name;
  size_t bytes;
  char npy_kind;  // descr kind letter: 'b' bool, 'i', 'u', 'f'
};

constexpr std::array<DTypeInfo, 12> kDTypes = {{
    {DType::kBool, "bool", 1, 'b'},
    {DType::kInt8, "int8", 1, 'i'},
    {DType::kUInt8, "uint8", 1, 'u'},
    {DType::kInt16, "int16", 2, 'i'},
    {DType::kUInt16, "uint16", 2, 'u'},
    {DType::kInt32, "int32", 4, 'i'},
    {DType::kUInt32, "uint32", 4, 'u'},
    {DType::kInt64, "int64", 8, 'i'},
    {DType::kUInt64, "uint64", 8, 'u'},
    {DType::kFloat16, "float16", 2, 'f'},
    {DType::kFloat32, "float32", 4, 'f'},
    {DType::kFloat64, "float64", 8, 'f'},
}};

const DTypeInfo& Info(DType dtype) { return kDTypes[static_cast<size_t>(dtype)]; }

constexpr std::string_view kNpyMagic = "\x93NUMPY";

// Cursor over the header's Python-literal dict, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
class HeaderText {
 public:
  HeaderText(const std::string& path, std::string_view text, uint64_t base_offset)
      : path_(path), text_(text), base_(base_offset) {}

  [[noreturn]] void Fail(std::string_view problem) const { FailAt(pos_, problem); }
  // Points the error at the opening quote of the last string read.
  [[noreturn]] void FailAtString(std::string_view problem) const { FailAt(string_start_, problem); }
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  bool Consume(char c) {
    SkipSpace();
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  void Expect(char c, std::string_view what) {
    if (!Consume(c)) Fail(fmt::format("expected '{}' {}", c, what));
  }
  std::string_view QuotedString() {
    SkipSpace();
    char quote = Peek();
    if (quote != '\'' && quote != '"') Fail("expected a quoted string");
    string_start_ = pos_;
    size_t start = ++pos_;
    while (pos_ < text_.size() && text_[pos_] != quote) ++pos_;
    if (AtEnd()) Fail("unterminated string");
    return text_.substr(start, pos_++ - start);
  }
  bool Boolean() {
    SkipSpace();
    if (text_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (text_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    Fail("expected True or False");
  }
  int64_t Integer() {
    SkipSpace();
    size_t start = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      int digit = text_[pos_] - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) Fail("dimension too large");
      value = value * 10 + digit;
      ++pos_;
    }
    if (pos_ == start) Fail("expected a non-negative integer dimension");
    if (Peek() == 'L') ++pos_;  // Python 2 long suffix, written by old NumPy
    return value;
  }

 private:
  [[noreturn]] void FailAt(size_t pos, std::string_view problem) const {
    throw InputError(path_, fmt::format("npy header: {}", problem), base_ + pos);
  }

  const std::string& path_;
  std::string_view text_;
  uint64_t base_;
  size_t pos_ = 0;
  size_t string_start_ = 0;
};

// Maps an npy descr such as "<f4" to a dtype and byte order.
void ParseDescr(HeaderText& header, std::string_view descr, NpyHeader& out) {
  if (descr.size() < 3) header.FailAtString(fmt::format("unsupported dtype descr '{}'", descr));
  char order = descr[0];
  char kind = descr[1];
  std::string_view size_text = descr.substr(2);
  size_t size = 0;
  for (char c : size_text) {
    if (c < '0' || c > '9' || size > 64) {
      size = 0;
      break;
    }
    size = size * 10 + (c - '0');
  }
  const DTypeInfo* found = nullptr;
  for (const auto& info : kDTypes)
    if (info.npy_kind == kind && info.bytes == size) found = &info;
  if (order != '<' && order != '>' && order != '|' && order != '=') found = nullptr;
  if (!found)
    header.FailAtString(
        fmt::format("unsupported dtype descr '{}' (supported: bool, int8/16/32/64, uint8/16/32/64, "
                    "float16/32/64, e.g. '<f4', '>i2', '|u1', '|b1')",
                    descr));
  if (order == '|' && found->bytes > 1)
    header.FailAtString(fmt::format("descr '{}' has no byte order for a multi-byte type", descr));
  out.dtype = found->dtype;
  out.big_endian =
      order == '>' || (order == '=' && std::endian::native == std::endian::big && size > 1);
}

template <typename T>
T Load(const char* p, bool swap) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  if (swap) {
    if constexpr (sizeof(T) == 2) value = static_cast<T>(__builtin_bswap16(value));
    if constexpr (sizeof(T) == 4) value = static_cast<T>(__builtin_bswap32(value));
    if constexpr (sizeof(T) == 8) value = static_cast<T>(__builtin_bswap64(value));
  }
  return value;
}

template <typename Stored, typename Bits>
void DecodeAs(const char* bytes, size_t count, bool swap, double* out) {
  for (size_t i = 0; i < count; ++i)
    out[i] = static_cast<double>(std::bit_cast<Stored>(Load<Bits>(bytes + i * sizeof(Bits), swap)));
}

// Reads exactly `size` bytes at `offset`; returns how many were available
// before the end of the file.
size_t ReadAt(int fd, const std::string& path, uint64_t offset, char* out, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError(path, fmt::format("read error: {}", std::strerror(errno)), offset + done);
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  return done;
}

int OpenForReading(const std::string& path, std::string_view tensor_name) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    std::string why = std::strerror(errno);
    if (tensor_name.empty()) throw InputError(path, fmt::format("cannot open: {}", why));
    throw InputError(path, fmt::format("tensor \"{}\": cannot open: {}", tensor_name, why));
  }
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw InputError(path, "is a directory, expected a tensor file");
  }
  return fd;
}

uint64_t FileBytes(int fd, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0)
    throw InputError(path, fmt::format("cannot stat: {}", std::strerror(errno)));
  return static_cast<uint64_t>(st.st_size);
}

}  // namespace

std::string_view DTypeName(DType dtype) { return Info(dtype).name; }
size_t DTypeBytes(DType dtype) { return Info(dtype).bytes; }
bool IsIntegerDType(DType dtype) {
  return Info(dtype).npy_kind == 'i' || Info(dtype).npy_kind == 'u';
}

std::optional<DType> DTypeFromName(std::string_view name) {
  for (const auto& info : kDTypes)
    if (info.name == name) return info.dtype;
  return std::nullopt;
}

std::string KnownDTypeNames() {
  std::string names;
  for (const auto& info : kDTypes) {
    if (!names.empty()) names += ", ";
    names += info.name;
  }
  return names;
}

std::string FormatShape(const std::vector<int64_t>& shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

std::optional<uint64_t> ElementCount(const std::vector<int64_t>& shape) {
  uint64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0) return std::nullopt;
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(dim), &count)) return std::nullopt;
  }
  if (count > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
  return count;
}

NpyHeader ParseNpyHeader(const std::string& path, std::string_view file_prefix) {
  if (file_prefix.size() < 8 || file_prefix.substr(0, 6) != kNpyMagic) {
    bool gzip = file_prefix.size() >= 2 && static_cast<unsigned char>(file_prefix[0]) == 0x1f &&
                static_cast<unsigned char>(file_prefix[1]) == 0x8b;
    throw InputError(path,
                     gzip ? "not an .npy file: it is gzip-compressed (decompress it first)"
                          : "not an .npy file (missing the \\x93NUMPY magic)",
                     0);
  }
  NpyHeader out;
  out.major_version = static_cast<unsigned char>(file_prefix[6]);
  out.minor_version = static_cast<unsigned char>(file_prefix[7]);
  if (out.major_version < 1 || out.major_version > 3 || out.minor_version != 0)
    throw InputError(path,
                     fmt::format("unsupported .npy format version {}.{} (known: 1.0, 2.0, 3.0)",
                                 out.major_version, out.minor_version),
                     6);
  // Version 1 stores the header length in 2 bytes, versions 2 and 3 in 4.
  size_t length_bytes = out.major_version == 1 ? 2 : 4;
  uint64_t text_start = 8 + length_bytes;
  if (file_prefix.size() < text_start)
    throw InputError(path, "file ends inside the .npy header length field", file_prefix.size());
  uint64_t text_bytes = 0;
  for (size_t i = 0; i < length_bytes; ++i)
    text_bytes |= uint64_t{static_cast<unsigned char>(file_prefix[8 + i])} << (8 * i);
  if (text_bytes > kMaxNpyHeaderBytes)
    throw InputError(path,
                     fmt::format("npy header claims {} bytes (more than the {} accepted)",
                                 text_bytes, kMaxNpyHeaderBytes),
                     8);
  out.data_offset_bytes = text_start + text_bytes;
  if (file_prefix.size() < out.data_offset_bytes)
    throw InputError(path,
                     fmt::format("file ends inside the .npy header (has {} bytes, header needs {})",
                                 file_prefix.size(), out.data_offset_bytes),
                     file_prefix.size());

  HeaderText header(path, file_prefix.substr(text_start, text_bytes), text_start);
  bool have_descr = false, have_order = false, have_shape = false;
  header.Expect('{', "at the start of the header dict");
  for (;;) {
    if (header.Consume('}')) break;
    std::string_view key = header.QuotedString();
    header.Expect(':', "after a key");
    if (key == "descr") {
      header.SkipSpace();
      if (header.Peek() == '[')
        header.Fail("structured (record) dtypes are not supported; save a plain numeric array");
      ParseDescr(header, header.QuotedString(), out);
      have_descr = true;
    } else if (key == "fortran_order") {
      out.fortran_order = header.Boolean();
      have_order = true;
    } else if (key == "shape") {
      header.Expect('(', "to open the shape tuple");
      out.shape.clear();
      while (!header.Consume(')')) {
        out.shape.push_back(header.Integer());
        if (!header.Consume(',')) {
          header.Expect(')', "to close the shape tuple");
          break;
        }
      }
      have_shape = true;
    } else {
      header.FailAtString(fmt::format("unexpected key '{}'", key));
    }
    if (!header.Consume(',')) {
      header.Expect('}', "to close the header dict");
      break;
    }
  }
  header.SkipSpace();
  if (!header.AtEnd()) header.Fail("unexpected text after the header dict");
  if (!have_descr || !have_order || !have_shape)
    header.Fail("the dict must have the keys 'descr', 'fortran_order' and 'shape'");
  if (!ElementCount(out.shape))
    throw InputError(path, fmt::format("shape {} is too large", FormatShape(out.shape)),
                     text_start);
  if (out.fortran_order) {
    int non_trivial = 0;
    for (int64_t dim : out.shape) non_trivial += dim > 1;
    if (non_trivial > 1)
      throw InputError(path,
                       fmt::format("Fortran-ordered array of shape {} is not supported; save it "
                                   "with np.save(f, np.ascontiguousarray(a))",
                                   FormatShape(out.shape)),
                       text_start);
  }
  return out;
}

NpyHeader ReadNpyHeader(const std::string& path) {
  int fd = OpenForReading(path, "");
  try {
    std::string prefix(12, '\0');
    prefix.resize(ReadAt(fd, path, 0, prefix.data(), prefix.size()));
    if (prefix.size() >= 8 && prefix.substr(0, 6) == kNpyMagic) {
      // Length field read by ParseNpyHeader; fetch the whole header text.
      size_t length_bytes = prefix[6] == 1 ? 2 : 4;
      if (prefix.size() >= 8 + length_bytes) {
        uint64_t text_bytes = 0;
        for (size_t i = 0; i < length_bytes; ++i)
          text_bytes |= uint64_t{static_cast<unsigned char>(prefix[8 + i])} << (8 * i);
        if (text_bytes <= kMaxNpyHeaderBytes) {
          prefix.resize(8 + length_bytes + text_bytes);
          prefix.resize(ReadAt(fd, path, 0, prefix.data(), prefix.size()));
        }
      }
    }
    NpyHeader header = ParseNpyHeader(path, prefix);
    ::close(fd);
    return header;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

double HalfToDouble(uint16_t bits) {
  uint32_t sign = uint32_t{bits & 0x8000u} << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0) {
    double magnitude = std::ldexp(static_cast<double>(mantissa), -24);  // zero or subnormal
    return sign ? -magnitude : magnitude;
  }
  uint32_t single = exponent == 0x1f ? sign | 0x7f800000u | (mantissa << 13)
                                     : sign | ((exponent + 112) << 23) | (mantissa << 13);
  return static_cast<double>(std::bit_cast<float>(single));
}

void DecodeElements(DType dtype, bool big_endian, const char* bytes, size_t count, double* out) {
  bool swap = big_endian != (std::endian::native == std::endian::big);
  switch (dtype) {
    case DType::kBool:
      for (size_t i = 0; i < count; ++i) out[i] = bytes[i] != 0 ? 1.0 : 0.0;
      return;
    case DType::kInt8:
      return DecodeAs<int8_t, uint8_t>(bytes, count, false, out);
    case DType::kUInt8:
      return DecodeAs<uint8_t, uint8_t>(bytes, count, false, out);
    case DType::kInt16:
      return DecodeAs<int16_t, uint16_t>(bytes, count, swap, out);
    case DType::kUInt16:
      return DecodeAs<uint16_t, uint16_t>(bytes, count, swap, out);
    case DType::kInt32:
      return DecodeAs<int32_t, uint32_t>(bytes, count, swap, out);
    case DType::kUInt32:
      return DecodeAs<uint32_t, uint32_t>(bytes, count, swap, out);
    case DType::kInt64:
      return DecodeAs<int64_t, uint64_t>(bytes, count, swap, out);
    case DType::kUInt64:
      return DecodeAs<uint64_t, uint64_t>(bytes, count, swap, out);
    case DType::kFloat16:
      for (size_t i = 0; i < count; ++i) out[i] = HalfToDouble(Load<uint16_t>(bytes + 2 * i, swap));
      return;
    case DType::kFloat32:
      return DecodeAs<float, uint32_t>(bytes, count, swap, out);
    case DType::kFloat64:
      return DecodeAs<double, uint64_t>(bytes, count, swap, out);
  }
}

void CheckTensorFileSize(const std::string& tensor_name, const TensorData& data,
                         uint64_t file_bytes) {
  auto count = ElementCount(data.shape);
  if (!count)
    throw InputError(data.path, fmt::format("tensor \"{}\": shape {} is invalid or too large",
                                            tensor_name, FormatShape(data.shape)));
  uint64_t data_bytes = 0;
  if (__builtin_mul_overflow(*count, DTypeBytes(data.dtype), &data_bytes))
    throw InputError(data.path, fmt::format("tensor \"{}\": {} × {} is too large", tensor_name,
                                            DTypeName(data.dtype), FormatShape(data.shape)));
  uint64_t expected = data.data_offset_bytes + data_bytes;
  if (file_bytes == expected) return;
  std::string header = data.data_offset_bytes
                           ? fmt::format("{}-byte header + ", data.data_offset_bytes)
                           : std::string();
  throw InputError(
      data.path,
      fmt::format("tensor \"{}\": file has {} bytes but {}{} × {} = {} elements needs {} bytes{}",
                  tensor_name, file_bytes, header, DTypeName(data.dtype), FormatShape(data.shape),
                  *count, expected,
                  file_bytes < expected ? " (file truncated, or dtype/shape wrong)"
                                        : " (dtype/shape wrong, or extra data at the end)"));
}

TensorFileReader::TensorFileReader(std::string tensor_name, TensorData data)
    : tensor_name_(std::move(tensor_name)), data_(std::move(data)) {
  fd_ = OpenForReading(data_.path, tensor_name_);
  try {
    CheckTensorFileSize(tensor_name_, data_, FileBytes(fd_, data_.path));
  } catch (...) {
    ::close(fd_);
    throw;
  }
  element_count_ = *ElementCount(data_.shape);
}

TensorFileReader::~TensorFileReader() {
  if (fd_ >= 0) ::close(fd_);
}

TensorFileReader::TensorFileReader(TensorFileReader&& other) noexcept
    : tensor_name_(std::move(other.tensor_name_)),
      data_(std::move(other.data_)),
      element_count_(other.element_count_),
      fd_(other.fd_) {
  other.fd_ = -1;
}

TensorFileReader& TensorFileReader::operator=(TensorFileReader&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    tensor_name_ = std::move(other.tensor_name_);
    data_ = std::move(other.data_);
    element_count_ = other.element_count_;
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

void TensorFileReader::Read(uint64_t first_element, size_t count, double* out,
                            std::vector<char>& scratch) const {
  if (first_element > element_count_ || count > element_count_ - first_element) std::abort();
  size_t element_bytes = DTypeBytes(data_.dtype);
  size_t bytes = count * element_bytes;
  if (scratch.size() < bytes) scratch.resize(bytes);
  uint64_t offset = data_.data_offset_bytes + first_element * element_bytes;
  size_t got = ReadAt(fd_, data_.path, offset, scratch.data(), bytes);
  if (got != bytes)
    throw InputError(data_.path,
                     fmt::format("tensor \"{}\": file ended while reading elements {}..{} "
                                 "(it changed after it was opened?)",
                                 tensor_name_, first_element, first_element + count - 1),
                     offset + got);
  DecodeElements(data_.dtype, data_.big_endian, scratch.data(), count, out);
}

}  // namespace htpscope
