// ExecuTorch ETDump (`etdump.etdp`): the profiling and debug events an
// ExecuTorch runtime logged, as a size-prefixed FlatBuffer with the file
// identifier "ED00" (schema: ExecuTorch's devtools/etdump/
// etdump_schema_flatcc.fbs and scalar_type.fbs).  The reader is generated
// from that schema at build time (docs/numerics.md says how the build finds
// it); a build without the schema has no ETDump support, and ReadEtdump then
// throws an InputError saying so.
//
// The whole buffer is checked by FlatBuffers' Verifier before anything is
// read, so every offset inside it is known to be in bounds; values that
// point outside it (tensor offsets into the debug buffer, sizes, strides)
// are returned as they are and checked by whoever uses them.
//
// Times: ProfileEvent start_time/end_time are the runtime's ticks
// (et_pal_current_ticks()); their unit is platform-defined (ExecuTorch's
// et_pal_ticks_to_ns_multiplier() converts them to ns; the POSIX platform's
// ticks are ns).  A delegate may log its own units: the Qualcomm delegate
// logs each QNN op with start 0 and end = the QNN profile value (cycles or
// µs, as QNN reported it).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/string_pool.h"
#include "base/tensor_types.h"

namespace htpscope {

// True when the build could generate the reader from the ExecuTorch schema.
bool EtdumpSupported();

// True when `prefix` (a file's first bytes, at least 12) looks like an
// ETDump: a 4-byte size prefix, a root offset and the identifier "ED00" at
// byte 8 (or, for a buffer written without size prefix, at byte 4).
bool LooksLikeEtdump(std::string_view prefix);

// A tensor a debug event logged: its elements are in the debug buffer.
struct EtdumpTensor {
  int8_t scalar_type = 0;        // ExecuTorch ScalarType value (6 = FLOAT, ...)
  std::vector<int64_t> sizes;    // as written (not yet checked)
  std::vector<int64_t> strides;  // in elements, as written (not yet checked)
  int64_t offset_bytes = 0;      // into the debug buffer, as written
  uint64_t table_byte = 0;       // where the Tensor table sits in the ETDump file
};

enum class EtdumpEventKind : uint8_t { kProfile, kAllocation, kDebug, kEmpty };

// ETDump's Value.val (ValueType): which kind of value a debug event logged.
enum class EtdumpValueType : uint8_t {
  kNull = 0,
  kInt = 1,
  kBool = 2,
  kFloat = 3,
  kDouble = 4,
  kTensor = 5,
  kTensorList = 6,
  kString = 7,
};

struct EtdumpEvent {
  EtdumpEventKind kind = EtdumpEventKind::kEmpty;
  uint64_t table_byte = 0;  // where the event's table sits in the file
  // Profile and debug events.
  StringId name = StringPool::kEmpty;  // "" when absent (delegate events have none)
  int64_t chain_index = 0;
  int32_t instruction_id = -1;
  int32_t delegate_debug_id_int = -1;                   // -1 when unset
  StringId delegate_debug_id_str = StringPool::kEmpty;  // "" when unset
  // Profile events: runtime ticks as written.
  uint64_t start_ticks = 0;
  uint64_t end_ticks = 0;
  uint32_t delegate_metadata_bytes = 0;
  // Allocation events.
  int32_t allocator_id = 0;
  uint64_t allocation_bytes = 0;
  // Debug events.
  EtdumpValueType value_type = EtdumpValueType::kNull;
  bool program_output = false;
  std::vector<EtdumpTensor> tensors;  // one for kTensor, n for kTensorList
};

// One RunData block: `Default` (method load), `Execute` (one inference), ...
struct EtdumpRunData {
  std::string name;
  int32_t bundled_input_index = -1;
  std::vector<std::string> allocators;
  std::vector<EtdumpEvent> events;  // in the order the runtime logged them
  uint64_t table_byte = 0;
};

struct Etdump {
  std::string path;
  uint64_t file_bytes = 0;
  uint32_t version = 0;
  std::vector<EtdumpRunData> runs;
  StringPool strings;  // event names and delegate ids
  std::vector<std::string> warnings;
};

// Reads and verifies the ETDump at `path` (plain or gzip).  Throws
// InputError naming the file and byte offset when it is not a size-prefixed
// "ED00" FlatBuffer, is truncated (the size prefix promises more bytes than
// the file has), or fails verification (the offset of the innermost table
// that fails); bytes after the prefixed size are ignored with a warning.
Etdump ReadEtdump(const std::string& path);
// The same for bytes already in memory, reported as `path`.
Etdump ParseEtdump(const std::string& path, std::string_view bytes);

// ExecuTorch's name of a ScalarType value ("FLOAT", "QUINT8", ...), or
// "scalar type <n>" for values the schema does not list.
std::string EtdumpScalarTypeName(int8_t scalar_type);
// The element type a ScalarType is decoded as; nullopt for types without a
// numeric decoding here (BITS16, the packed QUINT4X2/QUINT2X4, unknown
// values).  Quantized ints (QINT8, QUINT8, QINT32) decode as their stored
// integers: an ETDump carries no scale or zero point.
std::optional<DType> EtdumpScalarTypeDType(int8_t scalar_type);

}  // namespace htpscope
