#include "model/run.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "base/errors.h"

namespace htpscope {
namespace {

namespace fs = std::filesystem;

struct InputFile {
  std::string path;
  bool named = false;  // given on the command line, not found in a directory
};

std::vector<InputFile> ExpandInputs(const std::vector<std::string>& inputs,
                                    std::vector<std::string>* skipped) {
  std::vector<InputFile> files;
  for (const auto& input : inputs) {
    std::error_code ec;
    auto status = fs::status(input, ec);
    if (ec || !fs::exists(status)) throw InputError(input, "no such file or directory");
    if (fs::is_directory(status)) {
      std::vector<std::string> found;
      for (const auto& entry : fs::directory_iterator(input, ec)) {
        if (entry.is_regular_file()) found.push_back(entry.path().string());
      }
      if (ec) throw InputError(input, fmt::format("cannot list directory: {}", ec.message()));
      std::sort(found.begin(), found.end());
      if (found.empty()) skipped->push_back(fmt::format("{}: directory has no files", input));
      for (auto& f : found) files.push_back({std::move(f), false});
    } else {
      files.push_back({input, true});
    }
  }
  return files;
}

template <typename T, typename Read>
void Assign(std::optional<T>& slot, const std::string& path, const std::string& previous,
            ArtifactKind kind, Read read) {
  if (slot)
    throw InputError(
        path,
        fmt::format("a second {} artifact (the first is {}); give the files of one run explicitly",
                    ArtifactKindName(kind), previous));
  slot = read(path);
}

void AddWarnings(ProfiledRun& run, const std::string& path,
                 const std::vector<std::string>& warnings) {
  for (const auto& w : warnings) run.warnings.push_back(fmt::format("{}: {}", path, w));
}

}  // namespace

ProfiledRun LoadRun(const std::vector<std::string>& inputs) {
  ProfiledRun run;
  if (inputs.empty()) throw InputError("<arguments>", "no run directory or artifact file given");
  run.label = inputs.front();
  std::vector<InputFile> files = ExpandInputs(inputs, &run.skipped);
  std::string first_of[static_cast<int>(ArtifactKind::kEtdump) + 1];
  for (const auto& [path, named] : files) {
    std::string artifact_type;
    ArtifactKind kind = DetectArtifactKind(path, &artifact_type);
    auto& previous = first_of[static_cast<int>(kind)];
    switch (kind) {
      case ArtifactKind::kOptrace:
        Assign(run.optrace, path, previous, kind,
               [](const std::string& p) { return ReadOptrace(p); });
        AddWarnings(run, path, run.optrace->warnings);
        break;
      case ArtifactKind::kRuntrace:
        Assign(run.runtrace, path, previous, kind, &ReadRuntrace);
        AddWarnings(run, path, run.runtrace->warnings);
        break;
      case ArtifactKind::kHtpGraph:
        Assign(run.htp_graph, path, previous, kind, &ReadHtpGraph);
        break;
      case ArtifactKind::kQhas:
        Assign(run.qhas, path, previous, kind, &ReadQhas);
        AddWarnings(run, path, run.qhas->warnings);
        break;
      case ArtifactKind::kProfileText:
      case ArtifactKind::kProfileCsv: {
        auto& text_first = first_of[static_cast<int>(ArtifactKind::kProfileText)];
        if (run.profile)
          throw InputError(
              path,
              fmt::format("a second profile-viewer output (the first is {}); give the files of "
                          "one run explicitly",
                          text_first));
        run.profile =
            kind == ArtifactKind::kProfileText ? ReadProfileText(path) : ReadProfileCsv(path);
        AddWarnings(run, path, run.profile->warnings);
        text_first = path;
        break;
      }
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
        continue;
      case ArtifactKind::kEtdump:
        // Summarised on its own (`summary etdump.etdp`); not yet joined with QNN artifacts.
        run.skipped.push_back(fmt::format("{}: ExecuTorch ETDump (summarise it on its own)", path));
        continue;
      case ArtifactKind::kUnknown:
        if (named)
          throw InputError(
              path,
              "not a recognised profiling artifact (expected optrace/runtrace/HTP graph/QHAS JSON, "
              "or qnn-profile-viewer text or CSV)");
        run.skipped.push_back(fmt::format("{}: not a recognised profiling artifact", path));
        continue;
    }
    previous = path;
    run.artifacts.push_back({path, kind});
  }
  if (run.optrace) run.ops = BuildOpInstances(*run.optrace, &run.warnings);
  return run;
}

}  // namespace htpscope
