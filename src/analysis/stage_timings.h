// Ahead-of-time lowering time by stage (primer §11): two runs of a lowering
// pipeline (quantize, compile, ...) compared per stage and in total.
//
// Input: CSV with one `stage,seconds` row per stage (plain or gzip).  An
// optional header row `stage,seconds`, blank lines and lines starting with
// '#' are ignored; the stage name is everything before the last comma, with
// surrounding spaces removed.  Seconds are non-negative decimal numbers.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/gate.h"

namespace htpscope {

struct StageTime {
  std::string stage;
  double seconds = 0;
  int line = 0;  // 1-based line in the file
};

struct StageTimings {
  std::string path;
  std::vector<StageTime> stages;  // file order
};

// Reads a stage-timing CSV.  Throws InputError naming the file and the
// 1-based line on a malformed row, a negative or non-numeric duration, a
// stage listed twice, or a file without any stage.
StageTimings ReadStageTimings(const std::string& path);
StageTimings ParseStageTimings(const std::string& path, std::string_view text);

struct StageDelta {
  std::string stage;
  MetricDelta seconds;                    // unit "s"; a side is absent when the stage is not listed
  std::optional<double> improvement_pct;  // (A − B) ÷ A × 100: positive = B is faster
};

struct StageDiff {
  std::string a_path, b_path;
  std::vector<StageDelta> stages;  // A's order, then stages only B lists
  StageDelta total;                // Σ over each side's stages
  std::vector<std::string> notes;  // stages listed on one side only
};

StageDiff DiffStages(const StageTimings& a, const StageTimings& b);

// Gate subjects: "stage" family (name = stage, field "seconds") and the
// run-level "total_seconds".  Pointers refer into `diff`.
std::vector<GateSubject> GateSubjects(const StageDiff& diff);

}  // namespace htpscope
