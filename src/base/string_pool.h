// Interned strings: op names and types repeat across millions of events, so
// readers store a 32-bit StringId per event instead of a std::string.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/hash/hash.h>
#include <absl/strings/string_view.h>

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace htpscope {

using StringId = uint32_t;

class StringPool {
 public:
  StringPool();
  // Copies re-intern every string into the copy's own storage.
  StringPool(const StringPool& other);
  StringPool& operator=(const StringPool& other);
  StringPool(StringPool&&) noexcept = default;
  StringPool& operator=(StringPool&&) noexcept = default;

  // The id of the empty string; also what absent optional strings get.
  static constexpr StringId kEmpty = 0;

  StringId Intern(std::string_view text);
  // Interns every string of `other` in id order; returns their ids here
  // (the map from `other`'s ids to this pool's).
  std::vector<StringId> InternAll(const StringPool& other);
  // The text of `id`; the view stays valid as long as the pool does (moves
  // included).
  std::string_view View(StringId id) const { return strings_[id]; }
  // Returns kEmpty and sets *found=false when `text` was never interned.
  StringId Find(std::string_view text, bool* found) const;
  size_t size() const { return strings_.size(); }
  // Makes room for `strings` strings in all, so that a pool filled with
  // hundreds of thousands of names is not rehashed along the way.
  void Reserve(size_t strings);

 private:
  // absl's own string hash: absl::Hash<std::string_view> falls back to
  // std::hash (a slower byte-wise hash) where absl::string_view is its own type.
  struct ViewHash {
    size_t operator()(std::string_view text) const noexcept {
      return absl::Hash<absl::string_view>{}(absl::string_view(text.data(), text.size()));
    }
  };

  // Copies `text` into the arena: one allocation per block, not per string.
  std::string_view Store(std::string_view text);

  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0;                  // bytes used in blocks_.back()
  size_t block_size_ = 0;                  // bytes in blocks_.back()
  std::vector<std::string_view> strings_;  // by id, into blocks_
  // Open addressing: hundreds of thousands of names are interned, and a
  // node-based map costs an allocation and a cache miss for each.
  absl::flat_hash_map<std::string_view, StringId, ViewHash> index_;
};

}  // namespace htpscope
