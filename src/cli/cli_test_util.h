// Running the built htpscope binary from the CLI tests.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "base/corpus_test_util.h"
#include "base/test_paths.h"

namespace htpscope::testing_support {

struct CliResult {
  int status = -1;  // exit status, -1 when killed by a signal
  std::string out, err;
};

inline std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Runs the shell command `command` with stdout and stderr captured apart,
// through files in the temporary directory `scratch`.
inline CliResult RunCaptured(const std::string& command, const std::string& scratch) {
  std::string dir = TempDir(scratch);
  int raw = std::system((command + " > '" + dir + "/out' 2> '" + dir + "/err'").c_str());
  CliResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = Slurp(dir + "/out");
  r.err = Slurp(dir + "/err");
  return r;
}

// Runs `htpscope <args>` (shell words), as RunCaptured.
inline CliResult RunCli(const std::string& args, const std::string& scratch = "cli_out") {
  return RunCaptured(std::string("'") + HTPSCOPE_BINARY + "' " + args, scratch);
}

}  // namespace htpscope::testing_support
