#include "cli/etdump_summary_command.h"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "analysis/etdump_summary.h"
#include "base/errors.h"
#include "cli/terminal.h"
#include "model/etdump_run.h"
#include "report/etdump_report.h"

namespace htpscope::cli {

bool AllInputsAreEtdumps(const std::vector<std::string>& inputs) {
  if (inputs.empty()) return false;
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(input, ec) || !IsEtdumpFile(input)) return false;
  }
  return true;
}

std::optional<int> SummarizeLoneEtdump(const std::vector<std::string>& inputs, bool json, int top_n,
                                       std::optional<EtdumpRun>& events) {
  if (inputs.size() > 1)
    throw InputError(inputs[1], fmt::format("a second ETDump (the first is {}); summarise one "
                                            "ETDump at a time",
                                            inputs[0]));
  EtdumpRun run = LoadEtdumpRun(inputs[0]);
  if (run.has_qnn_delegate_op_events) {
    events = std::move(run);
    return std::nullopt;
  }
  EtdumpSummary summary = SummarizeEtdump(run);
  if (json) {
    nlohmann::ordered_json doc;
    doc["etdump"] = EtdumpToJson(summary);
    // Names come from the file: invalid UTF-8 is replaced, never fatal.
    fmt::print("{}\n", doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
  } else {
    PrintReport(RenderEtdumpText(summary, top_n));
  }
  return 0;
}

namespace {

// The events of the ETDump a run's profile came from (read into `events`
// unless read already), or nullptr when the profile is no ETDump.
const EtdumpRun* EtdumpEventsOf(const Run& run, std::optional<EtdumpRun>& events) {
  const ArtifactRow* profile = run.ProfileArtifact();
  if (run.profile_format != "etdump" || !profile) return nullptr;
  if (!events) events = LoadEtdumpRun(profile->path);
  return &*events;
}

}  // namespace

std::string EtdumpEventsText(const Run& run, int top_n, std::optional<EtdumpRun>& events) {
  const EtdumpRun* etdump = EtdumpEventsOf(run, events);
  return etdump ? "\n" + RenderEtdumpText(SummarizeEtdump(*etdump), top_n) : "";
}

void AddEtdumpEventsJson(const Run& run, nlohmann::json& members,
                         std::optional<EtdumpRun>& events) {
  if (const EtdumpRun* etdump = EtdumpEventsOf(run, events))
    members["etdump"] = nlohmann::json(EtdumpToJson(SummarizeEtdump(*etdump)));
}

}  // namespace htpscope::cli
