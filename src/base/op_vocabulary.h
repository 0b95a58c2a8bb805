// The vocabulary every layer shares to speak of HTP ops: their flags, the
// hardware units they run on, and how their 64-bit IDs are written.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace htpscope {

// Bits of an op's flags (the optrace's `Flags` array, QHAS's boolean
// columns, the HTP graph's `op_flags` param).
enum OpFlag : uint8_t {
  kFlagDma = 1 << 0,
  kFlagDmaSet = 1 << 1,
  kFlagDmaWait = 1 << 2,
  kFlagUsesHmx = 1 << 3,
  kFlagUsesHvx = 1 << 4,
  kFlagSync = 1 << 5,
  kFlagOther = 1 << 6,
};

// The flag named `name` as the artifacts write it ("dma", "dma_set",
// "dma_wait", "uses_hmx", "uses_hvx", "sync"); kFlagOther for any other name.
OpFlag OpFlagOfName(std::string_view name);
// The artifacts' names of the bits set in `flags`, joined by `separator`, in
// bit order; kFlagOther is "other".
std::string OpFlagNames(uint8_t flags, std::string_view separator = ",");

// The hardware thread an event ran on, from the thread naming convention:
// tid 256 is the HMX / main sequencer thread (it also carries DMA and sync),
// tids 512..767 are HVX threads.
enum class UnitKind : uint8_t { kHmx, kHvx, kUnknown };
UnitKind UnitKindOfTid(uint32_t tid);
const char* UnitKindName(UnitKind kind);  // "HMX", "HVX", "UNKNOWN"

// An op ID as the optrace writes it: "0x" + 16 zero-padded hex digits.
std::string OpIdHex(uint64_t id);
// Parses a hex id such as "0x0000104900000002" or the unpadded "0x13" (QHAS);
// IDs are compared as integers everywhere, so padding does not matter.
std::optional<uint64_t> ParseHexId(std::string_view text);
// The QNN op id inside an HTP op ID: its low 32 bits (the n of "OpId_n").
inline uint32_t QnnOpIdOf(uint64_t op_id) { return static_cast<uint32_t>(op_id & 0xffffffffu); }

}  // namespace htpscope
