// `htpscope summary` for ExecuTorch ETDump input (docs/summary-json.md,
// `etdump` object).  summary_command.cc hands over when every input is an
// ETDump.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/etdump_run.h"
#include "model/run.h"

namespace htpscope::cli {

// True when `inputs` are all ETDump files (by content); false for
// directories and any other file.
bool AllInputsAreEtdumps(const std::vector<std::string>& inputs);

// Prints the summary of the one ETDump in `inputs` (text, or JSON
// {"etdump": {...}}) and returns the exit status; nullopt, printing
// nothing, when the ETDump holds the QNN delegate's per-node events: it is
// then summarised as a run (LoadRun reads it as the run's profile), and
// `events` keeps what was read for EtdumpEventsText / AddEtdumpEventsJson.
// Throws InputError for a bad ETDump or for more than one.
std::optional<int> SummarizeLoneEtdump(const std::vector<std::string>& inputs, bool json, int top_n,
                                       std::optional<EtdumpRun>& events);

// For a run whose profile is an ETDump (Run::profile_format "etdump"): the
// ETDump's own event summary — the operators ExecuTorch ran outside the
// delegate, Method::execute, ... — as text to append to the run's summary
// ("" for any other run), and as the JSON member "etdump" (none for any
// other run).  `events` is the ETDump read already, else empty: it is then
// read again (InputError as LoadEtdumpRun) and kept there.
std::string EtdumpEventsText(const Run& run, int top_n, std::optional<EtdumpRun>& events);
void AddEtdumpEventsJson(const Run& run, nlohmann::json& members, std::optional<EtdumpRun>& events);

}  // namespace htpscope::cli
