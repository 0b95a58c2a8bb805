// Malformed input, reader by reader: every reader either reads an input or
// rejects it with an InputError that names the file and says where (byte
// offset or line) and what was expected; damage that leaves the rest usable
// gives a warning instead.  Never a crash, a hang, or a silently wrong figure.
// The table in docs/robustness.md lists these tests by input class.
#include <fnmatch.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "formats/byte_source.h"
#include "formats/htp_graph.h"
#include "formats/input_error_test_util.h"
#include "formats/json_layout_test_util.h"
#include "formats/npy.h"
#include "formats/optrace.h"
#include "formats/qhas.h"
#include "formats/runtrace.h"
#include "formats/tensor_manifest.h"

namespace htpscope::malformed_input_test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kPath = "artifact.json";

// ---------------------------------------------------------------------------
// The readers under test, each with a small valid document that uses every
// key the reader reads.

constexpr const char* kOptrace = R"json({
 "header": {"header_version": {"major": 1, "minor": 0, "patch": 0},
            "version": {"major": 1, "minor": 1, "patch": 0}, "artifact_type": "OP_TRACE"},
 "traceEvents": [
  {"cat": "__metadata", "pid": 2, "ph": "M", "name": "process_name",
   "args": {"name": "QNN::conv_0", "opid": "0x0000000000000002"}},
  {"cat": "__metadata", "pid": 2, "ph": "M", "name": "process_sort_index",
   "args": {"sort_index": 2}},
  {"cat": "__metadata", "pid": 0, "tid": 256, "ph": "M", "name": "thread_name",
   "args": {"name": "Type: HMX"}},
  {"name": "ConvLayer.opt", "ph": "X", "tid": 256, "pid": 0, "ts": 10, "dur": 300,
   "args": {"ID": "0x0000104900000002", "HTP Op Type": "ConvLayer.opt", "Dims": [1, 8, 8, 16],
            "Data Type": "QUInt8", "Rank": 4, "Step Size": 0.5, "Zero Offset": 0,
            "Inputs Ops": ["0x0000000000000011"], "Flags": ["uses_hmx"],
            "Cycles per Packet": 2.5, "QNN Op Type": "Conv2d", "QNN Op Name": "conv_0",
            "Description": "a convolution", "Start Cycle": 1000010,
            "Duration (cycles)" : 300,
                     "Dominant Path Cycles" : 300
}
},
  {"name": "ConvLayer.opt", "ph": "X", "tid": 256, "pid": 2, "ts": 10, "dur": 300,
   "args": {"ID": "0x0000104900000002", "Start Cycle": 1000010}},
  {"name": "VTCM alloc", "ph": "C", "tid": 0, "pid": 0, "ts": 10, "args": {"": 65536}},
  {"cat": "input_output", "name": "InputOutputFlowEvents", "tid": 1, "pid": 0, "ts": 8,
   "ph": "s", "id": 0},
  {"cat": "input_output", "name": "InputOutputFlowEvents", "tid": 256, "pid": 0, "ts": 10,
   "ph": "f", "bp": "e", "id": 0}
 ]
})json";

constexpr const char* kRuntrace = R"json({
 "header": {"header_version": {"major": 1, "minor": 0, "patch": 0},
            "version": {"major": 1, "minor": 1, "patch": 0}, "artifact_type": "RUN_TRACE"},
 "traceEvents": [
  {"cat": "__metadata", "pid": 0, "tid": 0, "ph": "M", "name": "thread_name",
   "args": {"name": "Run"}},
  {"name": "QNN DSP Execute", "ph": "X", "tid": 0, "pid": 0, "ts": 0, "dur": 2000,
   "args": {"graph_name": "model", "stat_start_ticks": 1000, "stat_end_ticks": 3000,
            "stat_start_cycles": 500000, "stat_end_cycles": 600000,
            "summary_htp_frequency_ghz": 1.0, "summary_inf/s": 1000.0,
            "summary_time_us": 104.1}},
  {"name": "Graph Execute", "ph": "X", "tid": 0, "pid": 0, "ts": 300, "dur": 1600,
   "args": {"graph_name": "model", "stat_start_ticks": 1300, "stat_end_ticks": 2900,
            "stat_start_cycles": 515000, "stat_end_cycles": 595000,
            "summary_htp_frequency_ghz": 0.96, "summary_inf/s": 1200.0,
            "summary_time_us": 83.3}}
 ]})json";

constexpr const char* kHtpGraph = R"json({
 "header": {"header_version": {"major": 1, "minor": 0, "patch": 0},
            "version": {"major": 1, "minor": 0, "patch": 0}, "artifact_type": "HTP_GRAPH"},
 "model.cpp": "htp_graph",
 "op_types": ["ConvLayer.opt"],
 "graph": {
  "tensors": {
   "0x0000000000000011": {"id": 0, "type": 4, "data_type": 1032, "dims": [16]}},
  "nodes": {
   "0x0000104900000002": {"type": "ConvLayer.opt", "grouping": "conv_0",
     "input_names": ["0x0000000000000011"], "output_names": ["0x0000104900000002"],
     "scalar_params": {"cycles": {"100": 300}}}}}})json";

constexpr const char* kQhas = R"json({
 "header": {"header_version": {"major": 1, "minor": 0, "patch": 0},
            "version": {"major": 1, "minor": 0, "patch": 0}, "artifact_type": "QHAS"},
 "model_id": "model",
 "data": {
  "htp_overall_summary": {"data": [{
    "htp": 0, "percent_idle": 10.5, "percent_utilization": 89.5, "time_us": 12.5,
    "graph_execute_us": 20.0, "inf_per_s": 50000.0, "timeline_cycles": 425,
    "total_dram_read": 1024, "total_dram_write": 0, "total_dram": 1024,
    "total_vtcm_read": 2048, "total_vtcm_write": 4096, "total_vtcm": 6144,
    "peak_vtcm_alloc": 65536, "unique_qnn_ops": 1, "qnn_nodes": 1, "unique_htp_ops": 1,
    "htp_nodes": 1,
    "htp_resources": {"data": [{"type": "HMX", "tid": 256, "start_cycle": 1000010,
      "end_cycle": 1000425, "timeline_cycles": 415, "cycles_used": 305, "utilization": 73.5,
      "dram_read": 1024, "dram_write": 0, "vtcm_read": 2048, "vtcm_write": 4096}]}}]},
  "qnn_op_types": {"data": [{"qnn_op_type": "Conv2d", "cycles": 300,
    "percent_active_cycles": 70.0, "num_dominant_path_cycles": 300,
    "percent_dominant_path_cycles": 70.0, "instances": 1, "dram_read": 1}]},
  "qnn_op_instances_nodes": {"data": [{"qnn_op": "conv_0", "qnn_op_type": "Conv2d",
    "cycles": 300, "num_htp_ops": 1, "format_change": false, "reference_op": false}]},
  "htp_op_types": {"data": [{"op": "ConvLayer.opt", "cycles": 300,
    "num_dominant_path_cycles_htp_0": 300, "instances": 1}]},
  "htp_op_instances": {"data": [{"htp": 0, "tid": 256, "op_id": "0x0000104900000002",
    "htp_op": "ConvLayer.opt", "qnn_op": "conv_0", "qnn_op_type": "Conv2d", "dtype": "QUInt8",
    "rank": 4, "dims": [1, 8, 8, 16], "step_size": 0.5, "zero_offset": 0,
    "input_nodes": ["0x0000000000000011"], "start_cycle": 1000010, "cycles": 300,
    "num_dominant_path_cycles": 300, "percent_dominant_path_cycles": 70.0,
    "cycles_per_packet": 2.5, "fmt_change": false, "ref_op": false, "hmx": true, "hvx": false,
    "dma_wait": false, "dma_set": false, "dma": false, "sync": false, "vtcm_write": 4096}]},
  "dominant_path_htp_0": {"data": [{"op_id": "0x0000104900000002", "htp_op": "ConvLayer.opt",
    "qnn_op": "conv_0", "start_cycle": 1000010, "end_cycle": 1000310, "partial": false,
    "dp_cycles": 300, "cycles": 300}]}}})json";

// Files the manifest refers to: a.raw (16 bytes) and b.npy (float32 [2, 2]).
constexpr const char* kManifest = R"json({
 "version": 1, "producer": "test",
 "tensors": [
  {"name": "raw_a", "file": "a.raw", "dtype": "uint8", "shape": [1, 4, 4], "layout": "NCW",
   "quantization": {"scale": 0.5, "offset": 3}, "debug_handle": 3, "output_index": 0,
   "ops": ["conv_0"]},
  {"name": "raw_a16", "file": "a.raw", "dtype": "int16", "shape": [2, 4], "byte_order": "big",
   "quantization": {"scale": [0.1, 0.2], "qnn_offset": [1, 2], "axis": 0}, "ops": "relu_1"},
  {"name": "b", "file": "b.npy", "shape": [2, 2], "dtype": "float32", "layout": null}]})json";

std::string NpyBytes(const std::string& dict, const std::string& payload, int version = 1) {
  std::string text = dict;
  size_t length_bytes = version == 1 ? 2 : 4;
  while ((8 + length_bytes + text.size() + 1) % 64 != 0) text += ' ';
  text += '\n';
  std::string out = std::string("\x93NUMPY", 6) + char(version) + '\0';
  for (size_t i = 0; i < length_bytes; ++i) out += char((text.size() >> (8 * i)) & 0xff);
  return out + text + payload;
}

const std::string& ManifestDir() {
  static const std::string dir = [] {
    std::string d = testing_support::TempDir("malformed_manifest");
    std::ofstream(d + "/a.raw", std::ios::binary) << std::string(16, '\x01');
    std::ofstream(d + "/b.npy", std::ios::binary) << NpyBytes(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", std::string(16, '\0'));
    return d;
  }();
  return dir;
}

struct Reader {
  std::string name;
  // Parses `content` as if read from `path`; returns the reader's warnings.
  std::function<std::vector<std::string>(const std::string& path, std::string_view content)> parse;
  std::string minimal;
  // JSON pointers (fnmatch patterns) whose removal must be an error; removing
  // any other member must still read.
  std::vector<std::string> required;
  // Members whose type is not checked: keys the reader does not read, or
  // that take several types.  A wrong type anywhere else must be an error.
  std::vector<std::string> any_type;
  std::string corpus_file;  // the same artifact in a real run directory
};

std::vector<Reader> JsonReaders() {
  return {
      {"optrace",
       [](const std::string& path, std::string_view s) {
         return ParseOptrace(path, s.data(), s.size()).warnings;
       },
       kOptrace,
       {"/header", "/header/artifact_type", "/traceEvents",
        // every X event needs pid, tid, ts and dur; flows need pid and tid;
        // metadata needs pid, thread names also tid
        "/traceEvents/[34]/pid", "/traceEvents/[34]/tid", "/traceEvents/[34]/ts",
        "/traceEvents/[34]/dur", "/traceEvents/[67]/pid", "/traceEvents/[67]/tid",
        "/traceEvents/[012]/pid", "/traceEvents/2/tid"},
       {"/header/header_version*", "/traceEvents/7/bp"},
       "chrometrace.json"},
      {"runtrace",
       [](const std::string& path, std::string_view s) { return ParseRuntrace(path, s).warnings; },
       kRuntrace,
       {"/header", "/header/artifact_type", "/traceEvents", "/traceEvents/[12]/args",
        "/traceEvents/[12]/args/stat_start_ticks", "/traceEvents/[12]/args/stat_end_ticks"},
       {"/header/header_version*", "/traceEvents/*/cat", "/traceEvents/*/pid", "/traceEvents/*/tid",
        "/traceEvents/*/ts", "/traceEvents/*/dur", "/traceEvents/0/args/name",
        "/traceEvents/*/args/summary_inf~1s"},
       "chrometrace_runtrace.json"},
      {"htp_graph",
       [](const std::string& path, std::string_view s) {
         ParseHtpGraph(path, s);
         return std::vector<std::string>{};
       },
       kHtpGraph,
       {"/header", "/header/artifact_type", "/graph",
        // a scalar param is a one-member {"<type code>": value} object
        "/graph/nodes/*/scalar_params/cycles/100"},
       {"/header/header_version*", "/model.cpp",
        // a scalar param's value may be a string, number or boolean
        "/graph/nodes/*/scalar_params/cycles/100"},
       "chrometrace_htp.json"},
      {"qhas",
       [](const std::string& path, std::string_view s) { return ParseQhas(path, s).warnings; },
       kQhas,
       {"/header", "/header/artifact_type", "/data"},
       {"/header/header_version*"},
       "chrometrace_qnn_htp_analysis_summary.json"},
      {"tensor_manifest",
       [](const std::string& path, std::string_view s) {
         ParseTensorManifest(path, simdjson::padded_string(s), ManifestDir());
         return std::vector<std::string>{};
       },
       kManifest,
       {"/tensors", "/tensors/*/name",
        // raw files need dtype and shape; quantization needs a scale
        "/tensors/[01]/dtype", "/tensors/[01]/shape", "/tensors/*/quantization/scale",
        // without them the per-axis quantization no longer fits the tensor
        "/tensors/1/quantization/axis",
        // the default file name, <name>.raw, does not exist
        "/tensors/*/file"},
       {"/producer",
        // number or list; null or string/object
        "/tensors/*/quantization/scale", "/tensors/*/quantization/offset",
        "/tensors/*/quantization/qnn_offset", "/tensors/*/layout", "/tensors/*/ops",
        "/tensors/*/quantization"},
       ""},
  };
}

using testing_support::ErrorOf;

// The error names `path`, gives a byte offset inside the input (or one past
// its end), and its message says what was expected or found.
void ExpectLocated(const InputError& e, const std::string& path, size_t size) {
  EXPECT_EQ(e.file(), path) << e.what();
  ASSERT_TRUE(e.byte_offset().has_value()) << e.what();
  EXPECT_LE(*e.byte_offset(), size) << e.what();
  EXPECT_NE(std::string(e.what()).find(path + ": at byte " + std::to_string(*e.byte_offset())),
            std::string::npos)
      << e.what();
}

bool Matches(const std::vector<std::string>& patterns, const std::string& pointer) {
  for (const auto& p : patterns)
    if (fnmatch(p.c_str(), pointer.c_str(), 0) == 0) return true;
  return false;
}

// Every member and element of `j`, as JSON pointers.
void Walk(const json& j, const json::json_pointer& at, std::vector<json::json_pointer>* out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      auto child = at / it.key();
      out->push_back(child);
      Walk(it.value(), child, out);
    }
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) {
      auto child = at / i;
      out->push_back(child);
      Walk(j[i], child, out);
    }
  }
}

// The last object key on the pointer: what an error message must name.
std::string KeyOf(const json::json_pointer& pointer) {
  auto p = pointer;
  while (!p.empty()) {
    std::string key = p.back();
    if (key.empty() || key.find_first_not_of("0123456789") != std::string::npos) return key;
    p.pop_back();
  }
  return "";
}

TEST(MalformedInput, MinimalDocumentsRead) {
  for (const auto& r : JsonReaders()) {
    SCOPED_TRACE(r.name);
    auto error = ErrorOf([&] { r.parse(kPath, r.minimal); });
    EXPECT_FALSE(error) << error->what();
  }
}

TEST(MalformedInput, EmptyOrBlankFileIsAnErrorAtByteZero) {
  for (const auto& r : JsonReaders()) {
    for (std::string content : {"", " \n\t\n"}) {
      SCOPED_TRACE(r.name + " '" + content + "'");
      auto error = ErrorOf([&] { r.parse(kPath, content); });
      ASSERT_TRUE(error);
      ExpectLocated(*error, kPath, content.size());
      EXPECT_EQ(*error->byte_offset(), 0u);
      EXPECT_NE(error->problem().find("not valid JSON"), std::string::npos) << error->what();
    }
  }
}

// A cut anywhere is an error; only a cut in the trailing whitespace reads.
void ExpectTruncationsRejected(const Reader& r, const std::string& full, size_t stride) {
  size_t end_of_content = full.find_last_not_of(" \r\n\t") + 1;
  size_t cuts = 0;
  for (size_t cut = 0; cut < full.size(); cut += stride) {
    std::string part = full.substr(0, cut);
    auto error = ErrorOf([&] { r.parse(kPath, part); });
    if (cut >= end_of_content) continue;
    ++cuts;
    ASSERT_TRUE(error) << r.name << " accepted the first " << cut << " of " << full.size()
                       << " bytes";
    ExpectLocated(*error, kPath, part.size());
  }
  EXPECT_GT(cuts, 0u);
}

TEST(MalformedInput, TruncatedAtEvery7thByteOfConstructedDocuments) {
  for (const auto& r : JsonReaders()) {
    SCOPED_TRACE(r.name);
    // Pretty-printed, so that cuts fall in keys, values, strings and numbers.
    ExpectTruncationsRejected(r, json::parse(r.minimal).dump(1), 7);
  }
}

TEST(MalformedInput, TruncatedRealArtifacts) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  for (const auto& r : JsonReaders()) {
    if (r.corpus_file.empty()) continue;
    SCOPED_TRACE(r.name);
    std::ifstream in(testing_support::CorpusFile("v8c8_256", r.corpus_file), std::ios::binary);
    std::string full(std::istreambuf_iterator<char>(in), {});
    ASSERT_FALSE(full.empty());
    // ~150 cuts per file: every 97th byte of a small file, sparser (a prime
    // stride) for a large one, so the suite stays fast under sanitizers.
    size_t stride = std::max<size_t>(97, full.size() / 150 | 1);
    ExpectTruncationsRejected(r, full, stride);
  }
}

TEST(MalformedInput, WrongJsonTypeForEveryKeyIsALocatedError) {
  for (const auto& r : JsonReaders()) {
    json doc = json::parse(r.minimal);
    std::vector<json::json_pointer> pointers;
    Walk(doc, json::json_pointer(), &pointers);
    for (const auto& pointer : pointers) {
      SCOPED_TRACE(r.name + " " + pointer.to_string());
      json mutated = doc;
      const json& original = mutated[pointer];
      // A value of another type, with a marker to find where it sits.
      json wrong = original.is_string()   ? json(987654321)
                   : original.is_object() ? json::array({987654321})
                   : original.is_null()   ? json::array({987654321})
                                          : json("WRONG_TYPE_MARKER");
      if (original.is_array()) wrong = json::object({{"WRONG_TYPE_MARKER", 1}});
      mutated[pointer] = wrong;
      std::string text = mutated.dump();
      auto error = ErrorOf([&] { r.parse(kPath, text); });
      if (Matches(r.any_type, pointer.to_string())) continue;
      ASSERT_TRUE(error) << "accepted " << wrong.dump() << " at " << pointer.to_string();
      ExpectLocated(*error, kPath, text.size());
      std::string key = KeyOf(pointer);
      EXPECT_NE(error->problem().find(key), std::string::npos) << error->what();
      EXPECT_NE(error->problem().find("expected"), std::string::npos) << error->what();
      // The offset points at the wrong value (or just past it), not somewhere else.
      size_t marker =
          text.find(wrong.is_string() || wrong.is_object() ? "WRONG_TYPE_MARKER" : "987654321");
      ASSERT_NE(marker, std::string::npos);
      EXPECT_GE(*error->byte_offset() + 64, marker) << error->what();
      EXPECT_LE(*error->byte_offset(), marker + 64) << error->what();
    }
  }
}

TEST(MalformedInput, MissingRequiredKeysAreErrorsOthersAreOptional) {
  for (const auto& r : JsonReaders()) {
    json doc = json::parse(r.minimal);
    std::vector<json::json_pointer> pointers;
    Walk(doc, json::json_pointer(), &pointers);
    for (const auto& pointer : pointers) {
      json parent_of = doc[pointer.parent_pointer()];
      if (!parent_of.is_object()) continue;
      SCOPED_TRACE(r.name + " without " + pointer.to_string());
      json mutated = doc;
      mutated[pointer.parent_pointer()].erase(pointer.back());
      std::string text = mutated.dump();
      auto error = ErrorOf([&] { r.parse(kPath, text); });
      if (Matches(r.required, pointer.to_string())) {
        ASSERT_TRUE(error) << "read without " << pointer.to_string();
        ExpectLocated(*error, kPath, text.size());
      } else {
        EXPECT_FALSE(error) << error->what();
      }
    }
  }
}

// Replaces the first occurrence of `from` (which must exist) in `text`.
std::string Replace(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

const Reader& ReaderNamed(const std::vector<Reader>& readers, const std::string& name) {
  for (const auto& r : readers)
    if (r.name == name) return r;
  throw std::logic_error("no reader " + name);
}

struct Edit {
  std::string reader, from, to;
  std::string expect;  // in the error message
};

void ExpectErrors(const std::vector<Edit>& edits) {
  auto readers = JsonReaders();
  for (const auto& edit : edits) {
    SCOPED_TRACE(edit.reader + ": " + edit.from + " -> " + edit.to);
    std::string text = Replace(ReaderNamed(readers, edit.reader).minimal, edit.from, edit.to);
    auto error = ErrorOf([&] { ReaderNamed(readers, edit.reader).parse(kPath, text); });
    ASSERT_TRUE(error) << "accepted";
    ExpectLocated(*error, kPath, text.size());
    EXPECT_NE(std::string(error->what()).find(edit.expect), std::string::npos) << error->what();
  }
}

TEST(MalformedInput, NumbersBeyondInt64AreErrors) {
  const std::string big = "9223372036854775808", small = "-9223372036854775809";
  ExpectErrors({
      {"optrace", "\"ts\": 10", "\"ts\": " + big, "ts: expected an integer (number out of range)"},
      {"optrace", "\"Start Cycle\": 1000010", "\"Start Cycle\": " + small, "Start Cycle"},
      {"optrace", "\"Start Cycle\": 1000010", "\"Start Cycle\": 1e30", "expected an integer"},
      {"optrace", "\"Dims\": [1, 8", "\"Dims\": [" + big + ", 8", "Dims"},
      {"optrace", "\"Dims\": [1, 8", "\"Dims\": [4294967296, 8", "out of range"},
      {"optrace", "\"pid\": 0, \"ts\": 10", "\"pid\": 4294967296, \"ts\": 10", "pid"},
      {"runtrace", "\"stat_start_ticks\": 1000", "\"stat_start_ticks\": " + big,
       "stat_start_ticks: expected an integer"},
      {"runtrace", "\"stat_end_cycles\": 600000", "\"stat_end_cycles\": 1e19", "stat_end_cycles"},
      {"htp_graph", "\"dims\": [16]", "\"dims\": [" + big + "]", "dims"},
      {"qhas", "\"cycles_used\": 305", "\"cycles_used\": " + big, "cycles_used"},
      {"qhas", "\"tid\": 256", "\"tid\": 4294967296", "tid 4294967296 out of range"},
      {"qhas", "\"dp_cycles\": 300", "\"dp_cycles\": " + small, "dp_cycles"},
      {"tensor_manifest", "\"shape\": [1, 4, 4]", "\"shape\": [1, " + big + ", 4]", "shape"},
      {"tensor_manifest", "\"debug_handle\": 3", "\"debug_handle\": " + big, "debug_handle"},
  });
}

TEST(MalformedInput, NegativeNumbersWhereNoneCanBe) {
  ExpectErrors({
      {"optrace", "\"dur\": 300", "\"dur\": -300", "negative duration -300"},
      {"optrace", "\"pid\": 0, \"ts\": 10", "\"pid\": -1, \"ts\": 10",
       "pid: missing or out of range"},
      {"optrace", "\"tid\": 256, \"pid\": 0, \"ts\": 10", "\"tid\": -256, \"pid\": 0, \"ts\": 10",
       "tid: missing or out of range"},
      {"optrace", "\"Dims\": [1, 8", "\"Dims\": [-1, 8", "dimension -1 out of range"},
      {"qhas", "\"tid\": 256", "\"tid\": -1", "htp_resources.data[0].tid: -1 is negative"},
      {"qhas", "\"cycles\": 300", "\"cycles\": -300",
       "qnn_op_types.data[0].cycles: -300 is negative"},
      {"qhas", "\"vtcm_write\": 4096", "\"vtcm_write\": -1", "vtcm_write: -1 is negative"},
      {"runtrace", "\"stat_start_ticks\": 1000", "\"stat_start_ticks\": -9223372036854775807",
       "args.stat_start_ticks is negative"},
      {"runtrace", "\"stat_start_cycles\": 500000", "\"stat_start_cycles\": -1",
       "args.stat_start_cycles is negative"},
      {"tensor_manifest", "\"shape\": [1, 4, 4]", "\"shape\": [1, -4, -4]", "negative dimension"},
      {"tensor_manifest", "\"debug_handle\": 3", "\"debug_handle\": -3", "must not be negative"},
      {"tensor_manifest", "\"output_index\": 0", "\"output_index\": -1", "must not be negative"},
      {"tensor_manifest", "\"scale\": 0.5", "\"scale\": -0.5", "scale -0.5 is not > 0"},
  });
}

TEST(MalformedInput, NanAndInfinityAreNotJson) {
  for (std::string literal : {"NaN", "Infinity", "-Infinity", "nan", "1e309", "-1e400"}) {
    ExpectErrors({
        {"optrace", "\"Cycles per Packet\": 2.5", "\"Cycles per Packet\": " + literal,
         "Cycles per Packet"},
        {"runtrace", "\"summary_time_us\": 104.1", "\"summary_time_us\": " + literal,
         "summary_time_us"},
        {"qhas", "\"utilization\": 73.5", "\"utilization\": " + literal, "utilization"},
        {"tensor_manifest", "\"scale\": 0.5", "\"scale\": " + literal, "scale"},
    });
  }
}

TEST(MalformedInput, EventsEndingBeforeTheyStart) {
  ExpectErrors({
      {"optrace", "\"dur\": 300", "\"dur\": -1", "the event ends before it starts"},
      {"runtrace", "\"stat_end_ticks\": 3000", "\"stat_end_ticks\": 999",
       "ends (tick 999) before it starts (tick 1000)"},
      {"runtrace", "\"stat_end_cycles\": 600000", "\"stat_end_cycles\": 499999",
       "stat_end_cycles 499999 before stat_start_cycles 500000"},
      {"qhas", "\"end_cycle\": 1000425", "\"end_cycle\": 1000000",
       "htp_resources.data[0]: end_cycle 1000000 before start_cycle 1000010"},
      {"qhas", "\"end_cycle\": 1000310", "\"end_cycle\": 9",
       "dominant_path_htp_0.data[0]: end_cycle 9 before start_cycle 1000010"},
  });
}

TEST(MalformedInput, DuplicatedIdsAndNames) {
  std::string graph =
      Replace(kHtpGraph, R"("dims": [16]})", R"("dims": [16]}, "0x11": {"id": 1, "dims": [8]})");
  auto readers = JsonReaders();
  auto error = ErrorOf([&] { ReaderNamed(readers, "htp_graph").parse(kPath, graph); });
  ASSERT_TRUE(error);
  ExpectLocated(*error, kPath, graph.size());
  EXPECT_NE(error->problem().find("graph.tensors[\"0x11\"]: duplicate tensor id"),
            std::string::npos)
      << error->what();

  std::string nodes =
      Replace(kHtpGraph, R"("nodes": {)", R"("nodes": {"0x104900000002": {"type": "Other"}, )");
  error = ErrorOf([&] { ReaderNamed(readers, "htp_graph").parse(kPath, nodes); });
  ASSERT_TRUE(error);
  EXPECT_NE(error->problem().find("duplicate node id"), std::string::npos) << error->what();

  std::string manifest = Replace(kManifest, R"("name": "raw_a16")", R"("name": "raw_a")");
  error = ErrorOf([&] { ReaderNamed(readers, "tensor_manifest").parse(kPath, manifest); });
  ASSERT_TRUE(error);
  ExpectLocated(*error, kPath, manifest.size());
  EXPECT_NE(error->problem().find("tensors[1] \"raw_a\": name already used by tensors[0]"),
            std::string::npos)
      << error->what();
}

TEST(MalformedInput, NonUtf8BytesAreALocatedErrorNeverACrash) {
  for (const auto& r : JsonReaders()) {
    SCOPED_TRACE(r.name);
    // A Latin-1 name (0xe9), a lone continuation byte, and a truncated sequence.
    for (std::string bad : {"caf\xe9", "\x80", "\xe2\x82"}) {
      std::string text = r.minimal;
      size_t quote = text.find("\"", text.find("artifact_type") + 16);
      if (r.name == "tensor_manifest") quote = text.find("raw_a") - 1;
      text.insert(quote + 1, bad);
      auto error = ErrorOf([&] { r.parse(kPath, text); });
      ASSERT_TRUE(error) << "non-UTF-8 accepted";
      ExpectLocated(*error, kPath, text.size());
      EXPECT_NE(error->problem().find("UTF-8"), std::string::npos) << error->what();
    }
  }
}

TEST(MalformedInput, DeeplyNestedJsonIsAnErrorNotAStackOverflow) {
  const std::string open(100000, '['), close(100000, ']');
  for (const auto& r : JsonReaders()) {
    SCOPED_TRACE(r.name);
    // Unclosed, not an object, no artifact in it, and in place of a value
    // the reader reads: errors.
    std::string in_a_key = r.minimal;
    in_a_key.replace(in_a_key.find("\"header\":") + 9, 0, open + close + ", \"was\": ");
    if (r.name == "tensor_manifest") in_a_key = Replace(r.minimal, "[", "[" + open + close + ", ");
    for (const std::string& text :
         {open, open + close, "{\"x\": " + open + close + "}", "{\"x\": " + open + "}", in_a_key}) {
      auto error = ErrorOf([&] { r.parse(kPath, text); });
      ASSERT_TRUE(error) << "accepted " << text.size() << " bytes of nesting";
      ExpectLocated(*error, kPath, text.size());
    }
    // Well-formed nesting under a key the reader does not read is skipped,
    // without recursion.
    std::string skipped = Replace(r.minimal, "{", "{\"deep\": " + open + close + ", ");
    auto error = ErrorOf([&] { r.parse(kPath, skipped); });
    EXPECT_FALSE(error) << error->what();
  }
}

// ---------------------------------------------------------------------------
// .npy: length fields and shapes that claim more than the file holds.

TEST(MalformedInput, NpyLengthFieldsClaimingGigabytes) {
  const std::string path = "t.npy";
  // Version 2 header length field saying 0xffffffff bytes (4 GiB).
  std::string huge = std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12) + "{}";
  auto error = ErrorOf([&] { ParseNpyHeader(path, huge); });
  ASSERT_TRUE(error);
  ExpectLocated(*error, path, huge.size());
  EXPECT_EQ(*error->byte_offset(), 8u);
  EXPECT_NE(error->problem().find("npy header claims 4294967295 bytes"), std::string::npos)
      << error->what();
  // Version 1 header length 65535 in a 12-byte file.
  std::string short_file = std::string("\x93NUMPY\x01\x00\xff\xff{}", 12);
  error = ErrorOf([&] { ParseNpyHeader(path, short_file); });
  ASSERT_TRUE(error);
  EXPECT_EQ(*error->byte_offset(), 12u);
  EXPECT_NE(error->problem().find("file ends inside the .npy header"), std::string::npos)
      << error->what();
  // A shape whose element count overflows 2^64, and one of 2^62 float64
  // elements (2^65 bytes) in a tiny file.
  std::string overflow = NpyBytes(
      "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296, 2), }", "");
  error = ErrorOf([&] { ParseNpyHeader(path, overflow); });
  ASSERT_TRUE(error);
  EXPECT_NE(error->problem().find("shape [4294967296, 4294967296, 2] is too large"),
            std::string::npos)
      << error->what();
  std::string dir = testing_support::TempDir("npy_huge");
  std::string claims =
      NpyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,), }", "");
  std::ofstream(dir + "/claims.npy", std::ios::binary) << claims;
  NpyHeader header = ReadNpyHeader(dir + "/claims.npy");
  error = ErrorOf([&] { TensorFileReader("claims", NpyTensorData(dir + "/claims.npy", header)); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->file(), dir + "/claims.npy");
  EXPECT_NE(error->problem().find("is too large"), std::string::npos) << error->what();
  // A dimension past int64.
  std::string past =
      NpyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", "");
  error = ErrorOf([&] { ParseNpyHeader(path, past); });
  ASSERT_TRUE(error);
  EXPECT_NE(error->problem().find("dimension too large"), std::string::npos) << error->what();
}

TEST(MalformedInput, NpyTruncatedAtEveryByteAndEmpty) {
  const std::string path = "t.npy";
  std::string full =
      NpyBytes("{'descr': '<i2', 'fortran_order': False, 'shape': (3, 2), }", std::string(12, 'x'));
  size_t header_end = full.size() - 12;
  for (size_t cut = 0; cut < header_end; ++cut) {
    std::string part = full.substr(0, cut);
    auto error = ErrorOf([&] { ParseNpyHeader(path, part); });
    ASSERT_TRUE(error) << "cut at " << cut;
    ExpectLocated(*error, path, part.size());
  }
  // Cut in the data: the header reads; opening the tensor says how much is missing.
  std::string dir = testing_support::TempDir("npy_cut");
  std::ofstream(dir + "/cut.npy", std::ios::binary) << full.substr(0, full.size() - 5);
  NpyHeader header = ReadNpyHeader(dir + "/cut.npy");
  auto error = ErrorOf([&] { TensorFileReader("cut", NpyTensorData(dir + "/cut.npy", header)); });
  ASSERT_TRUE(error);
  EXPECT_NE(error->problem().find("file has 135 bytes but 128-byte header + int16 × [3, 2] = 6 "
                                  "elements needs 140 bytes (file truncated"),
            std::string::npos)
      << error->what();
}

// ---------------------------------------------------------------------------
// The gzip layer: every reader reads compressed files through it.

using testing_support::Gzip;

std::string WriteFile(const std::string& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

TEST(MalformedInput, GzipTruncatedAtEvery97thByte) {
  std::string dir = testing_support::TempDir("gz_cut");
  std::string content = json::parse(kOptrace).dump(1);
  for (int i = 0; i < 6; ++i) content += content;  // ~ 150 KB, several deflate blocks
  std::string gz = Gzip(content);
  ASSERT_EQ(
      std::string(ReadWholeFile(WriteFile(dir + "/full.gz", gz)).bytes.data(), content.size()),
      content);
  for (size_t cut = 2; cut < gz.size(); cut += 97) {
    std::string path = WriteFile(dir + "/cut.gz", gz.substr(0, cut));
    auto error = ErrorOf([&] { ReadWholeFile(path); });
    ASSERT_TRUE(error) << "cut at " << cut << " of " << gz.size();
    ExpectLocated(*error, path, cut);
  }
}

TEST(MalformedInput, GzipCorruptStreamsAreLocatedErrors) {
  std::string dir = testing_support::TempDir("gz_corrupt");
  std::string content = json::parse(kQhas).dump(1);
  std::string gz = Gzip(content);
  struct Damage {
    std::string name;
    std::string bytes;
    std::string expect;
  };
  std::string bad_crc = gz, bad_size = gz, bad_method = gz;
  bad_crc[gz.size() - 8] = static_cast<char>(bad_crc[gz.size() - 8] ^ 0xff);
  // ISIZE claims 2 GiB.
  bad_size.replace(gz.size() - 4, 4, std::string("\x00\x00\x00\x80", 4));
  bad_method[2] = 7;  // compression method other than deflate
  std::vector<Damage> damages = {
      {"crc", bad_crc, "corrupt gzip stream: incorrect data check"},
      {"isize", bad_size, "corrupt gzip stream: incorrect data check"},
      {"method", bad_method, "corrupt gzip stream: unknown compression method"},
      {"second member cut", gz + gz.substr(0, 20), "gzip stream is truncated"},
      {"magic only", std::string("\x1f\x8b", 2), "gzip stream is truncated"},
  };
  for (const auto& d : damages) {
    SCOPED_TRACE(d.name);
    std::string path = WriteFile(dir + "/" + d.name, d.bytes);
    auto error = ErrorOf([&] { ReadWholeFile(path); });
    ASSERT_TRUE(error);
    ExpectLocated(*error, path, d.bytes.size());
    EXPECT_NE(error->problem().find(d.expect), std::string::npos) << error->what();
  }
  // Flipped bits in the deflate data: an error or (rarely) other bytes, never a crash.
  size_t errors = 0;
  for (size_t at = 10; at < gz.size() - 8; at += 17) {
    std::string flipped = gz;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x10);
    std::string path = WriteFile(dir + "/flipped", flipped);
    auto error = ErrorOf([&] { ReadWholeFile(path); });
    if (error) {
      ++errors;
      ExpectLocated(*error, path, flipped.size());
    }
  }
  EXPECT_GT(errors, 0u);
}

TEST(MalformedInput, EveryJsonReaderThroughGzip) {
  std::string dir = testing_support::TempDir("gz_readers");
  std::string gz = Gzip(kRuntrace);
  EXPECT_EQ(ReadRuntrace(WriteFile(dir + "/ok.gz", gz)).executions.size(), 1u);
  std::string cut = WriteFile(dir + "/cut.gz", gz.substr(0, gz.size() / 2));
  for (auto read : std::vector<std::function<void(const std::string&)>>{
           [](const std::string& p) { ReadOptrace(p); },
           [](const std::string& p) { ReadRuntrace(p); },
           [](const std::string& p) { ReadHtpGraph(p); },
           [](const std::string& p) { ReadQhas(p); }}) {
    auto error = ErrorOf([&] { read(cut); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->file(), cut);
    EXPECT_NE(error->problem().find("gzip stream is truncated"), std::string::npos)
        << error->what();
  }
}

}  // namespace
}  // namespace htpscope::malformed_input_test
