// Rows of a per-QNN-op table gathered by interned name: each row is added
// (its `name` set from the run's strings) the first time its name is seen,
// so the rows stay in first-seen order, and later sightings find it through
// a flat index — no node per row, and no second copy of the rows as with a
// std::map whose values are then moved into a vector.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "model/run.h"

namespace htpscope {

// `Row` has a std::string_view `name` and is default-constructible; the
// name views the run's strings (no copy per row: 80 k rows of long names
// were 10 MB at a summary's peak), so the rows are valid while the run is.
// `rows` must outlive this and is only grown through it.
template <typename Row>
class RowsByName {
 public:
  RowsByName(const Run& run, std::vector<Row>& rows) : run_(run), rows_(rows) {}

  // The row of `name`, added at the end on its first sight.
  Row& operator[](StringId name) {
    auto [it, inserted] = index_.try_emplace(name, static_cast<uint32_t>(rows_.size()));
    if (inserted) rows_.emplace_back().name = run_.Str(name);
    return rows_[it->second];
  }

  void reserve(size_t n) {
    index_.reserve(n);
    rows_.reserve(n);
  }

 private:
  const Run& run_;
  std::vector<Row>& rows_;
  absl::flat_hash_map<StringId, uint32_t> index_;
};

}  // namespace htpscope
