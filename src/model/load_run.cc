#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/errors.h"
#include "base/read_progress.h"
#include "base/text_util.h"
#include "formats/artifact_kind.h"
#include "formats/byte_source.h"
#include "formats/input_files.h"
#include "formats/qnn_profile_log.h"
#include "model/import.h"
#include "model/import_device_profiles.h"
#include "model/join.h"

namespace htpscope {
namespace {

// A skipped file is done with: its bytes count as read for the progress
// display, whose total holds every file of the run (formats/input_files.h).
void CountSkippedAsRead(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec) read_progress::AddBytesRead(size);
}

// An optrace read and imported on its reader's thread, into a run of its
// own, while the other files are still being read: the optrace is imported
// first, so that run becomes the base of the whole run (LoadRun).
struct ImportedOptrace {
  std::string version;  // the trace's
  Run run;
  // An import failure, thrown once every read is done, where importing
  // after the reads would throw it (a read failure comes first).
  std::exception_ptr import_error;
};

ImportedOptrace ReadAndImportOptrace(const std::string& path) {
  ImportedOptrace out;
  Optrace trace = ReadOptrace(path);
  out.version = trace.version;
  try {
    model_import::ImportOptrace(std::move(trace), out.run);
  } catch (...) {
    out.import_error = std::current_exception();
  }
  return out;
}

// An HTP graph, QHAS file (ImportedQhas), profile or runtrace read and
// imported on its reader's thread, while the other files are still being
// read: its tables (and warnings) fill a run of their own, moved into the
// whole run once every read is done, in the order importing after the reads
// would add them.
struct ImportedAlone {
  // What the artifact row takes: the header version (a profile's viewer
  // version) and a profile's runner and backend versions.
  std::string version, application_version, backend_version;
  Run tables;
  std::exception_ptr import_error;  // thrown where importing after the reads would throw it
};

template <typename Artifact, typename Import>
ImportedAlone ImportAlone(Artifact&& artifact, Import import) {
  ImportedAlone out;
  out.version = artifact.version;
  try {
    import(std::move(artifact), out.tables);
  } catch (...) {
    out.import_error = std::current_exception();
  }
  return out;
}

ImportedAlone ImportProfileAlone(ProfileReport&& profile) {
  std::string viewer_version = profile.viewer_version;
  std::string application_version = profile.application_version;
  std::string backend_version = profile.backend_version;
  ImportedAlone out;
  try {
    model_import::ImportProfile(std::move(profile), out.tables);
  } catch (...) {
    out.import_error = std::current_exception();
  }
  out.version = std::move(viewer_version);
  out.application_version = std::move(application_version);
  out.backend_version = std::move(backend_version);
  return out;
}

// A QHAS file read and imported alone; its facts go to the join.
struct ImportedQhas : ImportedAlone {
  model_import::QhasFacts facts;
};

ImportedQhas ImportQhasAlone(Qhas&& qhas) {
  ImportedQhas out;
  out.version = qhas.version;
  try {
    out.facts = model_import::ImportQhas(std::move(qhas), out.tables);
  } catch (...) {
    out.import_error = std::current_exception();
  }
  return out;
}

// Moves `from` into `to`, which no other artifact fills: their rows index
// each other from 0.
template <typename T>
void TakeTable(std::vector<T>& to, std::vector<T>& from) {
  if (!to.empty()) throw InternalError("a table filled by one artifact was filled twice");
  to = std::move(from);
}

// Appends the warnings an artifact's import gave to `run`'s, then throws
// its import error if it had one; else returns its tables, to be taken.
Run& TakeImported(ImportedAlone& imported, Run& run) {
  Run& tables = imported.tables;
  run.warnings.insert(run.warnings.end(), std::make_move_iterator(tables.warnings.begin()),
                      std::make_move_iterator(tables.warnings.end()));
  tables.warnings.clear();
  if (imported.import_error) std::rethrow_exception(imported.import_error);
  return tables;
}

// The artifacts of a run, read but not yet joined.
struct ReadArtifacts {
  std::optional<ImportedOptrace> optrace;
  std::optional<ImportedAlone> runtrace;
  std::optional<ImportedAlone> htp_graph;
  std::optional<ImportedQhas> qhas;
  std::optional<ImportedAlone> profile;  // text or CSV
  std::optional<AihubProfileTables> aihub;
  std::optional<GenieProfileTables> genie;
};

ArtifactType TypeOf(ArtifactKind kind) {
  switch (kind) {
    case ArtifactKind::kOptrace:
      return ArtifactType::kOptrace;
    case ArtifactKind::kRuntrace:
      return ArtifactType::kRuntrace;
    case ArtifactKind::kHtpGraph:
      return ArtifactType::kHtpGraph;
    case ArtifactKind::kQhas:
      return ArtifactType::kQhas;
    case ArtifactKind::kProfileText:
      return ArtifactType::kProfileText;
    case ArtifactKind::kQnnProfileLog:
      return ArtifactType::kProfileLog;
    case ArtifactKind::kAihubProfile:
      return ArtifactType::kAihubProfile;
    case ArtifactKind::kGenieProfile:
      return ArtifactType::kGenieProfile;
    default:
      return ArtifactType::kProfileCsv;
  }
}

// The run's files are read concurrently (each reader also parses on every
// core), so that one reader's serial steps (cutting chunks, merging them,
// inflating gzip) overlap the others' parsing.  What a read gives (its
// artifact row's versions, its input warnings) and the first error are
// taken in file order, as a reading one file after another would give them.
class ConcurrentReads {
 public:
  // Reads `path` into `slot` on another thread (or, when no thread can be
  // started, when waited for); `finish(run)` then runs on this thread, in
  // file order, once the read is done.
  template <typename T, typename Read>
  void Start(std::optional<T>& slot, const std::string& path, Read read,
             std::function<void(const T&, Run&)> finish) {
    pending_.push_back({path,
                        std::async(std::launch::async | std::launch::deferred,
                                   [&slot, path, read] {
                                     slot = ReadNamingFileOnOutOfMemory(path,
                                                                        [&] { return read(path); });
                                   }),
                        [&slot, finish](Run& run) { finish(*slot, run); }});
  }

  // Waits for every read started so far, in the order started: rethrows
  // the first failure; else finishes each read.
  void Finish(Run& run) {
    for (auto& p : pending_) {
      p.done.get();
      p.finish(run);
      // What the input layer noticed (gzip trailing garbage, ...), under this file's name.
      for (auto& w : TakeInputWarnings(p.path))
        model_import::Warn(run, WarningCode::input, fmt::format("{}: {}", p.path, w));
    }
    pending_.clear();
  }

  // Throws `error` about a later file, unless a file read before it failed:
  // that error comes first, as it would reading one file after another.
  [[noreturn]] void ThrowAfterEarlierReads(const InputError& error) {
    for (auto& p : pending_) p.done.get();
    throw error;
  }

 private:
  struct Pending {
    std::string path;
    std::future<void> done;  // its destructor waits, so no read outlives its slot
    std::function<void(Run&)> finish;
  };
  std::vector<Pending> pending_;
};

ReadArtifacts ReadAll(const std::vector<RunInputFile>& files, Run& run) {
  ReadArtifacts read;
  ConcurrentReads reads;
  std::map<ArtifactKind, std::string> first_of;
  for (const auto& [path, named] : files) {
    std::string artifact_type;
    const ArtifactKind detected = DetectArtifactKind(path, &artifact_type);
    // Text, CSV and binary-log profiles share one slot: a run has one profile.
    const ArtifactKind kind =
        detected == ArtifactKind::kProfileCsv || detected == ArtifactKind::kQnnProfileLog
            ? ArtifactKind::kProfileText
            : detected;
    auto& previous = first_of[kind];
    const bool artifact = kind != ArtifactKind::kOtherJson && kind != ArtifactKind::kEtdump &&
                          kind != ArtifactKind::kUnknown;
    if (artifact && !previous.empty())
      reads.ThrowAfterEarlierReads(InputError(
          path, fmt::format("a second {} (the first is {}); give the files of one run explicitly",
                            kind == ArtifactKind::kProfileText
                                ? std::string("profile-viewer output")
                                : fmt::format("{} artifact", ArtifactKindName(kind)),
                            previous)));
    // The row is filled in when the read is finished.
    const size_t row = run.artifacts.size();
    auto set_version = [row](const auto& artifact, Run& r) {
      r.artifacts[row].version = artifact.version;
    };
    switch (kind) {
      case ArtifactKind::kOptrace:
        reads.Start<ImportedOptrace>(read.optrace, path, ReadAndImportOptrace, set_version);
        break;
      case ArtifactKind::kRuntrace:
        reads.Start<ImportedAlone>(
            read.runtrace, path,
            [](const std::string& p) {
              return ImportAlone(ReadRuntrace(p), model_import::ImportRuntrace);
            },
            set_version);
        break;
      case ArtifactKind::kHtpGraph:
        reads.Start<ImportedAlone>(
            read.htp_graph, path,
            [](const std::string& p) {
              return ImportAlone(ReadHtpGraph(p, model_import::HtpGraphReadOptions()),
                                 model_import::ImportHtpGraph);
            },
            set_version);
        break;
      case ArtifactKind::kQhas:
        reads.Start<ImportedQhas>(
            read.qhas, path, [](const std::string& p) { return ImportQhasAlone(ReadQhas(p)); },
            set_version);
        break;
      case ArtifactKind::kProfileText:
      case ArtifactKind::kProfileCsv:
      case ArtifactKind::kQnnProfileLog:
        reads.Start<ImportedAlone>(
            read.profile, path,
            [detected](const std::string& p) {
              return ImportProfileAlone(detected == ArtifactKind::kProfileCsv ? ReadProfileCsv(p)
                                        : detected == ArtifactKind::kQnnProfileLog
                                            ? ReadQnnProfileLog(p)
                                            : ReadProfileText(p));
            },
            [row](const ImportedAlone& o, Run& r) {
              ArtifactRow& a = r.artifacts[row];
              a.version = o.version;
              a.application_version = o.application_version;
              a.backend_version = o.backend_version;
            });
        break;
      case ArtifactKind::kAihubProfile:
        reads.Start<AihubProfileTables>(
            read.aihub, path,
            [](const std::string& p) {
              return model_import::ImportAihubProfile(ReadAihubProfile(p));
            },
            [](const AihubProfileTables&, Run&) {});
        break;
      case ArtifactKind::kGenieProfile:
        reads.Start<GenieProfileTables>(
            read.genie, path,
            [](const std::string& p) {
              return model_import::ImportGenieProfile(ReadGenieProfile(p));
            },
            [row](const GenieProfileTables& g, Run& r) { r.artifacts[row].version = g.version; });
        break;
      case ArtifactKind::kOtherJson:
        if (named)
          reads.ThrowAfterEarlierReads(InputError(
              path,
              fmt::format("JSON that is not a run artifact (header.artifact_type \"{}\"); expected "
                          "OP_TRACE, RUN_TRACE, HTP_GRAPH or QHAS",
                          artifact_type)));
        run.skipped.push_back(fmt::format(
            "{}: JSON that is not a run artifact{}", path,
            artifact_type.empty() ? "" : fmt::format(" (artifact_type \"{}\")", artifact_type)));
        CountSkippedAsRead(path);
        continue;
      case ArtifactKind::kEtdump:
        // Summarised on its own (`summary etdump.etdp`); not yet joined with QNN artifacts.
        run.skipped.push_back(fmt::format("{}: ExecuTorch ETDump (summarise it on its own)", path));
        CountSkippedAsRead(path);
        continue;
      case ArtifactKind::kUnknown:
        if (named)
          reads.ThrowAfterEarlierReads(InputError(
              path,
              "not a recognised profiling artifact (expected optrace/runtrace/HTP graph/QHAS JSON, "
              "or qnn-profile-viewer text or CSV)"));
        run.skipped.push_back(fmt::format("{}: not a recognised profiling artifact", path));
        CountSkippedAsRead(path);
        continue;
    }
    previous = path;
    run.artifacts.push_back({path, TypeOf(detected), "", "", ""});
  }
  reads.Finish(run);
  return read;
}

}  // namespace

bool Run::Has(ArtifactType type) const {
  return std::any_of(artifacts.begin(), artifacts.end(),
                     [type](const ArtifactRow& a) { return a.type == type; });
}

bool Run::OnlyDeviceProfiles() const {
  return !artifacts.empty() &&
         std::all_of(artifacts.begin(), artifacts.end(), [](const ArtifactRow& a) {
           return a.type == ArtifactType::kAihubProfile || a.type == ArtifactType::kGenieProfile;
         });
}

const std::string& Run::PathOf(ArtifactType type) const {
  static const std::string kNone;
  for (const auto& a : artifacts)
    if (a.type == type) return a.path;
  return kNone;
}

const std::string& Run::ProfilePath() const {
  for (const auto& a : artifacts)
    if (a.type == ArtifactType::kProfileText || a.type == ArtifactType::kProfileCsv ||
        a.type == ArtifactType::kProfileLog)
      return a.path;
  return PathOf(ArtifactType::kProfileText);
}

const OpInstanceRow* Run::FindInstance(uint64_t op_id) const {
  for (const auto& op : op_instances)
    if (op.op_id == op_id) return &op;
  return nullptr;
}

std::vector<int64_t> Run::DimsOf(const OpInstanceRow& op) const {
  std::vector<int64_t> out;
  for (uint32_t i = 0; i < op.dims_count && op.dims_begin + i < dims.size(); ++i)
    out.push_back(dims[op.dims_begin + i]);
  return out;
}

const ProfileMetricRow* Run::FindMetric(const ProfileBlockRow& block, std::string_view name) const {
  for (uint32_t i = block.first_metric; i < block.first_metric + block.metric_count; ++i)
    if (EqualsIgnoreCase(profile_metrics[i].name, name)) return &profile_metrics[i];
  return nullptr;
}

Run LoadRun(const std::vector<std::string>& inputs, const LoadOptions& options) {
  Run run;
  if (inputs.empty()) throw InputError("<arguments>", "no run directory or artifact file given");
  run.label = inputs.front();
  std::vector<std::string> input_warnings;
  std::vector<RunInputFile> files = ExpandRunInputs(inputs, &run.skipped, &input_warnings);
  for (auto& w : input_warnings) model_import::Warn(run, WarningCode::input, std::move(w));
  ReadArtifacts read;
  {
    // Runs loaded at the same time (diff's two sides) read their files in
    // turn: each read already uses every core, and the input layer's
    // warnings are taken by file name, which both may share.
    static std::mutex one_read_at_a_time;
    std::lock_guard<std::mutex> lock(one_read_at_a_time);
    read = ReadAll(files, run);
  }
  if (run.artifacts.empty())
    throw InputError(run.label, NoArtifactProblem(files.size(), run.skipped));
  // The optrace first: the run it was imported into becomes the run, with
  // what reading recorded (label, artifacts, skipped files, input warnings)
  // put back in front.
  if (read.optrace) {
    if (read.optrace->import_error) std::rethrow_exception(read.optrace->import_error);
    Run& imported = read.optrace->run;
    imported.label = std::move(run.label);
    imported.artifacts = std::move(run.artifacts);
    imported.skipped = std::move(run.skipped);
    imported.warnings.insert(imported.warnings.begin(),
                             std::make_move_iterator(run.warnings.begin()),
                             std::make_move_iterator(run.warnings.end()));
    run = std::move(imported);
    read.optrace.reset();
  }
  // The other artifacts were imported as they were read: their tables and
  // warnings are taken in the order of importing them here.
  model_import::QhasFacts qhas;
  if (read.qhas) {
    Run& tables = TakeImported(*read.qhas, run);
    TakeTable(run.qhas_cores, tables.qhas_cores);
    TakeTable(run.qhas_dominant_path, tables.qhas_dominant_path);
    qhas = std::move(read.qhas->facts);
    if (!run.Has(ArtifactType::kOptrace)) model_import::ImportQhasInstances(qhas, run);
  }
  if (read.htp_graph) {
    Run& tables = TakeImported(*read.htp_graph, run);
    TakeTable(run.graph_nodes, tables.graph_nodes);
    TakeTable(run.graph_tensors, tables.graph_tensors);
  }
  if (read.profile) {
    Run& tables = TakeImported(*read.profile, run);
    TakeTable(run.graphs, tables.graphs);
    TakeTable(run.executions, tables.executions);
    TakeTable(run.profile_blocks, tables.profile_blocks);
    TakeTable(run.profile_metrics, tables.profile_metrics);
    TakeTable(run.profile_nodes, tables.profile_nodes);
    run.profile_format = std::move(tables.profile_format);
  }
  if (read.runtrace) TakeTable(run.phases, TakeImported(*read.runtrace, run).phases);
  if (read.aihub) run.aihub = std::move(read.aihub);
  if (read.genie) run.genie = std::move(read.genie);
  // AI Hub and Genie profiles measure other things than the HTP artifacts:
  // alone, there is nothing to join (and no HTP artifact is missing).
  if (!run.OnlyDeviceProfiles()) JoinRun(run, qhas, options);
  return run;
}

}  // namespace htpscope

namespace htpscope::model_import {

void Warn(Run& run, WarningCode code, std::string message) {
  run.warnings.push_back({code, std::move(message)});
}

}  // namespace htpscope::model_import
