// Memory view of one traced execution: VTCM allocation over time, DRAM and
// VTCM traffic per op, Spill/Fill (primer §3, formats.md §1.6, §2, §3).
//
// Sources and what each figure means:
//  * optrace counters ("VTCM alloc", "VTCM read/write", "DRAM read/write"):
//    "VTCM alloc" is the running VTCM allocation in bytes; its maximum is the
//    peak VTCM allocation.  The read/write counters are the summed byte
//    counts of the ops active at that cycle — bytes, not bandwidth — so their
//    maxima are the traffic of the busiest concurrent set of ops.
//  * per-op bytes: QHAS htp_op_instances (every executed instance), else the
//    HTP graph's mem_dram_read / mem_dram_write / mem_vtcm_read /
//    mem_vtcm_write scalar params (compiled nodes only: DMA checkpoints, sync
//    and output slices have no node, so totals from it are partial).
//  * Spill/Fill: HTP op types containing "Spill" or "Fill" (compiler-inserted
//    VTCM<->DRAM round trips).
// All *_bytes are bytes; *_cycle is an absolute HTP cycle counter value;
// *_offset_cycles is cycles since the first op of the traced execution.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/run.h"

namespace htpscope {

// QNN ops covering at least this share of all DRAM bytes, biggest first, are
// the ones whose DRAM traffic dominates.
inline constexpr double kDramDominantCoverPct = 80.0;

struct TrafficBytes {
  int64_t dram_read = 0, dram_write = 0, vtcm_read = 0, vtcm_write = 0;
  int64_t dram() const { return dram_read + dram_write; }
  int64_t vtcm() const { return vtcm_read + vtcm_write; }
  // VTCM hit ratio of reads, in percent: vtcm_read ÷ (vtcm_read + dram_read)
  // × 100, the share of bytes read that VTCM served; nullopt with no reads.
  std::optional<double> vtcm_read_hit_pct() const;
  void Add(const TrafficBytes& other);
};

// One executed HTP op instance (QHAS) or compiled node (HTP graph).
struct OpTraffic {
  uint64_t op_id = 0;
  std::string htp_op_type, qnn_op_name, qnn_op_type;
  OpCategory category = OpCategory::kCompute;
  TrafficBytes bytes;
  std::optional<int64_t> cycles;  // QHAS cycles / the node's cycles_duration
};

struct QnnOpTraffic {
  StringId name = StringPool::kEmpty, type = StringPool::kEmpty;  // ids of the run's strings
  int64_t instances = 0;
  TrafficBytes bytes;
  std::optional<double> dram_share_pct;  // of all DRAM bytes (read + write)
  bool dram_dominant = false;            // in the set covering kDramDominantCoverPct
};

// The traced execution's bytes per QNN op, from run.traffic (QHAS
// htp_op_instances, else the HTP graph's mem_* params).
struct QnnOpTrafficTable {
  std::string source;             // "QHAS htp_op_instances" or "HTP graph mem_* params"
  TrafficBytes totals;            // Σ over every op row
  std::vector<QnnOpTraffic> ops;  // DRAM bytes descending, then VTCM bytes, then name
};

// nullopt when the run has no per-op traffic.  Never throws.
std::optional<QnnOpTrafficTable> TrafficByQnnOp(const Run& run);

// The maximum of one counter track.
struct CounterPeak {
  std::string counter;  // "VTCM alloc", "DRAM read", ...
  int64_t peak_bytes = 0;
  int64_t peak_cycle = 0;  // first sample reaching the peak
  std::optional<int64_t> peak_offset_cycles;
  size_t samples = 0;
};

struct SpillFillTotals {
  int64_t instances = 0;
  std::vector<std::string> htp_op_types;  // distinct, sorted
  std::optional<int64_t> work_cycles;     // Σ slice durations (optrace)
  std::optional<int64_t> dpc_cycles;      // Σ Dominant Path Cycles (optrace)
  std::optional<TrafficBytes> bytes;      // from the per-op source
  std::string source;                     // where the instances were counted
};

struct MemoryView {
  const Run* run = nullptr;  // its label, artifacts and cross-checks (topic "memory")
  // Peak VTCM allocation: the "VTCM alloc" counter, else QHAS peak_vtcm_alloc.
  std::optional<CounterPeak> peak_vtcm;
  std::string peak_vtcm_source;
  std::vector<std::string> active_at_peak;    // "bbb_indep0: HmxMatMul... (tid 256)"
  std::vector<CounterPeak> traffic_counters;  // VTCM read/write, DRAM read/write maxima
  std::string traffic_source;          // "QHAS htp_op_instances", "HTP graph mem_* params" or ""
  std::optional<TrafficBytes> totals;  // Σ over `ops`
  std::vector<OpTraffic> ops;          // DRAM bytes descending, then VTCM bytes
  std::vector<QnnOpTraffic> qnn_ops;   // the same per QNN op
  std::optional<SpillFillTotals> spill_fill;  // absent when no source lists ops
  // The run's missing rows (Run::missing, model/missing_rows.h) of the
  // artifacts this view reads: the optrace and the QHAS summary.
  std::vector<MissingRow> missing;
  std::vector<std::string> notes;
};

// Everything the run's artifacts support; what they cannot give is listed in
// `missing` and `notes`.  Never throws.
MemoryView AnalyzeMemory(const Run& run);

// True for HTP op types the compiler inserts for VTCM<->DRAM round trips.
bool IsSpillFillOp(std::string_view htp_op_type);

}  // namespace htpscope
