// The optrace reader's last stage, once every event is read: the ts origin
// (absolute cycles), metadata folded per process and thread, the copies
// checked against the slices.
#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <numeric>

#include "base/huge_pages.h"
#include "formats/optrace_parser.h"

namespace htpscope::optrace_internal {
namespace {

// Sorts metadata records by pid, keeping file order among equal pids.
// Per-QNN-op processes are numbered densely from 0, so a counting sort
// takes one pass; sparse pids fall back to a merge sort.
template <typename Record>
void StableSortByPid(std::vector<Record>& records) {
  auto by_pid = [](const Record& a, const Record& b) { return a.pid < b.pid; };
  if (std::is_sorted(records.begin(), records.end(), by_pid)) return;
  uint32_t max_pid = 0;
  for (const Record& r : records) max_pid = std::max(max_pid, r.pid);
  if (max_pid > 4 * records.size() + 1024) {
    std::stable_sort(records.begin(), records.end(), by_pid);
    return;
  }
  std::vector<uint32_t> next(size_t{max_pid} + 2, 0);  // next[pid]: where its next record goes
  for (const Record& r : records) ++next[r.pid + 1];
  std::partial_sum(next.begin(), next.end(), next.begin());
  std::vector<Record> sorted(records.size());
  for (const Record& r : records) sorted[next[r.pid]++] = r;
  records.swap(sorted);
}

// Folds the metadata records, in file order, into one process per pid and
// one thread per (pid, tid); a later event's fields win.
void FoldMetadata(Optrace* out) {
  auto& processes = out->processes;
  StableSortByPid(processes);
  size_t kept = 0;
  for (size_t i = 0; i < processes.size(); ++i) {
    const TraceProcess& p = processes[i];
    if (kept == 0 || processes[kept - 1].pid != p.pid) {
      processes[kept++] = p;
      continue;
    }
    TraceProcess& into = processes[kept - 1];
    if (p.has_name) {
      into.name = p.name;
      into.has_name = true;
    }
    if (p.has_op_id) {
      into.qnn_op_id = p.qnn_op_id;
      into.has_op_id = true;
    }
    if (p.has_sort_index) {
      into.sort_index = p.sort_index;
      into.has_sort_index = true;
    }
  }
  processes.resize(kept);
  processes.shrink_to_fit();
  auto& threads = out->threads;
  auto key = [](const TraceThread& t) { return std::pair(t.pid, t.tid); };
  auto by_key = [&](const TraceThread& a, const TraceThread& b) { return key(a) < key(b); };
  if (!std::is_sorted(threads.begin(), threads.end(), by_key)) {
    StableSortByPid(threads);
    // Then each process's few threads by tid.
    auto by_tid = [](const TraceThread& a, const TraceThread& b) { return a.tid < b.tid; };
    for (auto run = threads.begin(); run != threads.end();) {
      auto run_end =
          std::find_if(run, threads.end(), [&](const TraceThread& t) { return t.pid != run->pid; });
      if (!std::is_sorted(run, run_end, by_tid)) std::stable_sort(run, run_end, by_tid);
      run = run_end;
    }
  }
  kept = 0;
  for (const TraceThread& t : threads) {
    if (kept && key(threads[kept - 1]) == key(t))
      threads[kept - 1] = t;  // the later name wins
    else
      threads[kept++] = t;
  }
  threads.resize(kept);
  threads.shrink_to_fit();
}

}  // namespace

void AddWarning(Optrace* trace, std::string message) {
  if (trace->warnings.size() < 20) trace->warnings.push_back(std::move(message));
}

// Boyer–Moore majority vote: two passes, no sort.
std::optional<int64_t> MajorityOriginCycles(const Optrace& trace) {
  const size_t n = trace.slices.size();
  if (n == 0) return std::nullopt;
  int64_t candidate = 0;
  size_t votes = 0;
  for (size_t i = 0; i < n; ++i) {
    const int64_t d = StartCycleMinusTs(trace, i);
    if (votes == 0) candidate = d;
    votes = d == candidate ? votes + 1 : votes - 1;
  }
  size_t agreeing = 0;
  for (size_t i = 0; i < n; ++i) agreeing += StartCycleMinusTs(trace, i) == candidate;
  if (2 * agreeing > n) return candidate;
  return std::nullopt;
}

void ShiftTimes(Optrace* trace, int64_t cycles) {
  if (cycles == 0) return;
  for (auto& s : trace->slices) s.start_cycles += cycles;
  for (auto& f : trace->flows) f.ts_cycles += cycles;
  for (auto& [name, samples] : trace->counters)
    for (auto& c : samples) c.ts_cycles += cycles;
}

void FinishOptrace(Optrace* out, int64_t added_cycles, size_t agreeing_slices) {
  // The metadata (hundreds of thousands of per-op processes to sort) is
  // independent of the times: folded on a second core meanwhile.
  auto metadata_folded = std::async(std::launch::async, [out] { FoldMetadata(out); });
  // ts + origin == Start Cycle holds for every single-slice op and for one
  // slice of each multi-slice op; the most common difference is the origin.
  // A difference shared by more than half the slices is the most common
  // one: a majority vote settles the usual case without sorting.
  std::optional<int64_t> majority = 2 * agreeing_slices > out->slices.size()
                                        ? std::optional<int64_t>(0)
                                        : MajorityOriginCycles(*out);
  std::vector<int64_t> differences;
  if (!majority) {
    differences.reserve(out->slices.size());
    for (size_t i = 0; i < out->slices.size(); ++i)
      differences.push_back(StartCycleMinusTs(*out, i));
  }
  if (majority) {
    out->origin_cycles = added_cycles + *majority;
    out->origin_known = true;
  } else if (!differences.empty()) {
    std::sort(differences.begin(), differences.end());
    int64_t best = differences[0];
    size_t best_run = 0;
    for (size_t i = 0; i < differences.size();) {
      size_t j = i;
      while (j < differences.size() && differences[j] == differences[i]) ++j;
      if (j - i > best_run) {
        best_run = j - i;
        best = differences[i];
      }
      i = j;
    }
    out->origin_cycles = added_cycles + best;
    out->origin_known = true;
  } else {
    out->origin_cycles = 0;  // no slice: times stay relative
  }
  ShiftTimes(out, out->origin_cycles - added_cycles);
  for (auto& [name, samples] : out->counters) {
    auto earlier = [](const CounterSample& a, const CounterSample& b) {
      return a.ts_cycles < b.ts_cycles;
    };
    // Tracks are written in time order: sorting millions of sorted samples
    // would cost a merge sort's buffer and passes for nothing.
    if (!std::is_sorted(samples.begin(), samples.end(), earlier))
      std::stable_sort(samples.begin(), samples.end(), earlier);
  }
  metadata_folded.get();
  // The arrays are complete: their last huge pages' unused tails go back.
  ReleaseUnusedCapacity(out->slices);
  ReleaseUnusedCapacity(out->slice_args);
  ReleaseUnusedCapacity(out->dims);
  ReleaseUnusedCapacity(out->input_ids);
  ReleaseUnusedCapacity(out->flows);
  ReleaseUnusedCapacity(out->non_executed);
  for (auto& [name, samples] : out->counters) ReleaseUnusedCapacity(samples);
  if (out->duplicate_slices != 0 && out->duplicate_slices != out->slices.size())
    AddWarning(
        out, fmt::format(
                 "{} executed slices on the overview process but {} copies on per-QNN-op processes",
                 out->slices.size(), out->duplicate_slices));
}

}  // namespace htpscope::optrace_internal
