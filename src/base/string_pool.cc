#include "base/string_pool.h"

#include <algorithm>
#include <cstring>

namespace htpscope {

StringPool::StringPool() { Intern(""); }

StringPool::StringPool(const StringPool& other) : StringPool() { *this = other; }

StringPool& StringPool::operator=(const StringPool& other) {
  if (this == &other) return *this;
  StringPool copy;
  copy.Reserve(other.size());
  for (std::string_view text : other.strings_) copy.Intern(text);
  return *this = std::move(copy);
}

std::string_view StringPool::Store(std::string_view text) {
  if (text.empty()) return {};
  if (block_size_ - block_used_ < text.size()) {
    constexpr size_t kBlockBytes = 64 << 10;
    block_size_ = std::max(kBlockBytes, text.size());
    blocks_.push_back(std::make_unique<char[]>(block_size_));
    block_used_ = 0;
  }
  char* at = blocks_.back().get() + block_used_;
  std::memcpy(at, text.data(), text.size());
  block_used_ += text.size();
  return {at, text.size()};
}

StringId StringPool::Intern(std::string_view text) {
  // One hash and one probe, whether or not the text is new.
  auto it = index_.lazy_emplace(text, [&](const auto& construct) {
    auto id = static_cast<StringId>(strings_.size());
    std::string_view stored = Store(text);
    strings_.push_back(stored);
    construct(stored, id);
  });
  return it->second;
}

std::vector<StringId> StringPool::InternAll(const StringPool& other) {
  std::vector<StringId> ids(other.size());
  // A big pool's index misses the cache on every new string: fetch the
  // slots of the strings a few places ahead while interning this one.
  constexpr size_t kAhead = 8;
  for (size_t i = 0; i < std::min(kAhead, ids.size()); ++i) index_.prefetch(other.strings_[i]);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i + kAhead < ids.size()) index_.prefetch(other.strings_[i + kAhead]);
    ids[i] = Intern(other.strings_[i]);
  }
  return ids;
}

StringId StringPool::Find(std::string_view text, bool* found) const {
  auto it = index_.find(text);
  *found = it != index_.end();
  return *found ? it->second : kEmpty;
}

void StringPool::Reserve(size_t strings) {
  // At least doubling, so that a stream of slightly larger estimates does
  // not rehash the index every time.
  if (strings <= strings_.capacity()) return;
  strings = std::max(strings, 2 * strings_.capacity());
  strings_.reserve(strings);
  index_.reserve(strings);
}

}  // namespace htpscope
