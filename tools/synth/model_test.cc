// Unit tests of the generator's model: formulas checked against values
// computed by hand, and invariants of generated schedules.
#include "model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "rng.h"
#include "writers.h"

namespace htpscope::synth::model_test {
namespace {

TEST(UnionCycles, MergesOverlapsAndKeepsGaps) {
  std::vector<std::pair<int64_t, int64_t>> intervals = {{20, 25}, {0, 10}, {5, 15}, {15, 16}};
  // [0,16) and [20,25): 16 + 5.
  EXPECT_EQ(UnionCycles(intervals), 21);
  std::vector<std::pair<int64_t, int64_t>> none;
  EXPECT_EQ(UnionCycles(none), 0);
}

HtpOp OpWith(OpFlag flag, uint32_t first_slice, uint8_t slices = 1) {
  HtpOp op;
  op.flag = flag;
  op.first_slice = first_slice;
  op.slice_count = slices;
  return op;
}

Slice SliceAt(uint32_t op, uint16_t tid, int64_t start, int64_t end, bool primary = true) {
  Slice s;
  s.op = op;
  s.tid = tid;
  s.start_cycle = start;
  s.dur_cycles = end - start;
  s.primary = primary;
  return s;
}

TEST(DominantPath, FollowsPriorityAndLeavesIdleGaps) {
  // Hand-built timeline:
  //   op0 HMX  tid 256 [100,200)
  //   op1 HVX  tid 512 [ 50,150)
  //   op2 DMA  tid 256 [250,300)
  //   op3 HVX tiled: primary tid 513 [120,260), other slice tid 514 [130,240)
  //   op4 sync tid 256 [320,330)
  // Expected path: op1 [50,100), op0 [100,200), op3 primary [200,260) (it
  // beats its own other slice and the DMA), op2 [260,300), idle [300,320),
  // op4 [320,330).
  std::vector<HtpOp> ops = {OpWith(OpFlag::kUsesHmx, 0), OpWith(OpFlag::kUsesHvx, 1),
                            OpWith(OpFlag::kDma, 2), OpWith(OpFlag::kUsesHvx, 3, 2),
                            OpWith(OpFlag::kSync, 5)};
  std::vector<Slice> slices = {SliceAt(0, 256, 100, 200),        SliceAt(1, 512, 50, 150),
                               SliceAt(2, 256, 250, 300),        SliceAt(3, 513, 120, 260),
                               SliceAt(3, 514, 130, 240, false), SliceAt(4, 256, 320, 330)};
  auto path = ComputeDominantPath(ops, slices);
  ASSERT_EQ(path.size(), 6u);
  auto expect = [&](size_t i, int64_t start, int64_t end, uint32_t slice) {
    EXPECT_EQ(path[i].start_cycle, start) << i;
    EXPECT_EQ(path[i].end_cycle, end) << i;
    EXPECT_EQ(path[i].slice, slice) << i;
  };
  expect(0, 50, 100, 1);
  expect(1, 100, 200, 0);
  expect(2, 200, 260, 3);
  expect(3, 260, 300, 2);
  expect(4, 300, 320, kIdleSlice);
  expect(5, 320, 330, 5);
  EXPECT_EQ(slices[0].dp_cycles, 100);
  EXPECT_EQ(slices[1].dp_cycles, 50);
  EXPECT_EQ(slices[2].dp_cycles, 40);
  EXPECT_EQ(slices[3].dp_cycles, 60);
  EXPECT_EQ(slices[4].dp_cycles, 0);
  EXPECT_EQ(slices[5].dp_cycles, 10);
}

TEST(Phase, EffectiveClockAndPrintedFiguresMatchTheRealRuntrace) {
  // The first Graph Execute of the v8c8 runtrace: 1909 ticks, 192743 cycles,
  // printed as 1.93854 GHz, 10057.6 inf/s, 99.4271 µs.
  Phase p;
  p.start_ticks = 16637254972790;
  p.end_ticks = 16637254974699;
  p.start_cycles = 1668827859454;
  p.end_cycles = 1668828052197;
  EXPECT_EQ(FormatG(p.effective_ghz()), "1.93854");
  const double us = static_cast<double>(p.ticks()) / kTicksPerUs;
  EXPECT_EQ(FormatG(us), "99.4271");
  EXPECT_EQ(FormatG(1e6 / us), "10057.6");
}

TEST(Formatting, IdsAndNumbersLookLikeTheRealFiles) {
  EXPECT_EQ(HexId16(0x13), "0x0000000000000013");
  EXPECT_EQ(HexId16(0x0000104900000002ULL), "0x0000104900000002");
  EXPECT_EQ(HexIdShort(0x0000104900000002ULL), "0x104900000002");
  EXPECT_EQ(HexIdShort(0), "0x0");
  EXPECT_EQ(FormatJsonDouble(1.0), "1.0");
  EXPECT_EQ(FormatJsonDouble(0.5), "0.5");
  EXPECT_EQ(FormatG(1.0), "1");
  EXPECT_EQ(FormatG(0.00787402), "0.00787402");
  EXPECT_EQ(FormatG(1.92e6), "1.92e+06");
}

TEST(Rng, SameSeedSameSequenceAndRangesHold) {
  Rng a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    differs = differs || x != c.Next();
    int64_t r = a.Range(-3, 3);
    b.Range(-3, 3);
    EXPECT_GE(r, -3);
    EXPECT_LE(r, 3);
    double u = a.Unit();
    b.Unit();
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
  }
  EXPECT_TRUE(differs);
}

TEST(Options, OutOfRangeValuesAreRejected) {
  SynthOptions o;
  o.ops = 0;
  EXPECT_THROW(ValidateOptions(o), std::invalid_argument);
  o = {};
  o.shared_constant = true;  // one branch cannot share with another
  EXPECT_THROW(ValidateOptions(o), std::invalid_argument);
  o = {};
  o.spill_fill = true;
  o.branches = 3;
  o.ops = 5;  // needs 2 ops per branch
  EXPECT_THROW(ValidateOptions(o), std::invalid_argument);
  o = {};
  o.graph_name = "a\"b";
  EXPECT_THROW(ValidateOptions(o), std::invalid_argument);
  o = {};
  o.tile_threads = 5;
  EXPECT_THROW(ValidateOptions(o), std::invalid_argument);
  EXPECT_NO_THROW(ValidateOptions(SynthOptions{}));
}

// Invariants every schedule must satisfy, whatever the options.
void CheckSchedule(const Model& m) {
  // Threads never run two slices at once.
  std::map<uint16_t, std::vector<std::pair<int64_t, int64_t>>> by_tid;
  for (const auto& s : m.slices) {
    EXPECT_GT(s.dur_cycles, 0);
    by_tid[s.tid].emplace_back(s.start_cycle, s.end_cycle());
  }
  for (auto& [tid, v] : by_tid) {
    std::sort(v.begin(), v.end());
    for (size_t i = 1; i < v.size(); ++i) EXPECT_LE(v[i - 1].second, v[i].first) << "tid " << tid;
  }
  for (const auto& op : m.ops) {
    const Slice& primary = m.slices[op.first_slice];
    EXPECT_TRUE(primary.primary);
    // The primary slice starts first and ends last; the others are not primary.
    for (uint32_t k = 1; k < op.slice_count; ++k) {
      const Slice& s = m.slices[op.first_slice + k];
      EXPECT_FALSE(s.primary);
      EXPECT_EQ(s.op, primary.op);
      EXPECT_GT(s.start_cycle, primary.start_cycle);
      EXPECT_LT(s.end_cycle(), primary.end_cycle());
      EXPECT_NE(s.tid, primary.tid);
      if (!m.options.split_tile_dpc) {
        EXPECT_EQ(s.dp_cycles, 0);
      }
    }
    EXPECT_EQ(op.dpc_cycles, primary.dp_cycles);
    // Data dependencies: an op starts after the ops it reads have ended.
    for (uint32_t k = 0; k < op.inputs_count; ++k) {
      const InputRef& in = m.inputs[op.inputs_begin + k];
      if (in.tensor) {
        EXPECT_LE(m.tensors[in.index].cycle + 5, primary.start_cycle);
        continue;
      }
      EXPECT_LE(m.slices[m.ops[in.index].first_slice].end_cycle(), primary.start_cycle);
    }
  }
  // The dominant path covers the span exactly.
  int64_t covered = 0, dp = 0;
  for (const auto& seg : m.path) covered += seg.end_cycle - seg.start_cycle;
  for (const auto& s : m.slices) dp += s.dp_cycles;
  EXPECT_EQ(covered, m.span_cycles());
  EXPECT_EQ(dp + m.idle_cycles, m.span_cycles());
  // Execution 1's Graph Execute window holds the trace.
  const Phase& graph = m.executions.front().phases[3];
  EXPECT_LE(graph.start_cycles, m.start_cycle);
  EXPECT_GE(graph.end_cycles, m.end_cycle);
  // The enclosing phase holds the other three, in ticks and cycles.
  for (const auto& x : m.executions) {
    for (int k = 1; k < 4; ++k) {
      EXPECT_LE(x.phases[0].start_ticks, x.phases[k].start_ticks);
      EXPECT_GE(x.phases[0].end_ticks, x.phases[k].end_ticks);
      EXPECT_LE(x.phases[0].start_cycles, x.phases[k].start_cycles);
      EXPECT_GE(x.phases[0].end_cycles, x.phases[k].end_cycles);
    }
  }
  EXPECT_GT(m.peak_vtcm_bytes, 0);
}

TEST(Model, SchedulesAreConsistentAcrossScenarios) {
  SynthOptions plain;
  plain.ops = 80;
  CheckSchedule(BuildModel(plain));

  SynthOptions tiled = plain;
  tiled.hmx_share = 0.2;
  tiled.tiled_share = 0.5;
  tiled.seed = 7;
  Model t = BuildModel(tiled);
  CheckSchedule(t);
  int multi = 0;
  for (const auto& op : t.ops) multi += op.slice_count > 1;
  EXPECT_GT(multi, 0);

  SynthOptions split = tiled;
  split.split_tile_dpc = true;
  Model sp = BuildModel(split);
  CheckSchedule(sp);
  int64_t sibling_dp = 0;
  for (const auto& s : sp.slices) sibling_dp += s.primary ? 0 : s.dp_cycles;
  EXPECT_GT(sibling_dp, 0);

  SynthOptions both = plain;
  both.branches = 2;
  both.shared_constant = true;
  both.spill_fill = true;
  both.tile_threads = 3;
  both.tiled_share = 0.3;
  both.seed = 11;
  Model b = BuildModel(both);
  CheckSchedule(b);
  ASSERT_TRUE(b.handoff.present);
  EXPECT_LT(b.handoff.hvx_stage_end_cycle, b.handoff.hmx_stage_start_cycle);
  ASSERT_EQ(b.shared_constants.size(), 1u);
  ASSERT_EQ(b.shared_constants[0].consumers.size(), 2u);
  // The false dependency through the shared buffer serialises the branches.
  const auto& c = b.shared_constants[0].consumers;
  EXPECT_LE(b.slices[b.ops[c[0]].first_slice].end_cycle(),
            b.slices[b.ops[c[1]].first_slice].start_cycle);
}

TEST(Model, OneOpOneExecutionIsEnough) {
  SynthOptions o;
  o.ops = 1;
  o.executions = 1;
  o.reshape_every = 0;
  Model m = BuildModel(o);
  CheckSchedule(m);
  EXPECT_EQ(m.executions.size(), 1u);
  // Input, the op, Output.
  EXPECT_EQ(m.ProfileNodes().size(), 3u);
}

TEST(Model, ProfileRootIsTheSumOfNodeLines) {
  SynthOptions o;
  o.ops = 30;
  o.executions = 4;
  Model m = BuildModel(o);
  for (const auto& x : m.executions) {
    int64_t sum = 0;
    for (uint32_t q : m.ProfileNodes()) sum += m.NodeCycles(q, x.index);
    EXPECT_EQ(sum, x.accelerator_cycles);
  }
  // Execution 1 prints every QNN op's trace work.
  int64_t work = 0;
  for (const auto& s : m.slices) work += s.dur_cycles;
  EXPECT_EQ(m.executions.front().accelerator_cycles, work);
}

}  // namespace
}  // namespace htpscope::synth::model_test
