// Text and JSON pieces that every report of a run repeats: which artifacts
// were read, how they cross-check, and which were missing and what they
// would have given.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "model/run.h"

namespace htpscope {

// Appends a titled section: a blank line, the title, and a rule under it.
void AppendSection(std::string& out, std::string_view title);

// "  read <kind> <path>" per artifact, as text reports start.
std::string ReadArtifactLines(const std::vector<ArtifactRow>& artifacts);

// [{"path": ..., "kind": ...}] per artifact, as every JSON schema has it.
nlohmann::json ArtifactsJson(const std::vector<ArtifactRow>& artifacts);

// [{"name", "unit", "a_source", "a", "b_source", "b", "agree", "note"}] of the
// checks on `topic` ("" for all).
nlohmann::json CrossChecksJson(const std::vector<CrossCheckRow>& checks,
                               std::string_view topic = "");

// The "Cross-checks between artifacts" section of the checks on `topic`
// ("" for all), or "" when there are none.
std::string CrossChecksSection(const std::vector<CrossCheckRow>& checks,
                               std::string_view topic = "");

// [{"code", "message"}].
nlohmann::json WarningsJson(const std::vector<WarningRow>& warnings);

// [{"artifact", "withholds"}].
nlohmann::json MissingArtifactsJson(const std::vector<MissingRow>& missing);

// The "Missing artifacts" section, or "" when nothing is missing.
std::string MissingArtifactsSection(const std::vector<MissingRow>& missing);

}  // namespace htpscope
