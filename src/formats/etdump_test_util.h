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

}  // namespace htpscope::testing_support
