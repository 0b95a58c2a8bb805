// htpscope: the command-line front end.  Each subcommand lives in its own
// file and registers itself here; this file only dispatches and maps errors
// to exit codes (0 ok, 1 a gate failed, 2 bad input or usage).
#include <fmt/format.h>
#include <malloc.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>

#include "base/errors.h"
#include "cli/commands.h"

int main(int argc, char** argv) {
  // A fixed heap policy, for a steady peak: glibc's default raises its mmap
  // threshold each time a big block is freed, after which blocks of up to
  // 32 MB come from the heap and stay resident once freed, so a big trace's
  // peak varied by up to 50 MB from run to run.  Blocks of 1 MB or more get their
  // own mapping, returned when freed; smaller ones are reused from the heap,
  // which is not trimmed for less than 64 MB free, so the reader's
  // per-chunk buffers are not faulted in again for every chunk.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  CLI::App app{
      "htpscope: the true speed, memory and numerics of models on the Hexagon NPU (QNN HTP), "
      "from profiling artifacts alone"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "htpscope 0.1.0");
  htpscope::cli::CommandRegistry registry;
  htpscope::cli::RegisterAllCommands(app, registry);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  // One place maps each kind of failure to its message and exit status
  // (base/errors.h, docs/errors.md).
  try {
    return registry.RunSelected();
  } catch (const htpscope::InputError& e) {
    fmt::print(stderr, "htpscope: error: {}\n", e.what());
    return htpscope::kExitBadInput;
  } catch (const htpscope::UsageError& e) {
    fmt::print(stderr, "htpscope: error: {}\n", e.what());
    return htpscope::kExitBadInput;
  } catch (const std::invalid_argument& e) {  // an option value the analysis cannot use
    fmt::print(stderr, "htpscope: error: {}\n", e.what());
    return htpscope::kExitBadInput;
  } catch (const htpscope::OutputError& e) {
    fmt::print(stderr, "htpscope: error: {}\n", e.what());
    return htpscope::kExitOutputError;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "htpscope: error: out of memory\n");
    return htpscope::kExitBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "htpscope: internal error (a bug; please report it): {}\n", e.what());
    return htpscope::kExitInternalError;
  }
}
