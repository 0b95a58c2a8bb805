// Test support: small optrace / HTP graph JSON documents with known answers,
// loaded as a run the way the tool loads one (written to files, read back).  Slice times are given
// as trace `ts` (cycles from the trace origin); the origin is 1000, so absolute cycle = ts + 1000.
#pragma once

#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "base/corpus_test_util.h"
#include "model/run.h"

namespace htpscope::testing_support {

inline constexpr int64_t kFakeOrigin = 1000;

struct FakeSlice {
  uint64_t id = 0;
  std::string qnn_op;    // QNN Op Name
  std::string htp_type;  // event name and HTP Op Type
  std::string flag;      // "uses_hvx", "uses_hmx", "dma", "dma_wait", "dma_set", "sync"
  uint32_t tid = 256;
  int64_t ts = 0;
  int64_t dur = 0;
  std::vector<uint64_t> inputs = {};
  std::string qnn_type = "";
};

struct FakeFlow {
  std::string category;  // "input_output" or "sequencer"
  uint32_t from_tid = 0;
  int64_t from_ts = 0;  // the producer slice's end
  uint32_t to_tid = 0;
  int64_t to_ts = 0;  // the consumer slice's start
};

struct FakeTensor {
  uint64_t id = 0;
  std::string name;  // "$Const" or "$Shape": a tid-1 non-executed tensor
  int64_t ts = 0;
};

inline std::string Hex(uint64_t id) { return fmt::format("0x{:016x}", id); }

// Op-level args of a multi-slice op repeat its first listed slice's values,
// as real traces do.
inline std::string OptraceJson(const std::vector<FakeSlice>& slices,
                               const std::vector<FakeFlow>& flows = {},
                               const std::vector<FakeTensor>& tensors = {}) {
  std::string events;
  auto add = [&](const std::string& e) { events += (events.empty() ? "" : ",\n") + e; };
  for (const auto& s : slices) {
    const FakeSlice* first = &s;
    for (const auto& o : slices)
      if (o.id == s.id) {
        first = &o;
        break;
      }
    std::string inputs;
    for (uint64_t in : s.inputs) inputs += (inputs.empty() ? "\"" : ", \"") + Hex(in) + "\"";
    add(fmt::format(
        R"j({{"name": "{}", "ph": "X", "tid": {}, "pid": 0, "ts": {}, "dur": {}, "args": {{"ID": "{}", )j"
        R"j("HTP Op Type": "{}", "QNN Op Name": "{}", "QNN Op Type": "{}", "Flags": ["{}"], )j"
        R"j("Inputs Ops": [{}], "Start Cycle": {}, "Duration (cycles)": {}, "Dominant Path Cycles": {}}}}})j",
        s.htp_type, s.tid, s.ts, s.dur, Hex(s.id), s.htp_type, s.qnn_op,
        s.qnn_type.empty() ? s.qnn_op : s.qnn_type, s.flag, inputs, first->ts + kFakeOrigin,
        first->dur, first->dur));
  }
  for (const auto& t : tensors)
    add(fmt::format(
        R"j({{"name": "{}", "ph": "X", "tid": 1, "pid": 0, "ts": {}, "dur": 5, "args": {{"ID": "{}"}}}})j",
        t.name, t.ts, Hex(t.id)));
  for (size_t i = 0; i < flows.size(); ++i) {
    const auto& f = flows[i];
    add(fmt::format(
        R"j({{"cat": "{}", "name": "F", "tid": {}, "pid": 0, "ts": {}, "ph": "s", "id": {}}})j",
        f.category, f.from_tid, f.from_ts, i));
    add(fmt::format(
        R"j({{"cat": "{}", "name": "F", "tid": {}, "pid": 0, "ts": {}, "ph": "f", "pb": "e", "id": {}}})j",
        f.category, f.to_tid, f.to_ts, i));
  }
  return fmt::format(
      "{{\"header\": {{\"version\": {{\"major\": 1, \"minor\": 1, \"patch\": 0}}, "
      "\"artifact_type\": \"OP_TRACE\"}},\n\"traceEvents\": [\n{}\n]}}\n",
      events);
}

struct FakeNode {
  uint64_t id = 0;
  std::string type;
  std::string grouping;
  std::vector<uint64_t> inputs;
};

// Tensors listed in `static_tensors` get type 4 (STATIC).
inline std::string HtpGraphJson(const std::vector<FakeNode>& nodes,
                                const std::vector<uint64_t>& static_tensors) {
  std::string tensors, node_text;
  int index = 0;
  for (uint64_t t : static_tensors)
    tensors +=
        fmt::format("{}\"{}\": {{\"id\": {}, \"type\": 4, \"data_type\": 1032, \"dims\": [1]}}",
                    tensors.empty() ? "" : ",\n", Hex(t), index++);
  for (const auto& n : nodes) {
    tensors +=
        fmt::format("{}\"{}\": {{\"id\": {}, \"type\": 3, \"data_type\": 1032, \"dims\": [1]}}",
                    tensors.empty() ? "" : ",\n", Hex(n.id), index++);
    std::string inputs;
    for (uint64_t in : n.inputs) inputs += (inputs.empty() ? "\"" : ", \"") + Hex(in) + "\"";
    node_text += fmt::format(
        "{}\"{}\": {{\"type\": \"{}\", \"grouping\": \"{}\", \"tensor_params\": {{}}, "
        "\"scalar_params\": {{\"qnn_op_name\": {{\"1544\": \"{}\"}}}}, \"input_names\": [{}], "
        "\"output_names\": [\"{}\"]}}",
        node_text.empty() ? "" : ",\n", Hex(n.id), n.type, n.grouping, n.grouping, inputs,
        Hex(n.id));
  }
  return fmt::format(
      "{{\"header\": {{\"version\": {{\"major\": 1, \"minor\": 0, \"patch\": 0}}, "
      "\"artifact_type\": "
      "\"HTP_GRAPH\"}}, \"model.cpp\": \"htp_graph\", \"graph\": {{\"tensors\": {{{}}}, \"nodes\": "
      "{{{}}}}}, \"op_types\": []}}\n",
      tensors, node_text);
}

// Writes `text` to `path`.
inline void WriteTestFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// A run of one file `name` holding `text`, written to a fresh directory.
inline Run RunOfText(const std::string& name, const std::string& text) {
  static std::atomic<int> counter{0};
  std::string path = TempDir("run_of_text_" + std::to_string(counter++)) + "/" + name;
  WriteTestFile(path, text);
  return LoadRun({path});
}

// A run loaded from the given documents (any may be empty), each written to
// a file of a fresh directory.
inline Run FakeRun(const std::string& optrace_json, const std::string& htp_graph_json,
                   const std::string& qhas_json = "", LoadOptions options = {}) {
  static std::atomic<int> counter{0};
  std::string dir = TempDir("fake_run_" + std::to_string(counter++));
  std::vector<std::string> files;
  auto add = [&](const char* name, const std::string& text) {
    if (text.empty()) return;
    files.push_back(dir + "/" + name);
    WriteTestFile(files.back(), text);
  };
  add("fake_trace.json", optrace_json);
  add("fake_htp.json", htp_graph_json);
  add("fake_qhas.json", qhas_json);
  Run run = LoadRun(files, options);
  run.label = "fake";
  return run;
}

}  // namespace htpscope::testing_support
