// Fuzz and test support: one input holding a whole run, loaded the way the
// tool loads one.  The input is an optrace, optionally followed by
// "\n@@runtrace@@\n" and a runtrace and/or "\n@@qhas@@\n" and a QHAS summary
// (in any order after the optrace); each part becomes an in-memory file.
#pragma once

#include <algorithm>
#include <string_view>

#include "base/fuzz_support.h"
#include "model/run.h"

namespace htpscope::fuzz {

inline constexpr std::string_view kRuntraceMark = "\n@@runtrace@@\n";
inline constexpr std::string_view kQhasMark = "\n@@qhas@@\n";

// The part of `input` after `mark`, up to the next mark of either kind.
inline std::string_view RunPart(std::string_view input, std::string_view mark) {
  size_t at = input.find(mark);
  if (at == std::string_view::npos) return {};
  std::string_view rest = input.substr(at + mark.size());
  return rest.substr(0, std::min(rest.find(kRuntraceMark), rest.find(kQhasMark)));
}

// The files of one run input; reused across inputs.
struct RunFiles {
  MemoryFile trace, runtrace, qhas;
};

// Loads `input` as a run (joined even when its parts disagree); throws the
// InputError a part raises.  `*failed_part` receives that part's text.
inline Run LoadFuzzRun(std::string_view input, RunFiles& files, std::string_view* failed_part) {
  std::string_view trace =
      input.substr(0, std::min(input.find(kRuntraceMark), input.find(kQhasMark)));
  std::string_view runtrace = RunPart(input, kRuntraceMark), qhas = RunPart(input, kQhasMark);
  auto write = [](MemoryFile& file, std::string_view text) {
    return file.Write(reinterpret_cast<const uint8_t*>(text.data()), text.size());
  };
  std::vector<std::string> paths = {write(files.trace, trace)};
  if (!runtrace.empty()) paths.push_back(write(files.runtrace, runtrace));
  if (!qhas.empty()) paths.push_back(write(files.qhas, qhas));
  LoadOptions options;
  options.allow_mismatch = true;
  try {
    return LoadRun(paths, options);
  } catch (const InputError& e) {
    *failed_part = e.file() == files.qhas.path()       ? qhas
                   : e.file() == files.runtrace.path() ? runtrace
                                                       : trace;
    throw;
  }
}

}  // namespace htpscope::fuzz
