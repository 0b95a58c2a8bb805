#include "analysis/dependency_graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/dependency_graph_test_util.h"
#include "base/op_vocabulary.h"
#include "model/fake_run_test_util.h"

namespace htpscope::dependency_graph_test {
namespace {

using testing_support::FakeNode;
using testing_support::FakeRun;
using testing_support::FakeSlice;
using testing_support::HtpGraphJson;
using testing_support::OptraceJson;
using testing_support::TwoBranchesSharingOneConstant;

using namespace testing_support::two_branches;  // kInput, kBranchA, ... of the graph

// A node's, tensor's and edge list's views point into the graph's own
// storage: moved (constructed or assigned), the graph keeps them valid.
TEST(DependencyGraph, ListsStayValidWhenTheGraphMoves) {
  htpscope::Run run = TwoBranchesSharingOneConstant();
  DependencyGraph built = BuildDependencyGraph(run);
  DependencyGraph moved(std::move(built));
  DependencyGraph g;
  g = std::move(moved);
  const DepNode* output = g.Find(kOutput);
  ASSERT_NE(output, nullptr);
  EXPECT_EQ(std::vector<uint64_t>(output->input_ids.begin(), output->input_ids.end()),
            (std::vector<uint64_t>{kBranchA, kBranchB}));
  EXPECT_EQ(std::vector<uint32_t>(output->tids.begin(), output->tids.end()),
            std::vector<uint32_t>{256});
  const DepNode* branch_b = g.Find(kBranchB);
  EXPECT_EQ(std::vector<uint32_t>(branch_b->tids.begin(), branch_b->tids.end()),
            std::vector<uint32_t>{513});
  const DepTensor* zeros = g.FindTensor(kZeros);
  ASSERT_NE(zeros, nullptr);
  std::vector<uint64_t> consumer_ids;
  for (uint32_t c : zeros->consumers) consumer_ids.push_back(g.nodes[c].id);
  EXPECT_EQ(consumer_ids, (std::vector<uint64_t>{kBranchA, kBranchB}));  // both start at 100
  // Each edge is listed once out of its source and once into its target.
  size_t listed_in = 0, listed_out = 0;
  for (uint32_t v = 0; v < g.nodes.size(); ++v) {
    for (uint32_t e : g.in_edges[v]) listed_in += g.edges[e].to == v;
    for (uint32_t e : g.out_edges[v]) listed_out += g.edges[e].from == v;
  }
  EXPECT_EQ(listed_in, 4u);
  EXPECT_EQ(listed_out, 4u);
  const uint32_t output_node = g.index.at(kOutput);
  std::vector<uint64_t> predecessors;
  for (uint32_t e : g.in_edges[output_node]) predecessors.push_back(g.nodes[g.edges[e].from].id);
  EXPECT_EQ(predecessors, (std::vector<uint64_t>{kBranchA, kBranchB}));
}

TEST(DependencyGraph, TwoIndependentBranchesSharingOneConstant) {
  htpscope::Run run = TwoBranchesSharingOneConstant();
  DependencyGraph g = BuildDependencyGraph(run);
  ASSERT_EQ(g.nodes.size(), 4u);
  EXPECT_EQ(g.graph_nodes, 3u);
  EXPECT_EQ(g.trace_only_nodes, 1u);
  EXPECT_EQ(g.Find(kOutput)->inputs_source, "optrace");
  const auto& inputs = g.Find(kOutput)->input_ids;
  EXPECT_EQ(std::vector<uint64_t>(inputs.begin(), inputs.end()),
            (std::vector<uint64_t>{kBranchA, kBranchB}));  // repeat dropped
  EXPECT_EQ(g.Find(kBranchA)->inputs_source, "htp_graph");
  EXPECT_EQ(g.Find(kBranchA)->duration_cycles, 400);
  ASSERT_EQ(g.edges.size(), 4u);  // Input->A, Input->B, A->Output, B->Output
  const DepTensor* zeros = g.FindTensor(kZeros);
  ASSERT_NE(zeros, nullptr);
  EXPECT_EQ(zeros->kind, TensorKind::kStatic);
  EXPECT_FALSE(zeros->producer);
  EXPECT_EQ(zeros->consumers.size(), 2u);
}

TEST(DependencyGraph, FlowsBecomeEdgesBySliceEnds) {
  // No inputs listed at all: only the flow arrows link the three ops.
  std::string trace =
      OptraceJson({{0x0000000100000002, "Input", "q::*InputSlice", "dma", 256, 0, 100},
                   {0x0000000200000010, "conv", "q::Conv", "uses_hvx", 512, 150, 300},
                   {0x0000000300000010, "conv", "q::Conv", "uses_hvx", 513, 150, 200}},
                  {{"input_output", 256, 100, 512, 150},
                   {"sequencer", 256, 100, 513, 150},
                   {"input_output", 256, 7, 512, 150}});  // no slice ends at 7: unmatched
  htpscope::Run run = FakeRun(trace, "");
  DependencyGraph g = BuildDependencyGraph(run);
  ASSERT_EQ(g.edges.size(), 2u);
  EXPECT_EQ(g.flows_matched, 2u);
  EXPECT_EQ(g.flows_unmatched, 1u);
  EXPECT_EQ(g.warnings.size(), 1u);
  EXPECT_EQ(g.edges[0].kinds, kEdgeDataFlow);
  EXPECT_EQ(g.edges[1].kinds, kEdgeSequencerFlow);
  EXPECT_EQ(EdgeKindNames(kEdgeGraphInput | kEdgeSequencerFlow), "graph_input+sequencer_flow");
}

// Flow arrows against a by-hand match: each flow ID's last start and last
// finish, each point matched to the first slice in table order ending
// (start) or starting (finish) there on its thread.  Slices share points,
// cycles go negative, flows lack an end, start on tid 1 or match nothing.
TEST(DependencyGraph, RandomFlowsMatchTheFirstSliceAtEachPoint) {
  std::mt19937_64 rng(23);
  htpscope::Run run;
  run.artifacts.push_back({"trace.json", ArtifactKind::kOptrace, "", "", ""});
  const StringId data = run.strings.Intern("input_output");
  const StringId sequencer = run.strings.Intern("sequencer");
  const uint32_t ops = 40;
  for (uint32_t k = 0; k < ops; ++k) {
    OpInstanceRow op;
    op.op_id = 0x0000100000000000ull + 16 * k;
    op.first_start_cycle = k;
    op.last_end_cycle = k + 1;
    run.op_instances.push_back(op);
  }
  for (int i = 0; i < 300; ++i) {
    SliceRow s;
    s.instance = static_cast<uint32_t>(rng() % ops);
    s.op_id = run.op_instances[s.instance].op_id;
    s.tid = 2 + static_cast<uint32_t>(rng() % 3);
    s.start_cycle = static_cast<int64_t>(rng() % 120) - 60;
    s.dur_cycles = static_cast<int64_t>(rng() % 6);
    run.slices.push_back(s);
  }
  auto point = [&](bool at_end) {
    if (rng() % 8 == 0) return std::pair<uint32_t, int64_t>{1 + rng() % 4, 999};  // no slice
    const SliceRow& s = run.slices[rng() % run.slices.size()];
    return std::pair<uint32_t, int64_t>{rng() % 10 == 0 ? 1 : s.tid,
                                        at_end ? s.end_cycle() : s.start_cycle};
  };
  for (uint64_t flow = 0; flow < 200; ++flow) {
    for (int rows = static_cast<int>(rng() % 4); rows > 0; --rows) {
      FlowRow f;
      f.flow_id = 7000 + flow * 13 % 200;
      f.is_start = rng() % 2 == 0;
      std::tie(f.tid, f.ts_cycles) = point(f.is_start);
      f.category = rng() % 3 == 0 ? sequencer : data;
      run.flows.push_back(f);
    }
  }
  std::shuffle(run.flows.begin(), run.flows.end(), rng);  // a flow's rows need not be together

  std::map<std::pair<uint64_t, uint64_t>, uint8_t> expected;  // (from op, to op) -> kinds
  size_t matched = 0, unmatched = 0;
  std::set<uint64_t> flow_ids;
  for (const FlowRow& f : run.flows) flow_ids.insert(f.flow_id);
  for (uint64_t id : flow_ids) {
    const FlowRow *start = nullptr, *finish = nullptr;
    for (const FlowRow& f : run.flows)
      if (f.flow_id == id) (f.is_start ? start : finish) = &f;
    if (!start || !finish) {
      ++unmatched;
      continue;
    }
    if (start->tid == 1) continue;
    auto first_slice = [&](uint32_t tid, int64_t cycle, bool at_end) -> const SliceRow* {
      for (const SliceRow& s : run.slices)
        if (s.tid == tid && (at_end ? s.end_cycle() : s.start_cycle) == cycle) return &s;
      return nullptr;
    };
    const SliceRow* from = first_slice(start->tid, start->ts_cycles, true);
    const SliceRow* to = first_slice(finish->tid, finish->ts_cycles, false);
    if (!from || !to) {
      ++unmatched;
      continue;
    }
    ++matched;
    if (from->op_id != to->op_id)
      expected[{from->op_id, to->op_id}] |=
          start->category == sequencer ? kEdgeSequencerFlow : kEdgeDataFlow;
  }
  ASSERT_GT(matched, 20u);
  ASSERT_GT(unmatched, 20u);

  DependencyGraph g = BuildDependencyGraph(run);
  ASSERT_EQ(g.node_of_instance.size(), ops);
  for (uint32_t k = 0; k < ops; ++k)
    EXPECT_EQ(g.nodes[g.node_of_instance[k]].id, run.op_instances[k].op_id);
  EXPECT_EQ(g.flows_matched, matched);
  EXPECT_EQ(g.flows_unmatched, unmatched);
  std::map<std::pair<uint64_t, uint64_t>, uint8_t> edges;
  for (const DepEdge& e : g.edges) edges[{g.nodes[e.from].id, g.nodes[e.to].id}] = e.kinds;
  EXPECT_EQ(edges, expected);
}

// A random compiled graph (no optrace) against edges and tensors worked out
// one by one from the node rows: producers by node id, else the first node
// listing the id as an output; constants by $Const QNN op or static type.
TEST(DependencyGraph, RandomGraphMatchesEdgesAndTensorsWorkedOutByHand) {
  std::mt19937_64 rng(17);
  htpscope::Run run;
  run.artifacts.push_back({"graph.json", ArtifactKind::kHtpGraph, "", "", ""});
  constexpr uint64_t kBase = 0x0000100359320000;  // ids share their high bits, as real ones do
  const size_t n = 600;
  std::vector<uint64_t> node_ids, extra_outputs, statics, strays;
  for (size_t i = 0; i < n; ++i) node_ids.push_back(kBase + 7 * i + rng() % 5);
  for (size_t i = 0; i < 80; ++i) extra_outputs.push_back(kBase + 100000 + 3 * i);
  for (size_t i = 0; i < 40; ++i) statics.push_back(kBase + 200000 + i);
  for (size_t i = 0; i < 40; ++i) strays.push_back(kBase + 300000 + i);
  for (uint64_t id : statics) run.graph_tensors.push_back({id, 0, 4, 0, {}});
  for (uint64_t id : strays) run.graph_tensors.push_back({id, 0, 3, 0, {}});
  std::shuffle(node_ids.begin(), node_ids.end(), rng);  // the graph's order is not id order
  for (size_t i = 0; i < n; ++i) {
    GraphNodeRow row;
    row.id = node_ids[i];
    row.htp_op_type = "q::Op";
    row.qnn_op_name = fmt::format("op_{}", i);
    row.qnn_op_type = rng() % 5 == 0 ? "$Const" : "Conv2d";
    for (int k = static_cast<int>(rng() % 5); k > 0; --k) {
      const std::vector<uint64_t>* from[] = {&node_ids, &node_ids, &extra_outputs, &statics,
                                             &strays};
      const auto& pool = *from[rng() % 5];
      row.input_ids.push_back(pool[rng() % pool.size()]);
    }
    if (rng() % 4 == 0) row.output_ids.push_back(extra_outputs[rng() % extra_outputs.size()]);
    // Another node's id listed as an output: that node still produces it.
    if (rng() % 8 == 0) row.output_ids.push_back(node_ids[rng() % n]);
    if (rng() % 3 == 0) {
      row.start_cycle = static_cast<int64_t>(rng() % 1000);  // ties in start are common
      row.duration_cycles = 10;
    }
    run.graph_nodes.push_back(std::move(row));
  }
  DependencyGraph g = BuildDependencyGraph(run);

  // The index finds every node by its id, and nothing else.
  ASSERT_EQ(g.nodes.size(), n);
  ASSERT_EQ(g.index.size(), n);
  for (uint32_t v = 0; v < n; ++v) {
    ASSERT_EQ(g.index.at(g.nodes[v].id), v);
    ASSERT_EQ(g.Find(g.nodes[v].id), &g.nodes[v]);
  }
  EXPECT_EQ(g.Find(statics.front()), nullptr);
  EXPECT_FALSE(g.index.contains(extra_outputs.front()));
  EXPECT_THROW(g.index.at(strays.front()), std::out_of_range);

  auto producer_of = [&](uint64_t id) -> std::optional<uint64_t> {
    for (const auto& row : run.graph_nodes)
      if (row.id == id) return id;
    for (const auto& row : run.graph_nodes)
      for (uint64_t out : row.output_ids)
        if (out == id) return row.id;
    return std::nullopt;
  };
  std::set<std::pair<uint64_t, uint64_t>> expected_edges;  // (from id, to id)
  std::map<uint64_t, std::set<uint64_t>> consumers_of;     // tensor -> consuming node ids
  for (const auto& row : run.graph_nodes)
    for (uint64_t in : row.input_ids) {
      consumers_of[in].insert(row.id);
      if (auto p = producer_of(in); p && *p != row.id) expected_edges.insert({*p, row.id});
    }

  std::set<std::pair<uint64_t, uint64_t>> edges;
  for (size_t e = 0; e < g.edges.size(); ++e) {
    if (e > 0) {  // sorted by (from, to), each pair once
      EXPECT_LT(std::pair(g.edges[e - 1].from, g.edges[e - 1].to),
                std::pair(g.edges[e].from, g.edges[e].to));
    }
    EXPECT_EQ(g.edges[e].kinds, kEdgeGraphInput);
    edges.insert({g.nodes[g.edges[e].from].id, g.nodes[g.edges[e].to].id});
  }
  EXPECT_EQ(edges, expected_edges);

  ASSERT_EQ(g.tensors.size(), consumers_of.size());
  auto expected = consumers_of.begin();
  for (const DepTensor& t : g.tensors) {
    ASSERT_EQ(t.id, expected->first);
    std::set<uint64_t> consumers;
    for (size_t c = 0; c < t.consumers.size(); ++c) {
      if (c > 0) {
        EXPECT_LT(t.consumers[c - 1], t.consumers[c]);
      }
      consumers.insert(g.nodes[t.consumers[c]].id);
    }
    EXPECT_EQ(consumers, expected->second) << OpIdHex(t.id);
    const std::optional<uint64_t> producer = producer_of(t.id);
    ASSERT_EQ(t.producer.has_value(), producer.has_value()) << OpIdHex(t.id);
    TensorKind kind = TensorKind::kOther;
    if (producer) {
      const DepNode& p = g.nodes[*t.producer];
      EXPECT_EQ(p.id, *producer);
      kind = p.qnn_op_type == "$Const" ? TensorKind::kConstantCopy : TensorKind::kActivation;
    } else if (std::count(statics.begin(), statics.end(), t.id)) {
      kind = TensorKind::kStatic;
    }
    EXPECT_EQ(t.kind, kind) << OpIdHex(t.id);
    ++expected;
  }
}

}  // namespace
}  // namespace htpscope::dependency_graph_test
