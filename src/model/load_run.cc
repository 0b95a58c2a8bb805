#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "base/errors.h"
#include "base/read_progress.h"
#include "base/text_util.h"
#include "formats/artifact_kind.h"
#include "formats/byte_source.h"
#include "formats/input_files.h"
#include "model/artifact_registry.h"
#include "model/import.h"
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

// The artifacts of a run, read and imported, in file order.
using ImportedArtifacts =
    std::vector<std::pair<const model_import::ArtifactSpec*, model_import::ImportedArtifact>>;

// The run's files are read concurrently (each reader also parses on every
// core), so that one reader's serial steps (cutting chunks, merging them,
// inflating gzip) overlap the others' parsing.  What a read gives (its
// artifact row, its input warnings) and the first error are taken in file
// order, as a reading one file after another would give them.
class ConcurrentReads {
 public:
  // Reads and imports `path`, of `spec`'s kind, on another thread (or, when
  // no thread can be started, when waited for).
  void Start(const model_import::ArtifactSpec& spec, const std::string& path) {
    auto& read = reads_.emplace_back();
    read.spec = &spec;
    read.path = path;
    read.done = std::async(std::launch::async | std::launch::deferred, [&spec, path] {
      return ReadNamingFileOnOutOfMemory(path, [&] { return spec.read_and_import(path); });
    });
  }

  // Waits for every read started so far, in the order started: rethrows
  // the first failure; else adds each file's artifact row and input
  // warnings to `run` and returns the imported artifacts, in file order.
  ImportedArtifacts Finish(Run& run) {
    ImportedArtifacts imported;
    for (auto& r : reads_) {
      model_import::ImportedArtifact artifact = r.done.get();
      run.artifacts.push_back({r.path, r.spec->kind, artifact.version, artifact.application_version,
                               artifact.backend_version});
      // What the input layer noticed (gzip trailing garbage, ...), under this file's name.
      for (auto& w : TakeInputWarnings(r.path))
        model_import::Warn(run, WarningCode::input, fmt::format("{}: {}", r.path, w));
      imported.emplace_back(r.spec, std::move(artifact));
    }
    reads_.clear();
    return imported;
  }

  // Throws `error` about a later file, unless a file read before it failed:
  // that error comes first, as it would reading one file after another.
  [[noreturn]] void ThrowAfterEarlierReads(const InputError& error) {
    for (auto& r : reads_) r.done.get();
    throw error;
  }

 private:
  struct Read {
    const model_import::ArtifactSpec* spec = nullptr;
    std::string path;
    // Its destructor waits, so no read outlives this object.
    std::future<model_import::ImportedArtifact> done;
  };
  std::vector<Read> reads_;
};

// Why a file that is not an artifact of a run is skipped (or, named
// explicitly, refused).
void SkipOrRefuse(ConcurrentReads& reads, ArtifactKind kind, const std::string& path,
                  const std::string& artifact_type, bool named, Run& run) {
  switch (kind) {
    case ArtifactKind::kOtherJson:
      if (named)
        reads.ThrowAfterEarlierReads(InputError(
            path, fmt::format("JSON that is not a run artifact (header.artifact_type \"{}\"); "
                              "expected OP_TRACE, RUN_TRACE, HTP_GRAPH or QHAS",
                              artifact_type)));
      run.skipped.push_back(fmt::format(
          "{}: JSON that is not a run artifact{}", path,
          artifact_type.empty() ? "" : fmt::format(" (artifact_type \"{}\")", artifact_type)));
      break;
    default:
      if (named)
        reads.ThrowAfterEarlierReads(InputError(
            path,
            "not a recognised profiling artifact (expected optrace/runtrace/HTP graph/QHAS JSON, "
            "or qnn-profile-viewer text or CSV)"));
      run.skipped.push_back(fmt::format("{}: not a recognised profiling artifact", path));
      break;
  }
  CountSkippedAsRead(path);
}

// Reads and imports every artifact of `files`; returns them in file order.
ImportedArtifacts ReadAll(const std::vector<RunInputFile>& files, Run& run) {
  ConcurrentReads reads;
  std::map<RunData, std::string> first_of;  // a run has one artifact of each kind of data
  for (const auto& [path, named] : files) {
    std::string artifact_type;
    const ArtifactKind kind = DetectArtifactKind(path, &artifact_type);
    const model_import::ArtifactSpec* spec = model_import::FindArtifactSpec(kind);
    if (!spec) {
      SkipOrRefuse(reads, kind, path, artifact_type, named, run);
      continue;
    }
    auto& previous = first_of[spec->gives];
    if (!previous.empty())
      reads.ThrowAfterEarlierReads(InputError(
          path, fmt::format("a second {} (the first is {}); give the files of one run explicitly",
                            model_import::FindRunDataSpec(spec->gives).second_name, previous)));
    previous = path;
    reads.Start(*spec, path);
  }
  return reads.Finish(run);
}

}  // namespace

bool Run::Has(ArtifactKind kind) const {
  return std::any_of(artifacts.begin(), artifacts.end(),
                     [kind](const ArtifactRow& a) { return a.type == kind; });
}

bool Run::OnlyDeviceProfiles() const {
  return !artifacts.empty() &&
         std::all_of(artifacts.begin(), artifacts.end(), [](const ArtifactRow& a) {
           const model_import::ArtifactSpec* spec = model_import::FindArtifactSpec(a.type);
           return spec && model_import::FindRunDataSpec(spec->gives).device_profile;
         });
}

const std::string& Run::PathOf(ArtifactKind kind) const {
  static const std::string kNone;
  for (const auto& a : artifacts)
    if (a.type == kind) return a.path;
  return kNone;
}

const ArtifactRow* Run::ProfileArtifact() const {
  for (const auto& a : artifacts) {
    const model_import::ArtifactSpec* spec = model_import::FindArtifactSpec(a.type);
    if (spec && spec->gives == RunData::kProfileExecutions) return &a;
  }
  return nullptr;
}

const std::string& Run::ProfilePath() const {
  static const std::string kNone;
  const ArtifactRow* profile = ProfileArtifact();
  return profile ? profile->path : kNone;
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
  ImportedArtifacts read;
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
  // Each artifact's tables are moved in once, in registry order (the
  // optrace's first: its string pool becomes the run's), its import's
  // warnings and failure taken there.
  for (const model_import::ArtifactSpec& spec : model_import::ArtifactSpecs())
    for (auto& [read_spec, artifact] : read) {
      if (read_spec != &spec) continue;
      run.warnings.insert(run.warnings.end(), std::make_move_iterator(artifact.warnings.begin()),
                          std::make_move_iterator(artifact.warnings.end()));
      if (artifact.import_error) std::rethrow_exception(artifact.import_error);
      artifact.move_into(run);
    }
  // Device profiles (AI Hub, Genie, a runner's log) measure other things
  // than the HTP artifacts: alone, there is nothing to join (and no HTP
  // artifact is missing).
  if (!run.OnlyDeviceProfiles()) JoinRun(run, options);
  return run;
}

}  // namespace htpscope

namespace htpscope::model_import {

void Warn(std::vector<WarningRow>& warnings, WarningCode code, std::string message) {
  warnings.push_back({code, std::move(message)});
}

void Warn(Run& run, WarningCode code, std::string message) {
  Warn(run.warnings, code, std::move(message));
}

}  // namespace htpscope::model_import
