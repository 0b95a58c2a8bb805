// Test support: where the real device artifacts live.  The corpus sits beside
// the checkout (../shared/corpus) and is read-only; tests skip cleanly when
// it is absent.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "base/test_paths.h"

namespace htpscope::testing_support {

inline std::string CorpusRun(const std::string& run) {
  return std::string(HTPSCOPE_SOURCE_DIR) + "/../shared/corpus/qcom_htp/" + run;
}

inline std::string CorpusFile(const std::string& run, const std::string& file) {
  return CorpusRun(run) + "/" + file;
}

// A fresh, empty directory for a test's files.
inline std::string TempDir(const std::string& name) {
  auto dir = std::filesystem::path(::testing::TempDir()) /
             ("htpscope_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace htpscope::testing_support

#define HTPSCOPE_REQUIRE_CORPUS(run)                                                      \
  do {                                                                                    \
    if (!std::filesystem::exists(::htpscope::testing_support::CorpusRun(run)))            \
      GTEST_SKIP() << "corpus run " << (run) << " not present (../shared/corpus absent)"; \
  } while (0)
