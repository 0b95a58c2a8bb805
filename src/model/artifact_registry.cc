#include "model/artifact_registry.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "base/errors.h"
#include "formats/aihub_profile.h"
#include "formats/etdump_profile.h"
#include "formats/genie_profile.h"
#include "formats/llm_runner_stats.h"
#include "formats/qnn_profile_log.h"
#include "model/import_device_profiles.h"
#include "model/import_llm_runner_stats.h"

namespace htpscope::model_import {
namespace {

// Imports into a fresh bundle of type Tables with `import(bundle, warnings)`
// (a failure is kept for LoadRun to throw in its place); the bundle is
// moved into the run's part of type Tables once.
template <typename Tables, typename Import>
ImportedArtifact ImportBundle(std::string version, Import import) {
  ImportedArtifact out;
  out.version = std::move(version);
  auto bundle = std::make_shared<Tables>();
  try {
    import(*bundle, out.warnings);
  } catch (...) {
    out.import_error = std::current_exception();
  }
  out.move_into = [bundle](Run& run) { static_cast<Tables&>(run) = std::move(*bundle); };
  return out;
}

ImportedArtifact ReadOptraceArtifact(const std::string& path) {
  Optrace trace = ReadOptrace(path);
  std::string version = trace.version;
  return ImportBundle<TraceTables>(std::move(version), [&](TraceTables& t, auto& warnings) {
    ImportOptrace(std::move(trace), t, warnings);
  });
}

ImportedArtifact ReadQhasArtifact(const std::string& path) {
  Qhas qhas = ReadQhas(path);
  std::string version = qhas.version;
  ImportedArtifact out = ImportBundle<QhasTables>(
      std::move(version),
      [&](QhasTables& t, auto& warnings) { ImportQhas(std::move(qhas), t, warnings); });
  out.move_into = [move_tables = std::move(out.move_into)](Run& run) {
    move_tables(run);
    // Without an optrace, QHAS's rows are the traced execution's op instances.
    if (!run.Gives(RunData::kTimedSlices)) ImportQhasInstances(run, run);
  };
  return out;
}

ImportedArtifact ReadHtpGraphArtifact(const std::string& path) {
  HtpGraph graph = ReadHtpGraph(path, HtpGraphReadOptions());
  std::string version = graph.version;
  return ImportBundle<CompiledGraphTables>(std::move(version), [&](CompiledGraphTables& t, auto&) {
    ImportHtpGraph(std::move(graph), t);
  });
}

ImportedArtifact ReadRuntraceArtifact(const std::string& path) {
  Runtrace runtrace = ReadRuntrace(path);
  std::string version = runtrace.version;
  return ImportBundle<RuntraceTables>(std::move(version), [&](RuntraceTables& t, auto& warnings) {
    ImportRuntrace(std::move(runtrace), t, warnings);
  });
}

// Any of the three forms of a profile, read by `read`.
template <ProfileReport (*read)(const std::string&)>
ImportedArtifact ReadProfileArtifact(const std::string& path) {
  ProfileReport profile = read(path);
  std::string application_version = profile.application_version;
  std::string backend_version = profile.backend_version;
  std::string viewer_version = profile.viewer_version;
  ImportedArtifact out = ImportBundle<ProfileTables>(
      std::move(viewer_version),
      [&](ProfileTables& t, auto& warnings) { ImportProfile(std::move(profile), t, warnings); });
  out.application_version = std::move(application_version);
  out.backend_version = std::move(backend_version);
  return out;
}

ImportedArtifact ReadAihubArtifact(const std::string& path) {
  auto tables = std::make_shared<AihubProfileTables>(ImportAihubProfile(ReadAihubProfile(path)));
  ImportedArtifact out;
  out.move_into = [tables](Run& run) { run.aihub = std::move(*tables); };
  return out;
}

ImportedArtifact ReadGenieArtifact(const std::string& path) {
  auto tables = std::make_shared<GenieProfileTables>(ImportGenieProfile(ReadGenieProfile(path)));
  ImportedArtifact out;
  out.version = tables->version;
  out.move_into = [tables](Run& run) { run.genie = std::move(*tables); };
  return out;
}

ImportedArtifact ReadLlmRunnerArtifact(const std::string& path) {
  auto tables =
      std::make_shared<LlmRunnerStatsTables>(ImportLlmRunnerStats(ReadLlmRunnerStats(path)));
  ImportedArtifact out;
  out.move_into = [tables](Run& run) { run.llm_runner = std::move(*tables); };
  return out;
}

// In RunData order.
constexpr ArtifactSpec kArtifactSpecs[] = {
    {ArtifactKind::kOptrace, RunData::kTimedSlices, ReadOptraceArtifact},
    {ArtifactKind::kQhas, RunData::kQhasAnalysis, ReadQhasArtifact},
    {ArtifactKind::kHtpGraph, RunData::kCompiledGraph, ReadHtpGraphArtifact},
    {ArtifactKind::kProfileText, RunData::kProfileExecutions, ReadProfileArtifact<ReadProfileText>},
    {ArtifactKind::kProfileCsv, RunData::kProfileExecutions, ReadProfileArtifact<ReadProfileCsv>},
    {ArtifactKind::kQnnProfileLog, RunData::kProfileExecutions,
     ReadProfileArtifact<ReadQnnProfileLog>},
    {ArtifactKind::kEtdump, RunData::kProfileExecutions, ReadProfileArtifact<ReadEtdumpProfile>},
    {ArtifactKind::kRuntrace, RunData::kRuntracePhases, ReadRuntraceArtifact},
    {ArtifactKind::kAihubProfile, RunData::kAihubProfile, ReadAihubArtifact},
    {ArtifactKind::kGenieProfile, RunData::kGenieProfile, ReadGenieArtifact},
    {ArtifactKind::kLlmRunnerStats, RunData::kLlmRunnerStats, ReadLlmRunnerArtifact},
};

// What each artifact's absence withholds, for every command (summary's and
// memory's missing lists are this one list).
const char* OptraceWithholds(const Run& run) {
  return run.Gives(RunData::kQhasAnalysis)
             ? "per-slice timeline; fine view taken from QHAS instead; VTCM allocation over "
               "time and its peak, Spill/Fill cycles"
             : "graph wall cycles, per-op DPC, per-unit occupancy; VTCM allocation over time and "
               "its peak, Spill/Fill cycles";
}
const char* ProfileWithholds(const Run&) {
  return "coarse view: graph wall µs, compute-busy µs, overhead, steady-state statistics";
}
const char* RuntraceWithholds(const Run&) {
  return "per-phase wall cycles and clocks; clock sanity uses the default ceiling";
}
const char* QhasWithholds(const Run& run) {
  return run.Gives(RunData::kCompiledGraph)
             ? "cross-checks against the viewer's analysis; traffic of ops without an HTP graph "
               "node (DMA checkpoints, sync, output slices)"
             : "cross-checks against the viewer's analysis; per-op DRAM/VTCM bytes (also in the "
               "HTP graph's mem_* params)";
}
const char* HtpGraphWithholds(const Run&) { return "compiled-graph checks"; }

// In the order the missing list names them.
constexpr RunDataSpec kRunDataSpecs[] = {
    {RunData::kTimedSlices, "optrace (OP_TRACE) artifact", "optrace (chrometrace.json, OP_TRACE)",
     OptraceWithholds, false},
    {RunData::kProfileExecutions, "profile (viewer output, binary log or ETDump)",
     "profile-viewer text or CSV", ProfileWithholds, false},
    {RunData::kRuntracePhases, "runtrace (RUN_TRACE) artifact",
     "runtrace (chrometrace_runtrace.json, RUN_TRACE)", RuntraceWithholds, false},
    {RunData::kQhasAnalysis, "QHAS summary (QHAS) artifact",
     "QHAS summary (*_qnn_htp_analysis_summary.json)", QhasWithholds, false},
    {RunData::kCompiledGraph, "HTP graph (HTP_GRAPH) artifact",
     "HTP graph (chrometrace_htp.json, HTP_GRAPH)", HtpGraphWithholds, false},
    {RunData::kAihubProfile, "AI Hub profile artifact", nullptr, nullptr, true},
    {RunData::kGenieProfile, "Genie profile (GENIE_PROFILE) artifact", nullptr, nullptr, true},
    {RunData::kLlmRunnerStats, "ExecuTorch LLM runner log (PyTorchObserver lines)", nullptr,
     nullptr, true},
};

}  // namespace

std::span<const ArtifactSpec> ArtifactSpecs() { return kArtifactSpecs; }
std::span<const RunDataSpec> RunDataSpecs() { return kRunDataSpecs; }

const ArtifactSpec* FindArtifactSpec(ArtifactKind kind) {
  for (const ArtifactSpec& spec : kArtifactSpecs)
    if (spec.kind == kind) return &spec;
  return nullptr;
}

const RunDataSpec& FindRunDataSpec(RunData data) {
  for (const RunDataSpec& spec : kRunDataSpecs)
    if (spec.data == data) return spec;
  throw InternalError("a kind of run data without its RunDataSpec");
}

}  // namespace htpscope::model_import

namespace htpscope {

bool Run::Gives(RunData data) const {
  return std::any_of(artifacts.begin(), artifacts.end(), [data](const ArtifactRow& a) {
    const model_import::ArtifactSpec* spec = model_import::FindArtifactSpec(a.type);
    return spec && spec->gives == data;
  });
}

}  // namespace htpscope
