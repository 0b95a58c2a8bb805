// Do the artifacts belong to one run?  Each pair that shares op IDs or
// cycle counters is checked; a pair that clearly disagrees is refused
// (InputError) unless the caller allows the mismatch, in which case the
// join goes on with the warning `mismatched_artifacts`.
#include <absl/container/flat_hash_set.h>
#include <fmt/format.h>

#include <algorithm>

#include "base/errors.h"
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

}  // namespace

void CheckArtifactsBelongTogether(Run& run, const model_import::QhasFacts& qhas,
                                  const LoadOptions& options) {
  std::vector<Mismatch> mismatches;
  const bool trace = run.Has(ArtifactType::kOptrace) && !run.op_instances.empty();
  // Flat sets, each built only when an artifact's IDs are looked up in it:
  // hundreds of thousands of IDs are probed (node sets miss the cache at
  // every probe).
  absl::flat_hash_set<uint64_t> trace_ids;
  absl::flat_hash_set<uint32_t> trace_qnn_ids;
  if (trace && (!run.graph_nodes.empty() || !qhas.op_ids.empty())) {
    trace_ids.reserve(run.op_instances.size());
    for (const auto& op : run.op_instances) trace_ids.insert(op.op_id);
  }
  if (trace && !run.profile_nodes.empty()) {
    trace_qnn_ids.reserve(run.op_instances.size());
    for (const auto& op : run.op_instances) trace_qnn_ids.insert(QnnOpIdOf(op.op_id));
  }
  const std::string& trace_path = run.PathOf(ArtifactType::kOptrace);

  // The HTP graph's node IDs are the optrace's op IDs.
  if (trace && !run.graph_nodes.empty()) {
    size_t found = 0;
    for (const auto& n : run.graph_nodes) found += trace_ids.count(n.id);
    if (found < kMinSharedIdShare * static_cast<double>(run.graph_nodes.size()))
      mismatches.push_back({run.PathOf(ArtifactType::kHtpGraph),
                            fmt::format("{} of {} HTP graph node IDs occur in the optrace {}",
                                        found, run.graph_nodes.size(), Basename(trace_path))});
  }
  // QHAS lists the optrace's op IDs.
  if (trace && !qhas.op_ids.empty()) {
    size_t absent = 0;
    for (uint64_t id : qhas.op_ids) absent += !trace_ids.count(id);
    if (static_cast<double>(qhas.op_ids.size() - absent) <
        kMinSharedIdShare * static_cast<double>(qhas.op_ids.size()))
      mismatches.push_back({qhas.path, fmt::format("{} of {} QHAS op IDs occur in the optrace {}",
                                                   qhas.op_ids.size() - absent, qhas.op_ids.size(),
                                                   Basename(trace_path))});
    else if (absent)
      run.warnings.push_back(
          {"qhas_mismatch", fmt::format("{} of {} QHAS op IDs are absent from the optrace: the "
                                        "QHAS file may come from a different run",
                                        absent, qhas.op_ids.size())});
  }
  // The profile's OpId_n are the QNN op ids inside the HTP op IDs.  Nodes
  // of 0 cycles are left out: the compiler removes ops such as reshapes,
  // which the profile still lists.
  if (trace && !run.profile_nodes.empty()) {
    absl::flat_hash_set<uint32_t> profile_ids;
    for (const auto& n : run.profile_nodes)
      if (n.op_id && n.cycles > 0) profile_ids.insert(*n.op_id);
    size_t found = 0;
    for (uint32_t id : profile_ids) found += trace_qnn_ids.count(id);
    if (!profile_ids.empty() && found < kMinSharedIdShare * static_cast<double>(profile_ids.size()))
      mismatches.push_back(
          {run.PathOf(run.Has(ArtifactType::kProfileCsv) ? ArtifactType::kProfileCsv
                                                         : ArtifactType::kProfileText),
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
            {"optrace_outside_window",
             fmt::format("the optrace's cycles [{}, {}) overlap a runtrace Graph Execute window "
                         "without lying inside one",
                         start, end)});
      else
        mismatches.push_back(
            {run.PathOf(ArtifactType::kRuntrace),
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
    run.warnings.push_back({"mismatched_artifacts",
                            fmt::format("{}: does not belong to the same run: {}; joined anyway "
                                        "on request",
                                        m.file, m.evidence)});
}

}  // namespace htpscope
