// "Did you mean ...?" for names a user typed: subcommands, options, group
// names, gate metrics.  Suggestions are by edit distance, so they help with
// typos and never invent a name that is not among the candidates.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace htpscope {

// Damerau-Levenshtein distance (optimal string alignment: insertions,
// deletions, substitutions and swaps of two neighbours each cost 1), over
// bytes, case-sensitive.
size_t EditDistance(std::string_view a, std::string_view b);

// The candidate closest to `typed`, when it is close enough to be a typo:
// at most a third of the longer name's length in edits (at least 1, at most
// 3), or `typed` is a prefix of exactly one candidate.  Ties go to the first
// candidate.  None when `typed` is itself a candidate or nothing is close.
std::optional<std::string> ClosestName(std::string_view typed,
                                       const std::vector<std::string>& candidates);

// " (did you mean \"summary\"?)" for the closest candidate, else "".
std::string DidYouMean(std::string_view typed, const std::vector<std::string>& candidates);

}  // namespace htpscope
