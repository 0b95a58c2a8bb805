// Writers of the five run artifacts, each printed from a Model in the layout
// of the real qnn-profile-viewer outputs (see ../shared/docs/formats.md):
//  * WriteOptrace      chrometrace.json          (OP_TRACE)
//  * WriteHtpGraph     chrometrace_htp.json      (HTP_GRAPH)
//  * WriteQhas         chrometrace_qnn_htp_analysis_summary.json (QHAS)
//  * WriteRuntrace     chrometrace_runtrace.json (RUN_TRACE)
//  * WriteProfileText  profile_text.txt          (qnn-profile-viewer text)
// Contract: output is streamed (memory does not grow with the file size
// beyond the model itself and a few per-slice index arrays), deterministic in
// the model, and consistent across artifacts: the QHAS numbers are the
// trace's, the HTP graph's cycles_* are the trace's args, execution 1 of the
// profile prints the QHAS per-QNN-op cycles.
#pragma once

#include <cstdint>
#include <string>

#include "model.h"
#include "sink.h"

namespace htpscope::synth {

// What the optrace writer emitted, by event shape.
struct TraceCounts {
  uint64_t events = 0;               // traceEvents elements
  uint64_t executed_events = 0;      // X events on pid 0 with a Start Cycle (= slices)
  uint64_t duplicate_events = 0;     // their copies on per-QNN-op processes
  uint64_t non_executed_events = 0;  // tid-1 tensors
  uint64_t flow_events = 0;          // s + f
  uint64_t counter_events = 0;
  uint64_t metadata_events = 0;
  uint64_t processes = 0;  // per-QNN-op processes
};

TraceCounts WriteOptrace(const Model& model, OutputFile& out);

// Returns the number of graph nodes written.
uint64_t WriteHtpGraph(const Model& model, OutputFile& out);

void WriteQhas(const Model& model, OutputFile& out);
void WriteRuntrace(const Model& model, OutputFile& out);
void WriteProfileText(const Model& model, OutputFile& out);

// Number formats of the real files.
std::string HexId16(uint64_t id);            // "0x0000104900000002" (optrace, HTP graph)
std::string HexIdShort(uint64_t id);         // "0x104900000002" (QHAS)
std::string FormatG(double value);           // C "%g": "1.09911", "1.92e+06", "1"
std::string FormatJsonDouble(double value);  // shortest round trip, always a fraction: "1.0"

}  // namespace htpscope::synth
