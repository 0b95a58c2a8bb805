#include "synth.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "sink.h"

namespace htpscope::synth {
namespace {

namespace fs = std::filesystem;

StatsTruth Stats(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  StatsTruth s;
  s.n = static_cast<int>(samples.size());
  s.min = samples.front();
  s.max = samples.back();
  const size_t n = samples.size();
  s.median = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2.0;
  return s;
}

}  // namespace

GroundTruth ComputeGroundTruth(const Model& m) {
  GroundTruth g;
  g.graph_name = m.options.graph_name;
  g.seed = m.options.seed;
  g.start_cycle = m.start_cycle;
  g.end_cycle = m.end_cycle;
  g.graph_wall_cycles = m.span_cycles();
  g.idle_cycles = m.idle_cycles;
  g.slices = m.slices.size();
  g.htp_op_instances = m.ops.size();
  g.non_executed_tensors = m.tensors.size();

  // Units: union of each thread's slices.
  std::map<uint32_t, std::vector<std::pair<int64_t, int64_t>>> intervals;
  std::map<uint32_t, UnitTruth> units;
  for (const auto& s : m.slices) {
    g.work_cycles += s.dur_cycles;
    intervals[s.tid].emplace_back(s.start_cycle, s.end_cycle());
    auto [it, inserted] = units.try_emplace(s.tid);
    UnitTruth& u = it->second;
    if (inserted) {
      u.tid = s.tid;
      u.kind = s.tid == kSequencerTid ? "HMX" : "HVX";
      u.start_cycle = s.start_cycle;
      u.end_cycle = s.end_cycle();
    }
    u.busy_cycles += s.dur_cycles;
    u.start_cycle = std::min(u.start_cycle, s.start_cycle);
    u.end_cycle = std::max(u.end_cycle, s.end_cycle());
    ++u.slices;
  }
  for (auto& [tid, u] : units) {
    u.cycles_used = UnionCycles(intervals[tid]);
    if (g.units.empty() || u.cycles_used > g.domain_cycles) {
      g.domain_cycles = u.cycles_used;
      g.domain_tid = tid;
    }
    g.units.push_back(u);
  }

  // QNN ops: DPC = every slice's share of the dominant path, work over slices.
  std::vector<OpTruth> by_qnn(m.qnn_ops.size());
  for (const auto& op : m.ops) {
    OpTruth& t = by_qnn[op.qnn];
    t.trace_dpc_cycles += op.dpc_cycles;
    t.instances += 1;
    t.multi_slice = t.multi_slice || op.slice_count > 1;
    if (op.slice_count > 1) ++g.multi_slice_ops;
    for (uint32_t k = 0; k < op.slice_count; ++k) {
      t.work_cycles += m.slices[op.first_slice + k].dur_cycles;
      t.dpc_cycles += m.slices[op.first_slice + k].dp_cycles;
      g.dpc_sum_cycles += m.slices[op.first_slice + k].dp_cycles;
    }
  }
  for (uint32_t q = 0; q < by_qnn.size(); ++q) {
    if (by_qnn[q].instances == 0) continue;
    by_qnn[q].name = m.QnnName(q);
    by_qnn[q].type = m.QnnTypeName(q);
    g.ops.push_back(std::move(by_qnn[q]));
  }
  std::sort(g.ops.begin(), g.ops.end(), [](const OpTruth& a, const OpTruth& b) {
    if (a.dpc_cycles != b.dpc_cycles) return a.dpc_cycles > b.dpc_cycles;
    if (a.work_cycles != b.work_cycles) return a.work_cycles > b.work_cycles;
    return a.name < b.name;
  });
  g.qnn_ops = g.ops.size();
  g.profile_nodes = m.ProfileNodes().size();

  // Executions and the clock the summary judges them by.
  for (const auto& x : m.executions)
    for (const auto& p : x.phases)
      g.plausible_clock_ghz = std::max(g.plausible_clock_ghz, p.effective_ghz());
  bool aggregate = false;
  for (const auto& x : m.executions) {
    ExecutionTruth e;
    e.index = x.index;
    e.qnn_accelerator_us = x.qnn_accelerator_us;
    e.accelerator_us = x.accelerator_us;
    e.accelerator_excluding_wait_us = x.accelerator_excl_wait_us;
    e.accelerator_cycles = x.accelerator_cycles;
    e.rpc_us = x.rpc_us;
    e.qnn_execute_us = x.qnn_execute_us;
    e.graph_execute_us = static_cast<double>(x.phases[3].ticks()) / kTicksPerUs;
    // µs are printed truncated: one µs of slack, as the summary allows.
    const double lowest_ghz = static_cast<double>(e.accelerator_cycles) /
                              (static_cast<double>(e.accelerator_us) + 1.0) / 1000.0;
    e.aggregate_cycles = lowest_ghz > g.plausible_clock_ghz;
    aggregate = aggregate || e.aggregate_cycles;
    g.executions.push_back(e);
  }
  if (g.executions.size() >= 2) {
    std::vector<double> warm;
    for (size_t i = 1; i < g.executions.size(); ++i)
      warm.push_back(static_cast<double>(g.executions[i].qnn_accelerator_us));
    g.steady_qnn_accelerator_us = Stats(warm);
  }
  g.peak_vtcm_bytes = m.peak_vtcm_bytes;
  g.peak_vtcm_cycle = m.peak_vtcm_cycle;

  g.expected_warnings.push_back("single_execution_trace");
  if (g.multi_slice_ops > 0) g.expected_warnings.push_back("multi_slice_dpc");
  if (aggregate) g.expected_warnings.push_back("aggregate_cycles");
  if (g.executions.size() == 1) g.expected_warnings.push_back("cold_only");
  std::sort(g.expected_warnings.begin(), g.expected_warnings.end());

  for (const auto& sc : m.shared_constants) {
    SharedConstantTruth t;
    t.tensor_id = HexId16(m.tensors[sc.tensor].id);
    for (uint32_t op : sc.consumers) {
      const Slice& s = m.slices[m.ops[op].first_slice];
      t.consumer_ids.push_back(HexId16(m.ops[op].id));
      t.consumer_qnn_ops.push_back(m.QnnName(m.ops[op].qnn));
      t.consumer_start_cycles.push_back(s.start_cycle);
      t.consumer_end_cycles.push_back(s.end_cycle());
    }
    g.shared_constants.push_back(std::move(t));
  }
  g.handoff = m.handoff;
  return g;
}

std::string GroundTruthJson(const GroundTruth& g, const Model& m, int top_ops) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["schema"] = "htpscope.synth.ground_truth/1";
  j["graph_name"] = g.graph_name;
  j["seed"] = g.seed;
  const SynthOptions& o = m.options;
  j["options"] = {{"ops", o.ops},
                  {"hmx_share", o.hmx_share},
                  {"tiled_share", o.tiled_share},
                  {"tile_threads", o.tile_threads},
                  {"branches", o.branches},
                  {"input_chunks", o.input_chunks},
                  {"shared_constant", o.shared_constant},
                  {"spill_fill", o.spill_fill},
                  {"system_service", o.system_service},
                  {"split_tile_dpc", o.split_tile_dpc},
                  {"reshape_every", o.reshape_every},
                  {"executions", o.executions}};
  j["files"] = g.files;
  j["traced_execution"] = g.traced_execution;
  j["graph_wall_cycles"] = g.graph_wall_cycles;
  j["start_cycle"] = g.start_cycle;
  j["end_cycle"] = g.end_cycle;
  j["work_cycles"] = g.work_cycles;
  j["domain_cycles"] = g.domain_cycles;
  j["domain_tid"] = g.domain_tid;
  j["dpc_sum_cycles"] = g.dpc_sum_cycles;
  j["idle_cycles"] = g.idle_cycles;
  j["units"] = ordered_json::array();
  for (const auto& u : g.units)
    j["units"].push_back({{"tid", u.tid},
                          {"kind", u.kind},
                          {"cycles_used", u.cycles_used},
                          {"busy_cycles", u.busy_cycles},
                          {"start_cycle", u.start_cycle},
                          {"end_cycle", u.end_cycle},
                          {"slices", u.slices}});
  j["ops"] = ordered_json::array();
  for (size_t i = 0; i < g.ops.size() && static_cast<int>(i) < top_ops; ++i) {
    const OpTruth& op = g.ops[i];
    j["ops"].push_back({{"name", op.name},
                        {"type", op.type},
                        {"dpc_cycles", op.dpc_cycles},
                        {"trace_dpc_cycles", op.trace_dpc_cycles},
                        {"work_cycles", op.work_cycles},
                        {"instances", op.instances},
                        {"multi_slice", op.multi_slice}});
  }
  j["executions"] = ordered_json::array();
  for (const auto& e : g.executions)
    j["executions"].push_back({{"index", e.index},
                               {"cold", e.index == 1},
                               {"qnn_accelerator_us", e.qnn_accelerator_us},
                               {"accelerator_us", e.accelerator_us},
                               {"accelerator_excluding_wait_us", e.accelerator_excluding_wait_us},
                               {"accelerator_cycles", e.accelerator_cycles},
                               {"rpc_us", e.rpc_us},
                               {"qnn_execute_us", e.qnn_execute_us},
                               {"graph_execute_us", e.graph_execute_us},
                               {"aggregate_cycles", e.aggregate_cycles}});
  if (g.steady_qnn_accelerator_us) {
    const StatsTruth& s = *g.steady_qnn_accelerator_us;
    j["steady_state"] = {
        {"first_index", 2},
        {"qnn_accelerator_us", {{"median", s.median}, {"min", s.min}, {"max", s.max}, {"n", s.n}}}};
  } else {
    j["steady_state"] = nullptr;
  }
  j["plausible_clock_ghz"] = g.plausible_clock_ghz;
  j["peak_vtcm_bytes"] = g.peak_vtcm_bytes;
  j["peak_vtcm_cycle"] = g.peak_vtcm_cycle;
  j["counts"] = {{"qnn_ops", g.qnn_ops},
                 {"profile_nodes", g.profile_nodes},
                 {"htp_op_instances", g.htp_op_instances},
                 {"slices", g.slices},
                 {"multi_slice_ops", g.multi_slice_ops},
                 {"htp_graph_nodes", g.htp_graph_nodes},
                 {"non_executed_tensors", g.non_executed_tensors},
                 {"trace_events", g.trace.events},
                 {"trace_executed_events", g.trace.executed_events},
                 {"trace_duplicate_events", g.trace.duplicate_events},
                 {"trace_flow_events", g.trace.flow_events},
                 {"trace_counter_events", g.trace.counter_events},
                 {"trace_metadata_events", g.trace.metadata_events},
                 {"trace_processes", g.trace.processes}};
  j["expected_warnings"] = g.expected_warnings;
  j["expected_disagreeing_checks"] = g.expected_disagreeing_checks;
  j["shared_constants"] = ordered_json::array();
  for (const auto& sc : g.shared_constants)
    j["shared_constants"].push_back({{"tensor_id", sc.tensor_id},
                                     {"consumer_ids", sc.consumer_ids},
                                     {"consumer_qnn_ops", sc.consumer_qnn_ops},
                                     {"consumer_start_cycles", sc.consumer_start_cycles},
                                     {"consumer_end_cycles", sc.consumer_end_cycles}});
  if (g.handoff.present) {
    const Handoff& h = g.handoff;
    ordered_json spills = ordered_json::array(), fills = ordered_json::array();
    for (uint32_t op : h.spills) {
      const Slice& s = m.slices[m.ops[op].first_slice];
      spills.push_back({{"id", HexId16(m.ops[op].id)},
                        {"start_cycle", s.start_cycle},
                        {"cycles", s.dur_cycles}});
    }
    for (uint32_t op : h.fills) {
      const Slice& s = m.slices[m.ops[op].first_slice];
      fills.push_back({{"id", HexId16(m.ops[op].id)},
                       {"start_cycle", s.start_cycle},
                       {"cycles", s.dur_cycles}});
    }
    j["spill_fill"] = {{"hvx_stage_start_cycle", h.hvx_stage_start_cycle},
                       {"hvx_stage_end_cycle", h.hvx_stage_end_cycle},
                       {"hmx_stage_start_cycle", h.hmx_stage_start_cycle},
                       {"hmx_stage_end_cycle", h.hmx_stage_end_cycle},
                       {"handoff_gap_cycles", h.hmx_stage_start_cycle - h.hvx_stage_end_cycle},
                       {"stage_overlap_cycles", 0},
                       {"spills", spills},
                       {"fills", fills}};
  } else {
    j["spill_fill"] = nullptr;
  }
  return j.dump(2) + "\n";
}

GroundTruth GenerateRun(const SynthOptions& options, const OutputOptions& output) {
  const Model model = BuildModel(options);
  GroundTruth truth = ComputeGroundTruth(model);
  std::error_code ec;
  fs::create_directories(output.dir, ec);
  if (ec)
    throw std::runtime_error(
        fmt::format("{}: cannot create directory: {}", output.dir, ec.message()));
  // Whether `name` is written; `line_depth` is its JSON layout's (0: text).
  auto wanted = [&](const char* name) {
    return output.only.empty() ||
           std::find(output.only.begin(), output.only.end(), name) != output.only.end();
  };
  auto open = [&](const char* name, int line_depth) {
    std::string file = std::string(name) + (output.gzip ? ".gz" : "");
    truth.files.push_back(file);
    std::optional<JsonRelayout> layout;
    if (line_depth > 0 && output.layout != JsonLayout::kWriter)
      layout.emplace(output.layout, line_depth);
    return std::make_unique<OutputFile>((fs::path(output.dir) / file).string(), output.gzip,
                                        layout);
  };
  // The containers whose elements a one-element-a-line layout breaks: the
  // optrace's and runtrace's traceEvents (depth 2), the HTP graph's nodes
  // and tensors (3), the QHAS rows (4).
  if (wanted("chrometrace.json")) {
    auto out = open("chrometrace.json", 2);
    truth.trace = WriteOptrace(model, *out);
    out->Close();
  }
  if (wanted("chrometrace_htp.json")) {
    auto out = open("chrometrace_htp.json", 3);
    truth.htp_graph_nodes = WriteHtpGraph(model, *out);
    out->Close();
  }
  if (wanted("chrometrace_qnn_htp_analysis_summary.json")) {
    auto out = open("chrometrace_qnn_htp_analysis_summary.json", 4);
    WriteQhas(model, *out);
    out->Close();
  }
  if (wanted("chrometrace_runtrace.json")) {
    auto out = open("chrometrace_runtrace.json", 2);
    WriteRuntrace(model, *out);
    out->Close();
  }
  if (wanted("profile_text.txt")) {
    auto out = open("profile_text.txt", 0);
    WriteProfileText(model, *out);
    out->Close();
  }
  OutputFile json((fs::path(output.dir) / "ground_truth.json").string(), false);
  json.Write(GroundTruthJson(truth, model, output.top_ops));
  json.Close();
  return truth;
}

}  // namespace htpscope::synth
