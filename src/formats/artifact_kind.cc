#include "formats/artifact_kind.h"

#include "formats/byte_source.h"
#include "formats/etdump.h"
#include "formats/json_util.h"
#include "formats/profile_text.h"

namespace htpscope {

// The header sits in the first few hundred bytes of every optrace-reader
// JSON; text formats announce themselves in their first lines.
constexpr size_t kSniffBytes = 16 * 1024;

const char* ArtifactKindName(ArtifactKind kind) {
  switch (kind) {
    case ArtifactKind::kOptrace:
      return "optrace (OP_TRACE)";
    case ArtifactKind::kRuntrace:
      return "runtrace (RUN_TRACE)";
    case ArtifactKind::kHtpGraph:
      return "HTP graph (HTP_GRAPH)";
    case ArtifactKind::kQhas:
      return "QHAS summary (QHAS)";
    case ArtifactKind::kProfileText:
      return "profile-viewer text";
    case ArtifactKind::kProfileCsv:
      return "profile CSV";
    case ArtifactKind::kOtherJson:
      return "other JSON";
    case ArtifactKind::kUnknown:
      return "unknown";
    case ArtifactKind::kEtdump:
      return "ExecuTorch ETDump";
  }
  return "unknown";
}

ArtifactKind DetectArtifactKindFromPrefix(std::string_view prefix, std::string* artifact_type) {
  if (LooksLikeEtdump(prefix)) return ArtifactKind::kEtdump;
  size_t first = prefix.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && prefix[first] == '{') {
    auto type = SniffArtifactType(prefix);
    if (artifact_type && type) *artifact_type = *type;
    if (!type) return ArtifactKind::kOtherJson;
    if (*type == "OP_TRACE") return ArtifactKind::kOptrace;
    if (*type == "RUN_TRACE") return ArtifactKind::kRuntrace;
    if (*type == "HTP_GRAPH") return ArtifactKind::kHtpGraph;
    if (*type == "QHAS") return ArtifactKind::kQhas;
    return ArtifactKind::kOtherJson;
  }
  if (LooksLikeProfileCsv(prefix)) return ArtifactKind::kProfileCsv;
  if (LooksLikeProfileText(prefix)) return ArtifactKind::kProfileText;
  return ArtifactKind::kUnknown;
}

ArtifactKind DetectArtifactKind(const std::string& path, std::string* artifact_type) {
  return DetectArtifactKindFromPrefix(ReadPrefix(path, kSniffBytes), artifact_type);
}

}  // namespace htpscope
