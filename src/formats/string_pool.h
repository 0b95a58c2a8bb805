// Interned strings: op names and types repeat across millions of events, so
// readers store a 32-bit StringId per event instead of a std::string.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace htpscope {

using StringId = uint32_t;

class StringPool {
 public:
  StringPool();
  // The id of the empty string; also what absent optional strings get.
  static constexpr StringId kEmpty = 0;

  StringId Intern(std::string_view text);
  // The text of `id`; the view stays valid as long as the pool does.
  std::string_view View(StringId id) const { return strings_[id]; }
  // Returns kEmpty and sets *found=false when `text` was never interned.
  StringId Find(std::string_view text, bool* found) const;
  size_t size() const { return strings_.size(); }

 private:
  std::deque<std::string> strings_;  // deque: element addresses stay stable
  std::unordered_map<std::string_view, StringId> index_;
};

}  // namespace htpscope
