// Writing an output file (a report, an SVG, a DOT graph) without ever
// writing over an input.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/run.h"

namespace htpscope::cli {

// The files `run` was read from (its artifacts), for WriteOutputFile.
std::vector<std::string> InputsOfRun(const Run& run);

// Writes `content` to `path` (created, or truncated when it exists).
// Refuses, before changing a byte, a path that is the same file as one of
// `inputs` — same device and inode, so another name, a symbolic or a hard
// link to an input is refused too — and a named pipe no process reads.
// Throws OutputError naming `path` for that and for every failure to open,
// write or close it.  Inputs that no longer exist are ignored.
void WriteOutputFile(const std::string& path, std::string_view content,
                     const std::vector<std::string>& inputs);

}  // namespace htpscope::cli
