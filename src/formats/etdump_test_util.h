// Test support: ETDumps written by Debian's flatc from JSON against the
// in-repo schema (src/formats/etdump_schema.fbs, ExecuTorch's field ids; the
// writer is not ours), and the real ETDump from ExecuTorch's tutorial in the
// shared reference directory.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "base/test_paths.h"
#include "formats/etdump.h"

namespace htpscope::testing_support {

// The schema the reader is generated from.
inline std::string EtdumpSchema() { return HTPSCOPE_ETDUMP_SCHEMA; }

// ExecuTorch's own schema files beside the checkout ("" when absent).
inline std::string PublishedEtdumpSchemaDir() {
  std::string dir = std::string(HTPSCOPE_SOURCE_DIR) + "/../shared/reference/executorch";
  return std::filesystem::exists(dir + "/etdump_schema_flatcc.fbs") &&
                 std::filesystem::exists(dir + "/scalar_type.fbs")
             ? dir
             : "";
}

// The tutorial's etdump.etdp beside the checkout ("" when absent).
inline std::string TutorialEtdump() {
  std::string path =
      std::string(HTPSCOPE_SOURCE_DIR) + "/../shared/reference/executorch/etdump.etdp";
  return std::filesystem::exists(path) ? path : "";
}

// Writes `json` (an ETDump in flatc's JSON form) as `dir/name.etdp` with
// flatc; returns its path, or "" (with a test failure) when flatc refuses it.
inline std::string WriteEtdump(const std::string& dir, const std::string& name,
                               const std::string& json) {
  std::string json_path = dir + "/" + name + ".json";
  std::ofstream(json_path) << json;
  std::string command = std::string("'") + HTPSCOPE_FLATC + "' -b --size-prefixed -o '" + dir +
                        "' '" + EtdumpSchema() + "' '" + json_path + "' 2> '" + dir + "/flatc.err'";
  if (std::system(command.c_str()) != 0) {
    std::ifstream err(dir + "/flatc.err");
    std::string message((std::istreambuf_iterator<char>(err)), {});
    ADD_FAILURE() << "flatc refused the ETDump JSON: " << message;
    return "";
  }
  return dir + "/" + name + ".etdp";
}

// An ETDump (flatc JSON) as ExecuTorch's QNN delegate writes one: a
// `Default` block, then per execution an `Execute` block holding, for each
// (QNN node identifier, cycles) of `executions[k]` in order, a delegate
// profile event with that string id, instruction `instruction`, start 0 and
// end = the cycles; then the DELEGATE_CALL and Method::execute events
// (Method::execute lasting 1000 × (k + 1) ticks).  With `top_level`, each
// execution's node events follow the top-level events ExecuTorch's delegate
// writes since 2025, unit appended: "QNN accelerator (execute) time (us)"
// 50 + k, "Accelerator (execute) time (us)" 40 + k, "Accelerator (execute)
// time (cycles)" Σ of the execution's cycles, "Number of HVX threads used
// (count)" 4.
inline std::string QnnDelegateEtdumpJson(
    const std::vector<std::vector<std::pair<std::string, int64_t>>>& executions,
    int instruction = 3, bool top_level = false) {
  std::string out =
      R"({"version": 0, "run_data": [{"name": "Default", "events": [{"profile_event": )"
      R"({"name": "Method::init", "start_time": 1, "end_time": 2}}]})";
  uint64_t clock = 1000;
  for (size_t k = 0; k < executions.size(); ++k) {
    out += R"(, {"name": "Execute", "events": [)";
    auto event = [&](const std::string& identifier, int64_t value) {
      out += R"({"profile_event": {"delegate_debug_id_str": ")" + identifier +
             R"(", "instruction_id": )" + std::to_string(instruction) +
             R"(, "start_time": 0, "end_time": )" + std::to_string(value) + "}}, ";
    };
    if (top_level) {
      int64_t sum = 0;
      for (const auto& node : executions[k]) sum += node.second;
      event("QNN accelerator (execute) time (us)", 50 + static_cast<int64_t>(k));
      event("Accelerator (execute) time (us)", 40 + static_cast<int64_t>(k));
      event("Accelerator (execute) time (cycles)", sum);
      event("Number of HVX threads used (count)", 4);
    }
    for (const auto& [identifier, cycles] : executions[k]) event(identifier, cycles);
    const uint64_t end = clock + 1000 * (k + 1);
    out += R"({"profile_event": {"name": "DELEGATE_CALL", "instruction_id": )" +
           std::to_string(instruction) + R"(, "start_time": )" + std::to_string(clock) +
           R"(, "end_time": )" + std::to_string(end) + "}}, ";
    out += R"({"profile_event": {"name": "Method::execute", "start_time": )" +
           std::to_string(clock) + R"(, "end_time": )" + std::to_string(end) + "}}]}";
    clock = end + 10;
  }
  return out + "]}";
}

}  // namespace htpscope::testing_support
