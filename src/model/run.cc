#include "model/run.h"

#include <fmt/format.h>

#include "base/errors.h"
#include "formats/byte_source.h"
#include "formats/input_files.h"

namespace htpscope {
namespace {

template <typename T, typename Read>
void Assign(std::optional<T>& slot, const std::string& path, const std::string& previous,
            ArtifactKind kind, Read read) {
  if (slot)
    throw InputError(
        path,
        fmt::format("a second {} artifact (the first is {}); give the files of one run explicitly",
                    ArtifactKindName(kind), previous));
  slot = ReadNamingFileOnOutOfMemory(path, [&] { return read(path); });
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
  std::vector<RunInputFile> files = ExpandRunInputs(inputs, &run.skipped, &run.warnings);
  std::string first_of[8];
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
        run.profile = ReadNamingFileOnOutOfMemory(path, [&, &p = path] {
          return kind == ArtifactKind::kProfileText ? ReadProfileText(p) : ReadProfileCsv(p);
        });
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
      case ArtifactKind::kUnknown:
        if (named)
          throw InputError(
              path,
              "not a recognised profiling artifact (expected optrace/runtrace/HTP graph/QHAS JSON, "
              "or qnn-profile-viewer text or CSV)");
        run.skipped.push_back(fmt::format("{}: not a recognised profiling artifact", path));
        continue;
    }
    AddWarnings(run, path, TakeInputWarnings(path));
    previous = path;
    run.artifacts.push_back({path, kind});
  }
  if (run.artifacts.empty())
    throw InputError(run.label, NoArtifactProblem(files.size(), run.skipped));
  if (run.optrace) run.ops = BuildOpInstances(*run.optrace, &run.warnings);
  return run;
}

}  // namespace htpscope
