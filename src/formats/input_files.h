// The files of a run, from what was given on the command line: run
// directories, artifact files, "-" for standard input (docs/robustness.md,
// "Run directories").
#pragma once

#include <new>
#include <string>
#include <vector>

#include "base/errors.h"

namespace htpscope {

struct RunInputFile {
  std::string path;
  bool named = false;  // given on the command line, not found in a directory
};

// Expands `inputs` into the files to read, in order:
//  * a directory: its regular files and symbolic links to regular files,
//    sorted by name (not recursively).  Other entries are never opened:
//    subdirectories are listed in `*skipped` ("path: why"); named pipes,
//    sockets, devices, dangling symbolic links, symbolic link loops and
//    entries that cannot be examined are reported by name in `*warnings`
//    ("path: why").  A directory without a regular file is an InputError
//    naming it.
//  * "-": standard input, named "/dev/stdin" from here on;
//  * anything else: a file given by name (named = true), opened by its
//    reader, which refuses devices, sockets and directories by name.
// Throws InputError when an input does not exist (saying when it is a
// dangling symbolic link or a link loop).
std::vector<RunInputFile> ExpandRunInputs(const std::vector<std::string>& inputs,
                                          std::vector<std::string>* skipped,
                                          std::vector<std::string>* warnings);

// The problem of the InputError for a run none of whose `files_read` files
// is an artifact: names the first few of `skipped` ("path: why").
std::string NoArtifactProblem(size_t files_read, const std::vector<std::string>& skipped);

// The problem of an InputError for running out of memory while reading a
// file: says how big inputs may be and which caps bound them.
std::string OutOfMemoryProblem();

// Runs `read()`, a read of `path`, turning std::bad_alloc into an
// InputError naming the file (the allocation that failed is freed by then).
template <typename Read>
auto ReadNamingFileOnOutOfMemory(const std::string& path, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const std::bad_alloc&) {
    throw InputError(path, OutOfMemoryProblem());
  }
}

}  // namespace htpscope
