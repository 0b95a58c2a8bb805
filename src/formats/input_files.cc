#include "formats/input_files.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

#include "base/read_progress.h"
#include "formats/byte_source_open.h"

namespace htpscope {
namespace {

namespace fs = std::filesystem;

// The bytes the files will take to read, for the progress display: a
// regular file's size, else (standard input, a pipe) no total.
void NoteExpectedBytes(const std::vector<RunInputFile>& files) {
  for (const auto& f : files) {
    std::error_code ec;
    const bool regular = fs::is_regular_file(f.path, ec);
    const uintmax_t size = regular ? fs::file_size(f.path, ec) : 0;
    if (regular && !ec)
      read_progress::AddBytesExpected(size);
    else
      read_progress::MarkTotalUnknown();
  }
}

// The regular files of directory `dir`, sorted; what else it holds is
// reported in `*skipped` and `*warnings`.
std::vector<std::string> ListRunDirectory(const std::string& dir, std::vector<std::string>* skipped,
                                          std::vector<std::string>* warnings) {
  std::vector<std::string> files, subdirectories, others;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string path = it->path().string();
    InputFileStatus status = StatInputFile(path);
    switch (status.type) {
      case InputFileType::kRegular:
        files.push_back(std::move(path));
        break;
      case InputFileType::kDirectory:
        subdirectories.push_back(std::move(path));
        break;
      case InputFileType::kSpecial:
      case InputFileType::kUnreachable:
        others.push_back(fmt::format("{}: not read: {}", path, status.what));
        break;
    }
  }
  if (ec) throw InputError(dir, fmt::format("cannot list the directory: {}", ec.message()));
  std::sort(files.begin(), files.end());
  std::sort(subdirectories.begin(), subdirectories.end());
  std::sort(others.begin(), others.end());
  for (const auto& d : subdirectories)
    skipped->push_back(
        fmt::format("{}: a directory (run directories are not read recursively)", d));
  for (auto& o : others) warnings->push_back(std::move(o));
  if (files.empty())
    throw InputError(
        dir, subdirectories.empty() && others.empty()
                 ? "an empty directory: no profiling artifacts to read"
                 : fmt::format("a directory without regular files ({} subdirector{}, {} other "
                               "entr{}): no profiling artifacts to read",
                               subdirectories.size(), subdirectories.size() == 1 ? "y" : "ies",
                               others.size(), others.size() == 1 ? "y" : "ies"));
  return files;
}

}  // namespace

std::vector<RunInputFile> ExpandRunInputs(const std::vector<std::string>& inputs,
                                          std::vector<std::string>* skipped,
                                          std::vector<std::string>* warnings) {
  std::vector<RunInputFile> files;
  for (const auto& input : inputs) {
    if (input == "-") {
      files.push_back({"/dev/stdin", true});
      continue;
    }
    InputFileStatus status = StatInputFile(input);
    if (status.type == InputFileType::kDirectory) {
      for (auto& f : ListRunDirectory(input, skipped, warnings))
        files.push_back({std::move(f), false});
      continue;
    }
    if (status.type == InputFileType::kUnreachable) throw InputError(input, status.what);
    // Pipes are read; the open refuses devices and sockets by name.
    files.push_back({input, true});
  }
  NoteExpectedBytes(files);
  return files;
}

std::string NoArtifactProblem(size_t files_read, const std::vector<std::string>& skipped) {
  constexpr size_t kShown = 3;
  std::vector<std::string> shown(skipped.begin(),
                                 skipped.begin() + std::min(skipped.size(), kShown));
  if (skipped.size() > kShown) shown.push_back(fmt::format("{} more", skipped.size() - kShown));
  return fmt::format("no profiling artifact among the {} file(s) read{}", files_read,
                     shown.empty() ? "" : fmt::format(" (skipped {})", fmt::join(shown, "; ")));
}

std::string OutOfMemoryProblem() {
  const InputLimits& limits = CurrentInputLimits();
  return fmt::format(
      "ran out of memory while reading it: the input is too big for the memory available (inputs "
      "read whole are capped at {} by {}, streamed ones at {} by {})",
      DescribeBytes(limits.max_in_memory_bytes), kMaxInMemoryBytesVariable,
      DescribeBytes(limits.max_input_bytes), kMaxInputBytesVariable);
}

}  // namespace htpscope
