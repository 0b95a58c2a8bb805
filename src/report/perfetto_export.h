// The traced execution as a Perfetto trace: a binary `perfetto.protos.Trace`
// (a sequence of TracePackets, per Perfetto's perfetto_trace.proto) that
// ui.perfetto.dev and trace_processor open natively.
//
// Layout (docs/export.md, "Perfetto"):
//  * one process "HTP" holding every track;
//  * one track per hardware thread, named "HMX 256", "HVX 512", ... with the
//    de-duplicated slices (the optrace's pid-0 copy); each slice carries its
//    op ID, QNN op, QNN op type, HTP op type, DPC, category, start and
//    duration in cycles as debug annotations.  Slices of one thread that
//    overlap (never seen on a real device) go to a track of their own,
//    "HVX 512 (overlapping slices)", so none is lost or mis-nested;
//  * one counter track per optrace counter ("VTCM alloc", "DRAM read", ...),
//    in bytes;
//  * one track per graph with each execution's runtrace phases (QNN DSP
//    Execute, VTCM Acquire, Resource Power On, Graph Execute) that carry HTP
//    cycles; without them, one slice spanning the traced execution;
//  * a flow arrow for every graph dependency between two executed ops (an op
//    instance's "Inputs Ops" naming another executed instance), from the
//    producer's last-ending slice to the consumer's first slice.
//
// Time: by default one HTP cycle is written as one nanosecond (timestamps are
// the absolute cycle counter), so durations read in the UI as "ns" are cycles;
// the process name and the trace's attributes say so.  With a clock, cycles
// are converted to real nanoseconds (cycle ÷ GHz, rounded to the nearest ns).
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>

#include "model/run.h"

namespace htpscope {

struct PerfettoOptions {
  // The HTP clock in GHz to convert cycles to time; nullopt writes one cycle
  // as one nanosecond.  Must be positive and finite.
  std::optional<double> clock_ghz;
};

struct PerfettoStats {
  size_t slices = 0;           // hardware-thread slices written
  size_t thread_tracks = 0;    // hardware-thread tracks (overlap tracks included)
  size_t counter_samples = 0;  // counter values written
  size_t flows = 0;            // dependency arrows
  size_t phases = 0;           // runtrace phases (or traced-execution spans) written
};

// Writes `run` as a Perfetto trace to `out`; `name` names the destination in
// OutputError messages.  Throws InputError (naming the run) when it has
// nothing with HTP cycles to draw (no optrace slices, counters or runtrace
// phases with cycles), ValueError (kClockGhz) for a bad clock, OutputError
// when `out` refuses the bytes.
PerfettoStats WritePerfettoTrace(const Run& run, const PerfettoOptions& options, std::ostream& out,
                                 const std::string& name);

}  // namespace htpscope
