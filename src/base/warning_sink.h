// Where warnings go: every reader and the model keep the first
// kMaxWarningsShown of a kind and count the rest, ending with one line
// "N more warnings not shown" — one cap, one wording, everywhere.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace htpscope {

inline constexpr size_t kMaxWarningsShown = 20;

// Warnings of one kind, appended to `*out`.
class WarningSink {
 public:
  explicit WarningSink(std::vector<std::string>* out) : out_(out) {}
  // Keeps `message` while fewer than kMaxWarningsShown were kept, else counts it.
  void Add(std::string message);
  // Appends "N more warnings not shown" when some were counted; call once, last.
  void Finish();
  size_t dropped() const { return dropped_; }

 private:
  std::vector<std::string>* out_;
  size_t shown_ = 0, dropped_ = 0;
};

// The line that closes a capped list: "7 more warnings not shown".
std::string MoreWarningsNotShown(size_t dropped);

}  // namespace htpscope
