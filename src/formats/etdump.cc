#include "formats/etdump.h"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <memory>

#include "base/errors.h"
#include "etdump_schema_generated.h"  // flatc's reader of etdump_schema.fbs
#include "formats/byte_source.h"

namespace htpscope {
namespace {

constexpr std::string_view kIdentifier = "ED00";
constexpr size_t kPrefixBytes = 4;  // the size prefix (uoffset_t)

uint32_t LoadU32(std::string_view bytes, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i)
    v |= uint32_t{static_cast<unsigned char>(bytes[at + i])} << (8 * i);
  return v;
}

struct ScalarTypeInfo {
  int8_t value;
  std::string_view name;
  std::optional<DType> dtype;
};

// ExecuTorch's ScalarType (scalar_type.fbs) and how each is decoded.
constexpr std::array<ScalarTypeInfo, 23> kScalarTypes = {{
    {0, "BYTE", DType::kUInt8},
    {1, "CHAR", DType::kInt8},
    {2, "SHORT", DType::kInt16},
    {3, "INT", DType::kInt32},
    {4, "LONG", DType::kInt64},
    {5, "HALF", DType::kFloat16},
    {6, "FLOAT", DType::kFloat32},
    {7, "DOUBLE", DType::kFloat64},
    {11, "BOOL", DType::kBool},
    {12, "QINT8", DType::kInt8},
    {13, "QUINT8", DType::kUInt8},
    {14, "QINT32", DType::kInt32},
    {15, "BFLOAT16", DType::kBFloat16},
    {16, "QUINT4X2", std::nullopt},
    {17, "QUINT2X4", std::nullopt},
    {22, "BITS16", std::nullopt},
    {23, "FLOAT8E5M2", DType::kFloat8E5M2},
    {24, "FLOAT8E4M3FN", DType::kFloat8E4M3FN},
    {25, "FLOAT8E5M2FNUZ", DType::kFloat8E5M2FNUZ},
    {26, "FLOAT8E4M3FNUZ", DType::kFloat8E4M3FNUZ},
    {27, "UINT16", DType::kUInt16},
    {28, "UINT32", DType::kUInt32},
    {29, "UINT64", DType::kUInt64},
}};

const ScalarTypeInfo* FindScalarType(int8_t value) {
  for (const auto& info : kScalarTypes)
    if (info.value == value) return &info;
  return nullptr;
}

// Checks the framing (size prefix, identifier) and returns the bytes the
// prefix covers, prefix included.
std::string_view CheckFraming(const std::string& path, std::string_view bytes,
                              std::vector<std::string>& warnings) {
  if (bytes.size() < kPrefixBytes + 8)
    throw InputError(path,
                     fmt::format("not an ETDump: {} bytes is too short for a size-prefixed "
                                 "FlatBuffer (size prefix, root offset, identifier \"ED00\")",
                                 bytes.size()),
                     bytes.size());
  if (bytes.substr(8, 4) != kIdentifier) {
    if (bytes.substr(4, 4) == kIdentifier)
      throw InputError(path,
                       "an ETDump FlatBuffer without its size prefix; ExecuTorch writes "
                       "size-prefixed ETDumps (identifier \"ED00\" expected at byte 8)",
                       4);
    throw InputError(path, "not an ETDump: the FlatBuffer identifier at byte 8 is not \"ED00\"", 8);
  }
  uint64_t promised = LoadU32(bytes, 0);
  uint64_t present = bytes.size() - kPrefixBytes;
  if (promised > present)
    throw InputError(path,
                     fmt::format("truncated ETDump: the size prefix promises {} bytes after it "
                                 "but the file has {}",
                                 promised, present),
                     bytes.size());
  if (promised < 8)
    throw InputError(
        path, fmt::format("the size prefix says {} bytes, too few for a FlatBuffer", promised), 0);
  if (promised < present)
    warnings.push_back(
        fmt::format("{} bytes after the size-prefixed buffer (which ends at byte "
                    "{}) were ignored",
                    present - promised, promised + kPrefixBytes));
  return bytes.substr(0, promised + kPrefixBytes);
}

namespace fb = flatbuffers;

fb::Verifier::Options VerifierOptions(size_t bytes) {
  fb::Verifier::Options options;
  options.max_depth = 64;
  // Every table takes at least 4 bytes and a vtable: no valid ETDump has more.
  options.max_tables = static_cast<fb::uoffset_t>(std::max<size_t>(1000000, bytes / 4 + 1000));
  return options;
}

const fb::Table* AsTable(const void* table) { return reinterpret_cast<const fb::Table*>(table); }

// Finds the innermost table that fails verification, to point the error at
// it; each table is verified on its own, after its parent's offsets were.
class CorruptionLocator {
 public:
  CorruptionLocator(const uint8_t* buffer, size_t size)
      : buffer_(buffer), size_(size), options_(VerifierOptions(size)) {}

  // (byte, what) of the first bad table, in file order of the walk.
  std::pair<uint64_t, std::string> Locate() {
    fb::Verifier v(buffer_, size_, options_);
    fb::uoffset_t root_offset = v.VerifyOffset(kPrefixBytes);
    if (root_offset == 0) return {kPrefixBytes, "the root table offset points outside the buffer"};
    auto* root = reinterpret_cast<const etdump::ETDump*>(buffer_ + kPrefixBytes + root_offset);
    if (!AsTable(root)->VerifyTableStart(v) ||
        !AsTable(root)->VerifyOffset(v, etdump::ETDump::VT_RUN_DATA) ||
        !v.VerifyVector(root->run_data()))
      return {ByteOf(root), "the ETDump root table or its run_data vector is corrupt"};
    if (!root->run_data()) return {ByteOf(root), "verification failed"};
    for (fb::uoffset_t i = 0; i < root->run_data()->size(); ++i) {
      const etdump::RunData* run = root->run_data()->Get(i);
      if (Verifies(run)) continue;
      std::string where = fmt::format("run_data[{}]", i);
      if (Outside(run)) return {SlotByte(root->run_data(), i), where + OutsideNote()};
      fb::Verifier rv(buffer_, size_, options_);
      if (!AsTable(run)->VerifyTableStart(rv) ||
          !AsTable(run)->VerifyOffset(rv, etdump::RunData::VT_NAME) ||
          !rv.VerifyString(run->name()) ||
          !AsTable(run)->VerifyOffset(rv, etdump::RunData::VT_ALLOCATORS) ||
          !rv.VerifyVector(run->allocators()) ||
          !AsTable(run)->VerifyOffset(rv, etdump::RunData::VT_EVENTS) ||
          !rv.VerifyVector(run->events()))
        return {ByteOf(run), where + ": the RunData table, its name or a vector is corrupt"};
      if (run->allocators())
        for (fb::uoffset_t a = 0; a < run->allocators()->size(); ++a)
          if (!Verifies(run->allocators()->Get(a)))
            return Located(run->allocators()->Get(a), SlotByte(run->allocators(), a),
                           fmt::format("{}.allocators[{}] is corrupt", where, a));
      if (run->events())
        for (fb::uoffset_t e = 0; e < run->events()->size(); ++e)
          if (auto found = LocateInEvent(run->events()->Get(e), SlotByte(run->events(), e),
                                         fmt::format("{}.events[{}]", where, e)))
            return *found;
      return {ByteOf(run), where + " is corrupt"};
    }
    return {kPrefixBytes,
            "verification failed (nesting or table count beyond the verifier's limits)"};
  }

 private:
  template <typename T>
  bool Verifies(const T* table) {
    fb::Verifier v(buffer_, size_, options_);
    return v.VerifyTable(table);
  }
  uint64_t ByteOf(const void* p) const {
    return static_cast<uint64_t>(static_cast<const uint8_t*>(p) - buffer_);
  }
  bool Outside(const void* table) const { return ByteOf(table) >= size_; }
  static std::string OutsideNote() { return ": its offset points outside the buffer"; }
  // Where the offset to element `i` of a (verified) vector of tables sits.
  template <typename V>
  uint64_t SlotByte(const V* vector, fb::uoffset_t i) const {
    return ByteOf(vector->Data() + i * sizeof(fb::uoffset_t));
  }
  // The table's own byte, or `referrer` (where its offset sits) when it points outside.
  std::pair<uint64_t, std::string> Located(const void* table, uint64_t referrer,
                                           const std::string& what) const {
    if (Outside(table)) return {referrer, what + OutsideNote()};
    return {ByteOf(table), what};
  }

  std::optional<std::pair<uint64_t, std::string>> LocateInEvent(const etdump::Event* event,
                                                                uint64_t referrer,
                                                                const std::string& where) {
    if (Verifies(event)) return std::nullopt;
    if (Outside(event)) return Located(event, referrer, where);
    fb::Verifier v(buffer_, size_, options_);
    if (!AsTable(event)->VerifyTableStart(v) ||
        !AsTable(event)->VerifyOffset(v, etdump::Event::VT_PROFILE_EVENT) ||
        !AsTable(event)->VerifyOffset(v, etdump::Event::VT_ALLOCATION_EVENT) ||
        !AsTable(event)->VerifyOffset(v, etdump::Event::VT_DEBUG_EVENT))
      return std::pair{ByteOf(event), where + ": the Event table is corrupt"};
    if (!Verifies(event->profile_event()))
      return Located(event->profile_event(), ByteOf(event), where + ".profile_event is corrupt");
    if (!Verifies(event->allocation_event()))
      return Located(event->allocation_event(), ByteOf(event),
                     where + ".allocation_event is corrupt");
    if (!Verifies(event->debug_event()))
      return Located(event->debug_event(), ByteOf(event), where + ".debug_event is corrupt");
    return std::pair{ByteOf(event), where + " is corrupt"};
  }

  const uint8_t* buffer_;
  size_t size_;
  fb::Verifier::Options options_;
};

std::string_view View(const fb::String* s) {
  return s ? std::string_view(s->c_str(), s->size()) : std::string_view();
}

// The Verifier checks a vector's length field for 4-byte alignment only, so
// the int64 elements may sit at 4 mod 8: copy their bytes, never load them
// in place.
std::vector<int64_t> Longs(const fb::Vector<int64_t>* v) {
  if (!v || v->size() == 0) return {};
  std::vector<int64_t> out(v->size());
  std::memcpy(out.data(), v->Data(), out.size() * sizeof(int64_t));
  for (int64_t& x : out) x = fb::EndianScalar(x);
  return out;
}

EtdumpTensor ReadTensor(const etdump::Tensor* t, const uint8_t* base) {
  EtdumpTensor out;
  out.scalar_type = static_cast<int8_t>(t->scalar_type());
  out.sizes = Longs(t->sizes());
  out.strides = Longs(t->strides());
  out.offset_bytes = t->offset();
  out.table_byte = static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(t) - base);
  return out;
}

void ReadDebugEvent(const etdump::DebugEvent* d, const uint8_t* base, Etdump& dump,
                    EtdumpEvent& out) {
  out.kind = EtdumpEventKind::kDebug;
  out.name = dump.strings.Intern(View(d->name()));
  out.chain_index = static_cast<int64_t>(d->chain_index());
  out.instruction_id = d->instruction_id();
  out.delegate_debug_id_int = d->delegate_debug_id_int();
  out.delegate_debug_id_str = dump.strings.Intern(View(d->delegate_debug_id_str()));
  const etdump::Value* value = d->debug_entry();
  if (!value) return;
  out.value_type = static_cast<EtdumpValueType>(value->val());
  out.program_output = value->output() && value->output()->bool_val();
  if (value->val() == etdump::ValueType_Tensor && value->tensor()) {
    out.tensors.push_back(ReadTensor(value->tensor(), base));
  } else if (value->val() == etdump::ValueType_TensorList && value->tensor_list() &&
             value->tensor_list()->tensors()) {
    for (const etdump::Tensor* t : *value->tensor_list()->tensors())
      if (t) out.tensors.push_back(ReadTensor(t, base));
  }
}

void ReadEvents(const etdump::RunData* run, const uint8_t* base, Etdump& dump, EtdumpRunData& out) {
  if (!run->events()) return;
  out.events.reserve(run->events()->size());
  for (const etdump::Event* event : *run->events()) {
    EtdumpEvent e;
    e.table_byte = static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(event) - base);
    if (const etdump::ProfileEvent* p = event->profile_event()) {
      e.kind = EtdumpEventKind::kProfile;
      e.name = dump.strings.Intern(View(p->name()));
      e.chain_index = p->chain_index();
      e.instruction_id = p->instruction_id();
      e.delegate_debug_id_int = p->delegate_debug_id_int();
      e.delegate_debug_id_str = dump.strings.Intern(View(p->delegate_debug_id_str()));
      e.start_ticks = p->start_time();
      e.end_ticks = p->end_time();
      e.delegate_metadata_bytes =
          p->delegate_debug_metadata() ? p->delegate_debug_metadata()->size() : 0;
    } else if (const etdump::AllocationEvent* a = event->allocation_event()) {
      e.kind = EtdumpEventKind::kAllocation;
      e.allocator_id = a->allocator_id();
      e.allocation_bytes = a->allocation_size();
    } else if (const etdump::DebugEvent* d = event->debug_event()) {
      ReadDebugEvent(d, base, dump, e);
    }
    out.events.push_back(std::move(e));
  }
}

void Extract(const uint8_t* base, Etdump& dump) {
  const etdump::ETDump* root = etdump::GetSizePrefixedETDump(base);
  dump.version = root->version();
  if (!root->run_data()) return;
  for (const etdump::RunData* run : *root->run_data()) {
    EtdumpRunData out;
    out.table_byte = static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(run) - base);
    out.name = std::string(View(run->name()));
    out.bundled_input_index = run->bundled_input_index();
    if (run->allocators())
      for (const etdump::Allocator* a : *run->allocators())
        out.allocators.emplace_back(View(a->name()));
    ReadEvents(run, base, dump, out);
    dump.runs.push_back(std::move(out));
  }
}

}  // namespace

bool LooksLikeEtdump(std::string_view prefix) {
  if (prefix.size() >= 12 && prefix.substr(8, 4) == kIdentifier) return true;
  return prefix.size() >= 8 && prefix.substr(4, 4) == kIdentifier;
}

Etdump ParseEtdump(const std::string& path, std::string_view bytes) {
  Etdump dump;
  dump.path = path;
  dump.file_bytes = bytes.size();
  std::string_view buffer = CheckFraming(path, bytes, dump.warnings);
  if (buffer.size() >= FLATBUFFERS_MAX_BUFFER_SIZE)
    throw InputError(path, "an ETDump of 2 GiB or more is beyond what FlatBuffers can address", 0);
  // FlatBuffers reads scalars in place: give it 8-byte aligned memory.
  const AlignedBytes aligned(buffer);
  const uint8_t* base = aligned.data();
  flatbuffers::Verifier verifier(base, buffer.size(), VerifierOptions(buffer.size()));
  if (!etdump::VerifySizePrefixedETDumpBuffer(verifier)) {
    auto [byte, what] = CorruptionLocator(base, buffer.size()).Locate();
    throw InputError(path, fmt::format("corrupt ETDump FlatBuffer: {}", what), byte);
  }
  Extract(base, dump);
  return dump;
}

Etdump ReadEtdump(const std::string& path) {
  LoadedFile loaded = ReadWholeFile(path);
  return ParseEtdump(path, std::string_view(loaded.bytes.data(), loaded.bytes.size()));
}

std::string EtdumpScalarTypeName(int8_t scalar_type) {
  if (const ScalarTypeInfo* info = FindScalarType(scalar_type)) return std::string(info->name);
  return fmt::format("scalar type {}", scalar_type);
}

std::optional<DType> EtdumpScalarTypeDType(int8_t scalar_type) {
  const ScalarTypeInfo* info = FindScalarType(scalar_type);
  return info ? info->dtype : std::nullopt;
}

}  // namespace htpscope
