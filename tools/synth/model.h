// The synthetic run's internal model: a compiled HTP graph, its schedule on
// the hardware threads of one HTP core, and the figures derived from that
// schedule (dominant path, VTCM occupancy, per-execution timing).
//
// Contract: every file the generator writes is printed from a Model, and the
// ground truth is computed from the same Model, never by reading files back.
// Units: *_cycle(s) are absolute HTP cycles (the optrace "Start Cycle"
// counter); *_ticks are 19.2 MHz runtrace ticks; *_us are µs as the profile
// viewer prints them (whole numbers); *_bytes are bytes.
//
// Threads follow the real files: tid 256 is the HMX / sequencer thread (it
// also runs every DMA, DMA checkpoint and sync op, in program order); tids
// 512..515 are the HVX threads; tid 1 holds the non-executed tensors.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace htpscope::synth {

inline constexpr uint32_t kSequencerTid = 256;
inline constexpr uint32_t kFirstHvxTid = 512;
inline constexpr int kHvxThreads = 4;
inline constexpr uint32_t kTensorTid = 1;
inline constexpr double kTicksPerUs = 19.2;
// Largest model accepted.  The schedule is held in memory at about 1.2 KB per
// compute op (0.45 KB per slice), so 10 M ops need ~12 GB.
inline constexpr int64_t kMaxOps = 10000000;

struct SynthOptions {
  std::string graph_name = "synth";
  uint64_t seed = 1;
  int64_t ops = 50;              // model (compute) QNN ops, 1 .. kMaxOps
  double hmx_share = 0.4;        // share of compute ops run on HMX
  double tiled_share = 0.0;      // share of HVX compute ops tiled across HVX threads
  int tile_threads = 4;          // HVX threads a tiled op runs on, 2..4
  int branches = 1;              // independent chains of compute ops, 1..64
  int input_chunks = 4;          // Input DMA slices (raised to `branches` when lower)
  bool shared_constant = false;  // one deduplicated constant read by the first op of every branch
  bool spill_fill = false;       // an HVX stage, a Spill/Fill handoff, then an HMX stage
  bool system_service = false;   // a final SyncOp of a SystemService op the profile does not list
  bool split_tile_dpc = false;   // a tiled op's path share spreads over its slices, as in real
                                 // traces: the optrace's per-ID DPC (the primary slice's) is then
                                 // a lower bound of QHAS's per-slice sum
  int reshape_every = 5;         // a zero-cycle Reshape node before every n-th compute op; 0: none
  int executions = 3;            // graph executions in the profile text and runtrace, >= 1
};

// Throws std::invalid_argument when an option is out of range.
void ValidateOptions(const SynthOptions& options);

// The single element of an optrace event's "Flags" array.
enum class OpFlag : uint8_t { kDma, kDmaSet, kDmaWait, kUsesHmx, kUsesHvx, kSync };
const char* OpFlagName(OpFlag flag);

enum class QnnKind : uint8_t { kInput, kOutput, kCompute, kReshape, kSystemService };

// HTP op types the generator uses (index into HtpTypeInfo table).
enum class HtpType : uint8_t {
  kInputSlice,
  kDmaCheckpointSet,
  kForceFormatCrouton,
  kForceFormatFlat,
  kOutputSlice,
  kWeightsToVtcm,
  kBiasToVtcm,
  kConvLayer,
  kElementWiseAdd,
  kMul,
  kRelu,
  kLayerNorm,
  kSoftmax,
  kSyncOp,
  kSpill,
  kFill,
  kCount
};
struct HtpTypeInfo {
  const char* name;
  bool format_change;
};
const HtpTypeInfo& Info(HtpType type);

// QNN op types (index into the QnnTypeInfo table).
enum class QnnType : uint8_t {
  kInput,
  kOutput,
  kConv2d,
  kFullyConnected,
  kElementWiseAdd,
  kElementWiseMultiply,
  kRelu,
  kLayerNorm,
  kSoftmax,
  kReshape,
  kSystemService,
  kCount
};
struct QnnTypeInfo {
  const char* type;    // "QNN Op Type"
  const char* prefix;  // node names are <prefix>_<ordinal>
};
const QnnTypeInfo& Info(QnnType type);

// Tensor layouts: Dims, Data Type, quantisation, as printed in the optrace.
enum class Shape : uint8_t { kNone, kActivation, kActivation16, kWeights, kBias, kShapeVector };
struct ShapeInfo {
  std::array<int32_t, 4> dims;
  int rank;           // 0: no "Dims" key
  const char* dtype;  // "Data Type"
  int qnn_data_type;  // Qnn_DataType_t code in the HTP graph
  double step_size;
  int64_t zero_offset;
};
const ShapeInfo& Info(Shape shape);

struct QnnOp {
  uint32_t qnn_id = 0;   // OpId_<n>: the low 32 bits of its HTP op IDs
  uint32_t ordinal = 0;  // <prefix>_<ordinal>; SystemService: the sync op's instance number
  QnnType type = QnnType::kInput;
  QnnKind kind = QnnKind::kInput;
};

// One HTP op instance: one ID in the optrace, one or more slices.
struct HtpOp {
  uint64_t id = 0;
  uint32_t qnn = 0;  // index into Model::qnn_ops
  HtpType type = HtpType::kInputSlice;
  OpFlag flag = OpFlag::kDma;
  Shape shape = Shape::kNone;
  uint8_t slice_count = 1;
  bool in_graph = false;      // has a node in the HTP graph (chrometrace_htp.json)
  bool described = false;     // carries a "Description"
  uint32_t first_slice = 0;   // index into Model::slices; the primary slice comes first
  uint32_t inputs_begin = 0;  // into Model::inputs
  uint32_t inputs_count = 0;
  float cycles_per_packet = 0;
  int64_t output_bytes = 0;  // VTCM buffer it produces (0: none)
  int64_t alloc_cycle = 0;   // VTCM buffer lifetime [alloc, free)
  int64_t free_cycle = 0;
  int64_t dpc_cycles = 0;  // "Dominant Path Cycles" = the primary slice's path share
};

// One slice of an op on one hardware thread.  The primary slice of a
// multi-slice op starts first and ends last; its start and duration are the
// op-level "Start Cycle" and "Duration (cycles)".
struct Slice {
  int64_t start_cycle = 0;
  int64_t dur_cycles = 0;
  uint32_t op = 0;
  uint16_t tid = 0;
  bool primary = true;
  int64_t dp_cycles = 0;  // this slice's share of the dominant path
  uint32_t vtcm_read_bytes = 0, vtcm_write_bytes = 0, dram_read_bytes = 0, dram_write_bytes = 0;
  int64_t end_cycle() const { return start_cycle + dur_cycles; }
};

// An "Inputs Ops" entry: an op (index) or a non-executed tensor (index).
struct InputRef {
  uint32_t index = 0;
  bool tensor = false;
};

enum class TensorKind : uint8_t { kConst, kShape };

// A non-executed tensor ($Const / $Shape): an event on tid 1 placed just
// before its first consumer, and a static tensor of the HTP graph.
struct NonExecutedTensor {
  uint64_t id = 0;
  TensorKind kind = TensorKind::kConst;
  Shape shape = Shape::kNone;
  int64_t cycle = 0;            // absolute cycle of the tid-1 event (dur 5)
  uint32_t first_consumer = 0;  // op index
};

// A flow arrow between two threads.
struct Flow {
  int64_t from_cycle = 0, to_cycle = 0;
  uint16_t from_tid = 0, to_tid = 0;
  bool sequencer = false;  // "sequencer" category, else "input_output"
};

inline constexpr uint32_t kIdleSlice = 0xffffffffu;

// A dominant-path segment: [start, end) on one slice, or idle.
struct PathSegment {
  int64_t start_cycle = 0, end_cycle = 0;
  uint32_t slice = kIdleSlice;
};

struct VtcmSample {
  int64_t cycle = 0;
  int64_t bytes = 0;
};

// One runtrace phase.  Effective clock = cycles ÷ (ticks ÷ 19.2) ÷ 1000.
struct Phase {
  const char* name = "";
  int64_t start_ticks = 0, end_ticks = 0;
  int64_t start_cycles = 0, end_cycles = 0;
  int64_t ticks() const { return end_ticks - start_ticks; }
  int64_t cycles() const { return end_cycles - start_cycles; }
  // Same expression as the runtrace reader, so the double is bit-identical.
  double effective_ghz() const {
    return static_cast<double>(cycles()) / (static_cast<double>(ticks()) / kTicksPerUs) / 1000.0;
  }
};

// One graph execution as the runtrace and the profile text show it.
struct Execution {
  int index = 0;                // 1-based
  std::array<Phase, 4> phases;  // QNN DSP Execute, VTCM Acquire, Resource Power On, Graph Execute
  int64_t qnn_accelerator_us = 0;        // QNN accelerator (execute) time
  int64_t accelerator_us = 0;            // Accelerator (execute) time
  int64_t accelerator_excl_wait_us = 0;  // Accelerator (execute excluding wait) time
  int64_t rpc_us = 0;                    // RPC (execute) time
  int64_t qnn_execute_us = 0;            // QNN (execute) time
  int64_t accelerator_cycles = 0;        // Σ printed node cycles
  double warm_factor = 1;                // node-cycle scale of this execution (1 for the first)
};

// A branch pair that shares one deduplicated constant (ground truth).
struct SharedConstant {
  uint32_t tensor = 0;              // index into Model::tensors
  std::vector<uint32_t> consumers;  // op indices, one per branch
};

// The Spill/Fill handoff between the HVX stage and the HMX stage.
struct Handoff {
  bool present = false;
  int64_t hvx_stage_start_cycle = 0, hvx_stage_end_cycle = 0;
  int64_t hmx_stage_start_cycle = 0, hmx_stage_end_cycle = 0;
  std::vector<uint32_t> spills, fills;  // op indices
};

struct Model {
  SynthOptions options;
  std::vector<QnnOp> qnn_ops;
  std::vector<HtpOp> ops;     // in program (creation) order
  std::vector<Slice> slices;  // grouped by op, primary first
  std::vector<InputRef> inputs;
  std::vector<NonExecutedTensor> tensors;
  std::vector<Flow> flows;        // input_output flows between ops (tensor flows are implied)
  std::vector<PathSegment> path;  // time order; idle segments included
  std::vector<VtcmSample> vtcm;   // "VTCM alloc" samples, time order
  std::vector<int64_t> qnn_work_cycles;  // per QNN op: Σ slice durations
  std::vector<Execution> executions;
  std::vector<SharedConstant> shared_constants;
  Handoff handoff;

  int64_t start_cycle = 0, end_cycle = 0;  // span of the executed slices
  int64_t origin_cycle = 0;                // optrace ts 0
  int64_t idle_cycles = 0;                 // Σ idle path segments
  int64_t peak_vtcm_bytes = 0, peak_vtcm_cycle = 0;

  // Names as the files print them.
  std::string QnnName(uint32_t qnn) const;       // "Input", "conv_12", ...
  std::string ProcessName(uint32_t qnn) const;   // "QNN::conv_12", "QNN::SystemService_0"
  std::string ProfileLabel(uint32_t qnn) const;  // "Input OpId_2", "conv_12:OpId_19"
  const char* QnnTypeName(uint32_t qnn) const { return Info(qnn_ops[qnn].type).type; }
  const char* Description(const HtpOp& op) const;  // nullptr when none
  // The per-node "(cycles)" value printed for QNN op `qnn` in "Execute Stat
  // <execution>": execution 1 prints its work in the trace; a warm execution
  // scales it by the execution's warm_factor, ±10 % per node.  Requires
  // executions[0 .. execution-1] to exist.
  int64_t NodeCycles(uint32_t qnn, int execution) const;
  // QNN ops that get a per-node line in the profile text, in printed order.
  std::vector<uint32_t> ProfileNodes() const;
  int64_t span_cycles() const { return end_cycle - start_cycle; }
};

// Builds and schedules the graph, then derives the dominant path, VTCM
// occupancy and the executions.  Deterministic in `options`.
Model BuildModel(const SynthOptions& options);

// Length of the union of half-open intervals [first, second) (sorts them).
int64_t UnionCycles(std::vector<std::pair<int64_t, int64_t>>& intervals);

// The dominant path over `slices`: at every moment the running slice of the
// highest class (HMX > HVX > DMA > DMA checkpoint/wait > sync; then, when
// `primary_first`, the primary slice of a multi-slice op before its other
// slices; then the latest start) is on the path; moments with nothing running
// are idle.  Returns segments in time order and sets each slice's
// Slice::dp_cycles to its share.
std::vector<PathSegment> ComputeDominantPath(const std::vector<HtpOp>& ops,
                                             std::vector<Slice>& slices, bool primary_first = true);

}  // namespace htpscope::synth
