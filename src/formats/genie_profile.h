// Genie profiles: the JSON `genie-t2t-run --profile FILE` (QAIRT's LLM
// runtime, GenieProfile_getJsonData) writes.  Definition and what is read:
// docs/formats-beyond-sdk.md.
//
//   {"header": {"header_version": {"major": 0, "minor": 1, "patch": 0},
//               "version": {...}, "artifact_type": "GENIE_PROFILE"},
//    "metadata": {"timestamp": 123456789},                           µs
//    "components": [{"name": "dialog0", "type": "dialog", "events": [
//       {"type": "GenieDialog_create", "duration": 1200, "start": ..., "stop": ...,   µs
//        "init-time": {"value": 1180000, "unit": "us"}},
//       {"type": "GenieDialog_query", "duration": ..., "start": ..., "stop": ...,
//        "num-prompt-tokens": {"value": 12, "unit": ""},
//        "prompt-processing-rate": {"value": 412.5, "unit": "toks/sec"},
//        "time-to-first-token": {"value": 29090, "unit": "us"},
//        "num-generated-tokens": {"value": 100, "unit": ""},
//        "token-generation-rate": {"value": 21.7, "unit": "toks/sec"},
//        "token-generation-time": {"value": 4608000, "unit": "us"}},
//       {"type": "GenieDialog_free", "duration": ..., "start": ..., "stop": ...}]}],
//    "traceEvents": [...]}                                 (trace profiling only; not read)
//
// Every event's metrics are kept as written (name, value, unit); those the
// definition gives a unit are checked against it.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace htpscope {

struct GenieMetric {
  std::string name;  // "time-to-first-token"
  double value = 0;
  std::string unit;  // as written: "us", "toks/sec", "toks/iteration", "bytes", "cycles", ""
};

struct GenieEvent {
  std::string type;  // "GenieDialog_query", ...
  int64_t start_us = 0, duration_us = 0;
  std::optional<int64_t> stop_us;    // start + duration as written; absent in none we know
  std::vector<GenieMetric> metrics;  // in file order
  const GenieMetric* Find(std::string_view name) const;
};

struct GenieComponent {
  std::string name;                // "dialog0"
  std::string type;                // "dialog", "embedding", "engine", "pipeline", "node"
  std::vector<GenieEvent> events;  // in file order
};

struct GenieProfile {
  std::string header_version, version;  // "major.minor.patch"
  std::optional<int64_t> timestamp_us;  // metadata.timestamp
  std::vector<GenieComponent> components;
  bool has_trace_events = false;  // "traceEvents" present (not read)
};

// Reads the profile at `path` (plain or gzip).  Throws InputError naming the
// file, the byte offset and what is wrong: malformed JSON, a header whose
// artifact_type is not GENIE_PROFILE, no components, an event without type,
// start or duration, a metric that is not {"value": number, "unit": string},
// or a metric whose unit differs from the definition's (time-to-first-token
// in "us", rates in "toks/sec", ...).
GenieProfile ReadGenieProfile(const std::string& path);
GenieProfile ParseGenieProfile(const std::string& path, const simdjson::padded_string& json);

}  // namespace htpscope
