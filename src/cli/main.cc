// htpscope: the command-line front end.  Each subcommand lives in its own
// file and registers itself here; this file only dispatches and maps errors
// to exit codes (base/errors.h): 0 ok, 1 a gate failed, 2 bad input or
// usage, 3 an output that cannot be written, 70 a bug.  Messages are made
// terminal-safe: they quote names read from the inputs.
#include <fmt/format.h>
#include <malloc.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "base/errors.h"
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/terminal.h"
#include "cli/value_roles.h"
#include "cli/version.h"
#include "model/input_text.h"
#include "report/text_sanitize.h"

namespace {

int Fail(std::string_view what, std::string_view message, int status) {
  htpscope::cli::StopProgress();
  std::string prefix = fmt::format("htpscope: {}", what);
  fmt::print(stderr, "{}: {}\n", htpscope::cli::StyleError(prefix, htpscope::cli::StderrStyled()),
             htpscope::TerminalSafe(message));
  return status;
}

// Input-layer warnings no report has shown (about an expected DAG, an
// attachment, a manifest, ...).
void PrintUnreportedInputWarnings() {
  for (const auto& w : htpscope::TakeUnreportedInputWarnings())
    fmt::print(stderr, "htpscope: warning: {}\n", htpscope::TerminalSafe(w));
}

}  // namespace

int main(int argc, char** argv) {
  // A fixed heap policy, for a steady peak: glibc's default raises its mmap
  // threshold each time a big block is freed, after which blocks of up to
  // 32 MB come from the heap and stay resident once freed, so a big trace's
  // peak varied by up to 50 MB from run to run.  Blocks of 1 MB or more get their
  // own mapping, returned when freed; smaller ones are reused from the heap,
  // which is not trimmed for less than 8 MB free at its top, so the reader's
  // per-chunk buffers are not faulted in again for every chunk.  (At 64 MB,
  // a worker thread's heap kept the 9 MB of a gzip trace's chunk parts
  // resident after the read, through the import's peak; 8 MB was no slower.)
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  mallopt(M_TRIM_THRESHOLD, 8 << 20);
  // One heap (arena) per core, not glibc's eight: no more threads allocate
  // at once than there are cores, and every further arena held freed memory
  // of its own through the peak (a gzip trace's summary peaked 6 MB higher
  // with the default, no faster).
  mallopt(M_ARENA_MAX, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  CLI::App app{
      "htpscope: the true speed, memory and numerics of models on the Hexagon NPU (QNN HTP), "
      "from profiling artifacts alone"};
  app.require_subcommand(1);
  app.formatter(htpscope::cli::MakeHelpFormatter());  // before the subcommands: they inherit it
  app.fallthrough();                                  // --color works after the subcommand too
  app.set_version_flag("--version", htpscope::cli::VersionText());
  std::string color = "auto";
  app.add_option("--color", color,
                 "Colour in text output: auto (on terminals, unless NO_COLOR is set), always, "
                 "never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  const char* progress_env = std::getenv("HTPSCOPE_PROGRESS");
  std::string progress = progress_env && *progress_env ? progress_env : "auto";
  app.add_option("--progress", progress,
                 "Progress of long reads on stderr (bytes, rate, time left): auto (on a terminal, "
                 "after 1 s), always, never; default $HTPSCOPE_PROGRESS or auto")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  bool quiet = false;
  app.add_flag("--quiet", quiet, "No progress display (as --progress never)");
  htpscope::cli::CommandRegistry registry;
  htpscope::cli::RegisterAllCommands(app, registry);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return htpscope::cli::ReportParseError(app, e);
  }
  htpscope::cli::SetColorMode(htpscope::cli::ParseColorMode(color));
  htpscope::cli::StartProgress(quiet ? htpscope::cli::ProgressMode::kNever
                                     : htpscope::cli::ParseProgressMode(progress));
  // One place maps each kind of failure to its message and exit status
  // (base/errors.h, docs/errors.md).
  using namespace htpscope;
  try {
    int status = registry.RunSelected();
    htpscope::cli::StopProgress();
    PrintUnreportedInputWarnings();
    return status;
  } catch (const InputNeedsValueError& e) {  // said with the option that gives the value
    htpscope::cli::StopProgress();
    PrintUnreportedInputWarnings();
    return Fail("error", htpscope::cli::WithOptionAdvice(e).what(), kExitBadInput);
  } catch (const InputError& e) {
    htpscope::cli::StopProgress();
    PrintUnreportedInputWarnings();
    return Fail("error", e.what(), kExitBadInput);
  } catch (const UsageError& e) {
    return Fail("error", e.what(), kExitBadInput);
  } catch (const ValueError& e) {  // an option value a lower layer refused: named by its option
    return Fail("error", htpscope::cli::OptionMessage(e), kExitBadInput);
  } catch (const std::invalid_argument& e) {  // an option value the analysis cannot use
    return Fail("error", e.what(), kExitBadInput);
  } catch (const OutputError& e) {
    return Fail("error", e.what(), kExitOutputError);
  } catch (const std::bad_alloc&) {
    // Readers name the file they were reading (ReadNamingFileOnOutOfMemory);
    // this is memory running out elsewhere.
    return Fail("error", "out of memory", kExitBadInput);
  } catch (const std::exception& e) {  // InternalError and anything unforeseen: a bug
    return Fail("internal error (a bug; please report it)", e.what(), kExitInternalError);
  }
}
