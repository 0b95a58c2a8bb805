// The kinds of file htpscope reads: one enum for every layer.  The formats
// layer recognises a file as one of these (formats/artifact_kind.h), the
// model's artifact registry (model/artifact_registry.h) says what each kind
// gives a run, and reports name it by ArtifactKindName.
#pragma once

#include <cstdint>

namespace htpscope {

enum class ArtifactKind : uint8_t {
  kOptrace,         // chrometrace.json, header.artifact_type OP_TRACE
  kRuntrace,        // chrometrace_runtrace.json, RUN_TRACE
  kHtpGraph,        // chrometrace_htp.json, HTP_GRAPH
  kQhas,            // *_qnn_htp_analysis_summary.json, QHAS
  kProfileText,     // qnn-profile-viewer / snpe-diagview text
  kProfileCsv,      // qnn-profile-viewer / ONNX Runtime CSV
  kQnnProfileLog,   // qnn-net-run's binary profiling log: size-prefixed FlatBuffer, no identifier
  kAihubProfile,    // Qualcomm AI Hub profile: {"execution_summary", "execution_detail"}
  kGenieProfile,    // Genie profile (genie-t2t-run --profile), GENIE_PROFILE
  kEtdump,          // ExecuTorch ETDump: size-prefixed FlatBuffer, identifier "ED00"
  kLlmRunnerStats,  // an ExecuTorch LLM runner's log: "PyTorchObserver {json}" lines
  kOtherJson,       // JSON of another kind (viewer config, QNN_PROFILE, ...)
  kUnknown,         // none of the above
};

// How reports and JSON name the kind: "optrace (OP_TRACE)", "runtrace
// (RUN_TRACE)", "HTP graph (HTP_GRAPH)", "QHAS summary (QHAS)",
// "profile-viewer text", "profile CSV", "qnn-net-run profiling log", "AI Hub
// profile", "Genie profile (GENIE_PROFILE)", "ExecuTorch ETDump",
// "ExecuTorch LLM runner log (PyTorchObserver)", "other JSON", "unknown".
constexpr const char* ArtifactKindName(ArtifactKind kind) {
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
    case ArtifactKind::kQnnProfileLog:
      return "qnn-net-run profiling log";
    case ArtifactKind::kAihubProfile:
      return "AI Hub profile";
    case ArtifactKind::kGenieProfile:
      return "Genie profile (GENIE_PROFILE)";
    case ArtifactKind::kEtdump:
      return "ExecuTorch ETDump";
    case ArtifactKind::kLlmRunnerStats:
      return "ExecuTorch LLM runner log (PyTorchObserver)";
    case ArtifactKind::kOtherJson:
      return "other JSON";
    case ArtifactKind::kUnknown:
      return "unknown";
  }
  return "unknown";
}

}  // namespace htpscope
