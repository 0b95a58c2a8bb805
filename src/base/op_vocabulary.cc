#include "base/op_vocabulary.h"

#include <fmt/format.h>

namespace htpscope {
namespace {

struct FlagName {
  OpFlag flag;
  std::string_view name;
};
constexpr FlagName kFlagNames[] = {
    {kFlagDma, "dma"},          {kFlagDmaSet, "dma_set"},   {kFlagDmaWait, "dma_wait"},
    {kFlagUsesHmx, "uses_hmx"}, {kFlagUsesHvx, "uses_hvx"}, {kFlagSync, "sync"},
    {kFlagOther, "other"},
};

}  // namespace

OpFlag OpFlagOfName(std::string_view name) {
  for (const auto& f : kFlagNames)
    if (f.name == name && f.flag != kFlagOther) return f.flag;
  return kFlagOther;
}

std::string OpFlagNames(uint8_t flags, std::string_view separator) {
  std::string out;
  for (const auto& f : kFlagNames) {
    if (!(flags & f.flag)) continue;
    if (!out.empty()) out += separator;
    out += f.name;
  }
  return out;
}

UnitKind UnitKindOfTid(uint32_t tid) {
  if (tid == 256) return UnitKind::kHmx;
  if (tid >= 512 && tid < 768) return UnitKind::kHvx;
  return UnitKind::kUnknown;
}

const char* UnitKindName(UnitKind kind) {
  switch (kind) {
    case UnitKind::kHmx:
      return "HMX";
    case UnitKind::kHvx:
      return "HVX";
    default:
      return "UNKNOWN";
  }
}

std::string OpIdHex(uint64_t id) { return fmt::format("0x{:016x}", id); }

std::optional<uint64_t> ParseHexId(std::string_view text) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    text.remove_prefix(2);
  if (text.empty() || text.size() > 16) return std::nullopt;
  // By hand: millions of IDs in a big optrace, and from_chars' general-base
  // loop costs several times more.  At most 16 digits: no overflow.
  uint64_t value = 0;
  for (char c : text) {
    unsigned digit;
    if (c >= '0' && c <= '9')
      digit = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f')
      digit = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      digit = static_cast<unsigned>(c - 'A' + 10);
    else
      return std::nullopt;
    value = value << 4 | digit;
  }
  return value;
}

}  // namespace htpscope
