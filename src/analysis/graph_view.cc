#include "analysis/graph_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "base/errors.h"
#include "base/number_text.h"
#include "base/sort_util.h"
#include "base/suggest.h"

namespace htpscope {
namespace {

std::string NameList(const std::vector<std::string>& names) {
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

PathAgreement ComparePathOps(std::vector<uint64_t> critical_ops,
                             const std::vector<DominantSegmentRow>& qhas_path) {
  // Both sides as ID-sorted lists (QHAS's ops with their path cycles summed),
  // walked together: a path has hundreds of thousands of rows.
  std::vector<std::pair<uint64_t, int64_t>> qhas_ops;
  qhas_ops.reserve(qhas_path.size());
  for (const auto& s : qhas_path)
    if (!s.idle) qhas_ops.emplace_back(s.op_id, s.cycles());
  // By ID (the order of an ID's rows does not change their sum).
  StableRadixSort(qhas_ops, [](const std::pair<uint64_t, int64_t>& op) { return op.first; });
  size_t summed = 0;
  for (const auto& [id, cycles] : qhas_ops) {
    if (summed > 0 && qhas_ops[summed - 1].first == id)
      qhas_ops[summed - 1].second += cycles;
    else
      qhas_ops[summed++] = {id, cycles};
  }
  qhas_ops.resize(summed);
  SortUnique(critical_ops);
  PathAgreement a;
  auto q = qhas_ops.begin();
  auto only_qhas = [&] {
    a.only_qhas.push_back(q->first);
    a.only_qhas_cycles += q->second;
  };
  for (uint64_t id : critical_ops) {
    for (; q != qhas_ops.end() && q->first < id; ++q) only_qhas();
    if (q != qhas_ops.end() && q->first == id) {
      a.both.push_back(id);
      ++q;
    } else {
      a.only_critical.push_back(id);
    }
  }
  for (; q != qhas_ops.end(); ++q) only_qhas();
  return a;
}

GraphView BuildGraphView(const Run& run, const GraphViewOptions& options) {
  const bool trace = run.Gives(RunData::kTimedSlices);
  if (!run.Gives(RunData::kCompiledGraph) && !trace)
    throw InputError(run.label,
                     "graph needs a compiled graph (chrometrace_htp.json) or an optrace "
                     "(chrometrace.json); the run has neither");
  GraphView v;
  v.label = run.label;
  v.has_htp_graph = run.Gives(RunData::kCompiledGraph);
  v.has_optrace = trace;
  v.has_qhas = run.Gives(RunData::kQhasAnalysis);
  v.graph = BuildDependencyGraph(run);
  for (const auto& w : v.graph.warnings) v.warnings.push_back({WarningCode::dependency_graph, w});
  const Grouping& grouping = options.grouping;
  v.groups = GroupNodes(v.graph, [&](const DepNode& n) { return grouping.GroupName(n); });

  v.shared_tensors = FindSharedTensors(v.graph, v.groups);
  for (const auto& s : v.shared_tensors) {
    if (!s.constant()) continue;
    v.warnings.push_back(
        {WarningCode::shared_constant,
         fmt::format("{} tensor {}{} is read by {} op groups ({}): byte-identical constants are "
                     "de-duplicated by the compiler, which can tie branches meant to be "
                     "independent to one buffer",
                     TensorKindName(s.kind), OpIdHex(s.tensor),
                     s.producer_group.empty() ? "" : " (copied by " + s.producer_group + ")",
                     s.consumer_groups.size(), NameList(s.consumer_groups))});
  }
  if (options.expected) v.expect = CompareWithExpected(v.graph, v.groups, *options.expected);

  // Graph wall.
  if (trace && run.figures.graph_wall_cycles) {
    v.wall_cycles = run.figures.graph_wall_cycles;
  } else {
    std::optional<int64_t> lo, hi;
    for (const auto& n : v.graph.nodes) {
      if (!n.timed) continue;
      lo = lo ? std::min(*lo, n.start_cycles) : n.start_cycles;
      hi = hi ? std::max(*hi, n.end_cycles) : n.end_cycles;
    }
    if (lo) v.wall_cycles = *hi - *lo;
  }

  v.critical = LongestPath(v.graph, v.groups, kAllEdges);
  if (v.critical.cycle_broken)
    v.warnings.push_back({WarningCode::dependency_cycle,
                          "the dependencies hold a cycle; edges against the order of op start "
                          "cycles were ignored for the critical path"});
  std::vector<std::pair<uint32_t, uint32_t>> all_drops;
  for (const auto& [a, b] : options.drop_edges) {
    auto ga = v.groups.Find(a), gb = v.groups.Find(b);
    if (!ga || !gb)
      throw ValueError(ValueRole::kDroppedDependency, fmt::format("{} -> {}", a, b),
                       fmt::format("no op group named \"{}\"{}", !ga ? a : b,
                                   DidYouMean(!ga ? a : b, v.groups.names)));
    all_drops.push_back({*ga, *gb});
    CriticalPath p = LongestPath(v.graph, v.groups, kAllEdges, {{*ga, *gb}});
    v.what_if.push_back(
        {{{a, b}}, p.dropped_edges, p.length_cycles, v.critical.length_cycles - p.length_cycles});
  }
  if (options.drop_edges.size() > 1) {
    CriticalPath p = LongestPath(v.graph, v.groups, kAllEdges, all_drops);
    v.what_if.push_back({options.drop_edges, p.dropped_edges, p.length_cycles,
                         v.critical.length_cycles - p.length_cycles});
  }

  if (trace && !run.slices.empty()) {
    const auto& path = run.dominant_path;
    DominantPathTotals totals;
    if (!path.empty()) totals.wall_cycles = path.back().end_cycle - path.front().start_cycle;
    for (const auto& s : path)
      if (s.idle) totals.idle_cycles += s.cycles();
    v.dominant = totals;
    if (!run.qhas_dominant_path.empty()) {
      {
        v.dominant_vs_qhas = CompareDominantPaths(path, run.qhas_dominant_path);
        if (!v.dominant_vs_qhas->identical())
          v.warnings.push_back(
              {WarningCode::dominant_path_mismatch,
               fmt::format("the dominant path recomputed from the optrace differs from QHAS "
                           "dominant_path_htp_0 ({} of {} rows match; QHAS has {})",
                           FormatCount(v.dominant_vs_qhas->matched_rows),
                           FormatCount(v.dominant_vs_qhas->ours_rows),
                           FormatCount(v.dominant_vs_qhas->qhas_rows))});
      }
    }
  }
  if (!run.qhas_dominant_path.empty()) {
    std::vector<uint64_t> critical_ops;
    for (uint32_t n : v.critical.nodes)
      if (v.graph.nodes[n].executed) critical_ops.push_back(v.graph.nodes[n].id);
    v.critical_vs_qhas = ComparePathOps(std::move(critical_ops), run.qhas_dominant_path);
  }
  return v;
}

}  // namespace htpscope
