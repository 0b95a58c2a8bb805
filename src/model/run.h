// One profiled run: every artifact found for it, read and joined.
//
// A run is a directory produced by qnn-profile-viewer (and friends) or an
// explicit list of files.  Each artifact is optional; what is absent is
// listed so that reports can say which numbers it withholds.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "formats/artifact_kind.h"
#include "formats/htp_graph.h"
#include "formats/optrace.h"
#include "formats/profile_text.h"
#include "formats/qhas.h"
#include "formats/runtrace.h"
#include "model/op_instance.h"

namespace htpscope {

struct LoadedArtifact {
  std::string path;
  ArtifactKind kind = ArtifactKind::kUnknown;
};

struct ProfiledRun {
  std::string label;  // the directory, or the first file, as given
  std::vector<LoadedArtifact> artifacts;
  std::vector<std::string> skipped;  // "path: why" for files that are not artifacts of a run

  std::optional<Optrace> optrace;
  std::optional<Runtrace> runtrace;
  std::optional<HtpGraph> htp_graph;
  std::optional<Qhas> qhas;
  std::optional<ProfileReport> profile;  // text or CSV

  std::vector<OpInstance> ops;        // from the optrace, by first start cycle
  std::vector<std::string> warnings;  // reader warnings, prefixed with the file
};

// Loads a run from `inputs`: one directory (scanned, not recursively) or any
// number of files ("-" is standard input; see ExpandRunInputs).  Artifacts
// are recognised by content.  Throws InputError when a file is malformed,
// when two files of the same kind are given (e.g. two optraces in one
// directory: which one is meant is ambiguous), or when no file is an
// artifact (an empty directory included).
ProfiledRun LoadRun(const std::vector<std::string>& inputs);

}  // namespace htpscope
