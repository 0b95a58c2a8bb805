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

std::optional<int> SummarizeLoneEtdump(const std::vector<std::string>& inputs, bool json,
                                       int top_n) {
  if (inputs.size() > 1)
    throw InputError(inputs[1], fmt::format("a second ETDump (the first is {}); summarise one "
                                            "ETDump at a time",
                                            inputs[0]));
  EtdumpRun run = LoadEtdumpRun(inputs[0]);
  if (run.has_qnn_delegate_op_events) return std::nullopt;
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

}  // namespace htpscope::cli
