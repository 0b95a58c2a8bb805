// Recognising what a file is from its content, never from its name.
#pragma once

#include <cstddef>
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
  kEtdump,         // ExecuTorch ETDump: size-prefixed FlatBuffer, identifier "ED00"
  kQnnProfileLog,  // qnn-net-run's binary profiling log: size-prefixed FlatBuffer, no identifier
  kAihubProfile,   // Qualcomm AI Hub profile: {"execution_summary", "execution_detail"}
  kGenieProfile,   // Genie profile (genie-t2t-run --profile), GENIE_PROFILE
};

const char* ArtifactKindName(ArtifactKind kind);

// The bytes read to recognise a file: text formats announce themselves in
// their first lines, and QAIRT writes the JSON header first.
inline constexpr size_t kArtifactSniffBytes = 16 * 1024;

// Classifies `path` (plain or gzip) by its content: its first bytes, and for
// JSON whose header is not among them, the header wherever it sits in the
// top-level object (formats/artifact_header.h; the file is then scanned to
// the header or the end).  When the file is JSON with a header of another
// type, `*artifact_type` receives it.  Throws InputError only when the file
// cannot be opened.
ArtifactKind DetectArtifactKind(const std::string& path, std::string* artifact_type = nullptr);

// The same for content already read: the first kArtifactSniffBytes of a file,
// or all of it when shorter.  JSON whose header is not within those bytes is
// kOtherJson.  A UTF-8 byte order mark in front is skipped.
ArtifactKind DetectArtifactKindFromPrefix(std::string_view prefix,
                                          std::string* artifact_type = nullptr);

}  // namespace htpscope
