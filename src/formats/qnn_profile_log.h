// Reader for the binary profiling log qnn-net-run writes with
// --profiling_level basic|detailed (qnn-profiling-data_N.log), which
// otherwise only the SDK's x86 qnn-profile-viewer turns into text or CSV.
//
// The log is a size-prefixed FlatBuffers buffer; its layout, recovered from
// QAIRT 2.47 logs and the CSV the viewer printed from each, is
// src/formats/qnn_profile_log.fbs and docs/profile-readers.md ("The binary
// log").  The buffer is verified (flatbuffers::Verifier) before anything is
// read; the log's events are then laid out as the rows qnn-profile-viewer's
// CSV prints for them (same Msg Timestamp, Message, Time, unit, source, level
// and identifier, in the viewer's order) and read by the CSV reader, so that
// a log and its CSV give the same ProfileReport (blocks, metrics, nodes,
// graphs, executions, timestamps) and phase handling lives in one place.
//
// Refused (InputError naming the file and a byte offset): a buffer that is
// truncated, has bytes after it or does not verify; a header whose magic or
// layout number is not the one seen (another version); a table with a field
// this layout does not know; an unknown phase kind or event unit; a phase
// without the fields its rows need.  Nothing is read from a refused log.
//
// The INIT row the viewer prints is the INIT, COMPOSE GRAPHS and FINALIZE
// spans summed (the log's INIT record alone holds ~0.1 ms).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "formats/profile_text.h"

namespace htpscope {

// False when htpscope was built without FlatBuffers (flatc and headers not
// found at configure time): ParseQnnProfileLog then refuses every log.
bool QnnProfileLogSupported();

// True when `prefix` (the first bytes of a file) starts like a qnn-net-run
// profiling log: a size prefix, then a root table of exactly the log's two
// fields.  The whole buffer is checked only when it is read.
bool LooksLikeQnnProfileLog(std::string_view prefix);

// One row as qnn-profile-viewer's CSV prints it for an event of the log.
struct QnnLogRow {
  uint64_t timestamp_us = 0;  // Msg Timestamp: the phase record's, QNN profiling clock
  std::string message;        // "EXECUTE", "FINALIZE", "EXECUTE IPS", ...
  std::string time;           // the value as printed: "7499", "197.246445"
  std::string unit;           // "US", "CYCLES", "COUNT", "BYTES", "INF/SEC"
  std::string source;         // "NETRUN" (from the phase record) or "BACKEND" (an event)
  int depth = 0;              // 0 ROOT, 1 SUB-EVENT, 2 SUB-SUB-EVENT, ...
  std::string identifier;     // "null", "Graph 0: NAME", the event's identifier
  uint64_t byte_offset = 0;   // of the phase or event table in the file
};

// What a log holds, decoded and checked.
struct QnnLogContent {
  std::string application;          // "qnn-net-run"
  std::string application_version;  // "v2.47.0.260601114230"
  std::string backend_version;
  uint64_t epoch_us = 0;        // wall clock (µs since 1970) when the log was opened
  uint64_t clock_us = 0;        // the profiling clock (µs) at that instant
  std::vector<QnnLogRow> rows;  // in qnn-profile-viewer's order
};

// Decodes `bytes` (the whole file).  Throws InputError naming `path` and the
// byte offset of what is not understood.
QnnLogContent DecodeQnnProfileLog(const std::string& path, std::string_view bytes);

// The rows as qnn-profile-viewer's CSV (preamble: the log's location and
// versions; then the header and the rows), and for each line of it (index =
// 1-based line) the byte offset in the log it comes from.
std::string QnnLogAsCsv(const std::string& path, const QnnLogContent& content,
                        std::vector<uint64_t>* line_offsets = nullptr);

// Reads a log into the ProfileReport the CSV reader gives for the viewer's
// CSV of it (format kQnnLog; header: the log's location and versions; no
// viewer version).  Warnings name the event's byte offset.  Throws InputError
// naming the file and a byte offset.
ProfileReport ReadQnnProfileLog(const std::string& path);
ProfileReport ParseQnnProfileLog(const std::string& path, std::string_view bytes);

}  // namespace htpscope
