// Test support shared by the profile readers' tests: looking up figures in
// a ProfileBlock and catching a reader's InputError.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>

#include "base/errors.h"
#include "formats/profile_text.h"

namespace htpscope::testing_support {

// The value of the first metric named `name` (failing the test when absent).
inline double Value(const ProfileBlock& block, std::string_view name) {
  const ProfileMetric* m = block.Find(name);
  EXPECT_NE(m, nullptr) << name << " missing from " << block.title;
  return m ? m->value : -1;
}

// The node's linting entries (each absent when it has none).
inline const ProfileNodeLint& Lint(const ProfileNode& node) { return node.lint.ValueOrEmpty(); }

// Σ of the block's per-node cycles and of their Wait (Scheduler) cycles.
inline int64_t NodeSum(const ProfileBlock& block) {
  return std::accumulate(block.nodes.begin(), block.nodes.end(), int64_t{0},
                         [](int64_t sum, const ProfileNode& n) { return sum + n.cycles; });
}
inline int64_t WaitSum(const ProfileBlock& block) {
  return std::accumulate(
      block.nodes.begin(), block.nodes.end(), int64_t{0},
      [](int64_t sum, const ProfileNode& n) { return sum + Lint(n).wait_cycles.value_or(0); });
}

inline const ProfileNode* FindNode(const ProfileBlock& block, std::string_view label) {
  for (const auto& n : block.nodes)
    if (n.label == label) return &n;
  return nullptr;
}

inline bool Contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

// The InputError that ParseProfileCsv throws for `text`, if any.
inline std::optional<InputError> CsvError(const std::string& path, std::string_view text) {
  try {
    ParseProfileCsv(path, text);
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

// `text` must be refused with an error naming `path` and `line` ("path:line: ")
// whose problem mentions `mentions`.
inline void ExpectCsvError(const std::string& path, std::string_view text, uint64_t line,
                           std::string_view mentions) {
  std::optional<InputError> e = CsvError(path, text);
  ASSERT_TRUE(e.has_value()) << "no error for:\n" << text;
  EXPECT_EQ(e->file(), path);
  EXPECT_EQ(e->line(), line) << e->what();
  EXPECT_TRUE(Contains(e->what(), path + ":" + std::to_string(line) + ": ")) << e->what();
  EXPECT_TRUE(Contains(e->problem(), mentions)) << e->what();
}

}  // namespace htpscope::testing_support
