// Do the artifacts belong to one run?  Each pair that shares op IDs or
// cycle counters is checked; a pair that clearly disagrees is refused
// (InputError) unless the caller allows the mismatch, in which case the
// join goes on with the warning `mismatched_artifacts`.
#include <fmt/format.h>

#include <algorithm>

#include "base/errors.h"
#include "base/sort_util.h"
#include "model/join.h"

namespace htpscope {
namespace {

// Fewer than this share of one artifact's op IDs found in the other: the two
// come from different runs (the same run's HTP graph lists a few nodes that
// never execute, e.g. 48 of 64 found on a real run).
constexpr double kMinSharedIdShare = 0.5;

struct Mismatch {
  std::string file;      // the artifact that does not fit
  std::string evidence;  // what shows it
};

std::string Basename(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// How many of `needles` (ascending, repeats allowed) occur in `haystack`
// (ascending, distinct): one walk along both.
template <typename Id>
size_t CountFound(const std::vector<Id>& needles, const std::vector<Id>& haystack) {
  size_t found = 0;
  auto at = haystack.begin();
  for (Id id : needles) {
    while (at != haystack.end() && *at < id) ++at;
    found += at != haystack.end() && *at == id;
  }
  return found;
}

}  // namespace

void CheckArtifactsBelongTogether(Run& run, const LoadOptions& options) {
  const std::vector<uint64_t>& qhas_ids = run.qhas_op_ids;
  std::vector<Mismatch> mismatches;
  const bool trace = run.Has(ArtifactKind::kOptrace) && !run.op_instances.empty();
  // Sorted ID lists, each made only when an artifact's IDs are looked up in
  // it, and counted by merging: hundreds of thousands of IDs are looked up
  // (a hash set's probes miss the cache).
  std::vector<uint64_t> trace_ids;
  std::vector<uint32_t> trace_qnn_ids;
  if (trace && (!run.graph_nodes.empty() || !qhas_ids.empty())) {
    trace_ids.reserve(run.op_instances.size());
    for (const auto& op : run.op_instances) trace_ids.push_back(op.op_id);
    SortUnique(trace_ids);
  }
  if (trace && !run.profile_nodes.empty()) {
    trace_qnn_ids.reserve(run.op_instances.size());
    for (const auto& op : run.op_instances) trace_qnn_ids.push_back(QnnOpIdOf(op.op_id));
    SortUnique(trace_qnn_ids);
  }
  const std::string& trace_path = run.PathOf(ArtifactKind::kOptrace);

  // The HTP graph's node IDs are the optrace's op IDs.
  if (trace && !run.graph_nodes.empty()) {
    std::vector<uint64_t> node_ids;
    node_ids.reserve(run.graph_nodes.size());
    for (const auto& n : run.graph_nodes) node_ids.push_back(n.id);
    // The table is in ID order; sorted here only if ever it is not.
    if (!std::is_sorted(node_ids.begin(), node_ids.end()))
      StableRadixSort(node_ids, [](uint64_t id) { return id; });
    const size_t found = CountFound(node_ids, trace_ids);
    if (found < kMinSharedIdShare * static_cast<double>(run.graph_nodes.size()))
      mismatches.push_back({run.PathOf(ArtifactKind::kHtpGraph),
                            fmt::format("{} of {} HTP graph node IDs occur in the optrace {}",
                                        found, run.graph_nodes.size(), Basename(trace_path))});
  }
  // QHAS lists the optrace's op IDs.
  if (trace && !qhas_ids.empty()) {
    const size_t absent = qhas_ids.size() - CountFound(qhas_ids, trace_ids);  // distinct, sorted
    if (static_cast<double>(qhas_ids.size() - absent) <
        kMinSharedIdShare * static_cast<double>(qhas_ids.size()))
      mismatches.push_back(
          {run.PathOf(ArtifactKind::kQhas),
           fmt::format("{} of {} QHAS op IDs occur in the optrace {}", qhas_ids.size() - absent,
                       qhas_ids.size(), Basename(trace_path))});
    else if (absent)
      run.warnings.push_back({WarningCode::qhas_mismatch,
                              fmt::format("{} of {} QHAS op IDs are absent from the optrace: the "
                                          "QHAS file may come from a different run",
                                          absent, qhas_ids.size())});
  }
  // The profile's OpId_n are the QNN op ids inside the HTP op IDs.  Nodes
  // of 0 cycles are left out: the compiler removes ops such as reshapes,
  // which the profile still lists.
  if (trace && !run.profile_nodes.empty()) {
    std::vector<uint32_t> profile_ids;
    for (const auto& n : run.profile_nodes)
      if (n.op_id && n.cycles > 0) profile_ids.push_back(*n.op_id);
    SortUnique(profile_ids);
    const size_t found = CountFound(profile_ids, trace_qnn_ids);
    if (!profile_ids.empty() && found < kMinSharedIdShare * static_cast<double>(profile_ids.size()))
      mismatches.push_back(
          {run.ProfilePath(),
           fmt::format("{} of {} executed profile OpId_n occur as QNN op ids in the optrace {}",
                       found, profile_ids.size(), Basename(trace_path))});
  }
  // The optrace's cycles lie in a Graph Execute window of the runtrace.
  if (trace && !run.slices.empty()) {
    int64_t start = INT64_MAX, end = INT64_MIN;
    for (const auto& s : run.slices) {
      start = std::min(start, s.start_cycle);
      end = std::max(end, s.end_cycle());
    }
    bool any_window = false, overlaps = false;
    for (const auto& p : run.phases) {
      if (p.phase != "Graph Execute" || !p.start_cycle || !p.end_cycle) continue;
      any_window = true;
      if (start >= *p.start_cycle && end <= *p.end_cycle) {
        run.figures.traced_execution = p.execution;
        break;
      }
      overlaps = overlaps || (start < *p.end_cycle && end > *p.start_cycle);
    }
    if (any_window && !run.figures.traced_execution) {
      if (overlaps)
        run.warnings.push_back(
            {WarningCode::optrace_outside_window,
             fmt::format("the optrace's cycles [{}, {}) overlap a runtrace Graph Execute window "
                         "without lying inside one",
                         start, end)});
      else
        mismatches.push_back(
            {run.PathOf(ArtifactKind::kRuntrace),
             fmt::format("the optrace's cycles [{}, {}) lie in none of its Graph Execute windows",
                         start, end)});
    }
  }
  if (mismatches.empty()) return;
  if (!options.allow_mismatch) {
    std::vector<std::string> evidence;
    for (const auto& m : mismatches) evidence.push_back(m.evidence);
    throw MismatchedArtifactsError(
        mismatches.front().file,
        fmt::format("the artifacts do not belong to one run: {}", fmt::join(evidence, "; ")));
  }
  for (const auto& m : mismatches)
    run.warnings.push_back({WarningCode::mismatched_artifacts,
                            fmt::format("{}: does not belong to the same run: {}; joined anyway "
                                        "on request",
                                        m.file, m.evidence)});
}

}  // namespace htpscope
