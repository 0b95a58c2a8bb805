// Rows of a per-QNN-op table gathered by interned name: each row is added
// (its `name` set to the name's string id) the first time its name is seen,
// so the rows stay in first-seen order, and later sightings find it through
// an array indexed by string id — no hashing, no node per row, and no second
// copy of the rows as with a std::map whose values are then moved into a
// vector.  The array costs 4 bytes per string of the run (0.6 MB for 160 k
// names), less than a hash index of the 80 k rows those runs have.
#pragma once

#include <cstdint>
#include <vector>

#include "model/run.h"

namespace htpscope {

// `Row` has a StringId `name` (an id of the run's strings: no copy per row,
// 80 k rows of long names were 10 MB at a summary's peak, and 4 bytes
// instead of a 16-byte view) and is default-constructible.
// `rows` must outlive this and is only grown through it.
template <typename Row>
class RowsByName {
 public:
  RowsByName(const Run& run, std::vector<Row>& rows)
      : rows_(rows), row_of_(run.strings.size(), kNoRow) {}

  // The row of `name` (an id of the run's strings), added at the end on its
  // first sight.
  Row& operator[](StringId name) {
    uint32_t& row = row_of_[name];
    if (row == kNoRow) {
      row = static_cast<uint32_t>(rows_.size());
      rows_.emplace_back().name = name;
    }
    return rows_[row];
  }

  // Room for `n` rows: no reallocation copies them while they are gathered.
  void reserve(size_t n) { rows_.reserve(n); }

 private:
  static constexpr uint32_t kNoRow = UINT32_MAX;
  std::vector<Row>& rows_;
  std::vector<uint32_t> row_of_;  // by string id
};

}  // namespace htpscope
