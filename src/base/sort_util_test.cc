#include "base/sort_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>
#include <string>

namespace htpscope::sort_util_test {
namespace {

struct Record {
  uint64_t key = 0;
  uint32_t seq = 0;  // position before sorting: tells stability
  bool operator==(const Record&) const = default;
};

// The radix sort against std::stable_sort on the same records.
void ExpectSortedLikeStableSort(std::vector<Record> records) {
  std::vector<Record> expected = records;
  std::stable_sort(expected.begin(), expected.end(),
                   [](const Record& a, const Record& b) { return a.key < b.key; });
  StableRadixSort(records, [](const Record& r) { return r.key; });
  EXPECT_EQ(records, expected);
}

TEST(StableRadixSort, SmallCasesByHand) {
  std::vector<Record> none;
  StableRadixSort(none, [](const Record& r) { return r.key; });
  EXPECT_TRUE(none.empty());
  std::vector<Record> v{{3, 0}, {1, 1}, {3, 2}, {0, 3}, {1, 4}};
  StableRadixSort(v, [](const Record& r) { return r.key; });
  EXPECT_EQ(v, (std::vector<Record>{{0, 3}, {1, 1}, {1, 4}, {3, 0}, {3, 2}}));
}

// Keys as the graph's ids are: high bits shared (those digits are skipped),
// low ones varying, many repeats (stability shows).
TEST(StableRadixSort, SharedHighBitsAndRepeatsMatchStableSort) {
  std::mt19937_64 rng(7);
  std::vector<Record> v;
  for (uint32_t i = 0; i < 20000; ++i) v.push_back({0x0000100359320000ull + rng() % 5000, i});
  ExpectSortedLikeStableSort(v);
}

// Every digit varies, including the top one.
TEST(StableRadixSort, FullWidthKeysMatchStableSort) {
  std::mt19937_64 rng(11);
  std::vector<Record> v;
  for (uint32_t i = 0; i < 20000; ++i) v.push_back({rng() >> (i % 3) * 20, i});
  v.push_back({~uint64_t{0}, 20000});
  v.push_back({0, 20001});
  ExpectSortedLikeStableSort(v);
}

TEST(StableRadixSort, AllKeysEqualKeepOrder) {
  std::vector<Record> v;
  for (uint32_t i = 0; i < 1000; ++i) v.push_back({42, i});
  ExpectSortedLikeStableSort(v);
}

// 32-bit keys (the compound key of an edge is 64-bit; node indices are 32).
TEST(StableRadixSort, ThirtyTwoBitKeys) {
  std::mt19937 rng(3);
  std::vector<std::pair<uint32_t, uint32_t>> v;
  for (uint32_t i = 0; i < 5000; ++i) v.emplace_back(rng() % 700, i);
  auto expected = v;
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  StableRadixSort(v, [](const std::pair<uint32_t, uint32_t>& p) { return p.first; });
  EXPECT_EQ(v, expected);
}

TEST(SortUnique, EachValueOnceAscending) {
  std::vector<uint32_t> v{5, 3, 5, 1, 3, 3, 9};
  SortUnique(v);
  EXPECT_EQ(v, (std::vector<uint32_t>{1, 3, 5, 9}));
  std::vector<uint64_t> none;
  SortUnique(none);
  EXPECT_TRUE(none.empty());
}

// Enough unsigned values for the radix sort: the same as sorting by
// comparisons, signed values too.
TEST(SortUnique, ManyValuesMatchASortThenUnique) {
  std::mt19937_64 rng(31);
  std::vector<uint64_t> ids(5000);
  for (auto& id : ids) id = 0x0000100000000000ull + rng() % 3000;  // shared high bits, repeats
  std::vector<int64_t> signed_values(5000);
  for (auto& x : signed_values) x = static_cast<int64_t>(rng() % 3000) - 1500;
  auto expected = [](auto v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  };
  const auto ids_expected = expected(ids);
  const auto signed_expected = expected(signed_values);
  SortUnique(ids);
  SortUnique(signed_values);
  EXPECT_EQ(ids, ids_expected);
  EXPECT_EQ(signed_values, signed_expected);
}

TEST(ApplyPermutation, PositionJTakesWhatWasAtFromJ) {
  std::vector<std::string> records{"a", "b", "c", "d", "e"};
  std::vector<uint32_t> from{3, 0, 4, 1, 2};  // one cycle through all five
  ApplyPermutation(records, from);
  EXPECT_EQ(records, (std::vector<std::string>{"d", "a", "e", "b", "c"}));
  EXPECT_EQ(from, (std::vector<uint32_t>{0, 1, 2, 3, 4}));
}

TEST(ApplyPermutation, RandomPermutationsMatchACopyInOrder) {
  std::mt19937 rng(5);
  for (size_t n : {0, 1, 2, 17, 1000}) {
    std::vector<std::string> records(n);
    for (size_t i = 0; i < n; ++i) records[i] = "record " + std::to_string(i);
    std::vector<uint32_t> from(n);
    std::iota(from.begin(), from.end(), 0u);
    std::shuffle(from.begin(), from.end(), rng);
    std::vector<std::string> expected;
    for (uint32_t f : from) expected.push_back(records[f]);
    ApplyPermutation(records, from);
    EXPECT_EQ(records, expected) << n << " records";
  }
}

TEST(StableOrderByKeys, EqualKeysKeepTheirOrderAsAStableSortDoes) {
  const std::vector<int> keys{3, 1, 3, 2, 1, 3};
  const std::vector<uint32_t> from = StableOrderByKeys(
      keys.size(), [&keys](size_t i) { return keys[i]; }, std::greater<int>());
  EXPECT_EQ(from, (std::vector<uint32_t>{0, 2, 5, 3, 1, 4}));
  std::mt19937 rng(11);
  std::vector<std::pair<int, int>> records(500);
  for (size_t i = 0; i < records.size(); ++i)
    records[i] = {static_cast<int>(rng() % 7), static_cast<int>(i)};
  std::vector<std::pair<int, int>> expected = records;
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<uint32_t> order = StableOrderByKeys(
      records.size(), [&records](size_t i) { return records[i].first; }, std::less<int>());
  ApplyPermutation(records, order);
  EXPECT_EQ(records, expected);
}

TEST(AppendPermuted, AnEmptyOutputTakesTheArrayAnotherGetsItAppended) {
  std::vector<std::string> out;
  std::vector<std::string> first{"a", "b", "c"};
  const std::string* storage = first.data();
  std::vector<uint32_t> from{2, 0, 1};
  AppendPermuted(std::move(first), from, out);
  EXPECT_EQ(out, (std::vector<std::string>{"c", "a", "b"}));
  EXPECT_EQ(out.data(), storage);  // the array itself, not a copy
  std::vector<uint32_t> from_second{1, 0};
  AppendPermuted(std::vector<std::string>{"x", "y"}, from_second, out);
  EXPECT_EQ(out, (std::vector<std::string>{"c", "a", "b", "y", "x"}));
}

struct RankedRow {
  int64_t first = 0, second = 0;
  std::string name;
};

TEST(SortByRankThenName, RanksDescendingThenNamesAscendingByHand) {
  std::vector<RankedRow> rows{{5, 1, "conv"}, {7, 0, "add"},  {5, 2, "mul"},
                              {5, 1, "add"},  {0, 0, "zeta"}, {5, 1, "b"}};
  std::vector<uint32_t> moved = SortByRankThenName(
      rows,
      [](const RankedRow& r) {
        return std::array<int64_t, 2>{r.first, r.second};
      },
      [](const RankedRow& r) { return std::string_view(r.name); });
  std::vector<std::string> names;
  for (const auto& r : rows) names.push_back(r.name);
  // (7,0) first; of (5,*) the second rank 2 before 1; the three (5,1) by name.
  EXPECT_EQ(names, (std::vector<std::string>{"add", "mul", "add", "b", "conv", "zeta"}));
  EXPECT_EQ(rows[2].first, 5);  // the (5,1) "add", not the (7,0) one
  // Old position -> new: "conv" went from 0 to 4, "zeta" from 4 to 5.
  EXPECT_EQ(moved, (std::vector<uint32_t>{4, 0, 1, 2, 5, 3}));
}

TEST(SortByRankThenName, RandomRowsMatchAComparisonSort) {
  std::mt19937 rng(11);
  for (size_t n : {0, 1, 2, 50, 3000}) {
    std::vector<RankedRow> rows(n);
    for (size_t i = 0; i < n; ++i)
      rows[i] = {static_cast<int64_t>(rng() % 4) - 1, static_cast<int64_t>(rng() % 3),
                 "op" + std::to_string(i * 7919 % 10007)};  // distinct names
    std::vector<RankedRow> expected = rows;
    std::sort(expected.begin(), expected.end(), [](const RankedRow& a, const RankedRow& b) {
      if (a.first != b.first) return a.first > b.first;
      if (a.second != b.second) return a.second > b.second;
      return a.name < b.name;
    });
    const std::vector<RankedRow> before = rows;
    std::vector<uint32_t> moved = SortByRankThenName(
        rows,
        [](const RankedRow& r) {
          return std::array<int64_t, 2>{r.first, r.second};
        },
        [](const RankedRow& r) { return std::string_view(r.name); });
    ASSERT_EQ(rows.size(), n);
    for (size_t i = 0; i < n; ++i) {
      EXPECT_EQ(rows[i].name, expected[i].name) << i << " of " << n;
      EXPECT_EQ(rows[moved[i]].name, before[i].name);
    }
  }
}

// Names of up to 24 bytes from {a, b, NUL, FF}: many share their first 16
// bytes, end inside them, or hold zero bytes where a shorter name ends.
TEST(SortByRankThenName, NamesWithSharedHeadsAndZeroBytesMatchAComparisonSort) {
  std::mt19937 rng(29);
  const char alphabet[] = {'a', 'b', '\0', '\xff'};
  std::vector<RankedRow> rows(4000);
  for (auto& r : rows) {
    r.first = static_cast<int64_t>(rng() % 2);
    r.name = std::string(rng() % 2 ? 14 : 0, 'a');  // a shared head, often
    for (size_t n = rng() % 11; n > 0; --n) r.name += alphabet[rng() % 4];
  }
  std::vector<RankedRow> expected = rows;
  std::sort(expected.begin(), expected.end(), [](const RankedRow& a, const RankedRow& b) {
    return a.first != b.first ? a.first > b.first : a.name < b.name;
  });
  SortByRankThenName(
      rows, [](const RankedRow& r) { return std::array<int64_t, 1>{r.first}; },
      [](const RankedRow& r) { return std::string_view(r.name); });
  for (size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].first, expected[i].first) << i;
    ASSERT_EQ(rows[i].name, expected[i].name) << i;
  }
}

}  // namespace
}  // namespace htpscope::sort_util_test
