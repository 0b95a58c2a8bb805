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

// The element types an .npy descr can name: kind letter and size.
struct NpyType {
  DType dtype;
  char kind;  // 'b' bool, 'i', 'u', 'f'
  size_t bytes;
};

constexpr std::array<NpyType, 12> kNpyTypes = {{
    {DType::kBool, 'b', 1},
    {DType::kInt8, 'i', 1},
    {DType::kUInt8, 'u', 1},
    {DType::kInt16, 'i', 2},
    {DType::kUInt16, 'u', 2},
    {DType::kInt32, 'i', 4},
    {DType::kUInt32, 'u', 4},
    {DType::kInt64, 'i', 8},
    {DType::kUInt64, 'u', 8},
    {DType::kFloat16, 'f', 2},
    {DType::kFloat32, 'f', 4},
    {DType::kFloat64, 'f', 8},
}};

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
  const NpyType* found = nullptr;
  for (const auto& info : kNpyTypes)
    if (info.kind == kind && info.bytes == size) found = &info;
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

TensorData NpyTensorData(const std::string& path, const NpyHeader& header) {
  TensorData data;
  data.path = path;
  data.data_offset_bytes = header.data_offset_bytes;
  data.dtype = header.dtype;
  data.big_endian = header.big_endian;
  data.shape = header.shape;
  return data;
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

double BFloat16ToDouble(uint16_t bits) {
  return static_cast<double>(std::bit_cast<float>(uint32_t{bits} << 16));
}

namespace {

// Layout of an 8-bit float type.  `fnuz` types have no infinities and no
// negative zero: their only NaN is 0x80.  `fn` types (E4M3FN) have no
// infinities either: their NaN is S.1111.111.  Others follow IEEE.
struct Float8Format {
  int mantissa_bits;
  int bias;
  bool fn;
  bool fnuz;
};

Float8Format FormatOf(DType dtype) {
  switch (dtype) {
    case DType::kFloat8E5M2:
      return {2, 15, false, false};
    case DType::kFloat8E4M3FN:
      return {3, 7, true, false};
    case DType::kFloat8E5M2FNUZ:
      return {2, 16, false, true};
    case DType::kFloat8E4M3FNUZ:
      return {3, 8, false, true};
    default:
      std::abort();  // not an 8-bit float type: a caller bug
  }
}

double DecodeFloat8(const Float8Format& f, uint8_t bits) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const int exponent_bits = 7 - f.mantissa_bits;
  const uint32_t exponent_max = (1u << exponent_bits) - 1;
  const uint32_t mantissa_mask = (1u << f.mantissa_bits) - 1;
  bool negative = bits & 0x80;
  uint32_t exponent = (bits >> f.mantissa_bits) & exponent_max;
  uint32_t mantissa = bits & mantissa_mask;
  if (f.fnuz && bits == 0x80) return kNaN;
  if (f.fn && exponent == exponent_max && mantissa == mantissa_mask) return kNaN;
  if (!f.fn && !f.fnuz && exponent == exponent_max)
    return mantissa ? kNaN : (negative ? -kInf : kInf);
  double magnitude = exponent == 0
                         ? std::ldexp(static_cast<double>(mantissa), 1 - f.bias - f.mantissa_bits)
                         : std::ldexp(static_cast<double>(mantissa | (mantissa_mask + 1)),
                                      static_cast<int>(exponent) - f.bias - f.mantissa_bits);
  return negative ? -magnitude : magnitude;
}

// All 256 values of one 8-bit float type, computed once.
const std::array<double, 256>& Float8Table(DType dtype) {
  auto make = [](DType type) {
    std::array<double, 256> table{};
    Float8Format format = FormatOf(type);
    for (int b = 0; b < 256; ++b) table[b] = DecodeFloat8(format, static_cast<uint8_t>(b));
    return table;
  };
  static const std::array<double, 256> kE5M2 = make(DType::kFloat8E5M2);
  static const std::array<double, 256> kE4M3FN = make(DType::kFloat8E4M3FN);
  static const std::array<double, 256> kE5M2FNUZ = make(DType::kFloat8E5M2FNUZ);
  static const std::array<double, 256> kE4M3FNUZ = make(DType::kFloat8E4M3FNUZ);
  switch (dtype) {
    case DType::kFloat8E5M2:
      return kE5M2;
    case DType::kFloat8E4M3FN:
      return kE4M3FN;
    case DType::kFloat8E5M2FNUZ:
      return kE5M2FNUZ;
    default:
      return kE4M3FNUZ;
  }
}

}  // namespace

double Float8ToDouble(DType dtype, uint8_t bits) { return Float8Table(dtype)[bits]; }

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
    case DType::kBFloat16:
      for (size_t i = 0; i < count; ++i)
        out[i] = BFloat16ToDouble(Load<uint16_t>(bytes + 2 * i, swap));
      return;
    case DType::kFloat8E5M2:
    case DType::kFloat8E4M3FN:
    case DType::kFloat8E5M2FNUZ:
    case DType::kFloat8E4M3FNUZ: {
      const auto& table = Float8Table(dtype);
      for (size_t i = 0; i < count; ++i) out[i] = table[static_cast<uint8_t>(bytes[i])];
      return;
    }
  }
}

std::optional<uint64_t> TensorEndByte(const TensorData& data) {
  auto count = ElementCount(data.shape);
  if (!count) return std::nullopt;
  const uint64_t element_bytes = DTypeBytes(data.dtype);
  if (*count == 0) return data.data_offset_bytes;
  uint64_t last_element = *count - 1;  // C-contiguous: the last element's index
  if (!data.strides.empty()) {
    if (data.strides.size() != data.shape.size()) return std::nullopt;
    last_element = 0;
    for (size_t k = 0; k < data.shape.size(); ++k) {
      if (data.strides[k] < 0) return std::nullopt;
      uint64_t step = 0;
      if (__builtin_mul_overflow(static_cast<uint64_t>(data.shape[k] - 1),
                                 static_cast<uint64_t>(data.strides[k]), &step) ||
          __builtin_add_overflow(last_element, step, &last_element))
        return std::nullopt;
    }
  }
  uint64_t end = 0;
  if (__builtin_add_overflow(last_element, uint64_t{1}, &end) ||
      __builtin_mul_overflow(end, element_bytes, &end) ||
      __builtin_add_overflow(end, data.data_offset_bytes, &end))
    return std::nullopt;
  return end;
}

void CheckTensorFileSize(const std::string& tensor_name, const TensorData& data,
                         uint64_t file_bytes) {
  auto count = ElementCount(data.shape);
  if (!count)
    throw InputError(data.path, fmt::format("tensor \"{}\": shape {} is invalid or too large",
                                            tensor_name, FormatShape(data.shape)));
  auto end = TensorEndByte(data);
  if (!end)
    throw InputError(
        data.path,
        data.strides.empty()
            ? fmt::format("tensor \"{}\": {} × {} is too large", tensor_name, DTypeName(data.dtype),
                          FormatShape(data.shape))
            : fmt::format("tensor \"{}\": strides {} do not fit the shape {} (one non-negative "
                          "stride per dimension, extent below 2^64 bytes)",
                          tensor_name, FormatShape(data.strides), FormatShape(data.shape)));
  if (!data.whole_file) {
    if (*end <= file_bytes) return;
    throw InputError(
        data.path,
        fmt::format("tensor \"{}\": {} × {}{} at byte {} needs bytes up to {} but the file has {}",
                    tensor_name, DTypeName(data.dtype), FormatShape(data.shape),
                    data.strides.empty() ? "" : " strides " + FormatShape(data.strides),
                    data.data_offset_bytes, *end, file_bytes),
        file_bytes);
  }
  uint64_t expected = *end;
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

namespace {

// True when `strides` are those of a C-contiguous array of `shape` (size-1
// dimensions may have any stride: they never move).
bool IsContiguous(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides) {
  if (strides.empty()) return true;
  int64_t expected = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    if (shape[k] != 1 && strides[k] != expected) return false;
    expected *= shape[k];
  }
  return true;
}

}  // namespace

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
  contiguous_ = element_count_ == 0 || IsContiguous(data_.shape, data_.strides);
}

TensorFileReader::~TensorFileReader() {
  if (fd_ >= 0) ::close(fd_);
}

TensorFileReader::TensorFileReader(TensorFileReader&& other) noexcept
    : tensor_name_(std::move(other.tensor_name_)),
      data_(std::move(other.data_)),
      element_count_(other.element_count_),
      contiguous_(other.contiguous_),
      fd_(other.fd_) {
  other.fd_ = -1;
}

TensorFileReader& TensorFileReader::operator=(TensorFileReader&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    tensor_name_ = std::move(other.tensor_name_);
    data_ = std::move(other.data_);
    element_count_ = other.element_count_;
    contiguous_ = other.contiguous_;
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

void TensorFileReader::ReadBytes(uint64_t offset, size_t bytes, char* out, uint64_t first_element,
                                 size_t count) const {
  size_t got = ReadAt(fd_, data_.path, offset, out, bytes);
  if (got != bytes)
    throw InputError(data_.path,
                     fmt::format("tensor \"{}\": file ended while reading elements {}..{} "
                                 "(it changed after it was opened?)",
                                 tensor_name_, first_element, first_element + count - 1),
                     offset + got);
}

void TensorFileReader::Read(uint64_t first_element, size_t count, double* out,
                            std::vector<char>& scratch) const {
  if (first_element > element_count_ || count > element_count_ - first_element) std::abort();
  if (count == 0) return;
  if (!contiguous_) return ReadStrided(first_element, count, out, scratch);
  size_t element_bytes = DTypeBytes(data_.dtype);
  size_t bytes = count * element_bytes;
  if (scratch.size() < bytes) scratch.resize(bytes);
  ReadBytes(data_.data_offset_bytes + first_element * element_bytes, bytes, scratch.data(),
            first_element, count);
  DecodeElements(data_.dtype, data_.big_endian, scratch.data(), count, out);
}

void TensorFileReader::ReadStrided(uint64_t first_element, size_t count, double* out,
                                   std::vector<char>& scratch) const {
  // Walks the range row by row along the last dimension: a row is one read
  // when its elements lie close together (a short stride, or none), else one
  // read per element, so a huge stride never makes a huge read.
  const size_t rank = data_.shape.size();
  const uint64_t element_bytes = DTypeBytes(data_.dtype);
  const uint64_t last_dim = static_cast<uint64_t>(data_.shape[rank - 1]);
  const uint64_t last_stride = static_cast<uint64_t>(data_.strides[rank - 1]);
  std::vector<uint64_t> index(rank);
  uint64_t flat = first_element;
  for (size_t k = rank; k-- > 0;) {
    uint64_t dim = static_cast<uint64_t>(data_.shape[k]);
    index[k] = flat % dim;
    flat /= dim;
  }
  size_t done = 0;
  while (done < count) {
    uint64_t row_element = 0;  // element offset of index (stride-weighted)
    for (size_t k = 0; k < rank; ++k)
      row_element += index[k] * static_cast<uint64_t>(data_.strides[k]);
    size_t run = static_cast<size_t>(std::min<uint64_t>(last_dim - index[rank - 1], count - done));
    uint64_t span = (run - 1) * last_stride + 1;  // elements covered by the run
    uint64_t offset = data_.data_offset_bytes + row_element * element_bytes;
    if (span <= std::max<uint64_t>(4 * run, 4096)) {
      size_t bytes = static_cast<size_t>(span * element_bytes);
      if (scratch.size() < bytes) scratch.resize(bytes);
      ReadBytes(offset, bytes, scratch.data(), first_element + done, run);
      if (last_stride == 1) {
        DecodeElements(data_.dtype, data_.big_endian, scratch.data(), run, out + done);
      } else {
        for (size_t i = 0; i < run; ++i)
          DecodeElements(data_.dtype, data_.big_endian,
                         scratch.data() + i * last_stride * element_bytes, 1, out + done + i);
      }
    } else {
      if (scratch.size() < element_bytes) scratch.resize(element_bytes);
      for (size_t i = 0; i < run; ++i) {
        ReadBytes(offset + i * last_stride * element_bytes, element_bytes, scratch.data(),
                  first_element + done + i, 1);
        DecodeElements(data_.dtype, data_.big_endian, scratch.data(), 1, out + done + i);
      }
    }
    done += run;
    // Next row: carry into the outer dimensions.
    index[rank - 1] += run;
    for (size_t k = rank; k-- > 1 && index[k] == static_cast<uint64_t>(data_.shape[k]);) {
      index[k] = 0;
      ++index[k - 1];
    }
  }
}

}  // namespace htpscope
