#include "model/etdump_run.h"

#include <fmt/format.h>

#include "formats/byte_source.h"
#include "formats/etdump.h"
#include "formats/etdump_profile.h"

namespace htpscope {

bool IsEtdumpFile(const std::string& path) { return LooksLikeEtdump(ReadPrefix(path, 16)); }

EtdumpRun LoadEtdumpRun(const std::string& path) {
  Etdump dump = ReadEtdump(path);
  EtdumpRun run;
  run.path = path;
  run.version = dump.version;
  run.has_qnn_delegate_op_events = HasQnnDelegateOpEvents(dump);
  run.warnings = std::move(dump.warnings);
  size_t backwards = 0;
  for (const EtdumpRunData& data : dump.runs) {
    EtdumpBlock block;
    block.name = data.name;
    for (const EtdumpEvent& e : data.events) {
      if (e.kind == EtdumpEventKind::kDebug) ++block.debug_events;
      if (e.kind == EtdumpEventKind::kAllocation) ++block.allocation_events;
      if (e.kind != EtdumpEventKind::kProfile) continue;
      EtdumpProfileRow row;
      row.instruction_id = e.instruction_id;
      if (e.delegate_debug_id_int >= 0) row.delegate_debug_id_int = e.delegate_debug_id_int;
      row.delegate_debug_id_str = run.strings.Intern(dump.strings.View(e.delegate_debug_id_str));
      row.delegate = row.delegate_debug_id_int || row.delegate_debug_id_str != StringPool::kEmpty;
      std::string_view name = dump.strings.View(e.name);
      if (!name.empty()) {
        row.name = run.strings.Intern(name);
      } else if (row.delegate_debug_id_str != StringPool::kEmpty) {
        row.name = row.delegate_debug_id_str;
      } else if (row.delegate_debug_id_int) {
        row.name = run.strings.Intern(fmt::format("delegate_debug_id {}", e.delegate_debug_id_int));
      } else {
        row.name = run.strings.Intern("(unnamed)");
      }
      row.start_ticks = e.start_ticks;
      row.end_ticks = e.end_ticks;
      if (e.end_ticks >= e.start_ticks) {
        row.duration_ticks = e.end_ticks - e.start_ticks;
      } else {
        ++backwards;
      }
      block.profile_events.push_back(row);
    }
    run.blocks.push_back(std::move(block));
  }
  if (backwards)
    run.warnings.push_back(fmt::format(
        "{} profile event(s) end before they start; their durations are not counted", backwards));
  return run;
}

}  // namespace htpscope
