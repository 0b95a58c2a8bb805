#include "base/tensor_types.h"

#include <fmt/format.h>

#include <array>
#include <limits>

namespace htpscope {
namespace {

enum class Kind : uint8_t { kBool, kSigned, kUnsigned, kFloat };

struct DTypeInfo {
  DType dtype;
  std::string_view name;
  size_t bytes;
  Kind kind;
};

constexpr std::array<DTypeInfo, 17> kDTypes = {{
    {DType::kBool, "bool", 1, Kind::kBool},
    {DType::kInt8, "int8", 1, Kind::kSigned},
    {DType::kUInt8, "uint8", 1, Kind::kUnsigned},
    {DType::kInt16, "int16", 2, Kind::kSigned},
    {DType::kUInt16, "uint16", 2, Kind::kUnsigned},
    {DType::kInt32, "int32", 4, Kind::kSigned},
    {DType::kUInt32, "uint32", 4, Kind::kUnsigned},
    {DType::kInt64, "int64", 8, Kind::kSigned},
    {DType::kUInt64, "uint64", 8, Kind::kUnsigned},
    {DType::kFloat16, "float16", 2, Kind::kFloat},
    {DType::kFloat32, "float32", 4, Kind::kFloat},
    {DType::kFloat64, "float64", 8, Kind::kFloat},
    {DType::kBFloat16, "bfloat16", 2, Kind::kFloat},
    {DType::kFloat8E5M2, "float8_e5m2", 1, Kind::kFloat},
    {DType::kFloat8E4M3FN, "float8_e4m3fn", 1, Kind::kFloat},
    {DType::kFloat8E5M2FNUZ, "float8_e5m2fnuz", 1, Kind::kFloat},
    {DType::kFloat8E4M3FNUZ, "float8_e4m3fnuz", 1, Kind::kFloat},
}};

const DTypeInfo& Info(DType dtype) { return kDTypes[static_cast<size_t>(dtype)]; }

}  // namespace

std::string_view DTypeName(DType dtype) { return Info(dtype).name; }
size_t DTypeBytes(DType dtype) { return Info(dtype).bytes; }
bool IsIntegerDType(DType dtype) {
  return Info(dtype).kind == Kind::kSigned || Info(dtype).kind == Kind::kUnsigned;
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

std::optional<TensorLayout> ParseTensorLayout(std::string_view name) {
  if (name == "NHWC" || name == "NWC" || name == "NDHWC") return TensorLayout::kChannelsLast;
  if (name == "NCHW" || name == "NCW" || name == "NCDHW") return TensorLayout::kChannelsFirst;
  if (name == "none") return TensorLayout::kNone;
  return std::nullopt;
}

bool NaturalLess(std::string_view a, std::string_view b) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      size_t i_end = i, j_end = j;
      while (i_end < a.size() && digit(a[i_end])) ++i_end;
      while (j_end < b.size() && digit(b[j_end])) ++j_end;
      // Compare the runs as numbers: skip leading zeros, then length, then digits.
      std::string_view x = a.substr(i, i_end - i), y = b.substr(j, j_end - j);
      x.remove_prefix(std::min(x.find_first_not_of('0'), x.size()));
      y.remove_prefix(std::min(y.find_first_not_of('0'), y.size()));
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = i_end;
      j = j_end;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
  return a < b;  // equal as numbers ("t01" vs "t1"): fall back to plain order
}

}  // namespace htpscope
