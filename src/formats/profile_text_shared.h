// Internal to the profile readers (profile_text.cc, profile_csv.cc): what the
// text and CSV readers share beyond the public helpers of profile_text.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/warning_sink.h"
#include "formats/profile_text.h"

namespace htpscope::profile_internal {

inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// `text` without a leading UTF-8 byte order mark.
std::string_view SkipBom(std::string_view text);

// Collects a reader's warnings as "line N: ..." through a WarningSink (its
// cap, then "<k> more warnings not shown", added by Finish()).
class ProfileWarnings {
 public:
  explicit ProfileWarnings(std::vector<std::string>* out) : sink_(out) {}
  void Add(uint64_t line, const std::string& message);
  void Finish() { sink_.Finish(); }
  uint64_t first_line() const { return first_line_; }  // 0 when none

 private:
  WarningSink sink_;
  uint64_t first_line_ = 0;
};

// The linting sub-entries under a per-node line.
enum class LintEntry { kWait, kOverlap, kOverlapWait, kResources };
// "Wait (Scheduler) time" / "Overlap time" / "Overlap (wait) time" /
// "Resources" (case-insensitive), else nullopt.
std::optional<LintEntry> LintEntryOf(std::string_view name);
// The cycles slot of `entry` in `lint` (nullptr for kResources).
std::optional<int64_t>* LintCyclesSlot(LintEntry entry, ProfileNodeLint* lint);
// The op-name list that follows `entry` (nullptr unless an overlap entry).
std::vector<std::string>* LintNameList(LintEntry entry, ProfileNodeLint* lint);
// "HVX, HMX, DMA" -> {"HVX", "HMX", "DMA"}; "" -> {}.  A unit printed after
// the list ("HVX, DMA  cycles", as a raw dump may print a string value) is
// dropped.
std::vector<std::string> SplitResources(std::string_view text);

// Whether `label` (a per-node label with or without " (cycles)") names an op
// the way the profile tools do: it carries "OpId_<n>".
bool HasOpId(std::string_view label);

// Fills ProfileBlock::graph_execution of every execution block in file order
// (blocks of one graph counted together).
void NumberGraphExecutions(ProfileReport* report);

}  // namespace htpscope::profile_internal
