#include "analysis/dependency_graph.h"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <future>
#include <span>
#include <stdexcept>
#include <utility>

#include "base/errors.h"
#include "base/sort_util.h"

namespace htpscope {
namespace {

// Appends `ids` to `list` with repeats removed and returns them there.
// `list` has room for them reserved: views into it are handed out.
std::span<const uint64_t> AppendWithoutRepeats(std::span<const uint64_t> ids,
                                               std::vector<uint64_t>& list) {
  // A reallocation would leave every view handed out before dangling.
  if (list.capacity() - list.size() < ids.size())
    throw std::logic_error("dependency graph: input list reserved too small");
  const size_t begin = list.size();
  for (uint64_t id : ids)
    if (std::find(list.begin() + static_cast<ptrdiff_t>(begin), list.end(), id) == list.end())
      list.push_back(id);
  return {list.data() + begin, list.size() - begin};
}

}  // namespace

std::string EdgeKindNames(uint8_t kinds) {
  static constexpr std::pair<uint8_t, const char*> kNames[] = {
      {kEdgeGraphInput, "graph_input"},
      {kEdgeTraceInput, "trace_input"},
      {kEdgeDataFlow, "data_flow"},
      {kEdgeSequencerFlow, "sequencer_flow"}};
  std::string out;
  for (const auto& [bit, name] : kNames) {
    if (!(kinds & bit)) continue;
    if (!out.empty()) out += '+';
    out += name;
  }
  return out;
}

const char* TensorKindName(TensorKind kind) {
  switch (kind) {
    case TensorKind::kStatic:
      return "static";
    case TensorKind::kShape:
      return "shape";
    case TensorKind::kConstantCopy:
      return "constant_copy";
    case TensorKind::kActivation:
      return "activation";
    case TensorKind::kOther:
      return "other";
  }
  return "other";
}

std::optional<uint32_t> NodeIndex::Find(uint64_t id) const {
  auto it = std::lower_bound(
      by_id.begin(), by_id.end(), id,
      [](const std::pair<uint64_t, uint32_t>& e, uint64_t v) { return e.first < v; });
  if (it == by_id.end() || it->first != id) return std::nullopt;
  return it->second;
}

uint32_t NodeIndex::at(uint64_t id) const {
  if (std::optional<uint32_t> node = Find(id)) return *node;
  throw std::out_of_range(fmt::format("no node of op ID 0x{:016x}", id));
}

const DepNode* DependencyGraph::Find(uint64_t id) const {
  std::optional<uint32_t> node = index.Find(id);
  return node ? &nodes[*node] : nullptr;
}

void DependencyGraph::IndexEdges() {
  const size_t n = nodes.size();
  // Each node's in-edges, then each node's out-edges, in one array: counted,
  // laid out, then filled in edge order (ascending indices per node).
  std::vector<uint32_t> in_at(n, 0), out_at(n, 0);
  for (const DepEdge& e : edges) {
    ++in_at[e.to];
    ++out_at[e.from];
  }
  lists.edges.assign(2 * edges.size(), 0);
  in_edges.assign(n, {});
  out_edges.assign(n, {});
  uint32_t at = 0;
  for (auto [counts, spans] : {std::pair{&in_at, &in_edges}, std::pair{&out_at, &out_edges}}) {
    for (size_t v = 0; v < n; ++v) {
      const uint32_t count = (*counts)[v];
      (*spans)[v] = {lists.edges.data() + at, count};
      (*counts)[v] = at;
      at += count;
    }
  }
  for (uint32_t e = 0; e < edges.size(); ++e) {
    lists.edges[in_at[edges[e].to]++] = e;
    lists.edges[out_at[edges[e].from]++] = e;
  }
}

const DepTensor* DependencyGraph::FindTensor(uint64_t id) const {
  auto it = std::lower_bound(tensors.begin(), tensors.end(), id,
                             [](const DepTensor& t, uint64_t v) { return t.id < v; });
  return it != tensors.end() && it->id == id ? &*it : nullptr;
}

namespace {

// A flow arrow matched to the slices at its two ends: by their op
// instances (indices into run.op_instances), as the nodes' indices are known
// only once they are sorted.
struct FlowArrow {
  uint32_t from_instance = 0, to_instance = 0;
  bool sequencer = false;  // category "sequencer": scheduling order, not data
};

struct MatchedFlows {
  std::vector<FlowArrow> arrows;
  size_t matched = 0, unmatched = 0;
};

// A (thread, cycle) point and what it belongs to, ordered by (tid, cycle)
// through two stable radix sorts (cycle, then tid), so that equal points
// keep their table order.
struct ThreadPoint {
  uint32_t tid = 0;
  uint32_t owner = 0;  // an op instance, or a query's number
  int64_t cycles = 0;
};

void SortByThreadThenCycle(std::vector<ThreadPoint>& points) {
  // Offset binary: signed cycles in unsigned order.
  StableRadixSort(points, [](const ThreadPoint& p) {
    return static_cast<uint64_t>(p.cycles) ^ (uint64_t{1} << 63);
  });
  StableRadixSort(points, [](const ThreadPoint& p) { return p.tid; });
}

// For each query point (sorted), the owner of the first point of `table`
// (sorted, ties in table order) at the same (tid, cycle), or kNoOwner:
// written to found[query.owner].
constexpr uint32_t kNoOwner = UINT32_MAX;
void FindFirstAtEachPoint(const std::vector<ThreadPoint>& table,
                          const std::vector<ThreadPoint>& queries, std::vector<uint32_t>& found) {
  auto at = table.begin();
  auto before = [](const ThreadPoint& a, const ThreadPoint& b) {
    return a.tid != b.tid ? a.tid < b.tid : a.cycles < b.cycles;
  };
  for (const ThreadPoint& q : queries) {
    while (at != table.end() && before(*at, q)) ++at;
    found[q.owner] =
        at != table.end() && at->tid == q.tid && at->cycles == q.cycles ? at->owner : kNoOwner;
  }
}

// Matches each flow ID's last start and last finish to the slices there:
// the start sits at the producer slice's end, the finish at the consumer
// slice's start, on their threads (the first slice of the table ending or
// starting at that cycle).  Arrows from tid 1 (non-executed tensors) are
// already inputs of their consumer: neither matched nor counted.  Reads only
// the run's slices and flows.  Every look-up is a walk along sorted lists
// (hash maps of the slices' 250 k points missed the cache at each look-up).
MatchedFlows MatchFlowArrows(const Run& run) {
  MatchedFlows out;
  // A flow ID's last start and last finish: its rows together, in file order.
  std::vector<std::pair<uint64_t, uint32_t>> by_flow(run.flows.size());
  for (uint32_t r = 0; r < run.flows.size(); ++r) by_flow[r] = {run.flows[r].flow_id, r};
  StableRadixSort(by_flow, [](const std::pair<uint64_t, uint32_t>& f) { return f.first; });
  struct Pair {
    const FlowRow* start;
    const FlowRow* finish;
  };
  std::vector<Pair> pairs;
  for (size_t r = 0; r < by_flow.size();) {
    Pair p{nullptr, nullptr};
    const uint64_t flow_id = by_flow[r].first;
    for (; r < by_flow.size() && by_flow[r].first == flow_id; ++r) {
      const FlowRow& f = run.flows[by_flow[r].second];
      (f.is_start ? p.start : p.finish) = &f;
    }
    if (!p.start || !p.finish) {
      ++out.unmatched;
      continue;
    }
    if (p.start->tid == 1) continue;
    pairs.push_back(p);
  }
  by_flow = {};
  // The slices at each pair's two points.
  std::vector<ThreadPoint> ends, starts, from_points, to_points;
  ends.reserve(run.slices.size());
  starts.reserve(run.slices.size());
  for (const auto& s : run.slices) {
    if (s.instance >= run.op_instances.size())
      throw InternalError("a slice names an op instance the run does not have");
    ends.push_back({s.tid, s.instance, s.end_cycle()});
    starts.push_back({s.tid, s.instance, s.start_cycle});
  }
  from_points.reserve(pairs.size());
  to_points.reserve(pairs.size());
  for (uint32_t k = 0; k < pairs.size(); ++k) {
    from_points.push_back({pairs[k].start->tid, k, pairs[k].start->ts_cycles});
    to_points.push_back({pairs[k].finish->tid, k, pairs[k].finish->ts_cycles});
  }
  for (auto* points : {&ends, &starts, &from_points, &to_points}) SortByThreadThenCycle(*points);
  std::vector<uint32_t> from(pairs.size()), to(pairs.size());
  FindFirstAtEachPoint(ends, from_points, from);
  FindFirstAtEachPoint(starts, to_points, to);
  out.arrows.reserve(pairs.size());
  for (uint32_t k = 0; k < pairs.size(); ++k) {
    if (from[k] == kNoOwner || to[k] == kNoOwner) {
      ++out.unmatched;
      continue;
    }
    ++out.matched;
    out.arrows.push_back({from[k], to[k], run.Str(pairs[k].start->category) == "sequencer"});
  }
  return out;
}

// The graph's tensors, and the list their consumers view.
struct Tensors {
  std::vector<DepTensor> tensors;
  std::vector<uint32_t> consumers;
};

// One listed input of a node: the tensor, the node consuming it, and the
// node producing it (kNoProducer when none does).
struct TensorUse {
  static constexpr uint32_t kNoProducer = UINT32_MAX;
  uint64_t tensor = 0;
  uint32_t consumer = 0;
  uint32_t producer = kNoProducer;
};

// The graph's tensors: every input id with its consumers (from `uses`,
// sorted by tensor, then consumer) and its kind.  `constant_copier[v]`:
// whether node v belongs to a $Const QNN op.
Tensors ClassifyTensors(const Run& run, const std::vector<TensorUse>& uses,
                        const std::vector<bool>& constant_copier) {
  const bool graph = run.Gives(RunData::kCompiledGraph);
  absl::flat_hash_set<uint64_t> shapes, consts;
  if (run.Gives(RunData::kTimedSlices)) {
    for (const auto& t : run.non_executed) {
      std::string_view name = run.Str(t.name);
      if (name == "$Shape") shapes.insert(t.id);
      if (name == "$Const") consts.insert(t.id);
    }
  }
  Tensors out;
  out.consumers.reserve(uses.size());  // never reallocated: the tensors view it
  std::vector<uint32_t>& consumers = out.consumers;
  auto graph_tensor = run.graph_tensors.begin();
  for (size_t i = 0; i < uses.size();) {
    DepTensor t;
    t.id = uses[i].tensor;
    const uint32_t producer = uses[i].producer;  // the same for every use of the tensor
    const size_t first = consumers.size();
    for (; i < uses.size() && uses[i].tensor == t.id; ++i)
      if (consumers.size() == first || consumers.back() != uses[i].consumer)
        consumers.push_back(uses[i].consumer);
    t.consumers = {consumers.data() + first, consumers.size() - first};
    if (producer != TensorUse::kNoProducer) {
      t.producer = producer;
      t.kind = constant_copier[producer] ? TensorKind::kConstantCopy : TensorKind::kActivation;
    } else if (shapes.contains(t.id)) {
      t.kind = TensorKind::kShape;
    } else if (consts.contains(t.id)) {
      t.kind = TensorKind::kStatic;
    } else if (graph) {
      // Both in id order: one walk along graph_tensors serves every lookup.
      while (graph_tensor != run.graph_tensors.end() && graph_tensor->id < t.id) ++graph_tensor;
      t.kind = graph_tensor != run.graph_tensors.end() && graph_tensor->id == t.id &&
                       graph_tensor->is_static()
                   ? TensorKind::kStatic
                   : TensorKind::kOther;
    }
    out.tensors.push_back(t);
  }
  return out;
}

}  // namespace

DependencyGraph BuildDependencyGraph(const Run& run) {
  DependencyGraph g;
  const bool trace = run.Gives(RunData::kTimedSlices);
  // The flow arrows need only the slice and flow tables: matched on another
  // core while the nodes are built.
  std::future<MatchedFlows> flows_matched =
      std::async(std::launch::async | std::launch::deferred,
                 [&run, trace] { return trace ? MatchFlowArrows(run) : MatchedFlows{}; });
  // Every mention of an op ID (each graph node, then each op instance) finds
  // its node through the mentions sorted by ID, not a hash index of 100k+
  // IDs that missed the cache at each of its ~1M look-ups.  Node slots are
  // in ID order until the nodes are sorted.
  const size_t graph_mentions = run.graph_nodes.size();
  const size_t mentions = graph_mentions + (trace ? run.op_instances.size() : 0);
  std::vector<uint32_t> slot_of(mentions);       // by mention
  std::vector<uint8_t> first_mention(mentions);  // the first of its ID, in mention order
  std::vector<uint64_t> slot_ids;                // by slot: ascending
  {
    struct Mention {
      uint64_t id;
      uint32_t at;
    };
    std::vector<Mention> sorted;
    sorted.reserve(mentions);
    for (uint32_t i = 0; i < graph_mentions; ++i) sorted.push_back({run.graph_nodes[i].id, i});
    for (uint32_t k = 0; graph_mentions + k < mentions; ++k)
      sorted.push_back({run.op_instances[k].op_id, static_cast<uint32_t>(graph_mentions + k)});
    StableRadixSort(sorted, [](const Mention& m) { return m.id; });  // keeps mention order
    for (size_t m = 0; m < sorted.size(); ++m) {
      const bool first = m == 0 || sorted[m].id != sorted[m - 1].id;
      if (first) slot_ids.push_back(sorted[m].id);
      slot_of[sorted[m].at] = static_cast<uint32_t>(slot_ids.size() - 1);
      first_mention[sorted[m].at] = first;
    }
  }
  std::vector<DepNode>& nodes = g.nodes;
  nodes.resize(slot_ids.size());
  // Room for every node's lists, so that the views handed out stay valid.
  size_t input_bound = 0, tid_bound = 0;
  size_t outputs = 0;
  for (const auto& hn : run.graph_nodes) {
    input_bound += hn.input_ids.size();
    outputs += hn.output_ids.size();
  }
  g.producer_map.reserve(outputs);
  if (trace) {
    for (const auto& op : run.op_instances) {
      input_bound += op.inputs_count;
      tid_bound += op.slice_count;
    }
  }
  g.lists.inputs.reserve(input_bound);
  g.lists.tids.reserve(tid_bound);
  // The outputs *_htp.json lists, with the slot of the node listing each.
  struct ListedOutput {
    uint64_t tensor;
    uint32_t slot;
  };
  std::vector<ListedOutput> listed_outputs;
  listed_outputs.reserve(outputs);
  // A few (HTP op type, QNN op type) pairs cover every node: classify each once.
  absl::flat_hash_map<std::pair<std::string_view, std::string_view>, OpCategory> category_of;
  for (uint32_t i = 0; i < graph_mentions; ++i) {
    const GraphNodeRow& hn = run.graph_nodes[i];
    DepNode& n = nodes[slot_of[i]];
    n.id = hn.id;
    n.in_graph = true;
    n.qnn_op_name = hn.qnn_op_name;
    n.htp_op_type = hn.htp_op_type;
    n.qnn_op_type = hn.qnn_op_type;
    n.input_ids = AppendWithoutRepeats(hn.input_ids, g.lists.inputs);
    n.inputs_source = n.input_ids.empty() ? "" : "htp_graph";
    if (hn.start_cycle && hn.duration_cycles) {
      n.timed = true;
      n.start_cycles = *hn.start_cycle;
      n.end_cycles = *hn.start_cycle + *hn.duration_cycles;
      n.duration_cycles = *hn.duration_cycles;
      n.work_cycles = *hn.duration_cycles;
    }
    auto [known, inserted] = category_of.try_emplace(std::pair{n.htp_op_type, n.qnn_op_type});
    if (inserted) known->second = ClassifyOp(n.htp_op_type, n.qnn_op_type, 0);
    n.category = known->second;
    for (uint64_t out : hn.output_ids) {
      g.producer_map.emplace_back(out, hn.id);
      listed_outputs.push_back({out, slot_of[i]});
    }
  }
  g.graph_nodes = run.graph_nodes.size();
  for (uint32_t k = 0; graph_mentions + k < mentions; ++k) {
    const OpInstanceRow& op = run.op_instances[k];
    DepNode& n = nodes[slot_of[graph_mentions + k]];
    if (first_mention[graph_mentions + k]) {
      n.id = op.op_id;
      n.qnn_op_name = run.Str(op.qnn_op_name);
      n.htp_op_type = run.Str(op.htp_op_type);
      ++g.trace_only_nodes;
    }
    if (n.qnn_op_type.empty()) n.qnn_op_type = run.Str(op.qnn_op_type);
    n.executed = n.timed = true;
    n.start_cycles = op.first_start_cycle;
    n.end_cycles = op.last_end_cycle;
    n.duration_cycles = op.last_end_cycle - op.first_start_cycle;
    n.work_cycles = op.work_cycles;
    n.slices = op.slice_count;
    n.flags = op.flags;
    n.category = op.category;
    std::vector<uint32_t>& tids = g.lists.tids;
    if (tids.capacity() - tids.size() < op.slice_count)  // as for the inputs
      throw std::logic_error("dependency graph: thread list reserved too small");
    const size_t first_tid = tids.size();
    for (uint32_t s = op.first_slice; s < op.first_slice + op.slice_count; ++s)
      tids.push_back(run.slices[s].tid);
    const auto tids_begin = tids.begin() + static_cast<ptrdiff_t>(first_tid);
    std::sort(tids_begin, tids.end());
    tids.erase(std::unique(tids_begin, tids.end()), tids.end());
    n.tids = {tids.data() + first_tid, tids.size() - first_tid};
    if (!n.in_graph) {
      n.input_ids = AppendWithoutRepeats(
          std::span(run.input_ids).subspan(op.inputs_begin, op.inputs_count), g.lists.inputs);
      n.inputs_source = n.input_ids.empty() ? "" : "optrace";
    }
  }
  // Op IDs are unique, so this order is total.  Sorted as small keys, then
  // the nodes moved once into their places.
  struct NodeOrder {
    bool timed;
    int64_t start_cycles;
    uint64_t id;
  };
  std::vector<uint32_t> from = StableOrderByKeys(
      nodes.size(),
      [&nodes](size_t v) {
        return NodeOrder{nodes[v].timed, nodes[v].start_cycles, nodes[v].id};
      },
      [](const NodeOrder& a, const NodeOrder& b) {
        if (a.timed != b.timed) return a.timed;
        if (a.timed && a.start_cycles != b.start_cycles) return a.start_cycles < b.start_cycles;
        return a.id < b.id;
      });
  std::vector<uint32_t> node_of_slot(nodes.size());
  for (uint32_t k = 0; k < from.size(); ++k) node_of_slot[from[k]] = k;
  ApplyPermutation(nodes, from);
  g.index.by_id.resize(slot_ids.size());
  for (uint32_t slot = 0; slot < slot_ids.size(); ++slot)
    g.index.by_id[slot] = {slot_ids[slot], node_of_slot[slot]};
  g.node_of_instance.resize(mentions - graph_mentions);
  for (size_t k = 0; k < g.node_of_instance.size(); ++k)
    g.node_of_instance[k] = node_of_slot[slot_of[graph_mentions + k]];

  // Which node produces an id, in ID order: a node produces its own id, and
  // the outputs *_htp.json lists for it (the first node listing one wins).
  std::vector<std::pair<uint64_t, uint32_t>> producer_of;
  {
    StableRadixSort(listed_outputs, [](const ListedOutput& o) { return o.tensor; });
    producer_of.reserve(g.index.by_id.size() + listed_outputs.size());
    auto node = g.index.by_id.begin();
    for (size_t o = 0; o < listed_outputs.size(); ++o) {
      const uint64_t tensor = listed_outputs[o].tensor;
      if (o > 0 && listed_outputs[o - 1].tensor == tensor) continue;  // a later listing
      for (; node != g.index.by_id.end() && node->first < tensor; ++node)
        producer_of.push_back(*node);
      if (node != g.index.by_id.end() && node->first == tensor) continue;  // a node's own id
      producer_of.emplace_back(tensor, node_of_slot[listed_outputs[o].slot]);
    }
    producer_of.insert(producer_of.end(), node, g.index.by_id.end());
  }

  // Edges and (tensor, consumer) uses, collected flat; sorted and merged below.
  // One use per listed input, at most one edge per use plus one per flow
  // arrow (at most one per flow point): reserved, not grown by doubling
  // (copies into fresh pages); capacity never touched costs no memory.
  std::vector<DepEdge> edge_parts;
  edge_parts.reserve(g.lists.inputs.size() + run.flows.size());
  std::vector<TensorUse> uses;
  uses.reserve(g.lists.inputs.size());
  for (uint32_t v = 0; v < g.nodes.size(); ++v)
    for (uint64_t in : g.nodes[v].input_ids) uses.push_back({in, v, TensorUse::kNoProducer});
  // By tensor, then consumer: the uses were made in consumer order, and the
  // sort by tensor keeps it.  Their producers are then read in one walk.
  StableRadixSort(uses, [](const TensorUse& u) { return u.tensor; });
  {
    auto producer = producer_of.begin();
    for (TensorUse& u : uses) {
      while (producer != producer_of.end() && producer->first < u.tensor) ++producer;
      if (producer == producer_of.end() || producer->first != u.tensor) continue;
      u.producer = producer->second;
      if (u.producer == u.consumer) continue;
      const uint8_t kind =
          g.nodes[u.consumer].inputs_source == "htp_graph" ? kEdgeGraphInput : kEdgeTraceInput;
      edge_parts.push_back({u.producer, u.consumer, kind});
    }
  }
  {
    MatchedFlows flows = flows_matched.get();
    g.flows_matched = flows.matched;
    g.flows_unmatched = flows.unmatched;
    for (const FlowArrow& f : flows.arrows) {
      uint32_t a = g.node_of_instance[f.from_instance], b = g.node_of_instance[f.to_instance];
      if (a != b) edge_parts.push_back({a, b, f.sequencer ? kEdgeSequencerFlow : kEdgeDataFlow});
    }
    if (g.flows_unmatched)
      g.warnings.push_back(fmt::format(
          "{} flow arrows name no executed slice at their ends (or lack their other end); ignored",
          g.flows_unmatched));
  }

  // What each input id is, on another core while the edges are merged.
  std::future<Tensors> tensors = std::async(std::launch::async | std::launch::deferred, [&] {
    // Which nodes copy a constant, read in node order rather than once per
    // tensor at its producer (a random read of the node table).
    std::vector<bool> constant_copier(g.nodes.size());
    for (size_t v = 0; v < g.nodes.size(); ++v)
      constant_copier[v] =
          g.nodes[v].qnn_op_type == "$Const" || g.nodes[v].qnn_op_name.rfind("$Const", 0) == 0;
    return ClassifyTensors(run, uses, constant_copier);
  });

  // One edge per (from, to), its kinds OR-ed.
  StableRadixSort(edge_parts, [](const DepEdge& e) { return uint64_t{e.from} << 32 | e.to; });
  g.edges.reserve(edge_parts.size());
  for (const DepEdge& e : edge_parts) {
    if (!g.edges.empty() && g.edges.back().from == e.from && g.edges.back().to == e.to)
      g.edges.back().kinds |= e.kinds;
    else
      g.edges.push_back(e);
  }
  edge_parts = {};
  g.IndexEdges();
  // Moved, not copied: the tensors' views of their consumers stay valid.
  Tensors classified = tensors.get();
  g.tensors = std::move(classified.tensors);
  g.lists.consumers = std::move(classified.consumers);
  return g;
}

}  // namespace htpscope
