// An ExecuTorch run as its ETDump records it: one block of events per
// RunData (`Default` for method load, `Execute` per inference, ...), each
// profile event with its name, delegate identity and duration in the
// runtime's ticks.
//
// Ticks are what ExecuTorch's platform layer counts (et_pal_current_ticks());
// ExecuTorch's et_pal_ticks_to_ns_multiplier() converts them to ns, and on
// the POSIX platform they are ns already, but nothing in the ETDump says
// which platform wrote it, so they stay ticks here.  A delegate event's
// duration is in whatever unit the delegate logged: the Qualcomm delegate
// logs each QNN op with start 0 and end = QNN's profile value (cycles or µs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/string_pool.h"

namespace htpscope {

struct EtdumpProfileRow {
  // The event's name; for delegate events, which have none, the delegate's
  // string id, else "delegate_debug_id <n>".
  StringId name = StringPool::kEmpty;
  bool delegate = false;  // logged by a delegate (it has a delegate debug id)
  int32_t instruction_id = -1;
  std::optional<int32_t> delegate_debug_id_int;         // set when ≥ 0
  StringId delegate_debug_id_str = StringPool::kEmpty;  // "" when unset
  uint64_t start_ticks = 0, end_ticks = 0;
  // end − start; nullopt when the event ends before it starts (not counted).
  std::optional<uint64_t> duration_ticks;
};

struct EtdumpBlock {
  std::string name;
  std::vector<EtdumpProfileRow> profile_events;  // in logged order
  size_t debug_events = 0;
  size_t allocation_events = 0;
};

struct EtdumpRun {
  std::string path;
  uint32_t version = 0;
  // True when ExecuTorch's QNN delegate wrote its per-node events into the
  // dump: it is then a profile of a run too (formats/etdump_profile.h).
  bool has_qnn_delegate_op_events = false;
  std::vector<EtdumpBlock> blocks;
  StringPool strings;  // names of the rows
  std::vector<std::string> warnings;
  std::string_view Name(StringId id) const { return strings.View(id); }
};

// True when the file at `path` is an ExecuTorch ETDump (recognised by its
// content: size prefix and identifier "ED00").  Throws InputError only when
// it cannot be opened.
bool IsEtdumpFile(const std::string& path);

// Reads the ETDump at `path`.  Throws InputError (file and byte offset) when
// it is not a valid ETDump.
EtdumpRun LoadEtdumpRun(const std::string& path);

}  // namespace htpscope
