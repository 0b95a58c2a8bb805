// Sorting big tables of small records without comparison sorts, and
// reordering big records once their order is known.
//
// A dependency graph of 200 k nodes sorts several arrays of a few hundred
// thousand (id, index) records: an LSD radix sort reads and writes each one
// a handful of times, where std::sort compares it ~18 times.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace htpscope {

// Sorts `items` by the unsigned integer `key_of(item)` (uint32_t or
// uint64_t), stably: items with equal keys keep their order.  LSD radix sort
// over 8-bit digits, skipping each digit every key shares (ids with common
// high bits cost only their varying digits).  Uses one scratch copy of
// `items`; `T` must be cheap to copy (a record of a few words).
template <typename T, typename KeyOf>
void StableRadixSort(std::vector<T>& items, KeyOf&& key_of) {
  using Key = decltype(key_of(items.front()));
  static_assert(std::unsigned_integral<Key>, "radix sort keys are unsigned integers");
  constexpr int kDigits = static_cast<int>(sizeof(Key));
  if (items.size() < 2) return;
  // Every digit's histogram in one pass.
  std::vector<std::array<size_t, 256>> counts(kDigits);
  for (auto& c : counts) c.fill(0);
  for (const T& item : items) {
    Key key = key_of(item);
    for (int d = 0; d < kDigits; ++d) ++counts[d][(key >> (8 * d)) & 0xff];
  }
  std::vector<T> scratch(items.size());
  for (int d = 0; d < kDigits; ++d) {
    std::array<size_t, 256>& count = counts[d];
    const Key first_digit = (key_of(items.front()) >> (8 * d)) & 0xff;
    if (count[first_digit] == items.size()) continue;  // one value of this digit: no reorder
    size_t at = 0;
    for (size_t& c : count) at += std::exchange(c, at);  // counts -> first positions
    for (const T& item : items) scratch[count[(key_of(item) >> (8 * d)) & 0xff]++] = item;
    items.swap(scratch);
  }
}

// Sorts `v` and removes repeats: each value once, ascending.  Many unsigned
// integers (op IDs) are radix-sorted.
template <typename T>
void SortUnique(std::vector<T>& v) {
  constexpr size_t kRadixFrom = 1024;  // fewer sort faster by comparisons
  if constexpr (std::unsigned_integral<T>) {
    if (v.size() >= kRadixFrom)
      StableRadixSort(v, [](T x) { return x; });
    else
      std::sort(v.begin(), v.end());
  } else {
    std::sort(v.begin(), v.end());
  }
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// Reorders `records` so that position j holds what was at `from[j]`, where
// `from` is a permutation of 0..n-1 (it is consumed: left as the identity).
// Each cycle of the permutation is moved round through one temporary: no
// second array of records, each record moved about once.
template <typename Record, typename Index>
void ApplyPermutation(std::vector<Record>& records, std::vector<Index>& from) {
  for (size_t start = 0; start < from.size(); ++start) {
    if (from[start] == start) continue;
    Record carried = std::move(records[start]);
    size_t at = start;
    while (from[at] != start) {
      const size_t next = from[at];
      records[at] = std::move(records[next]);
      from[at] = static_cast<Index>(at);
      at = next;
    }
    records[at] = std::move(carried);
    from[at] = static_cast<Index>(at);
  }
}

// The order that sorts `count` records by `key_of(i)` (i = 0 .. count-1)
// under the strict weak order `less`, records of equal keys in their order
// (a stable sort): from[j] is the position of the record that goes to
// position j, for ApplyPermutation or AppendPermuted.  Each key is read once
// into a flat array sorted in its place, so that big records are moved once
// into place instead of swapped through a sort (or copied by a stable one).
template <typename KeyOf, typename Less>
std::vector<uint32_t> StableOrderByKeys(size_t count, KeyOf&& key_of, Less&& less) {
  using Key = std::decay_t<decltype(key_of(size_t{0}))>;
  std::vector<std::pair<Key, uint32_t>> keys;
  keys.reserve(count);
  for (size_t i = 0; i < count; ++i) keys.emplace_back(key_of(i), static_cast<uint32_t>(i));
  std::sort(keys.begin(), keys.end(), [&less](const auto& x, const auto& y) {
    if (less(x.first, y.first)) return true;
    if (less(y.first, x.first)) return false;
    return x.second < y.second;
  });
  std::vector<uint32_t> from(count);
  for (size_t j = 0; j < count; ++j) from[j] = keys[j].second;
  return from;
}

// Appends `records`, reordered as ApplyPermutation reorders them (`from` is
// consumed), to `out`; an empty `out` takes the array itself, so that one
// table of big records (per graph, say) costs no second array.
template <typename Record, typename Index>
void AppendPermuted(std::vector<Record>&& records, std::vector<Index>& from,
                    std::vector<Record>& out) {
  ApplyPermutation(records, from);
  if (out.empty()) {
    out = std::move(records);
    return;
  }
  out.insert(out.end(), std::make_move_iterator(records.begin()),
             std::make_move_iterator(records.end()));
}

// Sorts `records` by `rank_of(record)`, a std::array of int64_t compared
// element by element, greatest first; records of equal rank by the text
// `name_of(record)` (a std::string_view that outlives the call), ascending.
// Returns where each record went: result[old position] = new position.
// Each record's keys are read once into a flat array that is sorted in its
// place: a comparison that reads names through their interned ids misses the
// cache at every step (80 k QNN ops of one rank, say all without traffic).
// Records of equal rank and name keep no particular order.  Memory: a key of
// the rank, 16 bytes and an index per record, then two indices per record.
template <typename Record, typename RankOf, typename NameOf>
std::vector<uint32_t> SortByRankThenName(std::vector<Record>& records, RankOf&& rank_of,
                                         NameOf&& name_of) {
  using Rank = std::decay_t<decltype(rank_of(records.front()))>;
  // The name's first 16 bytes as two big-endian words (zero past its end):
  // names that differ there compare as integers, without a call to memcmp
  // (ties on rank are common, and names often short: "softmax_6070").  The
  // whole name is read again only when the heads are equal.
  struct Key {
    Rank rank;
    uint64_t head[2];
    uint32_t index;  // of the record
  };
  auto head_word = [](std::string_view name, size_t from) {
    uint64_t word = 0;
    for (size_t i = 0; i < 8; ++i)
      word = word << 8 |
             (from + i < name.size() ? static_cast<unsigned char>(name[from + i]) : uint64_t{0});
    return word;
  };
  std::vector<Key> keys;
  keys.reserve(records.size());
  for (uint32_t i = 0; i < records.size(); ++i) {
    const std::string_view name = name_of(records[i]);
    keys.push_back({rank_of(records[i]), {head_word(name, 0), head_word(name, 8)}, i});
  }
  std::sort(keys.begin(), keys.end(), [&](const Key& a, const Key& b) {
    // Element by element: std::array's own == is a memcmp call.
    for (size_t k = 0; k < std::tuple_size_v<Rank>; ++k)
      if (a.rank[k] != b.rank[k]) return a.rank[k] > b.rank[k];
    // Unequal heads order the names (a zero past one name's end sorts it
    // first, as the shorter); equal heads may hide a zero byte: compare all.
    if (a.head[0] != b.head[0]) return a.head[0] < b.head[0];
    if (a.head[1] != b.head[1]) return a.head[1] < b.head[1];
    return std::string_view(name_of(records[a.index])) <
           std::string_view(name_of(records[b.index]));
  });
  std::vector<uint32_t> from(keys.size()), new_position(keys.size());
  for (uint32_t k = 0; k < keys.size(); ++k) {
    from[k] = keys[k].index;
    new_position[keys[k].index] = k;
  }
  keys = {};  // before the records move: the peak is the keys or the lists, not both
  ApplyPermutation(records, from);
  return new_position;
}

}  // namespace htpscope
