#include "analysis/etdump_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "base/errors.h"

namespace htpscope {
namespace {

// Totals per (name, delegate), in first-seen order until sorted.
class Totals {
 public:
  Totals(const EtdumpRun& run) : run_(run) {}

  void Add(const EtdumpProfileRow& row) {
    auto [it, inserted] = index_.try_emplace(std::pair{row.name, row.delegate}, totals_.size());
    if (inserted) {
      EtdumpEventTotal total;
      total.name = run_.Name(row.name);
      total.delegate = row.delegate;
      total.delegate_debug_id_int = row.delegate_debug_id_int;
      total.delegate_debug_id_str = run_.Name(row.delegate_debug_id_str);
      totals_.push_back(total);
    }
    EtdumpEventTotal& total = totals_[it->second];
    if (total.delegate_debug_id_int != row.delegate_debug_id_int)
      total.delegate_debug_id_int.reset();
    if (total.delegate_debug_id_str != run_.Name(row.delegate_debug_id_str))
      total.delegate_debug_id_str = {};
    ++total.count;
    if (!row.duration_ticks) {
      ++total.uncounted;
    } else if (__builtin_add_overflow(total.total_ticks, *row.duration_ticks, &total.total_ticks)) {
      throw InputError(run_.path,
                       fmt::format("the durations of \"{}\" add up past 2^64 ticks", total.name));
    }
  }

  std::vector<EtdumpEventTotal> Sorted() && {
    std::stable_sort(totals_.begin(), totals_.end(),
                     [](const EtdumpEventTotal& a, const EtdumpEventTotal& b) {
                       if (a.total_ticks != b.total_ticks) return a.total_ticks > b.total_ticks;
                       return std::tie(a.name, a.delegate) < std::tie(b.name, b.delegate);
                     });
    return std::move(totals_);
  }

 private:
  const EtdumpRun& run_;
  std::map<std::pair<StringId, bool>, size_t> index_;
  std::vector<EtdumpEventTotal> totals_;
};

}  // namespace

EtdumpSummary SummarizeEtdump(const EtdumpRun& run) {
  EtdumpSummary summary;
  summary.path = run.path;
  summary.version = run.version;
  summary.warnings = run.warnings;
  Totals all(run);
  for (const EtdumpBlock& block : run.blocks) {
    EtdumpBlockSummary out;
    out.name = block.name;
    out.debug_events = block.debug_events;
    out.allocation_events = block.allocation_events;
    Totals per_block(run);
    out.events.reserve(block.profile_events.size());
    for (const EtdumpProfileRow& row : block.profile_events) {
      out.events.push_back({run.Name(row.name), &row});
      per_block.Add(row);
      all.Add(row);
    }
    out.totals = std::move(per_block).Sorted();
    summary.runs.push_back(std::move(out));
  }
  summary.op_totals = std::move(all).Sorted();
  return summary;
}

}  // namespace htpscope
