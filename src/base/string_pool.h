// Interned strings: op names and types repeat across millions of events, so
// readers store a 32-bit StringId per event instead of a std::string.
#pragma once

#include <absl/container/flat_hash_set.h>
#include <absl/hash/hash.h>
#include <absl/strings/string_view.h>

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace htpscope {

using StringId = uint32_t;

// absl's own string hash of a std::string_view: absl::Hash<std::string_view>
// falls back to std::hash (a slower byte-wise hash) where absl::string_view
// is its own type, as in Debian's build.
struct TextHash {
  size_t operator()(std::string_view text) const noexcept {
    return absl::Hash<absl::string_view>{}(absl::string_view(text.data(), text.size()));
  }
};

class StringPool {
 public:
  StringPool();
  // Copies re-intern every string into the copy's own storage.
  StringPool(const StringPool& other);
  StringPool& operator=(const StringPool& other);
  // Moves keep the texts where they are; a moved-from pool may only be
  // destroyed or assigned to.
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
  std::string_view View(StringId id) const { return texts_->by_id[id]; }
  // Returns kEmpty and sets *found=false when `text` was never interned.
  StringId Find(std::string_view text, bool* found) const;
  size_t size() const { return texts_->by_id.size(); }
  // Makes room for `strings` strings in all, so that a pool filled with
  // hundreds of thousands of names is not rehashed along the way.
  void Reserve(size_t strings);

 private:
  // The texts, by id, into arena blocks: one allocation per block, not per
  // string.  Held by pointer so that the index's hash and equality, which
  // read texts by id, stay valid when the pool is moved.
  struct Texts {
    std::vector<std::unique_ptr<char[]>> blocks;
    size_t block_used = 0;                // bytes used in blocks.back()
    size_t block_size = 0;                // bytes in blocks.back()
    std::vector<std::string_view> by_id;  // into blocks
    std::string_view Store(std::string_view text);
  };
  // Hash and equality of an id (through its text) or of a text being looked
  // up, so that the index holds 4-byte ids instead of 24-byte (view, id)
  // pairs: a pool of 160 k names keeps 2.6 MB of index instead of 13 MB.
  struct IdHash {
    using is_transparent = void;
    const Texts* texts;
    size_t operator()(std::string_view text) const noexcept { return TextHash{}(text); }
    size_t operator()(StringId id) const noexcept { return (*this)(texts->by_id[id]); }
  };
  struct IdEq {
    using is_transparent = void;
    const Texts* texts;
    std::string_view Text(std::string_view text) const { return text; }
    std::string_view Text(StringId id) const { return texts->by_id[id]; }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const noexcept {
      return Text(a) == Text(b);
    }
  };

  std::unique_ptr<Texts> texts_;
  // Open addressing: hundreds of thousands of names are interned, and a
  // node-based map costs an allocation and a cache miss for each.
  absl::flat_hash_set<StringId, IdHash, IdEq> index_;
};

}  // namespace htpscope
