// Recognising what a file is from its content, never from its name.
#pragma once

#include <string>
#include <string_view>

namespace htpscope {

enum class ArtifactKind {
  kOptrace,      // chrometrace.json, header.artifact_type OP_TRACE
  kRuntrace,     // chrometrace_runtrace.json, RUN_TRACE
  kHtpGraph,     // chrometrace_htp.json, HTP_GRAPH
  kQhas,         // *_qnn_htp_analysis_summary.json, QHAS
  kProfileText,  // qnn-profile-viewer / snpe-diagview text
  kProfileCsv,   // qnn-profile-viewer / ONNX Runtime CSV
  kOtherJson,    // JSON of another kind (viewer config, QNN_PROFILE, ...)
  kUnknown,
  kEtdump,  // ExecuTorch ETDump: size-prefixed FlatBuffer, identifier "ED00"
};

const char* ArtifactKindName(ArtifactKind kind);

// Classifies `path` (plain or gzip) by its first bytes.  When the file is
// JSON with a header of another type, `*artifact_type` receives it.  Throws
// InputError only when the file cannot be opened.
ArtifactKind DetectArtifactKind(const std::string& path, std::string* artifact_type = nullptr);

// The same for content already read (the first few KB of a file).
ArtifactKind DetectArtifactKindFromPrefix(std::string_view prefix,
                                          std::string* artifact_type = nullptr);

}  // namespace htpscope
