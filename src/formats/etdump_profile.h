// An ExecuTorch ETDump as a profile: the per-op events ExecuTorch's Qualcomm
// (QNN) delegate writes into it, laid out as the executions of a
// qnn-profile-viewer profile, so that an ETDump joins a run like the
// viewer's CSV or the binary log does (docs/etdump.md, "In a run").
//
// What the QNN delegate writes (executorch backends/qualcomm/runtime/
// backends/QnnProfiler.cpp): after each execute of a delegated graph it
// logs every QNN per-node event of the profile (QNN_PROFILE_EVENTTYPE_NODE)
// as a delegate profile event whose string id is the QNN event's identifier
// ("conv:OpId_7 (cycles)", the same text the viewer prints), with start 0
// and end = the event's value; since 2025 (executorch #10227) it also logs
// each top-level event of the profile before its sub-events, its unit
// appended to the identifier: "QNN accelerator (execute) time (us)",
// "Number of HVX threads used (count)", "... (bytes)", and for cycles
// nothing ("Accelerator (execute) time (cycles)").  ExecuTorch stamps each
// event with the instruction that called the delegate.  So:
//  * every RunData block holding such events is an execution ("Execute"
//    blocks, in file order); a block without any is not;
//  * each delegate call (instruction id) is a graph: one unnamed graph when
//    the program calls one, "instruction N" for each when it calls several;
//  * a node's cycles are end − start of an event whose id ends in
//    " (cycles)" and names an OpId;
//  * a top-level event of a call with node events is a metric of that
//    execution in the unit its suffix names (the name without " (us)" etc.,
//    as the viewer prints it), so that graph wall, compute-busy and work
//    cycles come out as from the viewer's CSV; other delegate events are
//    counted in a warning and left out (their unit is not written);
//  * the block's "Method::execute" event, when it has one, is kept as a
//    metric in the runtime's ticks (formats/etdump.h: not converted).
// Nothing else of the ETDump (operator calls, debug events) enters the
// profile; `summary FILE.etdp` summarises them.
#pragma once

#include <string>

#include "formats/etdump.h"
#include "formats/profile_text.h"

namespace htpscope {

// The profile the ETDump's QNN delegate events make (format kEtdump).  A
// dump without any gives a report with no executions and a warning saying
// so.  Never throws for content: ReadEtdump has verified the buffer.
ProfileReport EtdumpAsProfile(const Etdump& dump);

// True when `dump` holds at least one QNN per-node delegate event.
bool HasQnnDelegateOpEvents(const Etdump& dump);

// Reads the ETDump at `path` (ReadEtdump: InputError naming the file and
// byte offset when it is not a valid ETDump) and lays it out as above.
ProfileReport ReadEtdumpProfile(const std::string& path);

}  // namespace htpscope
