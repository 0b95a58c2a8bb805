#include "formats/artifact_kind.h"

#include <optional>

#include "formats/aihub_profile.h"
#include "formats/artifact_header.h"
#include "formats/byte_source.h"
#include "formats/etdump.h"
#include "formats/json_util.h"
#include "formats/llm_runner_stats.h"
#include "formats/profile_text.h"
#include "formats/qnn_profile_log.h"

namespace htpscope {

namespace {

// The kind of a JSON document whose header.artifact_type is `type`.
ArtifactKind KindOfJson(const std::optional<std::string>& type, std::string* artifact_type) {
  if (artifact_type && type) *artifact_type = *type;
  if (!type) return ArtifactKind::kOtherJson;
  if (*type == "OP_TRACE") return ArtifactKind::kOptrace;
  if (*type == "RUN_TRACE") return ArtifactKind::kRuntrace;
  if (*type == "HTP_GRAPH") return ArtifactKind::kHtpGraph;
  if (*type == "QHAS") return ArtifactKind::kQhas;
  if (*type == "GENIE_PROFILE") return ArtifactKind::kGenieProfile;
  return ArtifactKind::kOtherJson;
}

// Classifies `prefix` (see DetectArtifactKindFromPrefix); *decided is false
// for a JSON object whose header may still follow.
ArtifactKind Classify(std::string_view prefix, std::string* artifact_type, bool* decided) {
  *decided = true;
  if (LooksLikeEtdump(prefix)) return ArtifactKind::kEtdump;
  if (LooksLikeQnnProfileLog(prefix)) return ArtifactKind::kQnnProfileLog;
  prefix = SkipByteOrderMark(prefix);
  size_t first = prefix.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && prefix[first] == '{') {
    if (LooksLikeAihubProfile(prefix)) return ArtifactKind::kAihubProfile;
    const bool whole = prefix.size() < kArtifactSniffBytes;
    auto type = FindArtifactType(prefix.substr(first), whole, decided);
    return KindOfJson(type, artifact_type);
  }
  if (LooksLikeProfileCsv(prefix)) return ArtifactKind::kProfileCsv;
  if (LooksLikeProfileText(prefix)) return ArtifactKind::kProfileText;
  if (LooksLikeLlmRunnerStats(prefix)) return ArtifactKind::kLlmRunnerStats;
  return ArtifactKind::kUnknown;
}

// True when the rest of a file whose first bytes are `prefix` may hold a
// runner's stats line: text (no NUL byte) that filled the prefix.
bool MayHoldLaterStatsLine(std::string_view prefix) {
  return prefix.size() >= kArtifactSniffBytes && prefix.find('\0') == std::string_view::npos;
}

}  // namespace

ArtifactKind DetectArtifactKindFromPrefix(std::string_view prefix, std::string* artifact_type) {
  bool decided = true;
  return Classify(prefix, artifact_type, &decided);
}

ArtifactKind DetectArtifactKind(const std::string& path, std::string* artifact_type) {
  bool decided = true;
  const std::string prefix = ReadPrefix(path, kArtifactSniffBytes);
  const ArtifactKind kind = Classify(prefix, artifact_type, &decided);
  // A runner prints its loading log and the generated text before its first
  // stats line: a text file that is nothing else is scanned further, boundedly.
  if (kind == ArtifactKind::kUnknown && MayHoldLaterStatsLine(prefix) &&
      LlmRunnerStatsWithin(path, kLlmRunnerScanBytes))
    return ArtifactKind::kLlmRunnerStats;
  if (decided) return kind;
  auto source = OpenByteSource(path);
  source->set_counts_progress(false);  // the full read counts the file
  std::optional<std::string> type;
  try {
    type = FindArtifactType(*source);
  } catch (const InputError&) {
    // Damage before the header: the file is told apart by what was found,
    // and the reader's full read reports the damage.
  }
  return KindOfJson(type, artifact_type);
}

}  // namespace htpscope
