// Test support: ETDumps written by Debian's flatc from JSON against
// ExecuTorch's own schema (so the writer is not ours), and the real ETDump
// from ExecuTorch's tutorial in the shared reference directory.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "formats/etdump.h"

namespace htpscope::testing_support {

inline std::string EtdumpSchemaDir() { return HTPSCOPE_EXECUTORCH_SCHEMA_DIR; }

// The tutorial's etdump.etdp beside the checkout ("" when absent).
inline std::string TutorialEtdump() {
  std::string path =
      std::string(HTPSCOPE_SOURCE_DIR) + "/../shared/reference/executorch/etdump.etdp";
  return std::filesystem::exists(path) ? path : "";
}

// Why ETDumps cannot be written here, or "" when they can.  The schema lives
// in ../shared beside the checkout: tests that write ETDumps say
// "NeedsSharedSchema" in their names and skip without it.
inline std::string EtdumpWriterMissing() {
  if (!EtdumpSupported()) return "htpscope was built without ETDump support (schema not found)";
  if (std::string(HTPSCOPE_FLATC).empty()) return "flatc not found at configure time";
  if (!std::filesystem::exists(EtdumpSchemaDir() + "/etdump_schema_flatcc.fbs"))
    return "ExecuTorch's ETDump schema is absent";
  return "";
}

// Writes `json` (an ETDump in flatc's JSON form) as `dir/name.etdp` with
// flatc; returns its path, or "" (with a test failure) when flatc refuses it.
inline std::string WriteEtdump(const std::string& dir, const std::string& name,
                               const std::string& json) {
  std::string json_path = dir + "/" + name + ".json";
  std::ofstream(json_path) << json;
  std::string command = std::string("'") + HTPSCOPE_FLATC + "' -b --size-prefixed -o '" + dir +
                        "' '" + EtdumpSchemaDir() + "/etdump_schema_flatcc.fbs' '" + json_path +
                        "' 2> '" + dir + "/flatc.err'";
  if (std::system(command.c_str()) != 0) {
    std::ifstream err(dir + "/flatc.err");
    std::string message((std::istreambuf_iterator<char>(err)), {});
    ADD_FAILURE() << "flatc refused the ETDump JSON: " << message;
    return "";
  }
  return dir + "/" + name + ".etdp";
}

}  // namespace htpscope::testing_support

#define HTPSCOPE_REQUIRE_ETDUMP_WRITER()                                      \
  do {                                                                        \
    std::string missing = ::htpscope::testing_support::EtdumpWriterMissing(); \
    if (!missing.empty()) GTEST_SKIP() << missing;                            \
  } while (0)
