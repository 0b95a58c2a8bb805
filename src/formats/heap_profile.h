// DSP heap checkpoints (primer §9, formats.md §6) and the QNN JSON profile
// reader's output (artifact_type QNN_PROFILE, formats.md §5.4).
//
// With DSP memory profiling enabled, context creation from a binary emits
// "DSP:before_context_created" (total DSP heap before the first context) and
// freeing the last context emits "DSP:after_context_freed", both in bytes.
// They are read here from:
//  * ExecuTorch's heap file (default htp_heap_usage.txt): one
//    "<identifier>, <value>" line per event, the identifier being the QNN
//    identifier plus ExecuTorch's unit suffix (" (bytes)"), e.g.
//    "DSP:before_context_created (bytes), 928212".  Lines are split at the
//    last comma; any other identifier is an error.
//  * qnn-profile-viewer text and CSV: metrics with exactly those names;
//  * QNN_PROFILE JSON: profilingEvents (and sub-events) with those identifiers.
// Values are whole, non-negative bytes.  This layer reads and locates the
// checkpoints in file order; whether a file holds exactly one of each, in the
// right order, is judged by analysis/heap.h.
//
// No real heap file, profile with heap events or QNN_PROFILE JSON has been
// seen: the shapes are second-hand (ExecuTorch's QnnProfiler.cpp and a
// third-party test fixture).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/heap_rows.h"
#include "formats/profile_text.h"

namespace htpscope {

// ---------------------------------------------------------------------------
// QNN_PROFILE JSON.

// One profiling event: {"identifier", "unit", "type", "value", "sub-events"}.
struct QnnProfileEvent {
  std::string identifier;  // "Accelerator (execute) time (cycles)", "DSP:before_context_created"
  std::string unit;        // as written: "MICROSEC", "CYCLES", "COUNT", "BYTES", ...
  std::string type;        // "", "INIT", "EXECUTE", "NODE", "DEINIT", ...
  double value = 0;
  std::optional<int64_t> integer_value;  // set when the value is a whole number fitting int64
  bool has_value = false;
  uint64_t byte_offset = 0;  // where the event object starts in the file
  std::vector<QnnProfileEvent> sub_events;
};

// One element of "messages": {"method": "BACKEND_EXECUTE", "profilingEvents": [...]}.
struct QnnProfileMessage {
  std::string method;  // "BACKEND_CREATE_FROM_BINARY", "BACKEND_EXECUTE", "BACKEND_DEINIT", ...
  std::vector<QnnProfileEvent> events;
};

struct QnnProfileJson {
  std::string path;
  std::map<std::string, std::string> metadata;  // appName, appVersion, backendVersion, ...
  std::vector<QnnProfileMessage> messages;
  std::vector<std::string> warnings;
};

// Reads a QNN_PROFILE JSON file (plain or gzip).  Throws InputError naming
// the file and byte offset on malformed JSON, a header of another type, or
// fields of the wrong type.
QnnProfileJson ReadQnnProfileJson(const std::string& path);
QnnProfileJson ParseQnnProfileJson(const std::string& path, std::string_view json);

// ---------------------------------------------------------------------------
// DSP heap checkpoints (base/heap_rows.h).

enum class HeapSourceFormat { kExecuTorchHeapFile, kProfileText, kProfileCsv, kQnnProfileJson };
const char* HeapSourceFormatName(HeapSourceFormat format);

struct HeapCheckpoints {
  std::string path;
  HeapSourceFormat format = HeapSourceFormat::kExecuTorchHeapFile;
  std::vector<HeapCheckpoint> checkpoints;  // in file order
  std::vector<std::string> warnings;
};

// Reads ExecuTorch's heap file.  Throws InputError naming the file and line
// for a line without a comma, an unknown identifier, a unit other than
// bytes, or a value that is not a whole non-negative number of bytes.
HeapCheckpoints ParseExecuTorchHeapFile(const std::string& path, std::string_view text);

// The checkpoints of profile-viewer text or CSV output.  `report` must have
// been parsed from `text` (the lines are searched again to give each
// checkpoint its line).  Throws InputError when a checkpoint is not in bytes
// or when a line names a checkpoint the profile reader took no value from.
HeapCheckpoints HeapCheckpointsFromProfile(const ProfileReport& report, std::string_view text);

// The checkpoints of a QNN_PROFILE JSON (events and sub-events, document
// order).  Throws InputError (with the event's byte offset) when a
// checkpoint's unit is not BYTES or its value is not whole and non-negative.
HeapCheckpoints HeapCheckpointsFromQnnProfile(const QnnProfileJson& profile);

// The format of checkpoints whose file starts with `prefix` (its first
// kArtifactSniffBytes, or all of it when shorter), by content: profile-viewer
// CSV or text, JSON read as QNN_PROFILE (its header's type, or none), else
// ExecuTorch's heap file.  nullopt for JSON of another artifact type, whose
// type `*artifact_type` then receives.
std::optional<HeapSourceFormat> DetectHeapSourceFormat(std::string_view prefix,
                                                       std::string* artifact_type = nullptr);
// The same for the file at `path` (plain or gzip).  Throws InputError only
// when it cannot be opened.
std::optional<HeapSourceFormat> DetectHeapSourceFormatOf(const std::string& path);

// Reads the checkpoints of `path` (plain or gzip), recognising the format by
// content (DetectHeapSourceFormat).  Throws InputError on unreadable or
// malformed input, and for JSON of another artifact type.
HeapCheckpoints ReadHeapCheckpoints(const std::string& path);

}  // namespace htpscope
