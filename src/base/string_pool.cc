#include "base/string_pool.h"

#include <algorithm>
#include <cstring>

namespace htpscope {

StringPool::StringPool()
    : texts_(std::make_unique<Texts>()), index_(0, IdHash{texts_.get()}, IdEq{texts_.get()}) {
  Intern("");
}

StringPool::StringPool(const StringPool& other) : StringPool() { *this = other; }

StringPool& StringPool::operator=(const StringPool& other) {
  if (this == &other) return *this;
  StringPool copy;
  copy.Reserve(other.size());
  for (std::string_view text : other.texts_->by_id) copy.Intern(text);
  return *this = std::move(copy);
}

std::string_view StringPool::Texts::Store(std::string_view text) {
  if (text.empty()) return {};
  if (block_size - block_used < text.size()) {
    constexpr size_t kBlockBytes = 64 << 10;
    block_size = std::max(kBlockBytes, text.size());
    blocks.push_back(std::make_unique<char[]>(block_size));
    block_used = 0;
  }
  char* at = blocks.back().get() + block_used;
  std::memcpy(at, text.data(), text.size());
  block_used += text.size();
  return {at, text.size()};
}

StringId StringPool::Intern(std::string_view text) {
  // One hash and one probe, whether or not the text is new.  The text is
  // stored before its id enters the index: a rehash reads it by id.
  return *index_.lazy_emplace(text, [&](const auto& construct) {
    const auto id = static_cast<StringId>(texts_->by_id.size());
    texts_->by_id.push_back(texts_->Store(text));
    construct(id);
  });
}

std::vector<StringId> StringPool::InternAll(const StringPool& other) {
  std::vector<StringId> ids(other.size());
  // A big pool's index misses the cache on every new string: fetch the
  // slots of the strings a few places ahead while interning this one.
  constexpr size_t kAhead = 8;
  const std::vector<std::string_view>& texts = other.texts_->by_id;
  for (size_t i = 0; i < std::min(kAhead, ids.size()); ++i) index_.prefetch(texts[i]);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i + kAhead < ids.size()) index_.prefetch(texts[i + kAhead]);
    ids[i] = Intern(texts[i]);
  }
  return ids;
}

StringId StringPool::Find(std::string_view text, bool* found) const {
  auto it = index_.find(text);
  *found = it != index_.end();
  return *found ? *it : kEmpty;
}

void StringPool::Reserve(size_t strings) {
  // At least doubling, so that a stream of slightly larger estimates does
  // not rehash the index every time.
  if (strings <= texts_->by_id.capacity()) return;
  strings = std::max(strings, 2 * texts_->by_id.capacity());
  texts_->by_id.reserve(strings);
  index_.reserve(strings);
}

}  // namespace htpscope
