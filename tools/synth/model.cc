#include "model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <tuple>

#include "rng.h"

namespace htpscope::synth {
namespace {

constexpr HtpTypeInfo kHtpTypes[] = {
    {"q::*InputSlice", false},
    {"DmaCheckpointSet", false},
    {"q::ForceFormat_Crouton", true},
    {"q::ForceFormat_Flat", true},
    {"q::*OutputSlice", false},
    {"q::ConvLayer.opt.weights_to_vtcm", false},
    {"q::ConvLayer.opt.bias_to_vtcm", false},
    {"q::ConvLayer_s1.opt", false},
    {"q::ElementWiseAdd", false},
    {"q::Mul", false},
    {"q::Relu", false},
    {"q::LayerNorm", false},
    {"q::Softmax", false},
    {"SyncOp", false},
    {"@Spill", false},
    {"@Fill", false},
};
static_assert(std::size(kHtpTypes) == static_cast<size_t>(HtpType::kCount));

constexpr QnnTypeInfo kQnnTypes[] = {
    {"Input", "Input"},
    {"Output", "Output"},
    {"Conv2d", "conv"},
    {"FullyConnected", "fc"},
    {"ElementWiseAdd", "add"},
    {"ElementWiseMultiply", "mul"},
    {"Relu", "relu"},
    {"LayerNorm", "layernorm"},
    {"Softmax", "softmax"},
    {"Reshape", "reshape"},
    {"SystemService_ChunkPreload", "SystemService_ChunkPreload"},
};
static_assert(std::size(kQnnTypes) == static_cast<size_t>(QnnType::kCount));

constexpr ShapeInfo kShapes[] = {
    {{0, 0, 0, 0}, 0, "", 0, 0, 0},
    {{1, 8, 32, 256}, 4, "QUInt8", 1032, 0.00787402, 128},
    {{1, 8, 32, 256}, 4, "QUInt16", 1046, 1.89727e-05, 32768},
    {{1, 1, 256, 256}, 4, "QInt8", 776, 0.00787402, 0},
    {{1, 8, 1, 64}, 4, "Int32", 50, 1, 0},
    {{1, 1, 1, 4}, 4, "Int32", 50, 1, 0},
};

constexpr const char* kWaitDescription =
    "Waits for a previously started DMA to complete before proceeding";
constexpr const char* kCheckpointDescription =
    "Records a previous DMA operation's completion tag in a table, so that DmaCheckpointWait can "
    "wait for it. Some Ops, such as SpillOp and FillOp, can record their own tag, and don't need "
    "this.";
constexpr const char* kWeightsDescription =
    "Memory movement operation transfering a bias input for conv into VTCM memory";

constexpr uint32_t kInputQnnId = 2;
constexpr uint32_t kOutputQnnId = 3;
constexpr uint32_t kFirstModelQnnId = 16;
constexpr uint32_t kFirstInstance = 0x1010;
constexpr int64_t kActivationBytes = 65536;  // 1x8x32x256 QUInt8
constexpr int64_t kWeightsBytes = 65536;     // 1x1x256x256 QInt8
constexpr int64_t kBiasBytes = 2048;         // 1x8x1x64 Int32
constexpr int64_t kSpillBytes = 4 * kActivationBytes;
constexpr int64_t kDmaBytesPerCycle = 24;  // background transfer speed of DMA into VTCM
constexpr int64_t kFirstCycle = 1668827862868;

enum class Placement : uint8_t { kSequencer, kHvx, kTiled };
enum class ComputeKind : uint8_t { kHmx, kHvx, kTiled };

struct OpSpec {
  uint32_t qnn = 0;
  HtpType type = HtpType::kInputSlice;
  OpFlag flag = OpFlag::kDma;
  Shape shape = Shape::kNone;
  Placement placement = Placement::kSequencer;
  int64_t dur_cycles = 0;
  int64_t min_end_cycle = 0;  // a DMA wait cannot end before its transfer has
  std::vector<uint32_t> deps;
  std::vector<InputRef> inputs;
  int64_t vtcm_read_bytes = 0, vtcm_write_bytes = 0, dram_read_bytes = 0, dram_write_bytes = 0;
  int64_t output_bytes = 0;
  bool in_graph = false;
  float cycles_per_packet = 1;
};

struct ComputePlan {
  uint32_t qnn = 0;
  ComputeKind kind = ComputeKind::kHvx;
  int branch = 0;
};

class Builder {
 public:
  Builder(const SynthOptions& options, Model* model)
      : options_(options), m_(*model), rng_(Mix64(options.seed ^ 0x5eedc0ffee0ddf00ULL)) {}

  void Build() {
    // Upper bounds, so vectors never regrow: untouched reserved pages cost
    // no memory, regrowth would briefly hold two copies.
    const auto n = static_cast<size_t>(options_.ops);
    const auto edges = static_cast<size_t>(options_.input_chunks + 2 * options_.branches + 2);
    m_.qnn_ops.reserve(n + n / std::max(1, options_.reshape_every) + 4);
    m_.ops.reserve(5 * n + 4 * edges);
    m_.slices.reserve(8 * n + 4 * edges);
    m_.inputs.reserve(6 * n + 4 * edges);
    m_.tensors.reserve(2 * n + 2 * edges);
    m_.flows.reserve(8 * n + 4 * edges);
    PlanQnnOps();
    BuildInputs();
    BuildCompute();
    BuildOutputs();
    if (options_.system_service) BuildSystemService();
  }

 private:
  // ---- QNN ops -------------------------------------------------------------------------------

  uint32_t AddQnn(QnnType type, QnnKind kind, uint32_t qnn_id, uint32_t ordinal) {
    QnnOp q;
    q.type = type;
    q.kind = kind;
    q.qnn_id = qnn_id;
    q.ordinal = ordinal;
    m_.qnn_ops.push_back(q);
    return static_cast<uint32_t>(m_.qnn_ops.size() - 1);
  }

  void PlanQnnOps() {
    input_qnn_ = AddQnn(QnnType::kInput, QnnKind::kInput, kInputQnnId, 0);
    output_qnn_ = AddQnn(QnnType::kOutput, QnnKind::kOutput, kOutputQnnId, 0);
    uint32_t next_id = kFirstModelQnnId;
    uint32_t reshapes = 0;
    std::array<uint32_t, static_cast<size_t>(QnnType::kCount)> ordinals{};
    const int64_t half = options_.ops / 2;
    plan_.reserve(static_cast<size_t>(options_.ops));
    for (int64_t i = 0; i < options_.ops; ++i) {
      if (options_.reshape_every > 0 && i % options_.reshape_every == options_.reshape_every - 1)
        AddQnn(QnnType::kReshape, QnnKind::kReshape, next_id++, reshapes++);
      ComputePlan p;
      p.branch = static_cast<int>(i % options_.branches);
      bool hmx = options_.spill_fill ? i >= half : rng_.Chance(options_.hmx_share);
      if (hmx) {
        p.kind = ComputeKind::kHmx;
      } else {
        p.kind = rng_.Chance(options_.tiled_share) ? ComputeKind::kTiled : ComputeKind::kHvx;
      }
      QnnType type;
      if (p.kind == ComputeKind::kHmx) {
        type = rng_.Chance(0.5) ? QnnType::kConv2d : QnnType::kFullyConnected;
      } else if (p.kind == ComputeKind::kTiled) {
        type = QnnType::kSoftmax;
      } else {
        static constexpr QnnType kHvxTypes[] = {QnnType::kElementWiseAdd,
                                                QnnType::kElementWiseMultiply, QnnType::kRelu,
                                                QnnType::kLayerNorm};
        type = kHvxTypes[rng_.Range(0, 3)];
      }
      p.qnn = AddQnn(type, QnnKind::kCompute, next_id++, ordinals[static_cast<size_t>(type)]++);
      plan_.push_back(p);
    }
  }

  // ---- ops and their schedule ------------------------------------------------------------------

  uint64_t NewId(uint32_t qnn_id) {
    return (static_cast<uint64_t>(next_instance_++) << 32) | qnn_id;
  }

  int64_t OpEnd(uint32_t op) const { return m_.slices[m_.ops[op].first_slice].end_cycle(); }
  uint16_t OpTid(uint32_t op) const { return m_.slices[m_.ops[op].first_slice].tid; }
  int64_t OpStart(uint32_t op) const { return m_.slices[m_.ops[op].first_slice].start_cycle; }

  // Idle time a thread leaves before the next op: dispatch overhead, now and
  // then a longer stall.
  int64_t Gap() { return rng_.Chance(0.03) ? rng_.Range(300, 1500) : rng_.Range(10, 70); }

  float Cpp(double lo, double hi) { return static_cast<float>(rng_.Uniform(lo, hi)); }

  uint32_t NewTensor(TensorKind kind, Shape shape, uint64_t id) {
    NonExecutedTensor t;
    t.kind = kind;
    t.shape = shape;
    t.id = id;
    t.first_consumer = std::numeric_limits<uint32_t>::max();
    m_.tensors.push_back(t);
    return static_cast<uint32_t>(m_.tensors.size() - 1);
  }

  // $Shape tensors: IDs 0x1003_xxxxxxxx, distinct and seed-dependent.
  uint32_t NewShape() {
    const uint64_t base = Mix64(options_.seed) & 0x7fff0000u;
    return NewTensor(TensorKind::kShape, Shape::kShapeVector,
                     (uint64_t{0x1003} << 32) | (base + shapes_++));
  }

  void AddSlice(uint32_t op, uint16_t tid, int64_t start, int64_t dur, bool primary,
                const OpSpec& spec, int share, int shares) {
    Slice s;
    s.op = op;
    s.tid = tid;
    s.start_cycle = start;
    s.dur_cycles = dur;
    s.primary = primary;
    // Bytes are split evenly over slices; the primary slice takes the remainder.
    auto part = [&](int64_t total) {
      int64_t each = total / shares;
      return static_cast<uint32_t>(share == 0 ? total - each * (shares - 1) : each);
    };
    s.vtcm_read_bytes = part(spec.vtcm_read_bytes);
    s.vtcm_write_bytes = part(spec.vtcm_write_bytes);
    s.dram_read_bytes = part(spec.dram_read_bytes);
    s.dram_write_bytes = part(spec.dram_write_bytes);
    m_.slices.push_back(s);
  }

  void SequencerFlowsTo(uint32_t op) {
    if (last_sequencer_op_ < 0) return;
    const auto from = static_cast<uint32_t>(last_sequencer_op_);
    Flow f;
    f.sequencer = true;
    f.from_cycle = OpEnd(from);
    f.from_tid = static_cast<uint16_t>(kSequencerTid);
    f.to_cycle = OpStart(op);
    f.to_tid = OpTid(op);
    m_.flows.push_back(f);
  }

  uint32_t AddOp(const OpSpec& spec) {
    const auto index = static_cast<uint32_t>(m_.ops.size());
    HtpOp op;
    op.id = NewId(m_.qnn_ops[spec.qnn].qnn_id);
    op.qnn = spec.qnn;
    op.type = spec.type;
    op.flag = spec.flag;
    op.shape = spec.shape;
    op.in_graph = spec.in_graph;
    op.cycles_per_packet = spec.cycles_per_packet;
    op.output_bytes = spec.output_bytes;
    op.first_slice = static_cast<uint32_t>(m_.slices.size());
    op.inputs_begin = static_cast<uint32_t>(m_.inputs.size());
    op.inputs_count = static_cast<uint32_t>(spec.inputs.size());
    m_.inputs.insert(m_.inputs.end(), spec.inputs.begin(), spec.inputs.end());

    int64_t ready = 0;
    for (uint32_t dep : spec.deps) ready = std::max(ready, OpEnd(dep));
    for (const auto& in : spec.inputs)
      if (!in.tensor) ready = std::max(ready, OpEnd(in.index));
    const int64_t dispatch = sequencer_free_;
    m_.ops.push_back(op);

    switch (spec.placement) {
      case Placement::kSequencer: {
        int64_t start = std::max(sequencer_free_, ready) + Gap();
        int64_t end = std::max(start + spec.dur_cycles, spec.min_end_cycle);
        AddSlice(index, static_cast<uint16_t>(kSequencerTid), start, end - start, true, spec, 0, 1);
        sequencer_free_ = end;
        break;
      }
      case Placement::kHvx: {
        int best = static_cast<int>(rng_.Range(0, kHvxThreads - 1));
        for (int k = 0; k < kHvxThreads; ++k) {
          int t = (best + k) % kHvxThreads;
          if (hvx_free_[t] < hvx_free_[best]) best = t;
        }
        int64_t start = std::max({hvx_free_[best], ready, dispatch}) + Gap();
        AddSlice(index, static_cast<uint16_t>(kFirstHvxTid + best), start, spec.dur_cycles, true,
                 spec, 0, 1);
        hvx_free_[best] = start + spec.dur_cycles;
        break;
      }
      case Placement::kTiled: {
        const int width = options_.tile_threads;
        std::array<int, kHvxThreads> order{};
        int rotate = static_cast<int>(rng_.Range(0, kHvxThreads - 1));
        for (int k = 0; k < kHvxThreads; ++k) order[k] = (rotate + k) % kHvxThreads;
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return hvx_free_[a] < hvx_free_[b]; });
        int64_t start = std::max(ready, dispatch);
        for (int k = 0; k < width; ++k) start = std::max(start, hvx_free_[order[k]]);
        start += Gap();
        const int64_t end = start + spec.dur_cycles;
        AddSlice(index, static_cast<uint16_t>(kFirstHvxTid + order[0]), start, spec.dur_cycles,
                 true, spec, 0, width);
        hvx_free_[order[0]] = end;
        for (int k = 1; k < width; ++k) {
          int64_t s = start + rng_.Range(3, 80);
          int64_t d = std::llround(static_cast<double>(spec.dur_cycles) * rng_.Uniform(0.55, 0.92));
          d = std::max<int64_t>(1, std::min(d, end - 1 - s));
          AddSlice(index, static_cast<uint16_t>(kFirstHvxTid + order[k]), s, d, false, spec, k,
                   width);
          hvx_free_[order[k]] = s + d;
        }
        m_.ops[index].slice_count = static_cast<uint8_t>(width);
        break;
      }
    }
    HtpOp& added = m_.ops[index];
    added.alloc_cycle = OpStart(index);
    added.free_cycle = OpEnd(index);
    added.described =
        spec.flag == OpFlag::kDmaWait || spec.type == HtpType::kDmaCheckpointSet ||
        ((spec.type == HtpType::kWeightsToVtcm || spec.type == HtpType::kBiasToVtcm) &&
         spec.flag == OpFlag::kDma);
    if (spec.placement == Placement::kSequencer) {
      last_sequencer_op_ = index;
    } else {
      SequencerFlowsTo(index);
    }

    // Producers: data flows between threads, buffers live until their last reader ends.
    int tensor_rank = 0;
    for (const auto& in : spec.inputs) {
      if (in.tensor) {
        NonExecutedTensor& t = m_.tensors[in.index];
        if (t.first_consumer == std::numeric_limits<uint32_t>::max()) {
          t.first_consumer = index;
          t.cycle = OpStart(index) - 10 - 12 * tensor_rank;
        }
        ++tensor_rank;
        continue;
      }
      HtpOp& producer = m_.ops[in.index];
      producer.free_cycle = std::max(producer.free_cycle, OpEnd(index));
      if (OpTid(in.index) != OpTid(index)) {
        Flow f;
        f.from_cycle = OpEnd(in.index);
        f.from_tid = OpTid(in.index);
        f.to_cycle = OpStart(index);
        f.to_tid = OpTid(index);
        m_.flows.push_back(f);
      }
    }
    return index;
  }

  OpSpec Spec(uint32_t qnn, HtpType type, OpFlag flag, Placement placement, int64_t dur) {
    OpSpec s;
    s.qnn = qnn;
    s.type = type;
    s.flag = flag;
    s.placement = placement;
    s.dur_cycles = dur;
    return s;
  }

  // A DMA wait on the sequencer: ends when the transfer started by `dma` has
  // landed in VTCM.
  uint32_t AddWait(uint32_t qnn, HtpType type, uint32_t dma, int64_t bytes) {
    OpSpec w = Spec(qnn, type, OpFlag::kDmaWait, Placement::kSequencer, rng_.Range(70, 190));
    w.deps = {dma};
    w.min_end_cycle = OpEnd(dma) + bytes / kDmaBytesPerCycle;
    w.cycles_per_packet = Cpp(6, 12);
    return AddOp(w);
  }

  uint32_t AddCheckpoint(uint32_t qnn, int64_t dur) {
    OpSpec s = Spec(qnn, HtpType::kDmaCheckpointSet, OpFlag::kDmaSet, Placement::kSequencer, dur);
    s.cycles_per_packet = Cpp(6, 160);
    return AddOp(s);
  }

  // ---- the program -----------------------------------------------------------------------------

  void BuildInputs() {
    const int chunks = std::max(options_.input_chunks, options_.branches);
    shape_a_ = NewShape();
    shape_b_ = NewShape();
    std::vector<uint32_t> dmas(static_cast<size_t>(chunks));
    for (int c = 0; c < chunks; ++c) {
      uint32_t own = NewShape();
      OpSpec dma = Spec(input_qnn_, HtpType::kInputSlice, OpFlag::kDma, Placement::kSequencer,
                        c == 0 ? rng_.Range(2000, 3200) : rng_.Range(150, 1300));
      dma.shape = Shape::kActivation;
      dma.inputs = {{own, true}, {shape_a_, true}, {shape_b_, true}};
      dma.dram_read_bytes = dma.vtcm_write_bytes = dma.output_bytes = kActivationBytes;
      dma.in_graph = true;
      dma.cycles_per_packet = Cpp(4, 60);
      dmas[static_cast<size_t>(c)] = AddOp(dma);
      AddCheckpoint(input_qnn_, c == 0 ? rng_.Range(250, 650) : rng_.Range(25, 60));
    }
    // Weights of the first HMX op are fetched while the inputs land.
    const int64_t first_hmx = NextHmx(0);
    if (first_hmx >= 0 && !options_.spill_fill) Prefetch(first_hmx);
    tails_.assign(static_cast<size_t>(options_.branches), {});
    for (int c = 0; c < chunks; ++c) {
      uint32_t dma = dmas[static_cast<size_t>(c)];
      uint32_t wait = AddWait(input_qnn_, HtpType::kInputSlice, dma, kActivationBytes);
      OpSpec ff = Spec(input_qnn_, HtpType::kForceFormatCrouton, OpFlag::kUsesHvx, Placement::kHvx,
                       rng_.Range(4000, 17000));
      ff.shape = Shape::kActivation;
      ff.deps = {wait};
      ff.inputs = {{dma, false}};
      ff.vtcm_read_bytes = ff.vtcm_write_bytes = ff.output_bytes = kActivationBytes;
      ff.in_graph = true;
      ff.cycles_per_packet = Cpp(2, 8);
      tails_[static_cast<size_t>(c % options_.branches)].push_back(AddOp(ff));
    }
  }

  int64_t NextHmx(int64_t from) const {
    for (int64_t i = from; i < static_cast<int64_t>(plan_.size()); ++i)
      if (plan_[static_cast<size_t>(i)].kind == ComputeKind::kHmx) return i;
    return -1;
  }

  // Issues the weight (and maybe bias) DMA of compute op `i` into VTCM.
  void Prefetch(int64_t i) {
    const ComputePlan& p = plan_[static_cast<size_t>(i)];
    const uint32_t qnn_id = m_.qnn_ops[p.qnn].qnn_id;
    const bool first = prefetched_.empty();
    Fetched f;
    if (rng_.Chance(0.6)) {
      uint32_t t = NewTensor(TensorKind::kConst, Shape::kBias, NewId(qnn_id));
      OpSpec b = Spec(p.qnn, HtpType::kBiasToVtcm, OpFlag::kDma, Placement::kSequencer,
                      first ? rng_.Range(2000, 3600) : rng_.Range(100, 400));
      b.shape = Shape::kBias;
      b.inputs = {{t, true}};
      b.dram_read_bytes = b.vtcm_write_bytes = b.output_bytes = kBiasBytes;
      b.in_graph = true;
      b.cycles_per_packet = Cpp(20, 190);
      f.bias = static_cast<int64_t>(AddOp(b));
    }
    uint32_t t = NewTensor(TensorKind::kConst, Shape::kWeights, NewId(qnn_id));
    OpSpec w = Spec(p.qnn, HtpType::kWeightsToVtcm, OpFlag::kDma, Placement::kSequencer,
                    first ? rng_.Range(3000, 8200) : rng_.Range(130, 1600));
    w.shape = Shape::kWeights;
    w.inputs = {{t, true}};
    w.dram_read_bytes = w.vtcm_write_bytes = w.output_bytes = kWeightsBytes;
    w.in_graph = true;
    w.cycles_per_packet = Cpp(20, 190);
    f.weights = AddOp(w);
    AddCheckpoint(p.qnn, rng_.Range(25, 45));
    prefetched_.emplace_back(i, f);
  }

  void BuildHandoff(int64_t first_stage2) {
    Handoff& h = m_.handoff;
    h.present = true;
    for (size_t b = 0; b < tails_.size(); ++b) {
      uint32_t producer = tails_[b].front();
      OpSpec s = Spec(m_.ops[producer].qnn, HtpType::kSpill, OpFlag::kDma, Placement::kSequencer,
                      rng_.Range(20000, 60000));
      s.shape = Shape::kActivation;
      s.inputs = {{producer, false}};
      s.vtcm_read_bytes = s.dram_write_bytes = kSpillBytes;
      s.in_graph = true;
      s.cycles_per_packet = Cpp(40, 120);
      h.spills.push_back(AddOp(s));
    }
    for (size_t b = 0; b < tails_.size(); ++b) {
      // The Fill belongs to the branch's first op of the HMX stage.
      const int64_t branches = options_.branches;
      const int64_t first =
          first_stage2 +
          ((static_cast<int64_t>(b) - first_stage2) % branches + branches) % branches;
      uint32_t qnn = plan_[static_cast<size_t>(first)].qnn;
      OpSpec f =
          Spec(qnn, HtpType::kFill, OpFlag::kDma, Placement::kSequencer, rng_.Range(20000, 60000));
      f.shape = Shape::kActivation;
      f.inputs = {{h.spills[b], false}};
      f.dram_read_bytes = f.vtcm_write_bytes = f.output_bytes = kSpillBytes;
      f.in_graph = true;
      f.cycles_per_packet = Cpp(40, 120);
      uint32_t fill = AddOp(f);
      h.fills.push_back(fill);
      tails_[b] = {fill};
    }
    int64_t next = NextHmx(first_stage2);
    if (next >= 0) Prefetch(next);
  }

  void BuildCompute() {
    const int64_t half = options_.ops / 2;
    std::vector<uint32_t> first_of_branch;
    for (int64_t i = 0; i < options_.ops; ++i) {
      const ComputePlan& p = plan_[static_cast<size_t>(i)];
      if (options_.spill_fill && i == half) {
        for (const auto& s : m_.slices)
          m_.handoff.hvx_stage_end_cycle =
              std::max(m_.handoff.hvx_stage_end_cycle, s.tid >= kFirstHvxTid ? s.end_cycle() : 0);
        BuildHandoff(i);
      }
      std::vector<InputRef> inputs;
      for (uint32_t t : tails_[static_cast<size_t>(p.branch)]) inputs.push_back({t, false});
      std::vector<uint32_t> deps;
      const int64_t data_inputs = static_cast<int64_t>(inputs.size());
      const bool first_in_branch = i < options_.branches;
      if (options_.shared_constant && first_in_branch) {
        if (i == 0) {
          shared_tensor_ =
              NewTensor(TensorKind::kConst, Shape::kBias, (uint64_t{0x1002} << 32) | 8);
          m_.shared_constants.push_back({shared_tensor_, {}});
        }
        inputs.push_back({shared_tensor_, true});
        // One buffer written by every branch: each waits for the previous writer.
        if (i > 0) deps.push_back(first_of_branch.back());
      }
      uint32_t op = 0;
      switch (p.kind) {
        case ComputeKind::kHmx: {
          // Prefetches are issued in program order: the next unused one is op i's.
          if (prefetch_cursor_ == prefetched_.size() || prefetched_[prefetch_cursor_].first != i)
            Prefetch(i);
          const Fetched f = prefetched_[prefetch_cursor_++].second;
          uint32_t wait = AddWait(p.qnn, HtpType::kWeightsToVtcm, f.weights, kWeightsBytes);
          inputs.push_back({f.weights, false});
          if (f.bias >= 0) inputs.push_back({static_cast<uint32_t>(f.bias), false});
          OpSpec c = Spec(p.qnn, HtpType::kConvLayer, OpFlag::kUsesHmx, Placement::kSequencer,
                          rng_.Chance(0.1) ? rng_.Range(30000, 90000) : rng_.Range(1400, 9000));
          c.shape = Shape::kActivation;
          c.deps = deps;
          c.deps.push_back(wait);
          c.inputs = inputs;
          c.vtcm_read_bytes = kActivationBytes + kWeightsBytes;
          c.vtcm_write_bytes = c.output_bytes = kActivationBytes;
          c.in_graph = true;
          c.cycles_per_packet = Cpp(1.5, 20);
          op = AddOp(c);
          int64_t next = NextHmx(i + 1);
          if (next >= 0 && !(options_.spill_fill && i < half && next >= half)) Prefetch(next);
          break;
        }
        case ComputeKind::kHvx: {
          static constexpr HtpType kTypes[] = {HtpType::kElementWiseAdd, HtpType::kMul,
                                               HtpType::kRelu, HtpType::kLayerNorm};
          const QnnType qt = m_.qnn_ops[p.qnn].type;
          HtpType ht = qt == QnnType::kElementWiseAdd        ? kTypes[0]
                       : qt == QnnType::kElementWiseMultiply ? kTypes[1]
                       : qt == QnnType::kRelu                ? kTypes[2]
                                                             : kTypes[3];
          OpSpec h = Spec(p.qnn, ht, OpFlag::kUsesHvx, Placement::kHvx, rng_.Range(2500, 26000));
          h.shape = Shape::kActivation;
          h.deps = deps;
          h.inputs = inputs;
          h.vtcm_read_bytes = kActivationBytes * data_inputs;
          h.vtcm_write_bytes = h.output_bytes = kActivationBytes;
          h.in_graph = true;
          h.cycles_per_packet = Cpp(1.5, 8);
          op = AddOp(h);
          break;
        }
        case ComputeKind::kTiled: {
          OpSpec t = Spec(p.qnn, HtpType::kSoftmax, OpFlag::kUsesHvx, Placement::kTiled,
                          rng_.Range(30000, 120000));
          t.shape = Shape::kActivation16;
          t.deps = deps;
          t.inputs = inputs;
          t.vtcm_read_bytes = t.vtcm_write_bytes = t.output_bytes = 2 * kActivationBytes;
          t.in_graph = true;
          t.cycles_per_packet = Cpp(3, 6);
          op = AddOp(t);
          // The sequencer waits for every slice of the tiled op.
          OpSpec s = Spec(p.qnn, HtpType::kSyncOp, OpFlag::kSync, Placement::kSequencer,
                          rng_.Range(200, 700));
          s.deps = {op};
          s.cycles_per_packet = Cpp(6, 211);
          uint32_t sync = AddOp(s);
          const HtpOp& tiled = m_.ops[op];
          for (uint32_t k = 0; k < tiled.slice_count; ++k) {
            const Slice& sl = m_.slices[tiled.first_slice + k];
            Flow f;
            f.sequencer = true;
            f.from_cycle = sl.end_cycle();
            f.from_tid = sl.tid;
            f.to_cycle = OpStart(sync);
            f.to_tid = static_cast<uint16_t>(kSequencerTid);
            m_.flows.push_back(f);
          }
          break;
        }
      }
      if (first_in_branch) first_of_branch.push_back(op);
      if (options_.shared_constant && first_in_branch)
        m_.shared_constants.back().consumers.push_back(op);
      if (options_.spill_fill && i >= half && p.kind == ComputeKind::kHmx) {
        const Slice& s = m_.slices[m_.ops[op].first_slice];
        if (m_.handoff.hmx_stage_start_cycle == 0) m_.handoff.hmx_stage_start_cycle = s.start_cycle;
        m_.handoff.hmx_stage_end_cycle = std::max(m_.handoff.hmx_stage_end_cycle, s.end_cycle());
      }
      if (options_.spill_fill && i < half) {
        m_.handoff.hvx_stage_start_cycle =
            m_.handoff.hvx_stage_start_cycle == 0
                ? OpStart(op)
                : std::min(m_.handoff.hvx_stage_start_cycle, OpStart(op));
      }
      tails_[static_cast<size_t>(p.branch)] = {op};
    }
  }

  void BuildOutputs() {
    std::vector<uint32_t> flats;
    for (auto& tail : tails_) {
      OpSpec f = Spec(output_qnn_, HtpType::kForceFormatFlat, OpFlag::kUsesHvx, Placement::kHvx,
                      rng_.Range(2000, 10000));
      f.shape = Shape::kActivation;
      for (uint32_t t : tail) f.inputs.push_back({t, false});
      f.vtcm_read_bytes = f.vtcm_write_bytes = f.output_bytes = kActivationBytes;
      f.in_graph = true;
      f.cycles_per_packet = Cpp(2, 8);
      flats.push_back(AddOp(f));
    }
    for (uint32_t flat : flats) {
      uint32_t own = NewShape();
      OpSpec d = Spec(output_qnn_, HtpType::kOutputSlice, OpFlag::kDma, Placement::kSequencer,
                      rng_.Range(240, 3300));
      d.shape = Shape::kActivation;
      d.inputs = {{flat, false}, {shape_a_, true}, {own, true}};
      d.vtcm_read_bytes = d.dram_write_bytes = kActivationBytes;
      d.cycles_per_packet = Cpp(28, 100);
      uint32_t dma = AddOp(d);
      AddCheckpoint(output_qnn_, rng_.Range(26, 48));
      AddWait(output_qnn_, HtpType::kOutputSlice, dma, kActivationBytes);
    }
    flats_ = flats;
  }

  void BuildSystemService() {
    // Named after the sync op's instance number, as the viewer does.
    uint32_t qnn = AddQnn(QnnType::kSystemService, QnnKind::kSystemService, 0, next_instance_);
    OpSpec s =
        Spec(qnn, HtpType::kSyncOp, OpFlag::kSync, Placement::kSequencer, rng_.Range(18, 500));
    s.deps = flats_;
    s.cycles_per_packet = Cpp(6, 211);
    AddOp(s);
  }

  struct Fetched {
    uint32_t weights = 0;
    int64_t bias = -1;
  };

  const SynthOptions& options_;
  Model& m_;
  Rng rng_;
  std::vector<ComputePlan> plan_;
  uint32_t input_qnn_ = 0, output_qnn_ = 0;
  uint32_t next_instance_ = kFirstInstance;
  int64_t sequencer_free_ = kFirstCycle;
  std::array<int64_t, kHvxThreads> hvx_free_{kFirstCycle, kFirstCycle, kFirstCycle, kFirstCycle};
  int64_t last_sequencer_op_ = -1;
  uint32_t shape_a_ = 0, shape_b_ = 0, shared_tensor_ = 0, shapes_ = 0;
  std::vector<std::pair<int64_t, Fetched>> prefetched_;
  size_t prefetch_cursor_ = 0;
  std::vector<std::vector<uint32_t>> tails_;
  std::vector<uint32_t> flats_;
};

int PathClass(OpFlag flag) {
  switch (flag) {
    case OpFlag::kUsesHmx:
      return 6;
    case OpFlag::kUsesHvx:
      return 5;
    case OpFlag::kDma:
      return 4;
    case OpFlag::kDmaSet:
    case OpFlag::kDmaWait:
      return 3;
    case OpFlag::kSync:
      return 2;
  }
  return 0;
}

void ComputeVtcm(Model& m) {
  std::vector<std::pair<int64_t, int64_t>> events;
  for (const auto& op : m.ops) {
    if (op.output_bytes == 0) continue;
    events.emplace_back(op.alloc_cycle, op.output_bytes);
    events.emplace_back(op.free_cycle, -op.output_bytes);
  }
  // At one cycle, frees come before allocations.
  std::sort(events.begin(), events.end());
  int64_t bytes = 0;
  m.peak_vtcm_bytes = 0;
  for (size_t i = 0; i < events.size();) {
    const int64_t cycle = events[i].first;
    for (; i < events.size() && events[i].first == cycle; ++i) bytes += events[i].second;
    if (m.vtcm.empty() ? bytes != 0 : bytes != m.vtcm.back().bytes) {
      m.vtcm.push_back({cycle, bytes});
      if (bytes > m.peak_vtcm_bytes) {
        m.peak_vtcm_bytes = bytes;
        m.peak_vtcm_cycle = cycle;
      }
    }
  }
}

// Cycles elapsed over `ticks` at `ghz`.
int64_t CyclesOver(int64_t ticks, double ghz) {
  return std::llround(static_cast<double>(ticks) * ghz * 1000.0 / kTicksPerUs);
}

// Ticks needed for `cycles` at `ghz` (rounded up).
int64_t TicksFor(int64_t cycles, double ghz) {
  return static_cast<int64_t>(
      std::ceil(static_cast<double>(cycles) * kTicksPerUs / (ghz * 1000.0)));
}

void BuildExecutions(Model& m) {
  const SynthOptions& o = m.options;
  Rng rng(Mix64(o.seed ^ 0x72756e7472616365ULL));
  int64_t tick = 16637254955485 + rng.Range(0, 1000000000);
  int64_t cycle = 0;
  const int64_t span = m.span_cycles();
  for (int e = 1; e <= o.executions; ++e) {
    const bool cold = e == 1;
    Execution x;
    x.index = e;
    x.warm_factor = cold ? 1.0 : rng.Uniform(0.52, 0.60);
    struct Step {
      int64_t ticks;
      double ghz;
    };
    const int64_t pre = rng.Range(2500, 4000), post = rng.Range(2000, 3000);
    const int64_t graph_cycles =
        (cold ? span : std::llround(static_cast<double>(span) * x.warm_factor)) + pre + post;
    const double graph_ghz = cold ? rng.Uniform(1.93, 1.95) : rng.Uniform(1.92, 1.94);
    const Step steps[] = {
        {cold ? rng.Range(80, 110) : rng.Range(8, 50), cold ? 0.9 : 1.93},  // gap
        {cold ? rng.Range(900, 1000) : rng.Range(95, 125),                  // VTCM
         cold ? rng.Uniform(0.80, 0.81) : rng.Uniform(1.93, 1.95)},
        {cold ? rng.Range(60, 90) : rng.Range(5, 30), cold ? 0.9 : 1.93},  // gap
        {cold ? rng.Range(11500, 16500) : rng.Range(12, 26),               // power on
         cold ? rng.Uniform(1.0, 1.02) : rng.Uniform(1.86, 1.98)},
        {cold ? rng.Range(120, 150) : rng.Range(30, 65), cold ? 1.2 : 1.93},  // gap
        {TicksFor(graph_cycles, graph_ghz), graph_ghz},                       // graph
        {cold ? rng.Range(70, 95) : rng.Range(15, 30), cold ? 1.9 : 1.93},    // gap
    };
    if (cold) {
      // Place the cycle counter so that Graph Execute starts `pre` cycles
      // before the first traced op.
      int64_t before = 0;
      for (int k = 0; k < 5; ++k) before += CyclesOver(steps[k].ticks, steps[k].ghz);
      cycle = m.start_cycle - pre - before;
    } else {
      const int64_t gap_ticks = rng.Range(1000000, 1250000);
      tick += gap_ticks;
      cycle += CyclesOver(gap_ticks, 1.94);
    }
    int64_t t = tick, c = cycle;
    std::array<int64_t, 8> at_tick{}, at_cycle{};
    at_tick[0] = t;
    at_cycle[0] = c;
    for (int k = 0; k < 7; ++k) {
      t += steps[k].ticks;
      c += k == 5 ? graph_cycles : CyclesOver(steps[k].ticks, steps[k].ghz);
      at_tick[k + 1] = t;
      at_cycle[k + 1] = c;
    }
    auto phase = [&](const char* name, int from, int to) {
      Phase p;
      p.name = name;
      p.start_ticks = at_tick[from];
      p.end_ticks = at_tick[to];
      p.start_cycles = at_cycle[from];
      p.end_cycles = at_cycle[to];
      return p;
    };
    x.phases = {phase("QNN DSP Execute", 0, 7), phase("VTCM Acquire", 1, 2),
                phase("Resource Power On", 3, 4), phase("Graph Execute", 5, 6)};
    tick = t;
    cycle = c;

    const int64_t dsp_us =
        static_cast<int64_t>(static_cast<double>(x.phases[0].ticks()) / kTicksPerUs);
    x.accelerator_excl_wait_us =
        static_cast<int64_t>(static_cast<double>(x.phases[3].ticks()) / kTicksPerUs);
    x.accelerator_us = dsp_us + (cold ? rng.Range(20, 40) : rng.Range(3, 10));
    x.qnn_accelerator_us = x.accelerator_us + (cold ? rng.Range(330, 420) : rng.Range(135, 160));
    x.rpc_us = x.qnn_accelerator_us + (cold ? rng.Range(2400, 2500) : rng.Range(2240, 2300));
    x.qnn_execute_us = x.rpc_us + (cold ? rng.Range(650, 750) : rng.Range(170, 230));
    m.executions.push_back(x);
  }
  for (auto& x : m.executions) {
    x.accelerator_cycles = 0;
    for (uint32_t q : m.ProfileNodes()) x.accelerator_cycles += m.NodeCycles(q, x.index);
  }
}

}  // namespace

const char* OpFlagName(OpFlag flag) {
  switch (flag) {
    case OpFlag::kDma:
      return "dma";
    case OpFlag::kDmaSet:
      return "dma_set";
    case OpFlag::kDmaWait:
      return "dma_wait";
    case OpFlag::kUsesHmx:
      return "uses_hmx";
    case OpFlag::kUsesHvx:
      return "uses_hvx";
    case OpFlag::kSync:
      return "sync";
  }
  return "";
}

const HtpTypeInfo& Info(HtpType type) { return kHtpTypes[static_cast<size_t>(type)]; }
const QnnTypeInfo& Info(QnnType type) { return kQnnTypes[static_cast<size_t>(type)]; }
const ShapeInfo& Info(Shape shape) { return kShapes[static_cast<size_t>(shape)]; }

void ValidateOptions(const SynthOptions& o) {
  auto fail = [](const std::string& what) { throw std::invalid_argument(what); };
  if (o.graph_name.empty()) fail("graph name must not be empty");
  for (char ch : o.graph_name)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.'))
      fail(fmt::format("graph name \"{}\": use letters, digits, '_', '-' and '.' only",
                       o.graph_name));
  if (o.ops < 1 || o.ops > kMaxOps)
    fail(fmt::format("ops must be in 1..{}, got {}", kMaxOps, o.ops));
  if (!(o.hmx_share >= 0 && o.hmx_share <= 1)) fail("hmx share must be in [0, 1]");
  if (!(o.tiled_share >= 0 && o.tiled_share <= 1)) fail("tiled share must be in [0, 1]");
  if (o.tile_threads < 2 || o.tile_threads > kHvxThreads) fail("tile threads must be in 2..4");
  if (o.branches < 1 || o.branches > 64) fail("branches must be in 1..64");
  if (o.shared_constant && o.branches < 2) fail("a shared constant needs at least 2 branches");
  if (o.ops < o.branches) fail("every branch needs an op: ops must be >= branches");
  if (o.spill_fill && o.ops < 2 * o.branches)
    fail("spill/fill needs an op of each stage in every branch: ops must be >= 2 x branches");
  if (o.input_chunks < 1 || o.input_chunks > 256) fail("input chunks must be in 1..256");
  if (o.reshape_every < 0) fail("reshape-every must be >= 0");
  if (o.executions < 1 || o.executions > 10000) fail("executions must be in 1..10000");
}

std::string Model::QnnName(uint32_t qnn) const {
  const QnnOp& q = qnn_ops[qnn];
  switch (q.kind) {
    case QnnKind::kInput:
      return "Input";
    case QnnKind::kOutput:
      return "Output";
    case QnnKind::kSystemService:
      return fmt::format("SystemService_ChunkPreload_{:x}", q.ordinal);
    default:
      return fmt::format("{}_{}", Info(q.type).prefix, q.ordinal);
  }
}

std::string Model::ProcessName(uint32_t qnn) const {
  if (qnn_ops[qnn].kind == QnnKind::kSystemService) return "QNN::SystemService_0";
  return "QNN::" + QnnName(qnn);
}

std::string Model::ProfileLabel(uint32_t qnn) const {
  const QnnOp& q = qnn_ops[qnn];
  if (q.kind == QnnKind::kInput || q.kind == QnnKind::kOutput)
    return fmt::format("{} OpId_{}", QnnName(qnn), q.qnn_id);
  return fmt::format("{}:OpId_{}", QnnName(qnn), q.qnn_id);
}

const char* Model::Description(const HtpOp& op) const {
  if (!op.described) return nullptr;
  if (op.flag == OpFlag::kDmaWait) return kWaitDescription;
  if (op.type == HtpType::kDmaCheckpointSet) return kCheckpointDescription;
  return kWeightsDescription;
}

int64_t Model::NodeCycles(uint32_t qnn, int execution) const {
  const int64_t work = qnn_work_cycles[qnn];
  if (execution <= 1 || work == 0) return work;
  // Warm executions: the execution's speed-up, give or take 10 % per node
  // (cache and DMA effects).
  double u =
      UnitFromBits(Mix64(options.seed * 0x9e3779b97f4a7c15ULL ^ (static_cast<uint64_t>(qnn) << 20) ^
                         static_cast<uint64_t>(execution)));
  const double warm = executions[static_cast<size_t>(execution) - 1].warm_factor;
  return std::llround(static_cast<double>(work) * warm * (0.9 + 0.2 * u));
}

std::vector<uint32_t> Model::ProfileNodes() const {
  std::vector<uint32_t> out;
  uint32_t output = 0;
  for (uint32_t q = 0; q < qnn_ops.size(); ++q) {
    switch (qnn_ops[q].kind) {
      case QnnKind::kInput:
        out.insert(out.begin(), q);
        break;
      case QnnKind::kOutput:
        output = q;
        break;
      case QnnKind::kCompute:
      case QnnKind::kReshape:
        out.push_back(q);
        break;
      case QnnKind::kSystemService:
        break;  // the viewer prints no node line for it
    }
  }
  out.push_back(output);
  return out;
}

int64_t UnionCycles(std::vector<std::pair<int64_t, int64_t>>& intervals) {
  std::sort(intervals.begin(), intervals.end());
  int64_t total = 0, run_start = 0, run_end = 0;
  bool open = false;
  for (const auto& [start, end] : intervals) {
    if (!open || start > run_end) {
      if (open) total += run_end - run_start;
      run_start = start;
      run_end = end;
      open = true;
    } else {
      run_end = std::max(run_end, end);
    }
  }
  if (open) total += run_end - run_start;
  return total;
}

std::vector<PathSegment> ComputeDominantPath(const std::vector<HtpOp>& ops,
                                             std::vector<Slice>& slices, bool primary_first) {
  struct Event {
    int64_t cycle;
    bool start;
    uint32_t slice;
  };
  std::vector<Event> events;
  events.reserve(slices.size() * 2);
  for (uint32_t i = 0; i < slices.size(); ++i) {
    slices[i].dp_cycles = 0;
    if (slices[i].dur_cycles <= 0) continue;
    events.push_back({slices[i].start_cycle, true, i});
    events.push_back({slices[i].end_cycle(), false, i});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    if (a.cycle != b.cycle) return a.cycle < b.cycle;
    if (a.start != b.start) return !a.start;  // ends first: intervals are half-open
    return a.slice < b.slice;
  });
  using Key = std::tuple<int, bool, int64_t, uint32_t>;
  auto key = [&](uint32_t i) {
    const Slice& s = slices[i];
    return Key{PathClass(ops[s.op].flag), primary_first && s.primary, s.start_cycle, i};
  };
  std::set<Key> active;
  std::vector<PathSegment> path;
  for (size_t i = 0; i < events.size();) {
    const int64_t cycle = events[i].cycle;
    for (; i < events.size() && events[i].cycle == cycle; ++i) {
      if (events[i].start) {
        active.insert(key(events[i].slice));
      } else {
        active.erase(key(events[i].slice));
      }
    }
    if (i == events.size()) break;
    const int64_t next = events[i].cycle;
    const uint32_t on = active.empty() ? kIdleSlice : std::get<3>(*active.rbegin());
    if (!path.empty() && path.back().slice == on && path.back().end_cycle == cycle) {
      path.back().end_cycle = next;
    } else {
      path.push_back({cycle, next, on});
    }
  }
  for (const auto& seg : path)
    if (seg.slice != kIdleSlice) slices[seg.slice].dp_cycles += seg.end_cycle - seg.start_cycle;
  return path;
}

Model BuildModel(const SynthOptions& options) {
  ValidateOptions(options);
  Model m;
  m.options = options;
  m.options.input_chunks = std::max(options.input_chunks, options.branches);
  Builder(m.options, &m).Build();

  m.start_cycle = std::numeric_limits<int64_t>::max();
  m.end_cycle = std::numeric_limits<int64_t>::min();
  for (const auto& s : m.slices) {
    m.start_cycle = std::min(m.start_cycle, s.start_cycle);
    m.end_cycle = std::max(m.end_cycle, s.end_cycle());
  }
  m.origin_cycle = m.start_cycle;
  for (const auto& t : m.tensors) m.origin_cycle = std::min(m.origin_cycle, t.cycle);

  m.path = ComputeDominantPath(m.ops, m.slices, !m.options.split_tile_dpc);
  m.idle_cycles = 0;
  for (const auto& seg : m.path)
    if (seg.slice == kIdleSlice) m.idle_cycles += seg.end_cycle - seg.start_cycle;
  for (auto& op : m.ops) op.dpc_cycles = m.slices[op.first_slice].dp_cycles;

  m.qnn_work_cycles.assign(m.qnn_ops.size(), 0);
  for (const auto& s : m.slices) m.qnn_work_cycles[m.ops[s.op].qnn] += s.dur_cycles;

  ComputeVtcm(m);
  BuildExecutions(m);
  return m;
}

}  // namespace htpscope::synth
