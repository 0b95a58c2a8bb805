// DSP heap consumed by a run (primer §9): the heap before the first context
// was created, after the last one was freed, and after − before.
//
// A file gives its numbers only when they are unambiguous:
//  * a missing checkpoint withholds its value and the delta;
//  * a checkpoint present more than once withholds its value and the delta
//    (which context's value is meant cannot be told);
//  * DSP:after_context_freed before DSP:before_context_created (in file
//    order) keeps both values but withholds the delta.
// Every withheld number comes with a problem that names the file and line
// (or byte offset).  A negative delta is not a problem: the heap shrank.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/heap_file.h"

namespace htpscope {

struct HeapUsage {
  std::string path;
  std::optional<std::string> format;     // HeapFile::format; absent when unreadable
  std::optional<HeapCheckpoint> before;  // DSP:before_context_created, when unique
  std::optional<HeapCheckpoint> after;   // DSP:after_context_freed, when unique
  std::optional<int64_t> delta_bytes;    // after − before; negative = heap released
  std::vector<std::string> problems;     // "line 3: ..." — each withholds a number
  std::vector<std::string> warnings;

  bool ok() const { return problems.empty(); }
  bool heap_released() const { return delta_bytes && *delta_bytes < 0; }
};

// Judges one file's checkpoints.  Never throws.
HeapUsage AnalyzeHeap(const HeapFile& file);

// Reads and judges `path`; a read error (InputError) becomes the file's only
// problem, so that one bad file does not hide the others.
HeapUsage ReadAndAnalyzeHeap(const std::string& path);

}  // namespace htpscope
