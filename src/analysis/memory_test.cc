#include "analysis/memory.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <optional>

#include "base/corpus_test_util.h"

namespace htpscope::memory_test {
namespace {

using testing_support::CorpusFile;
using testing_support::CorpusRun;

// The memory view's cross-checks: the run's on topic "memory".
std::vector<CrossCheckRow> MemoryChecks(const MemoryView& m) {
  std::vector<CrossCheckRow> out;
  for (const auto& c : m.run->cross_checks)
    if (c.topic == "memory") out.push_back(c);
  return out;
}

std::optional<CrossCheckRow> FindCheck(const MemoryView& m, const std::string& name) {
  for (const auto& c : MemoryChecks(m))
    if (c.name == name) return c;
  return std::nullopt;
}

const CounterPeak* FindCounter(const MemoryView& m, const std::string& name) {
  for (const auto& c : m.traffic_counters)
    if (c.counter == name) return &c;
  return nullptr;
}

// Expected figures computed with a short python script over the corpus JSON:
// max of each counter, first ts reaching it, + the trace origin; per-QNN-op
// sums of QHAS htp_op_instances.
TEST(MemoryCorpus, V8c8PeakTrafficAndCrossChecks) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({CorpusRun("v8c8_256")});
  MemoryView m = AnalyzeMemory(run);
  ASSERT_TRUE(m.peak_vtcm);
  EXPECT_EQ(m.peak_vtcm_source, "optrace \"VTCM alloc\" counter");
  EXPECT_EQ(m.peak_vtcm->peak_bytes, 919552);
  EXPECT_EQ(m.peak_vtcm->peak_cycle, 1668827901191);  // ts 38369 + origin 1668827862822
  EXPECT_EQ(m.peak_vtcm->peak_offset_cycles, 38323);  // first op starts at 1668827862868
  EXPECT_EQ(m.peak_vtcm->samples, 50u);
  // At the peak: bbb_indep0 on HMX and four ForceFormat slices of Input on HVX.
  EXPECT_EQ(m.active_at_peak.size(), 5u);
  EXPECT_NE(std::find(m.active_at_peak.begin(), m.active_at_peak.end(),
                      "bbb_indep0: HmxMatMulPhase3Package::BbbKMajor (tid 256)"),
            m.active_at_peak.end());

  const CounterPeak* vtcm_read = FindCounter(m, "VTCM read");
  ASSERT_NE(vtcm_read, nullptr);
  EXPECT_EQ(vtcm_read->peak_bytes, 395264);
  EXPECT_EQ(vtcm_read->peak_offset_cycles, 38323);
  const CounterPeak* dram_write = FindCounter(m, "DRAM write");
  ASSERT_NE(dram_write, nullptr);
  EXPECT_EQ(dram_write->peak_bytes, 65536);
  EXPECT_EQ(dram_write->peak_cycle, 1668827989092);
  EXPECT_EQ(dram_write->peak_offset_cycles, 126224);

  EXPECT_EQ(m.traffic_source, "QHAS htp_op_instances");
  ASSERT_TRUE(m.totals);
  EXPECT_EQ(m.totals->dram_read, 591872);
  EXPECT_EQ(m.totals->dram_write, 524288);
  EXPECT_EQ(m.totals->vtcm_read, 2113536);
  EXPECT_EQ(m.totals->vtcm_write, 1640448);
  EXPECT_EQ(m.ops.size(), 53u);
  ASSERT_GE(m.qnn_ops.size(), 4u);
  EXPECT_EQ(run.Str(m.qnn_ops[0].name), "Input");  // 524288 DRAM read, ties Output: VTCM decides
  EXPECT_EQ(m.qnn_ops[0].instances, 32);
  EXPECT_EQ(m.qnn_ops[0].bytes.vtcm_write, 1048576);
  EXPECT_NEAR(*m.qnn_ops[0].dram_share_pct, 46.9725, 1e-4);  // 524288 / 1116160
  EXPECT_EQ(run.Str(m.qnn_ops[1].name), "Output");
  EXPECT_EQ(m.qnn_ops[1].bytes.dram_write, 524288);
  EXPECT_EQ(run.Str(m.qnn_ops[2].name), "$Const_11");
  EXPECT_EQ(run.Str(m.qnn_ops[3].name), "$Const_12");
  // Input and Output carry 93.9 % of DRAM bytes: they dominate, the weights do not.
  EXPECT_TRUE(m.qnn_ops[0].dram_dominant);
  EXPECT_TRUE(m.qnn_ops[1].dram_dominant);
  EXPECT_FALSE(m.qnn_ops[2].dram_dominant);

  ASSERT_TRUE(m.spill_fill);
  EXPECT_EQ(m.spill_fill->instances, 0);
  EXPECT_EQ(m.spill_fill->work_cycles, 0);

  // The issue's acceptance check: peak VTCM from counters == QHAS peak_vtcm_alloc.
  std::optional<CrossCheckRow> peak = FindCheck(m, "peak VTCM allocation");
  ASSERT_TRUE(peak);
  EXPECT_TRUE(peak->agree);
  EXPECT_EQ(peak->b, 919552);
  std::optional<CrossCheckRow> nodes = FindCheck(m, "per-op traffic of HTP graph nodes");
  ASSERT_TRUE(nodes);
  EXPECT_EQ(nodes->a, 26);  // all 26 nodes have mem_* equal to QHAS
  EXPECT_EQ(nodes->b, 26);
  for (const auto& c : MemoryChecks(m)) EXPECT_TRUE(c.agree) << c.name;
  EXPECT_EQ(MemoryChecks(m).size(), 6u);
  EXPECT_TRUE(m.missing.empty());
}

TEST(MemoryCorpus, PeakFromCountersEqualsQhasInEveryRun) {
  struct Case {
    const char* name;
    int64_t peak_bytes;
    int64_t peak_offset_cycles;
  };
  for (const Case& r :
       {Case{"v8c8_256", 919552, 38323}, Case{"native_256", 1126400, 44349},
        Case{"gdn_hvx_int16", 3145728, 748881}, Case{"chain8_archive", 671744, 15933}}) {
    if (!std::filesystem::exists(CorpusRun(r.name))) continue;
    htpscope::Run run = LoadRun({CorpusRun(r.name)});
    MemoryView m = AnalyzeMemory(run);
    ASSERT_TRUE(m.peak_vtcm) << r.name;
    EXPECT_EQ(m.peak_vtcm->peak_bytes, r.peak_bytes) << r.name;
    EXPECT_EQ(m.peak_vtcm->peak_offset_cycles, r.peak_offset_cycles) << r.name;
    std::optional<CrossCheckRow> peak = FindCheck(m, "peak VTCM allocation");
    ASSERT_TRUE(peak) << r.name;
    EXPECT_TRUE(peak->agree) << r.name;
    for (const auto& c : MemoryChecks(m)) EXPECT_TRUE(c.agree) << r.name << ": " << c.name;
  }
}

TEST(MemoryCorpus, Native256ReshapeNodesHaveNoTraffic) {
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  htpscope::Run run = LoadRun({CorpusRun("native_256")});
  MemoryView m = AnalyzeMemory(run);
  // 64 graph nodes; the 16 q::Reshape nodes never execute and carry no mem_*
  // params, the other 48 agree with QHAS field by field.
  std::optional<CrossCheckRow> nodes = FindCheck(m, "per-op traffic of HTP graph nodes");
  ASSERT_TRUE(nodes);
  EXPECT_EQ(nodes->a, 48);
  EXPECT_EQ(nodes->b, 48);
  EXPECT_EQ(m.ops.size(), 99u);  // QHAS instances, the per-op source
  ASSERT_TRUE(m.totals);
  EXPECT_EQ(m.totals->dram_read, 1064960);
  EXPECT_EQ(m.totals->dram_write, 524288);
}

TEST(MemoryCorpus, SameVtcmPeakAsSummary) {
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  htpscope::Run run = LoadRun({CorpusRun("native_256")});
  MemoryView m = AnalyzeMemory(run);
  ASSERT_TRUE(m.peak_vtcm);
  EXPECT_EQ(run.figures.peak_vtcm_bytes, m.peak_vtcm->peak_bytes);
  EXPECT_EQ(run.figures.peak_vtcm_cycle, m.peak_vtcm->peak_cycle);
}

TEST(MemoryCorpus, HtpGraphOnlyGivesPartialTraffic) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({CorpusFile("v8c8_256", "chrometrace_htp.json")});
  MemoryView m = AnalyzeMemory(run);
  EXPECT_FALSE(m.peak_vtcm);
  EXPECT_EQ(m.traffic_source, "HTP graph mem_* params");
  ASSERT_TRUE(m.totals);
  // Σ mem_* over the 26 nodes: no DRAM writes (output slices have no node).
  EXPECT_EQ(m.totals->dram_read, 591872);
  EXPECT_EQ(m.totals->dram_write, 0);
  EXPECT_EQ(m.totals->vtcm_read, 1589248);
  EXPECT_EQ(m.totals->vtcm_write, 1640448);
  EXPECT_EQ(m.ops.size(), 26u);
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("totals are partial"), std::string::npos) << m.notes[0];
  // Optrace and QHAS, as the run's missing list words them (it also lists
  // the profile and the runtrace, which the memory view does not read).
  ASSERT_EQ(m.missing.size(), 2u);
  EXPECT_EQ(m.missing[0].artifact, "optrace (chrometrace.json, OP_TRACE)");
  EXPECT_EQ(m.missing[0].withholds,
            "graph wall cycles, per-op DPC, per-unit occupancy; VTCM allocation over time and its "
            "peak, Spill/Fill cycles");
  EXPECT_EQ(m.missing[1].artifact, "QHAS summary (*_qnn_htp_analysis_summary.json)");
  EXPECT_EQ(m.missing[1].withholds,
            "cross-checks against the viewer's analysis; traffic of ops without an HTP graph node "
            "(DMA checkpoints, sync, output slices)");
  EXPECT_GT(run.missing.size(), m.missing.size());
  ASSERT_TRUE(m.spill_fill);
  EXPECT_EQ(m.spill_fill->source, "HTP graph mem_* params");
  EXPECT_FALSE(m.spill_fill->work_cycles);  // no optrace: no cycles
}

// A constructed run with a Spill/Fill pair (the corpus has none): the HVX op
// conv_b starts while conv_a spills to DRAM and reads it back.
constexpr char kSpillTrace[] = R"json({"header": {"header_version": {"major":1,"minor":0,"patch":0},
 "version": {"major":1,"minor":1,"patch":0}, "artifact_type": "OP_TRACE"},
 "traceEvents": [
 {"name": "q::*InputSlice", "ph": "X", "tid": 256, "pid": 0, "ts": 0, "dur": 100, "args": {
   "ID": "0x0000100000000002", "HTP Op Type": "q::*InputSlice", "Flags": ["dma"],
   "QNN Op Type": "Input", "QNN Op Name": "Input", "Start Cycle": 1000,
   "Duration (cycles)": 100, "Dominant Path Cycles": 100}},
 {"name": "q::@Spill", "ph": "X", "tid": 256, "pid": 0, "ts": 100, "dur": 50, "args": {
   "ID": "0x0000100100000005", "HTP Op Type": "q::@Spill", "Flags": ["dma"],
   "QNN Op Type": "Conv2d", "QNN Op Name": "conv_a", "Start Cycle": 1100,
   "Duration (cycles)": 50, "Dominant Path Cycles": 50}},
 {"name": "q::@Fill", "ph": "X", "tid": 256, "pid": 0, "ts": 200, "dur": 70, "args": {
   "ID": "0x0000100200000005", "HTP Op Type": "q::@Fill", "Flags": ["dma"],
   "QNN Op Type": "Conv2d", "QNN Op Name": "conv_a", "Start Cycle": 1200,
   "Duration (cycles)": 70, "Dominant Path Cycles": 40}},
 {"name": "q::Conv2d", "ph": "X", "tid": 512, "pid": 0, "ts": 120, "dur": 200, "args": {
   "ID": "0x0000100300000006", "HTP Op Type": "q::Conv2d", "Flags": ["uses_hvx"],
   "QNN Op Type": "Conv2d", "QNN Op Name": "conv_b", "Start Cycle": 1120,
   "Duration (cycles)": 200, "Dominant Path Cycles": 10}},
 {"name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":0, "args": {"": 4096}},
 {"name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":100, "args": {"": 12288}},
 {"name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":150, "args": {"": 8192}},
 {"name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":200, "args": {"": 12288}},
 {"name": "VTCM alloc", "ph": "C", "tid":0, "pid":0, "ts":320, "args": {"": 0}},
 {"name": "DRAM write", "ph": "C", "tid":0, "pid":0, "ts":100, "args": {"": 8192}},
 {"name": "DRAM write", "ph": "C", "tid":0, "pid":0, "ts":150, "args": {"": 0}}
 ]})json";

std::string QhasRow(const char* id, const char* htp_op, const char* qnn_op, int cycles,
                    int dram_read, int dram_write, int vtcm_read, int vtcm_write, bool dma) {
  return fmt::format(
      R"({{"htp": 0, "tid": 256, "op_id": "{}", "htp_op": "{}", "qnn_op": "{}",
        "qnn_op_type": "{}", "cycles": {}, "dma": {}, "hvx": {},
        "dram_read": {}, "dram_write": {}, "vtcm_read": {}, "vtcm_write": {}}})",
      id, htp_op, qnn_op, std::string_view(qnn_op) == "Input" ? "Input" : "Conv2d", cycles, dma,
      !dma, dram_read, dram_write, vtcm_read, vtcm_write);
}

std::string SpillQhas() {
  return fmt::format(
      R"({{"header": {{"artifact_type": "QHAS"}}, "model_id": "spill", "data": {{
 "htp_overall_summary": {{"data": [{{"htp": 0, "timeline_cycles": 320, "peak_vtcm_alloc": 12288,
   "total_dram_read": 12288, "total_dram_write": 8192, "total_vtcm_read": 24576,
   "total_vtcm_write": 16384}}]}},
 "qnn_op_types": {{"data": []}}, "qnn_op_instances_nodes": {{"data": []}},
 "htp_op_types": {{"data": []}},
 "htp_op_instances": {{"data": [{}, {}, {}, {}]}},
 "dominant_path_htp_0": {{"data": []}}}}}})",
      QhasRow("0x100000000002", "q::*InputSlice", "Input", 100, 4096, 0, 0, 4096, true),
      QhasRow("0x100100000005", "q::@Spill", "conv_a", 50, 0, 8192, 8192, 0, true),
      QhasRow("0x100200000005", "q::@Fill", "conv_a", 70, 8192, 0, 0, 8192, true),
      QhasRow("0x100300000006", "q::Conv2d", "conv_b", 200, 0, 0, 16384, 4096, false));
}

TEST(Memory, ConstructedSpillFill) {
  std::string dir = testing_support::TempDir("memory_spill");
  std::ofstream(dir + "/chrometrace.json") << kSpillTrace;
  std::ofstream(dir + "/summary.json") << SpillQhas();
  htpscope::Run run = LoadRun({dir});
  MemoryView m = AnalyzeMemory(run);
  ASSERT_TRUE(m.peak_vtcm);
  EXPECT_EQ(m.peak_vtcm->peak_bytes, 12288);
  EXPECT_EQ(m.peak_vtcm->peak_cycle, 1100);  // the first of the two samples at the peak
  EXPECT_EQ(m.peak_vtcm->peak_offset_cycles, 100);
  // [start, end): the InputSlice ended at 1100, conv_b starts at 1120.
  EXPECT_EQ(m.active_at_peak, (std::vector<std::string>{"conv_a: q::@Spill (tid 256)"}));
  const CounterPeak* dram_write = FindCounter(m, "DRAM write");
  ASSERT_NE(dram_write, nullptr);
  EXPECT_EQ(dram_write->peak_bytes, 8192);

  ASSERT_TRUE(m.spill_fill);
  const SpillFillTotals& sf = *m.spill_fill;
  EXPECT_EQ(sf.instances, 2);
  EXPECT_EQ(sf.htp_op_types, (std::vector<std::string>{"q::@Fill", "q::@Spill"}));
  EXPECT_EQ(sf.work_cycles, 120);  // 50 + 70
  EXPECT_EQ(sf.dpc_cycles, 90);    // 50 + 40
  ASSERT_TRUE(sf.bytes);
  EXPECT_EQ(sf.bytes->dram_read, 8192);
  EXPECT_EQ(sf.bytes->dram_write, 8192);
  EXPECT_EQ(sf.bytes->vtcm_read, 8192);
  EXPECT_EQ(sf.bytes->vtcm_write, 8192);

  // conv_a's round trip is 16384 of the 20480 DRAM bytes: 80 %, alone dominant.
  ASSERT_EQ(m.qnn_ops.size(), 3u);
  EXPECT_EQ(run.Str(m.qnn_ops[0].name), "conv_a");
  EXPECT_DOUBLE_EQ(*m.qnn_ops[0].dram_share_pct, 80.0);
  EXPECT_TRUE(m.qnn_ops[0].dram_dominant);
  EXPECT_FALSE(m.qnn_ops[1].dram_dominant);
  EXPECT_EQ(m.ops[0].htp_op_type, "q::@Spill");  // 8192 DRAM bytes like Fill: lower id first
  EXPECT_EQ(m.ops[0].category, OpCategory::kBoundary);
  for (const auto& c : MemoryChecks(m)) EXPECT_TRUE(c.agree) << c.name;
  EXPECT_EQ(MemoryChecks(m).size(), 5u);  // peak + four totals
}

TEST(Memory, OptraceOnlyAndQhasOnly) {
  std::string dir = testing_support::TempDir("memory_partial");
  std::ofstream(dir + "/chrometrace.json") << kSpillTrace;
  std::ofstream(dir + "/qhas.json") << SpillQhas();

  htpscope::Run trace_run = LoadRun({dir + "/chrometrace.json"});
  MemoryView trace_only = AnalyzeMemory(trace_run);
  ASSERT_TRUE(trace_only.spill_fill);
  EXPECT_EQ(trace_only.spill_fill->source, "optrace");
  EXPECT_EQ(trace_only.spill_fill->instances, 2);
  EXPECT_FALSE(trace_only.spill_fill->bytes);  // bytes need QHAS or the HTP graph
  EXPECT_FALSE(trace_only.totals);
  ASSERT_EQ(trace_only.missing.size(), 1u);
  EXPECT_EQ(trace_only.missing[0].artifact, "QHAS summary (*_qnn_htp_analysis_summary.json)");
  EXPECT_EQ(trace_only.missing[0].withholds,
            "cross-checks against the viewer's analysis; per-op DRAM/VTCM bytes (also in the HTP "
            "graph's mem_* params)");

  htpscope::Run qhas_run = LoadRun({dir + "/qhas.json"});
  MemoryView qhas_only = AnalyzeMemory(qhas_run);
  ASSERT_TRUE(qhas_only.peak_vtcm);
  EXPECT_EQ(qhas_only.peak_vtcm->peak_bytes, 12288);
  EXPECT_EQ(qhas_only.peak_vtcm->samples, 0u);  // no counter: no cycle
  EXPECT_FALSE(qhas_only.peak_vtcm->peak_offset_cycles);
  EXPECT_EQ(qhas_only.spill_fill->instances, 2);
  EXPECT_FALSE(qhas_only.spill_fill->work_cycles);
  ASSERT_EQ(qhas_only.missing.size(), 1u);
  EXPECT_EQ(qhas_only.missing[0].artifact, "optrace (chrometrace.json, OP_TRACE)");
  EXPECT_EQ(qhas_only.missing[0].withholds,
            "per-slice timeline; fine view taken from QHAS instead; VTCM allocation over time and "
            "its peak, Spill/Fill cycles");
  // Each row is the run's own, word for word.
  for (const auto* pair : {&trace_only, &qhas_only}) {
    const htpscope::Run& run = pair == &trace_only ? trace_run : qhas_run;
    for (const MissingRow& row : pair->missing) {
      bool in_run = false;
      for (const MissingRow& r : run.missing)
        in_run = in_run || (r.artifact == row.artifact && r.withholds == row.withholds);
      EXPECT_TRUE(in_run) << row.artifact;
    }
  }
}

TEST(Memory, SpillFillOpTypes) {
  EXPECT_TRUE(IsSpillFillOp("q::@Spill"));
  EXPECT_TRUE(IsSpillFillOp("q::@Fill"));
  EXPECT_FALSE(IsSpillFillOp("q::ForceFormat_Crouton"));
  EXPECT_FALSE(IsSpillFillOp("q::spill"));  // case-sensitive, as the HTP op types are written
}

}  // namespace
}  // namespace htpscope::memory_test

namespace htpscope::memory_test {
namespace {

TEST(TrafficBytes, VtcmReadHitIsTheShareOfReadBytesVtcmServed) {
  TrafficBytes b;
  EXPECT_FALSE(b.vtcm_read_hit_pct());  // nothing read
  b.dram_read = 300;
  b.vtcm_read = 900;
  b.dram_write = 5000;  // writes do not count
  EXPECT_DOUBLE_EQ(b.vtcm_read_hit_pct().value_or(-1), 75.0);
  b.vtcm_read = 0;
  EXPECT_DOUBLE_EQ(b.vtcm_read_hit_pct().value_or(-1), 0.0);
}

}  // namespace
}  // namespace htpscope::memory_test
