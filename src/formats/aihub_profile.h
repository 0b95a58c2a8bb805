// Qualcomm AI Hub profiles: the dict qai_hub's ProfileJob.download_profile()
// returns (client.py, _profile_pb_to_python_dict), as users save it with
// json.dump (download_profile(filename) writes it the same way).  Definition
// and what is read: docs/formats-beyond-sdk.md.
//
//   {"execution_summary": {"estimated_inference_time": 3652,          µs
//                          "estimated_inference_peak_memory": 166711296,  bytes
//                          "first_load_time": ..., "warm_load_time": ..., "compile_time": ...,
//                          "*_peak_memory": ...,
//                          "inference_memory_peak_range": [2654208, 39406752], ...
//                          "all_inference_times": [10003, 4205], ...},
//    "execution_detail": [{"name": "...", "type": "MUL", "compute_unit": "CPU",
//                          "execution_time": 23, "execution_cycles": 180315}, ...]}
//
// Layouts, oldest first (the client's history):
//  * tetra_hub: execution_summary {execution_time, load_time,
//    peak_memory_usage}; compute_unit the enum name as written ("NPU");
//  * qai_hub, profile major version 0: estimated_inference_time,
//    first_load_time and compile_peak_memory set, the other figures null;
//  * major version 1: every *_time and *_peak_memory; from minor 1 the
//    *_memory_{increase,peak}_range pairs (null when unmeasured); from minor
//    2 the all_*_times lists; per layer execution_time / execution_cycles
//    only where measured.  compute_unit lost its "COMPUTE_UNIT_" prefix in
//    later clients; both spellings are read.
#pragma once

#include <simdjson.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace htpscope {

// The stages AI Hub measures, in the order the client lists them.
enum class AihubStage : uint8_t { kCompile, kFirstLoad, kWarmLoad, kInference };
inline constexpr int kAihubStages = 4;
// "compile", "first_load", "warm_load", "inference": the prefix of the keys.
const char* AihubStageName(AihubStage stage);

// Where a layer ran, from its compute_unit.
enum class AihubComputeUnit : uint8_t { kNpu, kGpu, kCpu, kUnspecified, kOther };
// "NPU", "GPU", "CPU", "UNSPECIFIED", "other".
const char* AihubComputeUnitName(AihubComputeUnit unit);
// "NPU", "COMPUTE_UNIT_NPU", ... → the unit; anything else → kOther.
AihubComputeUnit ParseAihubComputeUnit(std::string_view written);

enum class AihubLayout : uint8_t {
  kTetraHub,  // execution_time / load_time / peak_memory_usage
  kQaiHub,    // estimated_inference_time and the rest
};
const char* AihubLayoutName(AihubLayout layout);  // "tetra_hub", "qai_hub"

// [lower, upper] bytes, as the client writes a (lower, upper) tuple.
struct AihubByteRange {
  int64_t lower_bytes = 0, upper_bytes = 0;
};

struct AihubLayer {
  std::string name, type;
  std::string compute_unit;  // as written ("NPU", "COMPUTE_UNIT_CPU")
  AihubComputeUnit unit = AihubComputeUnit::kUnspecified;
  std::optional<int64_t> execution_time_us;  // absent when not measured
  std::optional<int64_t> execution_cycles;   // absent when not measured
};

struct AihubProfile {
  AihubLayout layout = AihubLayout::kQaiHub;
  // Each absent when the file has no such key or writes null (the client's
  // MISSING_METRIC_VALUE).  µs for times, bytes for memory.
  std::optional<int64_t> estimated_inference_time_us;  // tetra_hub: execution_time
  std::optional<int64_t> estimated_inference_peak_memory_bytes;
  std::optional<int64_t> first_load_time_us;  // tetra_hub: load_time
  std::optional<int64_t> first_load_peak_memory_bytes;
  std::optional<int64_t> warm_load_time_us;
  std::optional<int64_t> warm_load_peak_memory_bytes;
  std::optional<int64_t> compile_time_us;
  std::optional<int64_t> compile_peak_memory_bytes;  // tetra_hub: peak_memory_usage
  // By AihubStage: <stage>_memory_increase_range / _peak_range.
  std::array<std::optional<AihubByteRange>, kAihubStages> memory_increase, memory_peak;
  // By AihubStage: all_<stage>_times (µs), absent when the key is (clients
  // before profile minor version 2), empty when written empty.
  std::array<std::optional<std::vector<int64_t>>, kAihubStages> all_times_us;
  std::vector<AihubLayer> layers;  // execution_detail, in order
  // execution_summary keys the definition does not have, as written.
  std::vector<std::string> unknown_keys;
};

// True when `prefix` (the start of a file) is a JSON object whose first key
// is "execution_summary" or "execution_detail": the dict json.dump writes
// (in insertion order, or sorted).  Whether the rest is an AI Hub profile is
// the reader's to say.
bool LooksLikeAihubProfile(std::string_view prefix);

// Reads the profile at `path` (plain or gzip).  Throws InputError naming the
// file, the byte offset and what is wrong: malformed JSON, a missing
// execution_summary or execution_detail, a summary without the inference
// time every layout writes, a layer without name/type/compute_unit, a value
// of the wrong type or a negative time.
AihubProfile ReadAihubProfile(const std::string& path);
AihubProfile ParseAihubProfile(const std::string& path, const simdjson::padded_string& json);

}  // namespace htpscope
