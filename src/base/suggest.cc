#include "base/suggest.h"

#include <algorithm>

namespace htpscope {

size_t EditDistance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic-programming table: the swap needs two back.
  std::vector<size_t> two_back(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], two_back[j - 2] + 1);
    }
    std::swap(two_back, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::optional<std::string> ClosestName(std::string_view typed,
                                       const std::vector<std::string>& candidates) {
  if (typed.empty()) return std::nullopt;
  const std::string* best = nullptr;
  size_t best_distance = 0;
  const std::string* prefixed = nullptr;
  size_t prefixed_count = 0;
  for (const auto& c : candidates) {
    if (c == typed) return std::nullopt;
    if (c.size() > typed.size() && c.compare(0, typed.size(), typed) == 0) {
      prefixed = &c;
      ++prefixed_count;
    }
    size_t d = EditDistance(typed, c);
    size_t limit = std::clamp<size_t>(std::max(typed.size(), c.size()) / 3, 1, 3);
    if (d > limit) continue;
    if (!best || d < best_distance) {
      best = &c;
      best_distance = d;
    }
  }
  if (best) return *best;
  if (prefixed_count == 1) return *prefixed;
  return std::nullopt;
}

std::string DidYouMean(std::string_view typed, const std::vector<std::string>& candidates) {
  auto name = ClosestName(typed, candidates);
  return name ? " (did you mean \"" + *name + "\"?)" : std::string();
}

}  // namespace htpscope
