// Output of `htpscope summary` for an ExecuTorch ETDump: per run-data block
// its event totals (calls, ticks), then the totals over all blocks; and the
// `etdump` object of the summary JSON (docs/summary-json.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/etdump_summary.h"

namespace htpscope {

// Text for people: one table per block (top `top_n` names by total ticks)
// and one over all blocks.  Untrusted names are printed with control
// characters escaped.  Ends with a newline.
std::string RenderEtdumpText(const EtdumpSummary& summary, int top_n);

// The `etdump` object: file, version, tick_unit, runs[] {name, counts,
// events[] (every profile event in logged order), event_totals[]}, and
// op_totals[] {name, count, total_ticks, delegate, delegate ids} sorted by
// total_ticks, largest first.
nlohmann::ordered_json EtdumpToJson(const EtdumpSummary& summary);

}  // namespace htpscope
