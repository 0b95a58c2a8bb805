#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "base/errors.h"
#include "base/read_progress.h"
#include "base/text_util.h"
#include "formats/artifact_kind.h"
#include "formats/byte_source.h"
#include "formats/input_files.h"
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

// The artifacts of a run, read but not yet joined.
struct ReadArtifacts {
  std::optional<Optrace> optrace;
  std::optional<Runtrace> runtrace;
  std::optional<HtpGraph> htp_graph;
  std::optional<Qhas> qhas;
  std::optional<ProfileReport> profile;  // text or CSV
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
    default:
      return ArtifactType::kProfileCsv;
  }
}

template <typename T, typename Read>
void Assign(std::optional<T>& slot, const std::string& path, const std::string& previous,
            const char* what, Read read) {
  if (slot)
    throw InputError(path, fmt::format("a second {} (the first is {}); give the files of one run "
                                       "explicitly",
                                       what, previous));
  slot = ReadNamingFileOnOutOfMemory(path, [&] { return read(path); });
}

ReadArtifacts ReadAll(const std::vector<RunInputFile>& files, Run& run) {
  ReadArtifacts read;
  std::string first_of[static_cast<int>(ArtifactKind::kEtdump) + 1];
  for (const auto& [path, named] : files) {
    std::string artifact_type;
    const ArtifactKind detected = DetectArtifactKind(path, &artifact_type);
    // Text and CSV profiles share one slot: a run has one profile.
    const ArtifactKind kind =
        detected == ArtifactKind::kProfileCsv ? ArtifactKind::kProfileText : detected;
    auto& previous = first_of[static_cast<int>(kind)];
    const std::string what = fmt::format("{} artifact", ArtifactKindName(kind));
    std::string version, application_version, backend_version;
    switch (kind) {
      case ArtifactKind::kOptrace:
        Assign(read.optrace, path, previous, what.c_str(),
               [](const std::string& p) { return ReadOptrace(p); });
        version = read.optrace->version;
        break;
      case ArtifactKind::kRuntrace:
        Assign(read.runtrace, path, previous, what.c_str(), &ReadRuntrace);
        version = read.runtrace->version;
        break;
      case ArtifactKind::kHtpGraph:
        Assign(read.htp_graph, path, previous, what.c_str(), &ReadHtpGraph);
        version = read.htp_graph->version;
        break;
      case ArtifactKind::kQhas:
        Assign(read.qhas, path, previous, what.c_str(), &ReadQhas);
        version = read.qhas->version;
        break;
      case ArtifactKind::kProfileText:
      case ArtifactKind::kProfileCsv:
        Assign(read.profile, path, previous, "profile-viewer output",
               [detected](const std::string& p) {
                 return detected == ArtifactKind::kProfileCsv ? ReadProfileCsv(p)
                                                              : ReadProfileText(p);
               });
        version = read.profile->viewer_version;
        application_version = read.profile->application_version;
        backend_version = read.profile->backend_version;
        break;
      case ArtifactKind::kOtherJson:
        if (named)
          throw InputError(
              path,
              fmt::format("JSON that is not a run artifact (header.artifact_type \"{}\"); expected "
                          "OP_TRACE, RUN_TRACE, HTP_GRAPH or QHAS",
                          artifact_type));
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
          throw InputError(
              path,
              "not a recognised profiling artifact (expected optrace/runtrace/HTP graph/QHAS JSON, "
              "or qnn-profile-viewer text or CSV)");
        run.skipped.push_back(fmt::format("{}: not a recognised profiling artifact", path));
        CountSkippedAsRead(path);
        continue;
    }
    // What the input layer noticed (gzip trailing garbage, ...), under this file's name.
    for (auto& w : TakeInputWarnings(path))
      model_import::Warn(run, "input", fmt::format("{}: {}", path, w));
    previous = path;
    run.artifacts.push_back({path, TypeOf(detected), version, std::move(application_version),
                             std::move(backend_version)});
  }
  return read;
}

}  // namespace

bool Run::Has(ArtifactType type) const {
  return std::any_of(artifacts.begin(), artifacts.end(),
                     [type](const ArtifactRow& a) { return a.type == type; });
}

const std::string& Run::PathOf(ArtifactType type) const {
  static const std::string kNone;
  for (const auto& a : artifacts)
    if (a.type == type) return a.path;
  return kNone;
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
  for (auto& w : input_warnings) model_import::Warn(run, "input", std::move(w));
  ReadArtifacts read = ReadAll(files, run);
  if (run.artifacts.empty())
    throw InputError(run.label, NoArtifactProblem(files.size(), run.skipped));
  // The optrace first: its string pool becomes the run's.
  if (read.optrace) model_import::ImportOptrace(std::move(*read.optrace), run);
  read.optrace.reset();
  model_import::QhasFacts qhas;
  if (read.qhas) qhas = model_import::ImportQhas(std::move(*read.qhas), run);
  read.qhas.reset();
  if (read.htp_graph) model_import::ImportHtpGraph(std::move(*read.htp_graph), run);
  if (read.profile) model_import::ImportProfile(std::move(*read.profile), run);
  if (read.runtrace) model_import::ImportRuntrace(std::move(*read.runtrace), run);
  JoinRun(run, qhas, options);
  return run;
}

}  // namespace htpscope

namespace htpscope::model_import {

void Warn(Run& run, std::string code, std::string message) {
  run.warnings.push_back({std::move(code), std::move(message)});
}

}  // namespace htpscope::model_import
