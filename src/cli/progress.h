// Progress of long reads on stderr, for people at a terminal: bytes read,
// rate and, when the inputs' total size is known, the share done and the
// time left, redrawn in place at most 5 times a second and erased when done.
// Its figures come from base/read_progress.h, which the readers update.
//
// --progress auto (the default, or HTPSCOPE_PROGRESS): only when stderr is a
// terminal (TERM not "dumb") and the read has lasted 1 s, so short reads stay
// silent; always: from the start, wherever stderr goes; never (or --quiet).
#pragma once

#include <string>
#include <string_view>

#include "base/read_progress.h"

namespace htpscope::cli {

enum class ProgressMode { kAuto, kAlways, kNever };

// "auto", "always", "never"; anything else is kAuto.
ProgressMode ParseProgressMode(std::string_view name);

// Starts drawing (on a thread of its own) as `mode` says.
void StartProgress(ProgressMode mode);
// Stops drawing and erases the line; call before writing to stdout or
// stderr.  Safe to call again, or without StartProgress.
void StopProgress();

// One frame: "reading 1.5 MiB of 3.0 MiB (50 %), 1.5 MiB/s, 1 s left"
// after `elapsed_seconds` of reading; without a known total, bytes and rate.
std::string ProgressLine(const read_progress::Snapshot& progress, double elapsed_seconds);

}  // namespace htpscope::cli
