// Every kind of run artifact, declared once: what recognises it is the
// formats layer's (formats/artifact_kind.h); here, for each kind, its reader
// and import (read on a thread of its own, into a bundle of run tables
// moved into the run once) and what data it gives a run; and for each kind
// of data, how a run names it when it is given twice or missing, and what
// its absence withholds.  LoadRun, Run::Gives and the join's missing list
// read only this.  Private to the model.
//
// Adding a reader: its formats file (reader and recognition), one
// ArtifactSpec row (artifact_registry.cc), and its import into a bundle of
// the run's tables (model/import_*.cc).
#pragma once

#include <exception>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "base/artifact_kinds.h"
#include "model/import.h"
#include "model/run.h"

namespace htpscope::model_import {

// An artifact read and imported on its reader's thread.
struct ImportedArtifact {
  // For its artifacts row: the header version (a profile's viewer version)
  // and a profile's runner and backend versions.
  std::string version, application_version, backend_version;
  std::vector<WarningRow> warnings;  // its import's, appended where its tables are moved in
  std::exception_ptr import_error;   // thrown where its tables would be moved in
  // Moves its bundle of tables into `run`; called once, after every read,
  // in RunData order.
  std::function<void(Run& run)> move_into;
};

// One kind of run artifact.
struct ArtifactSpec {
  ArtifactKind kind;
  // What it gives.  Kinds that give the same data exclude each other in a
  // run (one profile, whether text, CSV or binary log).
  RunData gives;
  // Reads the file at `path` and imports it; throws InputError naming the
  // file when it is malformed (an import failure is kept in import_error).
  ImportedArtifact (*read_and_import)(const std::string& path);
};

// One kind of data a run's artifacts give.
struct RunDataSpec {
  RunData data;
  // How an error names a second artifact of it: "profile-viewer output".
  const char* second_name;
  // How the missing list names its artifact, and what its absence
  // withholds (which may depend on what else the run gives); nullptr for
  // data no run is expected to have.
  const char* missing_name;
  const char* (*withholds)(const Run& run);
  // Measured by another tool than the HTP artifacts (AI Hub, Genie, an
  // ExecuTorch runner; model/device_profiles.h): a run of only such data
  // has nothing to join and nothing missing (Run::OnlyDeviceProfiles).
  bool device_profile;
};

// Every run artifact kind, in the order of RunData (the order their tables
// are moved in: the optrace first, its string pool becomes the run's).
std::span<const ArtifactSpec> ArtifactSpecs();
// Every kind of data, in the order the missing list names them.
std::span<const RunDataSpec> RunDataSpecs();
// The spec of `kind`, or nullptr when a file of that kind is not an
// artifact of a run (other JSON, ETDump, unknown).
const ArtifactSpec* FindArtifactSpec(ArtifactKind kind);
const RunDataSpec& FindRunDataSpec(RunData data);

}  // namespace htpscope::model_import
