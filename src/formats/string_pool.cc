#include "formats/string_pool.h"

namespace htpscope {

StringPool::StringPool() { Intern(""); }

StringId StringPool::Intern(std::string_view text) {
  auto it = index_.find(text);
  if (it != index_.end()) return it->second;
  auto id = static_cast<StringId>(strings_.size());
  strings_.emplace_back(text);
  index_.emplace(std::string_view(strings_.back()), id);
  return id;
}

StringId StringPool::Find(std::string_view text, bool* found) const {
  auto it = index_.find(text);
  *found = it != index_.end();
  return *found ? it->second : kEmpty;
}

}  // namespace htpscope
