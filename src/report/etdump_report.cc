#include "report/etdump_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "report/format_util.h"

namespace htpscope {
namespace {

constexpr std::string_view kTickNote =
    "ticks = the ExecuTorch runtime's clock (et_pal_current_ticks: ns on POSIX builds, "
    "platform-defined elsewhere); delegate events carry the delegate's own unit (QNN: cycles or "
    "µs as QNN reported them)";

std::string Ticks(uint64_t ticks) {
  if (ticks > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    return fmt::format("{}", ticks);
  return GroupDigits(static_cast<int64_t>(ticks));
}

// Control characters in names from the file would act on the terminal.
std::string Printable(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string DelegateLabel(const EtdumpEventTotal& t) {
  if (!t.delegate) return "";
  if (t.delegate_debug_id_int) return fmt::format("delegate id {}", *t.delegate_debug_id_int);
  return "delegate";
}

void TotalsTable(std::string& out, const std::vector<EtdumpEventTotal>& totals, int top_n) {
  size_t shown = std::min(totals.size(), static_cast<size_t>(std::max(top_n, 0)));
  std::vector<std::string> names;
  size_t width = 5;
  for (size_t i = 0; i < shown; ++i) {
    names.push_back(Ellipsize(Printable(totals[i].name), 60));
    width = std::max(width, names.back().size());
  }
  out += fmt::format("    {:<{}}  {:>7}  {:>16}  {}\n", "event", width, "calls", "total ticks",
                     "delegate");
  for (size_t i = 0; i < shown; ++i) {
    const EtdumpEventTotal& t = totals[i];
    std::string ticks = Ticks(t.total_ticks);
    if (t.uncounted) ticks += fmt::format(" (+{} uncounted)", t.uncounted);
    std::string line = fmt::format("    {:<{}}  {:>7}  {:>16}  {}", names[i], width, t.count, ticks,
                                   DelegateLabel(t));
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  if (shown < totals.size())
    out += fmt::format("    ... {} more event names not shown (--top)\n",
                       FormatCount(totals.size() - shown));
}

nlohmann::ordered_json TotalsJson(const std::vector<EtdumpEventTotal>& totals) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const EtdumpEventTotal& t : totals) {
    nlohmann::ordered_json j;
    j["name"] = t.name;
    j["count"] = t.count;
    j["total_ticks"] = t.total_ticks;
    j["delegate"] = t.delegate;
    j["delegate_debug_id_int"] =
        t.delegate_debug_id_int ? nlohmann::ordered_json(*t.delegate_debug_id_int) : nullptr;
    j["delegate_debug_id_str"] = t.delegate_debug_id_str.empty()
                                     ? nlohmann::ordered_json(nullptr)
                                     : nlohmann::ordered_json(t.delegate_debug_id_str);
    j["uncounted"] = t.uncounted;
    list.push_back(std::move(j));
  }
  return list;
}

}  // namespace

std::string RenderEtdumpText(const EtdumpSummary& summary, int top_n) {
  std::string out = fmt::format("ExecuTorch ETDump: {} (schema version {}, {} run-data blocks)\n",
                                Printable(summary.path), summary.version, summary.runs.size());
  out += fmt::format("  {}\n\n", kTickNote);
  for (const EtdumpBlockSummary& run : summary.runs) {
    out += fmt::format("  Run '{}': {} profile events, {} debug events, {} allocation events\n",
                       Printable(run.name), run.events.size(), run.debug_events,
                       run.allocation_events);
    if (!run.totals.empty()) TotalsTable(out, run.totals, top_n);
    out += "\n";
  }
  out += "  All runs: calls and total ticks per event name\n";
  TotalsTable(out, summary.op_totals, top_n);
  if (!summary.warnings.empty()) {
    out += "\n  Warnings:\n";
    for (const std::string& w : summary.warnings) out += fmt::format("    {}\n", Printable(w));
  }
  return out;
}

nlohmann::ordered_json EtdumpToJson(const EtdumpSummary& summary) {
  nlohmann::ordered_json doc;
  doc["file"] = summary.path;
  doc["version"] = summary.version;
  doc["tick_unit"] = kTickNote;
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const EtdumpBlockSummary& run : summary.runs) {
    nlohmann::ordered_json r;
    r["name"] = run.name;
    r["profile_events"] = run.events.size();
    r["debug_events"] = run.debug_events;
    r["allocation_events"] = run.allocation_events;
    nlohmann::ordered_json events = nlohmann::ordered_json::array();
    for (const EtdumpEventView& e : run.events) {
      const EtdumpProfileRow& row = *e.row;
      nlohmann::ordered_json j;
      j["name"] = e.name;
      j["delegate"] = row.delegate;
      j["instruction_id"] = row.instruction_id;
      j["delegate_debug_id_int"] =
          row.delegate_debug_id_int ? nlohmann::ordered_json(*row.delegate_debug_id_int) : nullptr;
      j["start_ticks"] = row.start_ticks;
      j["end_ticks"] = row.end_ticks;
      j["duration_ticks"] =
          row.duration_ticks ? nlohmann::ordered_json(*row.duration_ticks) : nullptr;
      events.push_back(std::move(j));
    }
    r["events"] = std::move(events);
    r["event_totals"] = TotalsJson(run.totals);
    runs.push_back(std::move(r));
  }
  doc["runs"] = std::move(runs);
  doc["op_totals"] = TotalsJson(summary.op_totals);
  doc["warnings"] = summary.warnings;
  return doc;
}

}  // namespace htpscope
