#include "report/graph_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/op_groups.h"
#include "model/figures.h"
#include "report/format_util.h"
#include "report/json_values.h"
#include "report/row_limit.h"
#include "report/run_sections.h"
#include "report/timeline_report.h"

namespace htpscope {
namespace {

using nlohmann::json;

std::string ShareText(int64_t part, std::optional<int64_t> whole) {
  auto pct = SharePct(part, whole);
  return pct ? fmt::format("{:.1f} %", *pct) : "-";
}

std::string IdList(const std::vector<uint64_t>& ids, size_t max) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < ids.size() && i < max; ++i) parts.push_back(OpIdHex(ids[i]));
  if (ids.size() > max)
    parts.push_back(fmt::format("... ({} more)", FormatCount(ids.size() - max)));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string NameList(const std::vector<std::string>& names) {
  std::vector<std::string> parts;
  for (const auto& n : names) parts.push_back(AsciiFit(n, 60));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// Per op id: dominant-path cycles summed over its slices.
struct OpDominant {
  uint64_t op_id = 0;
  std::string_view group;  // one of the graph view's group names
  int64_t dp_cycles = 0;
  int64_t trace_dpc_cycles = 0;  // the optrace's op-level DPC (one slice's, repeated)
  uint32_t slices = 0;
};

// The graph node of each of the run's slices: its op instance's node, as
// the graph recorded it (looked up by op ID only if ever they differ).
std::vector<uint32_t> NodeOfEachSlice(const GraphView& v, const Run& run) {
  const DependencyGraph& g = v.graph;
  std::vector<uint32_t> out(run.slices.size());
  for (size_t i = 0; i < run.slices.size(); ++i) {
    const SliceRow& s = run.slices[i];
    const bool recorded = s.instance < g.node_of_instance.size() &&
                          g.nodes[g.node_of_instance[s.instance]].id == s.op_id;
    out[i] = recorded ? g.node_of_instance[s.instance] : g.index.at(s.op_id);
  }
  return out;
}

// By op id.  An op id is one graph node: its slices are summed in the
// node's slot.
std::vector<OpDominant> DominantByOp(const GraphView& v, const Run& run,
                                     const std::vector<uint32_t>& node_of_slice) {
  // Summed per node in a compact array, then one row per node with slices:
  // a row per node of the graph, filled and copied, was the graph page's
  // costliest step (its pages faulted in twice over).
  struct NodeSum {
    int64_t dp_cycles = 0;
    int64_t trace_dpc_cycles = 0;
    uint32_t slices = 0;
    uint32_t first_slice = 0;
  };
  std::vector<NodeSum> by_node(v.graph.nodes.size());
  size_t with_slices = 0;
  for (size_t i = 0; i < run.slices.size(); ++i) {
    const SliceRow& s = run.slices[i];
    NodeSum& n = by_node[node_of_slice[i]];
    if (n.slices == 0) {
      n.first_slice = static_cast<uint32_t>(i);
      ++with_slices;
    }
    n.dp_cycles += run.slice_dominant_cycles[i];
    n.trace_dpc_cycles = run.op_instances[s.instance].trace_dpc_cycles;
    ++n.slices;
  }
  std::vector<OpDominant> out;
  out.reserve(with_slices);
  for (size_t node = 0; node < by_node.size(); ++node) {
    const NodeSum& n = by_node[node];
    if (n.slices == 0) continue;
    out.push_back({run.slices[n.first_slice].op_id, v.groups.names[v.groups.of_node[node]],
                   n.dp_cycles, n.trace_dpc_cycles, n.slices});
  }
  auto by_id = [](const OpDominant& a, const OpDominant& b) { return a.op_id < b.op_id; };
  if (!std::is_sorted(out.begin(), out.end(), by_id)) std::sort(out.begin(), out.end(), by_id);
  return out;
}

}  // namespace

std::string DotEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        break;
      default:
        out += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
    }
  }
  return out;
}

namespace {

// The graph's size: ops and where they come from, groups, dependencies by
// source, tensors, flows matched and the producer map.
void AppendGraphOverview(std::string& out, const GraphView& v) {
  const DependencyGraph& g = v.graph;
  std::map<uint8_t, size_t> by_kind;
  for (const auto& e : g.edges)
    for (uint8_t bit : {kEdgeGraphInput, kEdgeTraceInput, kEdgeDataFlow, kEdgeSequencerFlow})
      if (e.kinds & bit) ++by_kind[bit];
  out += fmt::format("Compiled graph of {}\n", AsciiFit(v.label, 200));
  out += fmt::format(
      "  {} ops ({} from the HTP graph, {} only in the optrace), {} op groups, {} dependencies "
      "(graph_input {}, trace_input {}, data_flow {}, sequencer_flow {}; an edge may have several "
      "sources), {} input tensors\n",
      FormatCount(g.nodes.size()), FormatCount(g.graph_nodes), FormatCount(g.trace_only_nodes),
      FormatCount(v.groups.names.size()), FormatCount(g.edges.size()),
      FormatCount(by_kind[kEdgeGraphInput]), FormatCount(by_kind[kEdgeTraceInput]),
      FormatCount(by_kind[kEdgeDataFlow]), FormatCount(by_kind[kEdgeSequencerFlow]),
      FormatCount(g.tensors.size()));
  if (!v.has_htp_graph)
    out += "  no chrometrace_htp.json: dependencies come from the optrace's Inputs Ops and flows\n";
  if (v.has_optrace)
    out += fmt::format("  flow arrows matched to slices: {} ({} unmatched)\n",
                       FormatCount(g.flows_matched), FormatCount(g.flows_unmatched));
  size_t identity = 0;
  for (const auto& [tensor, node] : g.producer_map) identity += tensor == node;
  if (!g.producer_map.empty())
    out += fmt::format(
        "  producer map: {} output tensors named by the HTP graph, {} of them carry their "
        "producer's id\n",
        FormatCount(g.producer_map.size()), FormatCount(identity));
}

// Each pair of groups linked by node edges, with how many and their sources.
void AppendGroupDependencies(std::string& out, const GraphView& v, const RowLimit& limit) {
  const DependencyGraph& g = v.graph;
  AppendSection(out, "Dependencies between op groups (predecessor group -> group: node edges)");
  // ((from group, to group), (node edges, kinds)) in group order: the node
  // edges between groups sorted, then each pair's run summed.
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, uint8_t>> between;
  for (const auto& e : g.edges) {
    uint32_t a = v.groups.of_node[e.from], b = v.groups.of_node[e.to];
    if (a != b) between.push_back({{a, b}, e.kinds});
  }
  std::sort(between.begin(), between.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, std::pair<size_t, uint8_t>>> group_edges;
  for (const auto& [ab, kinds] : between) {
    if (group_edges.empty() || group_edges.back().first != ab) group_edges.push_back({ab, {0, 0}});
    ++group_edges.back().second.first;
    group_edges.back().second.second |= kinds;
  }
  if (group_edges.empty()) out += "  (none)\n";
  const size_t shown = limit.Shown(group_edges.size());
  size_t i = 0;
  for (const auto& [ab, info] : group_edges) {
    if (i++ == shown) break;
    out += fmt::format("  {} -> {}: {} ({})\n", AsciiFit(v.groups.names[ab.first], 60),
                       AsciiFit(v.groups.names[ab.second], 60), info.first,
                       EdgeKindNames(info.second));
  }
  AppendMoreLine(out, group_edges.size(), shown, "group dependencies");
}

// Each op (in node order) with its predecessors, grouped by their op group.
void AppendPredecessors(std::string& out, const GraphView& v, const RowLimit& limit) {
  const DependencyGraph& g = v.graph;
  AppendSection(out, "Predecessors of each op, grouped by op group");
  const size_t ops_shown = limit.Shown(g.nodes.size());
  for (uint32_t n = 0; n < ops_shown; ++n) {
    const DepNode& node = g.nodes[n];
    auto preds = PredecessorsByGroup(g, v.groups, n);
    std::string list;
    for (const auto& p : preds)
      list += fmt::format("{}{}: {}", list.empty() ? "" : "; ", AsciiFit(p.group, 60),
                          IdList(p.ops, 8));
    out +=
        fmt::format("  {} {:<28} [{}]{}  <- {}\n", OpIdHex(node.id), AsciiFit(node.htp_op_type, 28),
                    AsciiFit(v.groups.names[v.groups.of_node[n]], 40),
                    node.executed   ? ""
                    : node.in_graph ? " (not executed)"
                                    : "",
                    list.empty() ? "(none)" : list);
  }
  AppendMoreLine(out, g.nodes.size(), ops_shown, "ops");
}

// The tensors read by several op groups, constants flagged.
void AppendSharedTensors(std::string& out, const GraphView& v, const RowLimit& limit) {
  AppendSection(out,
                "Shared tensors (read by ops of more than one op group besides their producer)");
  if (v.shared_tensors.empty()) out += "  (none)\n";
  const size_t tensors_shown = limit.Shown(v.shared_tensors.size());
  for (size_t t = 0; t < tensors_shown; ++t) {
    const auto& s = v.shared_tensors[t];
    out += fmt::format(
        "  {} {:<13} {}-> {} op groups: {}{}\n", OpIdHex(s.tensor), TensorKindName(s.kind),
        s.producer_group.empty() ? "" : "from " + AsciiFit(s.producer_group, 40) + " ",
        s.consumer_groups.size(), NameList(s.consumer_groups),
        s.constant() ? "  [shared_constant]" : "");
  }
  AppendMoreLine(out, v.shared_tensors.size(), tensors_shown, "shared tensors");
  if (!v.shared_tensors.empty())
    out +=
        "  static and constant_copy tensors are flagged: the compiler de-duplicates byte-identical "
        "constants, tying branches to one buffer; shape tensors are read-only metadata\n";
}

// The expected DAG's missing, extra and unknown edges.
void AppendExpectedDag(std::string& out, const DagComparison& c, const RowLimit& limit) {
  AppendSection(out, "Expected DAG vs compiled graph (groups named by the expectation)");
  out += fmt::format("  matched {}, missing {}, extra {}\n", c.matched.size(), c.missing.size(),
                     c.extra.size());
  const size_t missing_shown = limit.Shown(c.missing.size());
  for (size_t i = 0; i < missing_shown; ++i)
    out += fmt::format("  missing: {} -> {} (line {})\n", AsciiFit(c.missing[i].from, 60),
                       AsciiFit(c.missing[i].to, 60), c.missing[i].line);
  AppendMoreLine(out, c.missing.size(), missing_shown, "missing edges");
  const size_t extra_shown = limit.Shown(c.extra.size());
  for (size_t i = 0; i < extra_shown; ++i)
    out +=
        fmt::format("  extra:   {} -> {}{}\n", AsciiFit(c.extra[i].from, 60),
                    AsciiFit(c.extra[i].to, 60), c.extra[i].data ? "" : " (sequencer order only)");
  AppendMoreLine(out, c.extra.size(), extra_shown, "extra edges");
  for (const auto& n : c.unknown_names)
    out += fmt::format("  unknown: {} is no op group of this graph\n", AsciiFit(n, 60));
}

// The critical path's length and its heaviest steps, in path order.
void AppendCriticalPath(std::string& out, const GraphView& v, const RowLimit& limit) {
  const DependencyGraph& g = v.graph;
  AppendSection(
      out,
      "Critical path (longest path by measured op durations over data and sequencer dependencies)");
  if (v.critical.nodes.empty()) {
    out += "  (no timed ops)\n";
    return;
  }
  out += fmt::format("  {} cycles = {} of the {}-cycle graph wall; {} ops\n",
                     GroupDigits(v.critical.length_cycles),
                     ShareText(v.critical.length_cycles, v.wall_cycles),
                     v.wall_cycles ? GroupDigits(*v.wall_cycles) : "?", v.critical.nodes.size());
  out += fmt::format("  {:>3}  {:<24} {:<30} {:<18} {:>12} {:>8}\n", "#", "op group", "HTP op type",
                     "op id", "cycles", "of wall");
  // A long path shows its heaviest steps, in path order ('#' = position).
  const size_t steps_shown = limit.Shown(v.critical.nodes.size());
  std::vector<size_t> steps(v.critical.nodes.size());
  for (size_t k = 0; k < steps.size(); ++k) steps[k] = k;
  std::stable_sort(steps.begin(), steps.end(), [&](size_t a, size_t b) {
    return g.nodes[v.critical.nodes[a]].duration_cycles >
           g.nodes[v.critical.nodes[b]].duration_cycles;
  });
  steps.resize(steps_shown);
  std::sort(steps.begin(), steps.end());
  int64_t left_out_cycles = v.critical.length_cycles;
  for (size_t k : steps) {
    const uint32_t n = v.critical.nodes[k];
    const DepNode& node = g.nodes[n];
    left_out_cycles -= node.duration_cycles;
    out += fmt::format("  {:>3}  {:<24} {:<30} {:<18} {:>12} {:>8}\n", k + 1,
                       AsciiFit(v.groups.names[v.groups.of_node[n]], 24),
                       AsciiFit(node.htp_op_type, 30), OpIdHex(node.id),
                       GroupDigits(node.duration_cycles),
                       ShareText(node.duration_cycles, v.wall_cycles));
  }
  AppendMoreLine(out, v.critical.nodes.size(), steps_shown, "shorter steps",
                 fmt::format(", {} cycles", GroupDigits(left_out_cycles)));
  out +=
      "  cycles = an op's measured duration (first slice start to last slice end); the path "
      "assumes unlimited units and no dispatch cost\n";
}

// Each what-if: the dependencies dropped and the estimated saving.
void AppendWhatIf(std::string& out, const GraphView& v) {
  AppendSection(
      out,
      "What-if: dependencies dropped (ESTIMATE: durations as measured, resources not modelled)");
  for (const auto& w : v.what_if) {
    std::vector<std::string> names;
    for (const auto& [a, b] : w.dropped) names.push_back(AsciiFit(a, 40) + "->" + AsciiFit(b, 40));
    out += fmt::format(
        "  drop {}: {} node edges removed; critical path {} cycles; estimated wall saving {} "
        "cycles ({} of the wall){}\n",
        fmt::join(names, ", "), w.edges_removed, GroupDigits(w.critical_path_cycles),
        GroupDigits(w.saving_cycles), ShareText(w.saving_cycles, v.wall_cycles),
        w.edges_removed == 0 ? " - no direct dependency between these groups" : "");
  }
}

// The dominant path's cycles per op group (most first), then the idle cycles.
void AppendDominantByGroup(std::string& out, const GraphView& v, const Run& run,
                           const std::vector<uint32_t>& node_of_slice, const RowLimit& limit) {
  const int64_t wall = v.dominant->wall_cycles, idle = v.dominant->idle_cycles;
  // Per group with slices, by dp cycles (most first), then by name (unique).
  std::vector<int64_t> group_cycles(v.groups.names.size(), 0);
  std::vector<bool> group_seen(v.groups.names.size(), false);
  for (size_t i = 0; i < run.slices.size(); ++i) {
    const uint32_t gi = v.groups.of_node[node_of_slice[i]];
    group_cycles[gi] += run.slice_dominant_cycles[i];
    group_seen[gi] = true;
  }
  // Only the groups shown are ordered (names are unique: one order), and the
  // rest summed: a graph of 80 k groups sorted whole, names copied, took
  // longer than the rest of the page.
  std::vector<std::pair<std::string_view, int64_t>> groups;
  int64_t rest_cycles = 0;
  for (size_t gi = 0; gi < group_cycles.size(); ++gi) {
    if (!group_seen[gi]) continue;
    groups.emplace_back(v.groups.names[gi], group_cycles[gi]);
    rest_cycles += group_cycles[gi];
  }
  const size_t groups_shown = limit.Shown(groups.size());
  std::partial_sort(groups.begin(), groups.begin() + static_cast<ptrdiff_t>(groups_shown),
                    groups.end(), [](const auto& a, const auto& b) {
                      return a.second != b.second ? a.second > b.second : a.first < b.first;
                    });
  out += fmt::format("  {:<30} {:>12} {:>8}\n", "op group", "dp cycles", "of wall");
  for (size_t k = 0; k < groups_shown; ++k) {
    out += fmt::format("  {:<30} {:>12} {:>8}\n", AsciiFit(groups[k].first, 30),
                       GroupDigits(groups[k].second), ShareText(groups[k].second, wall));
    rest_cycles -= groups[k].second;
  }
  AppendMoreLine(out, groups.size(), groups_shown, "op groups",
                 fmt::format(", {} dp cycles", GroupDigits(rest_cycles)));
  out += fmt::format("  {:<30} {:>12} {:>8}\n", "(idle)", GroupDigits(idle), ShareText(idle, wall));
}

// The ops of several slices: their dominant-path cycles summed against the
// optrace's DPC.
void AppendMultiSliceOps(std::string& out, const std::vector<OpDominant>& by_op,
                         const RowLimit& limit) {
  bool header = false;
  size_t multi = 0, multi_shown = 0;
  for (const auto& o : by_op) {
    if (o.slices < 2) continue;
    if (++multi > limit.Shown(by_op.size())) continue;
    ++multi_shown;
    if (!header) {
      out +=
          "  multi-slice ops: dominant-path cycles summed over their slices vs the optrace's "
          "DPC (one slice's value, repeated on every slice)\n";
      header = true;
    }
    out += fmt::format("    {} {:<24} {} slices: {} cycles (optrace DPC {})\n", OpIdHex(o.op_id),
                       AsciiFit(o.group, 24), o.slices, GroupDigits(o.dp_cycles),
                       GroupDigits(o.trace_dpc_cycles));
  }
  AppendMoreLine(out, multi, multi_shown, "multi-slice ops");
}

// The recomputed dominant path against QHAS's dominant_path_htp_0.
void AppendDominantVsQhas(std::string& out, const GraphView& v) {
  if (v.dominant_vs_qhas) {
    const auto& c = *v.dominant_vs_qhas;
    if (c.identical())
      out += fmt::format(
          "  QHAS dominant_path_htp_0: identical, {} of {} rows (op, start, end, partial), idle "
          "{} cycles on both\n",
          FormatCount(c.matched_rows), FormatCount(c.qhas_rows), GroupDigits(c.qhas_idle_cycles));
    else {
      out += fmt::format(
          "  QHAS dominant_path_htp_0: DIFFERS - {} of {} recomputed rows match; QHAS has {} "
          "rows\n",
          FormatCount(c.matched_rows), FormatCount(c.ours_rows), FormatCount(c.qhas_rows));
      for (const auto& d : c.differences) out += "    " + d + "\n";
    }
  } else if (v.has_qhas) {
    out += "  QHAS has no dominant_path_htp_0 section to compare with\n";
  }
}

// The dominant path recomputed from the optrace: per op group, the
// multi-slice ops, and the comparison with QHAS.
void AppendDominantPath(std::string& out, const GraphView& v, const Run& run,
                        const RowLimit& limit) {
  AppendSection(out, "Dominant path (QHAS method, recomputed from the optrace)");
  out += fmt::format(
      "  {} segments over the {}-cycle wall, {} idle cycles; at each cycle the running slice "
      "of highest priority (HMX > HVX > DMA read > DMA write > checkpoint > sync, then lowest "
      "thread id)\n",
      FormatCount(run.dominant_path.size()), GroupDigits(v.dominant->wall_cycles),
      GroupDigits(v.dominant->idle_cycles));
  const std::vector<uint32_t> node_of_slice = NodeOfEachSlice(v, run);
  AppendDominantByGroup(out, v, run, node_of_slice, limit);
  AppendMultiSliceOps(out, DominantByOp(v, run, node_of_slice), limit);
  AppendDominantVsQhas(out, v);
}

// The critical path's ops against QHAS's dominant path's.
void AppendCriticalVsQhas(std::string& out, const GraphView& v) {
  const DependencyGraph& g = v.graph;
  const auto& a = *v.critical_vs_qhas;
  AppendSection(out, "Critical path vs QHAS dominant_path_htp_0 (op ids)");
  out += fmt::format(
      "  on both: {}; only on the critical path: {}; only on QHAS's path: {} ({} dp cycles)\n",
      FormatCount(a.both.size()), FormatCount(a.only_critical.size()),
      FormatCount(a.only_qhas.size()), GroupDigits(a.only_qhas_cycles));
  auto names = [&](const std::vector<uint64_t>& ids) {
    std::vector<std::string> parts;
    for (size_t i = 0; i < ids.size() && i < 12; ++i) {
      const DepNode* n = g.Find(ids[i]);
      parts.push_back(
          fmt::format("{} ({})", OpIdHex(ids[i]),
                      n ? AsciiFit(v.groups.names[v.groups.of_node[g.index.at(ids[i])]], 30)
                        : std::string("?")));
    }
    if (ids.size() > 12) parts.push_back(fmt::format("... {} more", FormatCount(ids.size() - 12)));
    return fmt::format("{}", fmt::join(parts, ", "));
  };
  if (!a.only_critical.empty()) out += "  only critical: " + names(a.only_critical) + "\n";
  if (!a.only_qhas.empty()) out += "  only QHAS: " + names(a.only_qhas) + "\n";
  out +=
      "  the two differ by design: the critical path follows dependencies only, QHAS's path "
      "covers every cycle of the wall (resource waits and DMA included)\n";
}

void AppendGraphWarnings(std::string& out, const GraphView& v, const RowLimit& limit) {
  AppendSection(out, "Warnings");
  const size_t warnings_shown = limit.Shown(v.warnings.size());
  for (size_t k = 0; k < warnings_shown; ++k)
    out += fmt::format("  [{}] {}\n", WarningName(v.warnings[k].code),
                       AsciiFit(v.warnings[k].message, 2000));
  AppendMoreLine(out, v.warnings.size(), warnings_shown, "warnings");
}

}  // namespace

std::string RenderGraphText(const GraphView& v, const Run& run, size_t max_rows) {
  const RowLimit limit{max_rows};
  std::string out;
  AppendGraphOverview(out, v);
  AppendGroupDependencies(out, v, limit);
  AppendPredecessors(out, v, limit);
  AppendSharedTensors(out, v, limit);
  if (v.expect) AppendExpectedDag(out, *v.expect, limit);
  AppendCriticalPath(out, v, limit);
  if (!v.what_if.empty()) AppendWhatIf(out, v);
  if (v.dominant) AppendDominantPath(out, v, run, limit);
  if (v.critical_vs_qhas) AppendCriticalVsQhas(out, v);
  if (!v.warnings.empty()) AppendGraphWarnings(out, v, limit);
  return out;
}

LazyObject GraphJson(const GraphView& v, const Run& run) {
  const DependencyGraph& g = v.graph;
  LazyObject doc;
  json& j = doc.members;
  j["label"] = v.label;
  j["sources"] = {{"htp_graph", v.has_htp_graph}, {"optrace", v.has_optrace}, {"qhas", v.has_qhas}};
  j["wall_cycles"] = v.wall_cycles ? json(*v.wall_cycles) : json(nullptr);
  doc.AddArray("nodes", g.nodes.size(), [&v](size_t i) {
    const DependencyGraph& g = v.graph;
    const uint32_t n = static_cast<uint32_t>(i);
    const DepNode& node = g.nodes[n];
    json preds = json::array();
    for (const auto& p : PredecessorsByGroup(g, v.groups, n)) {
      json ids = json::array();
      for (uint64_t id : p.ops) ids.push_back(OpIdHex(id));
      preds.push_back({{"group", p.group}, {"ops", ids}});
    }
    json inputs = json::array();
    for (uint64_t id : node.input_ids) inputs.push_back(OpIdHex(id));
    json nj{{"op_id", OpIdHex(node.id)},
            {"group", v.groups.names[v.groups.of_node[n]]},
            {"qnn_op", node.qnn_op_name},
            {"htp_op_type", node.htp_op_type},
            {"category", OpCategoryName(node.category)},
            {"in_htp_graph", node.in_graph},
            {"executed", node.executed},
            {"inputs", inputs},
            {"inputs_source", node.inputs_source},
            {"predecessors", preds}};
    if (node.timed) {
      nj["start_cycle"] = node.start_cycles;
      nj["end_cycle"] = node.end_cycles;
      nj["duration_cycles"] = node.duration_cycles;
      nj[ItemFigureName(ItemFigure::kWorkCycles)] = node.work_cycles;
    }
    return nj;
  });
  doc.AddArray("edges", g.edges.size(), [&g](size_t i) {
    const DepEdge& e = g.edges[i];
    return json{{"from", OpIdHex(g.nodes[e.from].id)},
                {"to", OpIdHex(g.nodes[e.to].id)},
                {"kinds", EdgeKindNames(e.kinds)}};
  });
  doc.AddArray("producer_map", g.producer_map.size(), [&g](size_t i) {
    return json{{"tensor", OpIdHex(g.producer_map[i].first)},
                {"producer", OpIdHex(g.producer_map[i].second)}};
  });
  json shared = json::array();
  for (const auto& s : v.shared_tensors) {
    json ops = json::array();
    for (uint64_t id : s.consumer_ops) ops.push_back(OpIdHex(id));
    shared.push_back(
        {{"tensor", OpIdHex(s.tensor)},
         {"kind", TensorKindName(s.kind)},
         {"producer", s.producer_group.empty() ? json(nullptr) : json(s.producer_group)},
         {"consumers", s.consumer_groups},
         {"consumer_ops", ops},
         {"constant", s.constant()}});
  }
  j["shared_tensors"] = shared;
  if (v.expect) {
    json missing = json::array(), extra = json::array(), matched = json::array();
    for (const auto& e : v.expect->missing)
      missing.push_back({{"from", e.from}, {"to", e.to}, {"line", e.line}});
    for (const auto& e : v.expect->extra)
      extra.push_back({{"from", e.from}, {"to", e.to}, {"data", e.data}});
    for (const auto& e : v.expect->matched)
      matched.push_back({{"from", e.from}, {"to", e.to}, {"data", e.data}});
    j["expect"] = {{"missing", missing},
                   {"extra", extra},
                   {"matched", matched},
                   {"unknown_names", v.expect->unknown_names}};
  } else {
    j["expect"] = nullptr;
  }
  doc.AddArray("critical_path", v.critical.nodes.size(), [&v](size_t i) {
    const uint32_t n = v.critical.nodes[i];
    const DepNode& node = v.graph.nodes[n];
    return json{{"name", v.groups.names[v.groups.of_node[n]]},
                {"op_id", OpIdHex(node.id)},
                {"htp_op_type", node.htp_op_type},
                {"cycles", node.duration_cycles},
                {"share_of_wall_pct", OptionalJson(SharePct(node.duration_cycles, v.wall_cycles))}};
  });
  j["critical_path_cycles"] = v.critical.length_cycles;
  j["critical_path_share_of_wall_pct"] =
      OptionalJson(SharePct(v.critical.length_cycles, v.wall_cycles));
  j["critical_path_edge_kinds"] = EdgeKindNames(v.critical.kinds);
  json what_if = json::array();
  for (const auto& w : v.what_if) {
    json dropped = json::array();
    for (const auto& [a, b] : w.dropped) dropped.push_back({{"from", a}, {"to", b}});
    what_if.push_back(
        {{"dropped", dropped},
         {"edges_removed", w.edges_removed},
         {"critical_path_cycles", w.critical_path_cycles},
         {"saving_cycles", w.saving_cycles},
         {"saving_pct_of_wall", OptionalJson(SharePct(w.saving_cycles, v.wall_cycles))},
         {"estimate", true}});
  }
  j["what_if"] = what_if;
  if (v.dominant) {
    LazyObject dominant;
    dominant.AddArray("segments", run.dominant_path.size(), [&v, &run](size_t i) {
      const DependencyGraph& g = v.graph;
      const auto& s = run.dominant_path[i];
      json sj{{"start_cycle", s.start_cycle},
              {"end_cycle", s.end_cycle},
              {"cycles", s.cycles()},
              {"partial", s.partial}};
      if (s.slice < 0) {
        sj["op_id"] = nullptr;
        sj["name"] = "(idle)";
      } else {
        const SliceRow& src = run.slices[s.slice];
        sj["op_id"] = OpIdHex(s.op_id);
        sj["name"] = v.groups.names[v.groups.of_node[g.index.at(s.op_id)]];
        sj["htp_op_type"] = std::string(run.Str(run.op_instances[src.instance].htp_op_type));
        sj["tid"] = src.tid;
      }
      return sj;
    });
    auto per_op = std::make_shared<const std::vector<OpDominant>>(
        DominantByOp(v, run, NodeOfEachSlice(v, run)));
    dominant.AddArray("per_op", per_op->size(), [per_op](size_t i) {
      const auto& o = (*per_op)[i];
      return json{{"op_id", OpIdHex(o.op_id)},
                  {"name", o.group},
                  {"dp_cycles", o.dp_cycles},
                  {"trace_dpc_cycles", o.trace_dpc_cycles},
                  {"slices", o.slices}};
    });
    json& dj = dominant.members;
    dj = {{"wall_cycles", v.dominant->wall_cycles}, {"idle_cycles", v.dominant->idle_cycles}};
    if (v.dominant_vs_qhas) {
      const auto& c = *v.dominant_vs_qhas;
      dj["qhas_comparison"] = {{"identical", c.identical()},
                               {"rows", c.ours_rows},
                               {"qhas_rows", c.qhas_rows},
                               {"matched_rows", c.matched_rows},
                               {"differences", c.differences}};
    } else {
      dj["qhas_comparison"] = nullptr;
    }
    doc.AddObject("dominant_path", std::move(dominant));
  } else {
    j["dominant_path"] = nullptr;
  }
  if (v.critical_vs_qhas) {
    // Tens of thousands of ids on a big run: written (or capped) lazily.
    LazyObject vs_qhas;
    auto add_ids = [&vs_qhas](std::string key, const std::vector<uint64_t>& ids) {
      vs_qhas.AddArray(std::move(key), ids.size(),
                       [&ids](size_t i) { return json(OpIdHex(ids[i])); });
    };
    add_ids("both", v.critical_vs_qhas->both);
    add_ids("only_critical_path", v.critical_vs_qhas->only_critical);
    add_ids("only_qhas", v.critical_vs_qhas->only_qhas);
    vs_qhas.members["only_qhas_cycles"] = v.critical_vs_qhas->only_qhas_cycles;
    doc.AddObject("critical_path_vs_qhas", std::move(vs_qhas));
  } else {
    j["critical_path_vs_qhas"] = nullptr;
  }
  json warnings = json::array();
  for (const auto& w : v.warnings)
    warnings.push_back({{"code", WarningName(w.code)}, {"message", w.message}});
  j["warnings"] = warnings;
  return doc;
}

std::string RenderGraphDot(const GraphView& v) {
  const DependencyGraph& g = v.graph;
  std::set<uint32_t> on_path(v.critical.nodes.begin(), v.critical.nodes.end());
  std::set<std::pair<uint32_t, uint32_t>> path_edges;
  for (size_t i = 1; i < v.critical.nodes.size(); ++i)
    path_edges.insert({v.critical.nodes[i - 1], v.critical.nodes[i]});
  std::string out = "digraph htp_graph {\n  rankdir=LR;\n  node [shape=box, fontsize=10];\n";
  out += fmt::format("  label=\"{}\";\n", DotEscape("htpscope graph: " + v.label));
  for (uint32_t gi = 0; gi < v.groups.names.size(); ++gi) {
    out += fmt::format("  subgraph \"cluster_{}\" {{\n    label=\"{}\";\n", gi,
                       DotEscape(v.groups.names[gi]));
    for (uint32_t n = 0; n < g.nodes.size(); ++n) {
      if (v.groups.of_node[n] != gi) continue;
      const DepNode& node = g.nodes[n];
      std::string label =
          std::string(node.htp_op_type) + "\n" + OpIdHex(node.id) +
          (node.timed ? fmt::format("\n{} cycles", GroupDigits(node.duration_cycles))
                      : std::string("\nnot executed"));
      out += fmt::format("    \"{}\" [label=\"{}\"{}];\n", OpIdHex(node.id), DotEscape(label),
                         on_path.count(n) ? ", color=red, penwidth=2" : "");
    }
    out += "  }\n";
  }
  for (const auto& e : g.edges) {
    bool path = path_edges.count({e.from, e.to}) > 0;
    bool sequencer_only = !(e.kinds & kDataEdges);
    out += fmt::format("  \"{}\" -> \"{}\" [tooltip=\"{}\"{}{}];\n", OpIdHex(g.nodes[e.from].id),
                       OpIdHex(g.nodes[e.to].id), EdgeKindNames(e.kinds),
                       sequencer_only ? ", style=dashed, color=gray40" : "",
                       path ? ", color=red, penwidth=2" : "");
  }
  for (const auto& s : v.shared_tensors) {
    if (g.Find(s.tensor)) continue;  // an op's output: its edges are drawn above
    std::string id = "tensor_" + OpIdHex(s.tensor);
    out += fmt::format(
        "  \"{}\" [shape=note, label=\"{}\"{}];\n", id,
        DotEscape(fmt::format("{} tensor\n{}\nread by {} groups", TensorKindName(s.kind),
                              OpIdHex(s.tensor), s.consumer_groups.size())),
        s.constant() ? ", color=red, fontcolor=red" : "");
    for (uint64_t c : s.consumer_ops)
      out += fmt::format("  \"{}\" -> \"{}\" [style=dotted{}];\n", id, OpIdHex(c),
                         s.constant() ? ", color=red" : "");
  }
  out += "}\n";
  return out;
}

}  // namespace htpscope
