#include "analysis/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace htpscope {
namespace {

std::optional<double> MicrosecondsMetric(const ProfileBlock& block, std::string_view name,
                                         std::vector<Finding>* warnings) {
  const ProfileMetric* m = block.Find(name);
  if (!m || !m->has_value) return std::nullopt;
  if (m->unit != "us") {
    warnings->push_back(
        {"unexpected_unit", fmt::format("{}: \"{}\" is in \"{}\", expected \"us\"; not used",
                                        block.title, name, m->unit)});
    return std::nullopt;
  }
  return m->value;
}

std::optional<int64_t> CyclesMetric(const ProfileBlock& block, std::string_view name) {
  const ProfileMetric* m = block.Find(name);
  if (!m || !m->has_value || m->unit != "cycles") return std::nullopt;
  return static_cast<int64_t>(std::llround(m->value));
}

ClockSanity ChooseClock(const ProfiledRun& run, const SummaryOptions& options) {
  if (options.clock_ghz) return {*options.clock_ghz, "option"};
  double best = 0;
  if (run.runtrace)
    for (const auto& e : run.runtrace->executions)
      for (const auto& p : e.phases) best = std::max(best, p.effective_ghz());
  if (best > 0) return {best, "runtrace"};
  return {kDefaultClockCeilingGhz, "default"};
}

void BuildCoarse(const ProfiledRun& run, Summary* out) {
  if (!run.profile) return;
  for (const ProfileBlock* block : run.profile->Executions()) {
    CoarseExecution e;
    e.index = block->execution;
    e.graph_wall_us = MicrosecondsMetric(*block, "QNN accelerator (execute) time", &out->warnings);
    e.compute_busy_us = MicrosecondsMetric(*block, "Accelerator (execute) time", &out->warnings);
    e.compute_excluding_wait_us =
        MicrosecondsMetric(*block, "Accelerator (execute excluding wait) time", &out->warnings);
    e.rpc_us = MicrosecondsMetric(*block, "RPC (execute) time", &out->warnings);
    e.qnn_execute_us = MicrosecondsMetric(*block, "QNN (execute) time", &out->warnings);
    e.work_cycles = CyclesMetric(*block, "Accelerator (execute) time (cycles)");
    if (e.graph_wall_us && e.compute_busy_us) {
      e.overhead_us = *e.graph_wall_us - *e.compute_busy_us;
      if (*e.graph_wall_us > 0) e.overhead_pct = *e.overhead_us / *e.graph_wall_us * 100.0;
    }
    if (e.work_cycles && e.compute_busy_us && *e.compute_busy_us > 0) {
      e.implied_ghz = static_cast<double>(*e.work_cycles) / *e.compute_busy_us / 1000.0;
      // µs are printed truncated to integers: judge with one µs of slack so
      // rounding alone never raises the warning.
      double lowest_possible_ghz =
          static_cast<double>(*e.work_cycles) / (*e.compute_busy_us + 1.0) / 1000.0;
      e.aggregate_cycles = lowest_possible_ghz > out->clock.plausible_ghz;
    }
    out->executions.push_back(e);
  }
  for (const auto& block : run.profile->statistics) {
    if (block.title.rfind("Execute Stats", 0) != 0) continue;
    for (const auto& m : block.metrics) {
      out->profile_statistics.push_back(m);
      out->profile_statistics_sections.push_back(
          block.graph.empty() ? block.title : block.title + " / " + block.graph);
    }
  }
  std::vector<std::string> aggregate;
  for (const auto& e : out->executions)
    if (e.aggregate_cycles)
      aggregate.push_back(fmt::format("execution {}: {} cycles in {:.0f} µs = {:.2f} GHz", e.index,
                                      *e.work_cycles, *e.compute_busy_us, *e.implied_ghz));
  if (!aggregate.empty())
    out->warnings.push_back(
        {"aggregate_cycles",
         fmt::format(
             "Accelerator (execute) time (cycles) ÷ compute-busy µs exceeds the plausible clock of "
             "{:.2f} GHz "
             "({}): the cycle figure is summed over threads (work volume), not wall time — {}",
             out->clock.plausible_ghz, out->clock.source, fmt::join(aggregate, "; "))});

  if (out->executions.size() >= 2) {
    SteadyState steady;
    std::vector<double> wall, busy, overhead, work;
    for (size_t i = 1; i < out->executions.size(); ++i) {
      const auto& e = out->executions[i];
      if (e.graph_wall_us) wall.push_back(*e.graph_wall_us);
      if (e.compute_busy_us) busy.push_back(*e.compute_busy_us);
      if (e.overhead_us) overhead.push_back(*e.overhead_us);
      if (e.work_cycles) work.push_back(static_cast<double>(*e.work_cycles));
    }
    steady.first_index = out->executions[1].index;
    steady.graph_wall_us = ComputeStats(wall);
    steady.compute_busy_us = ComputeStats(busy);
    steady.overhead_us = ComputeStats(overhead);
    steady.work_cycles = ComputeStats(work);
    out->steady_state = steady;
  } else if (out->executions.size() == 1) {
    out->warnings.push_back(
        {"cold_only",
         "the profile holds one execution: its figures include the cold start (power-on, VTCM "
         "acquire, cache warm-up) and are not steady-state latency"});
  }
}

// How groups are listed: by DPC (absent counts as -1), then work, both
// descending, then by name.  The name's text is in the key: groups often tie
// on both counts, and a look-up per compare would miss the cache.
struct GroupOrderKey {
  int64_t dpc, work;
  const char* name;
  uint32_t name_length;
  uint32_t index;  // of the group being ordered

  bool operator<(const GroupOrderKey& other) const {
    if (dpc != other.dpc) return dpc > other.dpc;
    if (work != other.work) return work > other.work;
    return std::string_view(name, name_length) < std::string_view(other.name, other.name_length);
  }
};

GroupOrderKey OrderKeyOf(int64_t dpc, int64_t work, std::string_view name, uint32_t index) {
  return {dpc, work, name.data(), static_cast<uint32_t>(name.size()), index};
}

void SortGroups(std::vector<OpGroup>& groups) {
  // Sorted as (key, index) pairs and then permuted once: swapping whole
  // groups (two strings each) inside the sort costs several times more.
  std::vector<GroupOrderKey> keys(groups.size());
  for (uint32_t i = 0; i < groups.size(); ++i)
    keys[i] =
        OrderKeyOf(groups[i].dpc_cycles.value_or(-1), groups[i].work_cycles, groups[i].name, i);
  std::sort(keys.begin(), keys.end());
  // Permuted in place along its cycles: a second vector of groups would
  // double their memory at the run's peak.
  std::vector<uint32_t> source(keys.size());  // position i takes groups[source[i]]
  for (uint32_t i = 0; i < keys.size(); ++i) source[i] = keys[i].index;
  for (uint32_t start = 0; start < source.size(); ++start) {
    if (source[start] == start) continue;
    OpGroup held = std::move(groups[start]);
    uint32_t at = start;
    while (source[at] != start) {
      const uint32_t from = source[at];
      groups[at] = std::move(groups[from]);
      source[at] = at;
      at = from;
    }
    groups[at] = std::move(held);
    source[at] = at;
  }
}

// A group's shares of the graph wall (its DPC) and of the total work.
void SetShares(const FineView& fine, OpGroup& g) {
  if (g.dpc_cycles && fine.graph_wall_cycles && *fine.graph_wall_cycles > 0)
    g.dpc_share_of_wall_pct =
        static_cast<double>(*g.dpc_cycles) / static_cast<double>(*fine.graph_wall_cycles) * 100;
  if (fine.work_cycles && *fine.work_cycles > 0)
    g.work_share_pct =
        static_cast<double>(g.work_cycles) / static_cast<double>(*fine.work_cycles) * 100;
}

void FinishShares(FineView& fine) {
  for (auto* groups : {&fine.qnn_ops, &fine.htp_op_types}) {
    for (auto& g : *groups) SetShares(fine, g);
    SortGroups(*groups);
  }
}

// The totals of one op group (a QNN op name or an HTP op type) while the
// optrace's ops are summed: compact and without strings, so that hundreds
// of thousands of groups are summed and sorted before their names are
// copied, once, in listing order.
struct GroupTotals {
  int64_t dpc_cycles = 0;  // Σ DPC once per op ID
  int64_t work_cycles = 0;
  int64_t instances = 0;
  StringId name = StringPool::kEmpty;
  StringId type = StringPool::kEmpty;  // QNN op type; unused for HTP op types
  OpCategory category = OpCategory::kCompute;
  bool dpc_lower_bound = false;
};

// The OpGroups of `totals` in listing order, with their shares of `fine`.
std::vector<OpGroup> ListGroups(const std::vector<GroupTotals>& totals, bool with_type,
                                const Optrace& trace, const FineView& fine) {
  std::vector<GroupOrderKey> keys(totals.size());
  for (uint32_t i = 0; i < totals.size(); ++i)
    keys[i] = OrderKeyOf(totals[i].dpc_cycles, totals[i].work_cycles, trace.Str(totals[i].name), i);
  std::sort(keys.begin(), keys.end());
  std::vector<OpGroup> groups;
  groups.reserve(keys.size());
  constexpr size_t kAhead = 8;  // keys order the totals at random: fetch ahead
  for (size_t k = 0; k < keys.size(); ++k) {
    if (k + kAhead < keys.size()) {
      __builtin_prefetch(&totals[keys[k + kAhead].index]);
      __builtin_prefetch(keys[k + kAhead].name);
    }
    const GroupOrderKey& key = keys[k];
    const GroupTotals& t = totals[key.index];
    OpGroup& g = groups.emplace_back();
    g.name.assign(key.name, key.name_length);
    if (with_type) g.type = trace.Str(t.type);
    g.category = t.category;
    g.dpc_cycles = t.dpc_cycles;
    g.work_cycles = t.work_cycles;
    g.instances = t.instances;
    g.dpc_lower_bound = t.dpc_lower_bound;
    SetShares(fine, g);
  }
  return groups;
}

void BuildFineFromOptrace(const ProfiledRun& run, Summary* out) {
  const Optrace& trace = *run.optrace;
  FineView fine;
  fine.source = "optrace";
  if (trace.slices.empty()) {
    out->warnings.push_back({"empty_trace", "the optrace has no executed op events: no fine view"});
    return;
  }
  // Thread occupancy reads only the slices: computed on a second core while
  // this one builds the op groups.
  auto occupancy_computed =
      std::async(std::launch::async, [&trace] { return ComputeUnitOccupancy(trace); });
  int64_t start = INT64_MAX, end = INT64_MIN, work = 0;
  for (const auto& s : trace.slices) {
    start = std::min(start, s.start_cycles);
    end = std::max(end, s.end_cycles());
    work += s.dur_cycles;
  }
  fine.start_cycle = start;
  fine.end_cycle = end;
  fine.graph_wall_cycles = end - start;
  fine.work_cycles = work;
  fine.instances = static_cast<int64_t>(run.ops.size());

  // Groups by interned name: index into the group vector + 1 per StringId.
  std::vector<uint32_t> qnn_group_of(trace.strings.size(), 0),
      htp_group_of(trace.strings.size(), 0);
  std::vector<GroupTotals> qnn_totals, htp_totals;
  std::map<OpCategory, CategoryTotal> categories;
  int64_t dpc_sum = 0;
  size_t multi_slice = 0;
  for (const auto& op : run.ops) {
    dpc_sum += op.dpc_cycles;
    bool lower_bound = op.slice_count > 1;
    multi_slice += lower_bound;
    for (auto [totals, group_of, key] : {std::tuple{&qnn_totals, &qnn_group_of, op.qnn_op_name},
                                         std::tuple{&htp_totals, &htp_group_of, op.htp_op_type}}) {
      uint32_t& index = (*group_of)[key];
      if (index == 0) {
        GroupTotals t;
        t.name = key;
        t.type = op.qnn_op_type;
        t.category = op.category;
        totals->push_back(t);
        index = static_cast<uint32_t>(totals->size());
      }
      GroupTotals& t = (*totals)[index - 1];
      // A group is compute if any of its ops is.
      if (op.category == OpCategory::kCompute) t.category = OpCategory::kCompute;
      t.dpc_cycles += op.dpc_cycles;
      t.work_cycles += op.work_cycles;
      t.instances += 1;
      t.dpc_lower_bound = t.dpc_lower_bound || lower_bound;
    }
    CategoryTotal& c = categories[op.category];
    c.category = op.category;
    c.instances += 1;
    c.work_cycles += op.work_cycles;
    c.dpc_cycles += op.dpc_cycles;
  }
  fine.dpc_sum_cycles = dpc_sum;
  for (auto& [cat, c] : categories) fine.categories.push_back(c);

  const std::vector<UnitOccupancy> occupancy = occupancy_computed.get();
  for (const auto& u : occupancy) {
    UnitRow row;
    row.tid = u.tid;
    row.kind = u.kind;
    row.cycles_used = u.cycles_used;
    row.busy_cycles = u.busy_cycles;
    row.slices = u.slice_count;
    row.utilization_pct =
        static_cast<double>(u.cycles_used) / static_cast<double>(*fine.graph_wall_cycles) * 100;
    out->units.push_back(row);
    if (!fine.domain_cycles || u.cycles_used > *fine.domain_cycles) {
      fine.domain_cycles = u.cycles_used;
      fine.domain_tid = u.tid;
    }
  }
  if (multi_slice)
    out->warnings.push_back(
        {"multi_slice_dpc", fmt::format("{} op instances ran as several slices on different "
                                        "threads; the optrace repeats one slice's "
                                        "Dominant Path Cycles on every slice, so their DPC "
                                        "(counted once per op ID) is a lower bound — "
                                        "QHAS counts each slice's own share",
                                        multi_slice)});
  fine.qnn_ops = ListGroups(qnn_totals, true, trace, fine);
  fine.htp_op_types = ListGroups(htp_totals, false, trace, fine);
  out->fine = std::move(fine);
}

void BuildFineFromQhas(const ProfiledRun& run, Summary* out) {
  const Qhas& qhas = *run.qhas;
  if (qhas.overall.empty()) return;
  const QhasOverall& overall = qhas.overall.front();
  FineView fine;
  fine.source = "qhas";
  fine.graph_wall_cycles = overall.timeline_cycles;
  int64_t work = 0, dpc = 0;
  for (const auto& row : qhas.qnn_op_instances) {
    OpGroup g;
    g.name = row.name;
    g.type = row.qnn_op_type;
    g.dpc_cycles = row.dominant_path_cycles;
    g.work_cycles = row.cycles;
    g.instances = row.count;
    work += row.cycles;
    dpc += row.dominant_path_cycles;
    fine.instances += row.count;
    fine.qnn_ops.push_back(g);
  }
  for (const auto& row : qhas.htp_op_types) {
    OpGroup g;
    g.name = row.name;
    g.category = ClassifyOp(row.name, "", 0);
    g.dpc_cycles = row.dominant_path_cycles;
    g.work_cycles = row.cycles;
    g.instances = row.count;
    fine.htp_op_types.push_back(g);
  }
  fine.work_cycles = work;
  fine.dpc_sum_cycles = dpc;
  for (const auto& r : overall.resources) {
    UnitRow row;
    row.tid = r.tid;
    row.kind = UnitKindOfTid(r.tid);
    row.cycles_used = r.cycles_used;
    row.busy_cycles = r.cycles_used;
    row.utilization_pct = overall.timeline_cycles > 0
                              ? static_cast<double>(r.cycles_used) /
                                    static_cast<double>(overall.timeline_cycles) * 100
                              : 0;
    out->units.push_back(row);
    if (!fine.domain_cycles || r.cycles_used > *fine.domain_cycles) {
      fine.domain_cycles = r.cycles_used;
      fine.domain_tid = r.tid;
    }
  }
  FinishShares(fine);
  out->fine = std::move(fine);
}

void BuildFineFromProfile(const ProfiledRun& run, Summary* out) {
  auto executions = run.profile->Executions();
  if (executions.empty() || executions.front()->nodes.empty()) return;
  const ProfileBlock& first = *executions.front();
  FineView fine;
  fine.source = "profile";
  std::map<std::string, OpGroup> groups;
  int64_t work = 0;
  for (const auto& node : first.nodes) {
    std::string name = node.qnn_op_name.empty() ? node.label : node.qnn_op_name;
    OpGroup& g = groups[name];
    g.name = name;
    g.work_cycles += node.cycles;
    g.instances += 1;
    work += node.cycles;
  }
  fine.work_cycles = work;
  for (auto& [name, g] : groups) fine.qnn_ops.push_back(g);
  FinishShares(fine);
  out->fine = std::move(fine);
}

void BuildPhases(const ProfiledRun& run, Summary* out) {
  if (!run.runtrace) return;
  for (const auto& e : run.runtrace->executions) {
    for (const auto& p : e.phases) {
      PhaseRow row;
      row.execution = e.index;
      row.phase = p.name;
      row.wall_ticks = p.wall_ticks();
      row.wall_us = p.wall_us();
      if (p.has_cycles) {
        row.wall_cycles = p.wall_cycles();
        if (p.wall_ticks() > 0) row.effective_ghz = p.effective_ghz();
      }
      out->phases.push_back(row);
    }
  }
  if (out->fine && out->fine->source == "optrace") {
    for (const auto& e : run.runtrace->executions) {
      const RunPhase* graph = e.Find("Graph Execute");
      if (graph && graph->has_cycles && *out->fine->start_cycle >= graph->start_cycles &&
          *out->fine->end_cycle <= graph->end_cycles) {
        out->traced_execution = e.index;
        break;
      }
    }
  }
}

void AddCheck(Summary* out, std::string name, std::string unit, std::string a_source, double a,
              std::string b_source, double b, double tolerance = 0, std::string note = "") {
  CrossCheck c{std::move(name),
               std::move(unit),
               std::move(a_source),
               std::move(b_source),
               a,
               b,
               std::fabs(a - b) <= tolerance,
               std::move(note)};
  out->cross_checks.push_back(std::move(c));
}

void BuildCrossChecks(const ProfiledRun& run, Summary* out) {
  const bool trace_fine = out->fine && out->fine->source == "optrace";
  if (run.qhas && !run.qhas->overall.empty()) {
    const Qhas& qhas = *run.qhas;
    const QhasOverall& overall = qhas.overall.front();
    if (trace_fine) {
      AddCheck(out, "graph wall cycles", "cycles", "optrace span (recomputed)",
               static_cast<double>(*out->fine->graph_wall_cycles), "QHAS timeline_cycles",
               static_cast<double>(overall.timeline_cycles));
      for (const auto& u : out->units) {
        for (const auto& r : overall.resources) {
          if (r.tid != u.tid) continue;
          AddCheck(out, fmt::format("cycles_used tid {} ({})", u.tid, UnitKindName(u.kind)),
                   "cycles", "optrace union of slices", static_cast<double>(u.cycles_used),
                   "QHAS htp_resources", static_cast<double>(r.cycles_used));
        }
      }
      int64_t qhas_work = 0;
      for (const auto& row : qhas.qnn_op_instances) qhas_work += row.cycles;
      AddCheck(out, "work cycles", "cycles", "optrace Σ slice durations",
               static_cast<double>(*out->fine->work_cycles), "QHAS Σ qnn_op_instances cycles",
               static_cast<double>(qhas_work));
      // Per QNN op DPC: one line saying how many agree, disagreements listed.
      std::map<std::string, int64_t> qhas_dpc;
      for (const auto& row : qhas.qnn_op_instances) qhas_dpc[row.name] = row.dominant_path_cycles;
      int agree = 0, compared = 0;
      std::vector<std::string> differing;
      for (const auto& g : out->fine->qnn_ops) {
        auto it = qhas_dpc.find(g.name);
        if (it == qhas_dpc.end() || !g.dpc_cycles) continue;
        ++compared;
        if (it->second == *g.dpc_cycles) {
          ++agree;
        } else {
          differing.push_back(fmt::format("{}: optrace {}{} vs QHAS {}", g.name, *g.dpc_cycles,
                                          g.dpc_lower_bound ? " (lower bound, multi-slice)" : "",
                                          it->second));
        }
      }
      if (compared)
        AddCheck(out, "QNN ops with equal DPC", "ops", "optrace (once per op ID)", agree,
                 "QNN ops compared", compared, 0, fmt::format("{}", fmt::join(differing, "; ")));
      std::unordered_set<uint64_t> trace_ids;
      for (const auto& op : run.ops) trace_ids.insert(op.op_id);
      size_t unknown = 0;
      for (const auto& i : qhas.htp_op_instances) unknown += !trace_ids.count(i.op_id);
      if (unknown)
        out->warnings.push_back(
            {"qhas_mismatch", fmt::format("{} of {} QHAS op instances have IDs absent from the "
                                          "optrace: the QHAS file may come "
                                          "from a different run",
                                          unknown, qhas.htp_op_instances.size())});
    }
    if (run.optrace) {
      auto it = run.optrace->counters.find("VTCM alloc");
      if (it != run.optrace->counters.end() && !it->second.empty())
        AddCheck(out, "peak VTCM allocation", "bytes", "optrace max \"VTCM alloc\" counter",
                 static_cast<double>(*out->peak_vtcm_bytes), "QHAS peak_vtcm_alloc",
                 static_cast<double>(overall.peak_vtcm_alloc_bytes));
    }
    if (run.runtrace && !run.runtrace->executions.empty()) {
      const RunExecution& first = run.runtrace->executions.front();
      // QHAS truncates its µs to integers: agreement within one µs.
      if (const RunPhase* dsp = first.Find("QNN DSP Execute"))
        AddCheck(out, "execution 1 time", "us", "runtrace QNN DSP Execute", dsp->wall_us(),
                 "QHAS time_us", overall.time_us, 1.0);
      if (const RunPhase* graph = first.Find("Graph Execute"))
        AddCheck(out, "execution 1 graph execute time", "us", "runtrace Graph Execute",
                 graph->wall_us(), "QHAS graph_execute_us", overall.graph_execute_us, 1.0);
    }
  }
  // Profile text per-node cycles of the traced execution vs the trace / QHAS.
  if (run.profile) {
    auto executions = run.profile->Executions();
    if (!executions.empty()) {
      const ProfileBlock& first = *executions.front();
      auto root = CyclesMetric(first, "Accelerator (execute) time (cycles)");
      if (root && trace_fine) {
        // The profile lists only some QNN ops (not e.g. SystemService_0):
        // compare with the trace's work over the same QNN op ids.
        std::unordered_set<uint32_t> listed;
        for (const auto& node : first.nodes)
          if (node.op_id) listed.insert(*node.op_id);
        int64_t trace_work = 0;
        for (const auto& op : run.ops)
          if (listed.empty() || listed.count(static_cast<uint32_t>(op.op_id & 0xffffffffu)))
            trace_work += op.work_cycles;
        AddCheck(out, "execution 1 work cycles", "cycles",
                 "profile Accelerator (execute) time (cycles)", static_cast<double>(*root),
                 listed.empty() ? "optrace Σ slice durations"
                                : "optrace Σ slice durations of the listed QNN ops",
                 static_cast<double>(trace_work));
      }
      if (run.qhas && !first.nodes.empty()) {
        // Join by QNN op id: OpId_<n> == low 32 bits of an instance ID.
        std::unordered_map<uint32_t, std::string> name_of_op;
        for (const auto& i : run.qhas->htp_op_instances)
          name_of_op[static_cast<uint32_t>(i.op_id)] = i.qnn_op;
        std::map<std::string, int64_t> qhas_cycles;
        for (const auto& row : run.qhas->qnn_op_instances) qhas_cycles[row.name] = row.cycles;
        int agree = 0, compared = 0;
        std::vector<std::string> differing;
        for (const auto& node : first.nodes) {
          std::string name = node.qnn_op_name;
          if (node.op_id) {
            auto it = name_of_op.find(*node.op_id);
            if (it != name_of_op.end()) name = it->second;
          }
          auto it = qhas_cycles.find(name);
          if (it == qhas_cycles.end()) continue;
          ++compared;
          if (it->second == node.cycles)
            ++agree;
          else
            differing.push_back(
                fmt::format("{}: profile {} vs QHAS {}", node.label, node.cycles, it->second));
        }
        if (compared)
          AddCheck(out, "execution 1 node cycles equal to QHAS", "ops", "profile per-node (cycles)",
                   agree, "nodes matched to QHAS", compared, 0,
                   fmt::format("{}", fmt::join(differing, "; ")));
      }
    }
  }
  size_t disagreements = 0;
  for (const auto& c : out->cross_checks) disagreements += !c.agree;
  if (disagreements)
    out->warnings.push_back(
        {"cross_check_mismatch",
         fmt::format("{} of {} cross-checks between artifacts disagree (see cross-checks)",
                     disagreements, out->cross_checks.size())});
}

void BuildMissing(const ProfiledRun& run, Summary* out) {
  if (!run.optrace)
    out->missing.push_back({"optrace (chrometrace.json, OP_TRACE)",
                            run.qhas ? "per-slice timeline; fine view taken from QHAS instead"
                                     : "graph wall cycles, per-op DPC, per-unit occupancy"});
  if (!run.profile)
    out->missing.push_back(
        {"profile-viewer text or CSV",
         "coarse view: graph wall µs, compute-busy µs, overhead, steady-state statistics"});
  if (!run.runtrace)
    out->missing.push_back(
        {"runtrace (chrometrace_runtrace.json, RUN_TRACE)",
         "per-phase wall cycles and clocks; clock sanity uses the default ceiling"});
  if (!run.qhas)
    out->missing.push_back({"QHAS summary (*_qnn_htp_analysis_summary.json)",
                            "cross-checks against the viewer's analysis"});
  if (!run.htp_graph)
    out->missing.push_back(
        {"HTP graph (chrometrace_htp.json, HTP_GRAPH)", "compiled-graph checks"});
}

}  // namespace

Summary Summarize(const ProfiledRun& run, const SummaryOptions& options) {
  Summary out;
  out.label = run.label;
  out.artifacts = run.artifacts;
  out.skipped = run.skipped;
  for (const auto& w : run.warnings) out.warnings.push_back({"reader", w});
  out.clock = ChooseClock(run, options);
  BuildCoarse(run, &out);
  if (run.optrace) {
    BuildFineFromOptrace(run, &out);
    auto it = run.optrace->counters.find("VTCM alloc");
    if (it != run.optrace->counters.end()) {
      for (const auto& sample : it->second) {
        if (!out.peak_vtcm_bytes || sample.value > *out.peak_vtcm_bytes) {
          out.peak_vtcm_bytes = sample.value;
          out.peak_vtcm_cycle = sample.ts_cycles;
        }
      }
    }
  }
  if (!out.fine && run.qhas) BuildFineFromQhas(run, &out);
  if (!out.fine && run.profile) BuildFineFromProfile(run, &out);
  if (!out.peak_vtcm_bytes && run.qhas && !run.qhas->overall.empty())
    out.peak_vtcm_bytes = run.qhas->overall.front().peak_vtcm_alloc_bytes;
  BuildPhases(run, &out);
  if (out.fine && out.fine->source != "profile") {
    std::string which =
        out.traced_execution
            ? fmt::format("execution {}", *out.traced_execution)
            : std::string("one execution (the first, cold one, as the viewer writes it)");
    if (out.traced_execution == 1) which = "execution 1, the cold first one";
    out.warnings.push_back(
        {"single_execution_trace",
         fmt::format(
             "the {} covers {} only: read its cycles for structure, not as steady-state latency",
             out.fine->source == "qhas" ? "QHAS analysis" : "optrace", which)});
  }
  BuildCrossChecks(run, &out);
  BuildMissing(run, &out);
  return out;
}

}  // namespace htpscope
