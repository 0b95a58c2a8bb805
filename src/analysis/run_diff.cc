#include "analysis/run_diff.h"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <absl/hash/hash.h>
#include <absl/types/span.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <future>
#include <set>
#include <span>
#include <utility>

#include "base/huge_pages.h"
#include "base/sort_util.h"
#include "base/string_pool.h"

namespace htpscope {
namespace {

// ---- Facts the model does not hold as such --------------------------------

struct DimsCandidate {
  bool compute = false;
  double elements = 0;
  const OpInstanceRow* op = nullptr;  // whose dims
};

// Keeps, per QNN op, the instance with the largest compute dims (compute beats
// non-compute; then more elements; the first seen wins ties).  `best` is
// indexed by the op name's StringId.
void OfferDims(std::vector<DimsCandidate>& best, const Run& run, const OpInstanceRow& op) {
  if (op.dims_count == 0 || op.dims_begin >= run.dims.size()) return;
  const bool compute = op.category == OpCategory::kCompute;
  const size_t end = std::min<size_t>(run.dims.size(), size_t{op.dims_begin} + op.dims_count);
  double elements = 1;
  for (size_t i = op.dims_begin; i < end; ++i) elements *= static_cast<double>(run.dims[i]);
  DimsCandidate& held = best[op.qnn_op_name];
  const bool better = !held.op || (compute && !held.compute) ||
                      (compute == held.compute && elements > held.elements);
  if (better) held = {compute, elements, &op};
}

// ---- Pooling the runs of one side -----------------------------------------

struct OpPool {
  std::string type;
  std::vector<int64_t> dims;
  std::vector<double> dpc, work, instances;
  bool dpc_lower_bound = false;
};

struct UnitPool {
  UnitKind kind = UnitKind::kUnknown;
  std::vector<double> cycles_used, utilization;
};

// One OpPool per name, in order of first appearance; names are views of
// the runs' strings.
struct OpPools {
  std::vector<std::pair<std::string_view, OpPool>> pools;
  // TextHash: std::hash of 80 k names was a tenth of pooling them.
  absl::flat_hash_map<std::string_view, uint32_t, TextHash> index;

  void reserve(size_t names) {
    pools.reserve(names);
    index.reserve(names);
  }

  OpPool& operator[](std::string_view name) {
    auto [it, inserted] = index.try_emplace(name, static_cast<uint32_t>(pools.size()));
    if (inserted) pools.emplace_back(name, OpPool{});
    return pools[it->second].second;
  }
  const OpPool* Find(std::string_view name) const {
    auto it = index.find(name);
    return it == index.end() ? nullptr : &pools[it->second].second;
  }
  bool empty() const { return pools.empty(); }
};

struct SidePool {
  DiffSide side;
  // Each run-level figure's samples on the side (FigureInfo::samples says
  // what they are), by Figure.
  std::array<std::vector<double>, kFigureCount> samples;
  OpPools qnn, htp;
  std::map<uint32_t, UnitPool> units;
  std::optional<uint32_t> domain_tid;

  std::vector<double>& operator[](Figure f) { return samples[static_cast<size_t>(f)]; }
  const std::vector<double>& operator[](Figure f) const { return samples[static_cast<size_t>(f)]; }
};

template <typename T>
void Push(std::vector<double>& to, const std::optional<T>& value) {
  if (value) to.push_back(static_cast<double>(*value));
}

// `dims_instance`: RunFacts::dims_instance, or nullptr (groups without dims).
void PoolGroups(const std::vector<OpGroupRow>& groups, const Run& run,
                const std::vector<const OpInstanceRow*>* dims_instance, OpPools& pool) {
  for (const auto& g : groups) {
    const std::string_view name = run.Str(g.name);
    OpPool& p = pool[name];
    if (p.type.empty()) p.type = run.Str(g.type);
    if (dims_instance && p.dims.empty() && g.name < dims_instance->size())
      if (const OpInstanceRow* op = (*dims_instance)[g.name]) p.dims = run.DimsOf(*op);
    Push(p.dpc, g.dpc_cycles);
    p.work.push_back(static_cast<double>(g.work_cycles));
    p.instances.push_back(static_cast<double>(g.instances));
    p.dpc_lower_bound = p.dpc_lower_bound || g.dpc_lower_bound();
  }
}

SidePool PoolSide(const std::vector<RunFacts>& runs) {
  SidePool p;
  size_t qnn_ops = 0, htp_op_types = 0;
  for (const RunFacts& facts : runs) {
    qnn_ops += facts.run->qnn_ops.size();
    htp_op_types += facts.run->htp_op_types.size();
  }
  p.qnn.reserve(qnn_ops);  // no regrowth copying the pools
  p.htp.reserve(htp_op_types);
  for (const RunFacts& facts : runs) {
    const Run& run = *facts.run;
    p.side.labels.push_back(run.label);
    static const std::vector<CoarseExecution> kNoExecutions;
    const auto& executions = facts.coarse.empty() ? kNoExecutions : facts.coarse.front().executions;
    for (size_t i = 0; i < executions.size(); ++i) {
      const CoarseExecution& e = executions[i];
      bool cold = i == 0;
      Push(p[cold ? Figure::kColdWallUs : Figure::kWallUs], e.graph_wall_us);
      Push(p[cold ? Figure::kColdComputeBusyUs : Figure::kComputeBusyUs], e.compute_busy_us);
      Push(p[cold ? Figure::kColdOverheadUs : Figure::kOverheadUs], e.overhead_us);
      Push(p[cold ? Figure::kColdWorkCycles : Figure::kWorkCycles], e.work_cycles);
      ++(cold ? p.side.cold_executions : p.side.steady_executions);
    }
    const RunFigures& f = run.figures;
    p.side.fine_sources.push_back(SourceName(f.fine_source));
    if (f.fine_source != Source::kNone) {
      Push(p[Figure::kGraphWallCycles], f.graph_wall_cycles);
      Push(p[Figure::kTracedWorkCycles], f.work_cycles);
      Push(p[Figure::kDomainCycles], f.domain_cycles);
      Push(p[Figure::kDpcSumCycles], f.dpc_sum_cycles);
      Push(p[Figure::kOpInstances], f.op_instances);
      if (!p.domain_tid) p.domain_tid = f.domain_tid;
      PoolGroups(run.qnn_ops, run, &facts.dims_instance, p.qnn);
      PoolGroups(run.htp_op_types, run, nullptr, p.htp);
    }
    for (const UnitRow& u : run.units) {
      UnitPool& up = p.units[u.tid];
      up.kind = u.kind;
      up.cycles_used.push_back(static_cast<double>(u.cycles_used));
      Push(up.utilization, SharePct(u.cycles_used, f.graph_wall_cycles));
    }
    Push(p[Figure::kPeakVtcmBytes], f.peak_vtcm_bytes);
    if (facts.traffic) {
      const MemoryTraffic& t = *facts.traffic;
      p[Figure::kDramBytes].push_back(static_cast<double>(t.dram_read_bytes + t.dram_write_bytes));
      p[Figure::kVtcmBytes].push_back(static_cast<double>(t.vtcm_read_bytes + t.vtcm_write_bytes));
      p[Figure::kDramReadBytes].push_back(static_cast<double>(t.dram_read_bytes));
      p[Figure::kDramWriteBytes].push_back(static_cast<double>(t.dram_write_bytes));
      p[Figure::kVtcmReadBytes].push_back(static_cast<double>(t.vtcm_read_bytes));
      p[Figure::kVtcmWriteBytes].push_back(static_cast<double>(t.vtcm_write_bytes));
    }
    for (const MissingRow& m : run.missing)
      p.side.missing.push_back(
          fmt::format("{}: {} (withholds {})", run.label, m.artifact, m.withholds));
  }
  return p;
}

// ---- Matching ops ---------------------------------------------------------

constexpr char kTracedBasis[] = "traced execution (median over runs)";

OpDelta MakeOpDelta(const std::string& name, const std::string& a_name, const OpPool* a,
                    const OpPool* b, OpMatch status, std::string matched_by) {
  static const std::vector<double> kNone;
  OpDelta d;
  d.name = name;
  d.a_name = a_name;
  d.type = b ? b->type : a->type;
  d.dims = b && !b->dims.empty() ? b->dims : a ? a->dims : std::vector<int64_t>{};
  d.status = status;
  d.matched_by = std::move(matched_by);
  // The pools' samples read in place, not copied.
  using Samples = std::span<const double>;
  d.dpc_cycles = CompareSamples(Samples(a ? a->dpc : kNone), Samples(b ? b->dpc : kNone), "cycles",
                                kTracedBasis);
  d.work_cycles = CompareSamples(Samples(a ? a->work : kNone), Samples(b ? b->work : kNone),
                                 "cycles", kTracedBasis);
  d.instances = CompareSamples(Samples(a ? a->instances : kNone), Samples(b ? b->instances : kNone),
                               "instances", kTracedBasis);
  d.dpc_lower_bound = (a && a->dpc_lower_bound) || (b && b->dpc_lower_bound);
  return d;
}

// The change of an optional figure where an unmatched side counts as 0.
double ChangeOrWhole(const MetricDelta& d, OpMatch status) {
  if (d.change) return *d.change;
  if (status == OpMatch::kAdded && d.b) return d.b->median;
  if (status == OpMatch::kRemoved && d.a) return -d.a->median;
  return 0;
}

// The names in `out` are distinct, so the final sort's order is total and
// the order pools were filled in does not show.
std::vector<OpDelta> MatchOps(const OpPools& a, const OpPools& b, bool by_type_and_dims) {
  using Named = std::pair<std::string_view, const OpPool*>;
  std::vector<Named> only_a, only_b;
  std::vector<std::pair<Named, const OpPool*>> by_name;  // (A's op, B's pool of its name)
  for (const auto& [name, pool] : a.pools) {
    if (const OpPool* other = b.Find(name))
      by_name.push_back({{name, &pool}, other});
    else
      only_a.emplace_back(name, &pool);
  }
  // Big runs match tens of thousands of ops by name: their deltas are made
  // in two halves, one on another core.
  // Room for every op once (a pair matched by type and dims takes one
  // place for two), its fresh pages faulted in on both cores.
  std::vector<OpDelta> out;
  ReservePrefaulted(out, a.pools.size() + b.pools.size() - by_name.size());
  out.resize(by_name.size());
  auto make_by_name = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const auto& [named, other] = by_name[i];
      out[i] = MakeOpDelta(std::string(named.first), std::string(named.first), named.second, other,
                           OpMatch::kMatched, "name");
    }
  };
  constexpr size_t kSecondCoreFrom = 4096;  // ops; fewer are matched in a blink
  if (by_name.size() >= kSecondCoreFrom) {
    const size_t half = by_name.size() / 2;
    std::future<void> first_half =
        std::async(std::launch::async | std::launch::deferred, make_by_name, 0, half);
    make_by_name(half, by_name.size());
    first_half.get();
  } else {
    make_by_name(0, by_name.size());
  }
  for (const auto& [name, pool] : b.pools)
    if (!a.Find(name)) only_b.emplace_back(name, &pool);

  absl::flat_hash_set<std::string_view> paired_a, paired_b;
  if (by_type_and_dims) {
    // (type, dims) -> the unmatched ops with that key; only the count and the
    // first matter.
    using Key = std::pair<std::string_view, const std::vector<int64_t>*>;
    struct KeyHash {
      size_t operator()(const Key& k) const {
        return absl::HashOf(k.first, absl::MakeSpan(*k.second));
      }
    };
    struct KeyEq {
      bool operator()(const Key& x, const Key& y) const {
        return x.first == y.first && *x.second == *y.second;
      }
    };
    using Keyed = absl::flat_hash_map<Key, std::pair<size_t, Named>, KeyHash, KeyEq>;
    auto key_all = [](const std::vector<Named>& ops) {
      Keyed keyed;
      for (const Named& op : ops) {
        if (op.second->type.empty()) continue;
        auto [it, inserted] =
            keyed.try_emplace(Key{op.second->type, &op.second->dims}, size_t{0}, op);
        ++it->second.first;
      }
      return keyed;
    };
    const Keyed keyed_a = key_all(only_a), keyed_b = key_all(only_b);
    // Unambiguous only: exactly one unmatched op of that type and dims per
    // side.  Ops without dims on both sides match on the type alone.
    for (const auto& [key, one_a] : keyed_a) {
      auto it = keyed_b.find(key);
      if (one_a.first != 1 || it == keyed_b.end() || it->second.first != 1) continue;
      const Named& na = one_a.second;
      const Named& nb = it->second.second;
      out.push_back(MakeOpDelta(std::string(nb.first), std::string(na.first), na.second, nb.second,
                                OpMatch::kMatched, "type+dims"));
      paired_a.insert(na.first);
      paired_b.insert(nb.first);
    }
  }
  for (const auto& [name, pool] : only_a)
    if (!paired_a.contains(name))
      out.push_back(
          MakeOpDelta(std::string(name), std::string(name), pool, nullptr, OpMatch::kRemoved, ""));
  for (const auto& [name, pool] : only_b)
    if (!paired_b.contains(name))
      out.push_back(MakeOpDelta(std::string(name), "", nullptr, pool, OpMatch::kAdded, ""));

  // Largest |ΔDPC| first, then largest |Δwork|, then by name, ranked by key
  // and moved once into place: an OpDelta is ~800 bytes, and 80 k of them
  // swapped through a sort cost more than making them.
  struct Rank {
    double dpc_change_cycles, work_change_cycles;
    std::string_view name;
  };
  std::vector<uint32_t> from = StableOrderByKeys(
      out.size(),
      [&out](size_t i) {
        return Rank{std::fabs(out[i].dpc_change_cycles().value_or(0)),
                    std::fabs(ChangeOrWhole(out[i].work_cycles, out[i].status)), out[i].name};
      },
      [](const Rank& x, const Rank& y) {
        if (x.dpc_change_cycles != y.dpc_change_cycles)
          return x.dpc_change_cycles > y.dpc_change_cycles;
        if (x.work_change_cycles != y.work_change_cycles)
          return x.work_change_cycles > y.work_change_cycles;
        return x.name < y.name;
      });
  ApplyPermutation(out, from);
  return out;
}

std::string SideNames(bool a_lacks, bool b_lacks) {
  return a_lacks && b_lacks ? "A and B" : a_lacks ? "A" : "B";
}

}  // namespace

const char* OpMatchName(OpMatch match) {
  switch (match) {
    case OpMatch::kMatched:
      return "matched";
    case OpMatch::kAdded:
      return "added";
    case OpMatch::kRemoved:
      return "removed";
  }
  return "matched";
}

std::optional<double> OpDelta::dpc_change_cycles() const {
  if (dpc_cycles.change) return dpc_cycles.change;
  if (status == OpMatch::kAdded && dpc_cycles.b) return dpc_cycles.b->median;
  if (status == OpMatch::kRemoved && dpc_cycles.a) return -dpc_cycles.a->median;
  return std::nullopt;
}

const NamedDelta* RunDiff::Find(std::string_view name) const {
  for (const auto& m : metrics)
    if (m.name == name) return &m;
  return nullptr;
}

const NamedDelta* RunDiff::Find(Figure figure) const { return Find(FigureName(figure)); }

RunFacts CollectRunFacts(Run run, const SummaryOptions& options) {
  RunFacts facts;
  facts.run = std::make_shared<const Run>(std::move(run));
  const Run& r = *facts.run;
  facts.coarse = SummarizeCoarse(r, options);
  std::vector<DimsCandidate> best(r.strings.size());
  for (const OpInstanceRow& op : r.op_instances) OfferDims(best, r, op);
  facts.dims_instance.resize(best.size());
  for (size_t name = 0; name < best.size(); ++name) facts.dims_instance[name] = best[name].op;
  if (!r.qhas_cores.empty()) {
    MemoryTraffic t;
    for (const QhasCoreRow& core : r.qhas_cores) {
      t.dram_read_bytes += core.total_dram_read_bytes;
      t.dram_write_bytes += core.total_dram_write_bytes;
      t.vtcm_read_bytes += core.total_vtcm_read_bytes;
      t.vtcm_write_bytes += core.total_vtcm_write_bytes;
    }
    facts.traffic = t;
  }
  return facts;
}

std::vector<int64_t> RunFacts::QnnOpDims(std::string_view name) const {
  bool found = false;
  const StringId id = run->strings.Find(name, &found);
  if (!found || id >= dims_instance.size() || !dims_instance[id]) return {};
  return run->DimsOf(*dims_instance[id]);
}

RunDiff DiffRuns(const std::vector<RunFacts>& runs_a, const std::vector<RunFacts>& runs_b) {
  // The per-op profile comparison and the module trees read only the runs:
  // they are made beside the rest, which fills the cores' gaps.
  std::future<std::vector<ProfileOpDelta>> profile_ops =
      std::async(std::launch::async | std::launch::deferred,
                 [&runs_a, &runs_b] { return DiffProfileOps(runs_a, runs_b); });
  std::future<ModuleDiff> modules =
      std::async(std::launch::async | std::launch::deferred,
                 [&runs_a, &runs_b] { return DiffRunModules(runs_a, runs_b); });
  // The sides are pooled each on its own core.
  std::future<SidePool> pooled_b = std::async(std::launch::async | std::launch::deferred,
                                              [&runs_b] { return PoolSide(runs_b); });
  SidePool a = PoolSide(runs_a);
  SidePool b = pooled_b.get();
  RunDiff d;
  d.a = a.side;
  d.b = b.side;
  d.a_domain_tid = a.domain_tid;
  d.b_domain_tid = b.domain_tid;

  // What a side's samples are, by FigureInfo::samples.
  auto basis_of = [](FigureSamples samples) -> std::string {
    switch (samples) {
      case FigureSamples::kSteadyExecutions:
        return "steady state: median over executions 2..N of every run";
      case FigureSamples::kColdExecutions:
        return "cold first execution: median over runs";
      case FigureSamples::kTracedExecution:
      case FigureSamples::kNotCompared:
        break;
      case FigureSamples::kQhasTotals:
        return "QHAS totals of the traced execution (median over runs)";
    }
    return kTracedBasis;
  };
  const std::string traced = kTracedBasis;
  const std::vector<double>& traced_work_a = a[Figure::kTracedWorkCycles];
  const std::vector<double>& traced_work_b = b[Figure::kTracedWorkCycles];
  for (const FigureInfo& f : Figures()) {
    const std::vector<double>* va = &a[f.figure];
    const std::vector<double>* vb = &b[f.figure];
    std::string basis = basis_of(f.samples);
    // Work is compared on one basis on both sides: the steady state when both
    // have it, else the traced Σ slice durations.
    if (f.figure == Figure::kWorkCycles && (va->empty() || vb->empty())) {
      if (!traced_work_a.empty() && !traced_work_b.empty())
        d.notes.push_back(
            fmt::format("{} compares the traced execution's Σ slice durations: side {} has no "
                        "steady-state \"Accelerator (execute) time (cycles)\"",
                        f.name, SideNames(va->empty(), vb->empty())));
      va = &traced_work_a;
      vb = &traced_work_b;
      basis = traced + ": Σ slice durations";
    }
    d.metrics.push_back({f.name, f.label, CompareSamples(*va, *vb, f.unit, basis)});
  }

  // The headline wall: µs when both sides have a steady state, never µs on
  // one side and cycles on the other.
  const bool wall_a = !a[Figure::kWallUs].empty(), wall_b = !b[Figure::kWallUs].empty();
  if (wall_a && wall_b) {
    d.wall_metric = FigureName(Figure::kWallUs);
  } else if (!a[Figure::kGraphWallCycles].empty() && !b[Figure::kGraphWallCycles].empty()) {
    d.wall_metric = FigureName(Figure::kGraphWallCycles);
    d.notes.push_back(fmt::format(
        "side {} has no profile with 2 or more executions: the wall is compared as the traced "
        "graph-wall cycles of the one execution each optrace/QHAS covers (cold where the "
        "runtrace shows it), not as steady-state µs",
        SideNames(!wall_a, !wall_b)));
  } else {
    d.notes.push_back(
        "no wall figure on both sides: neither steady-state µs (a profile with 2 or more "
        "executions) nor a traced graph wall (an optrace or QHAS file)");
  }
  if (wall_a && wall_b) {
    const MetricDelta& w = d.Find(Figure::kWallUs)->delta;
    const MetricDelta& busy = d.Find(Figure::kComputeBusyUs)->delta;
    const MetricDelta& over = d.Find(Figure::kOverheadUs)->delta;
    if (w.change && busy.change && over.change && *w.change != 0) {
      double dc = *busy.change, dov = *over.change;
      if (*w.change < 0) {
        if (dov < 0 && (dc >= 0 || dov <= dc))
          d.wall_cause = WallCause::kOverhead;
        else if (dc < 0)
          d.wall_cause = WallCause::kComputeBusy;
      } else {
        if (dov > 0 && (dc <= 0 || dov >= dc))
          d.wall_cause = WallCause::kOverhead;
        else if (dc > 0)
          d.wall_cause = WallCause::kComputeBusy;
      }
    }
  }

  d.qnn_ops = MatchOps(a.qnn, b.qnn, /*by_type_and_dims=*/true);
  d.htp_op_types = MatchOps(a.htp, b.htp, /*by_type_and_dims=*/false);

  std::set<uint32_t> tids;
  for (const auto& [tid, u] : a.units) tids.insert(tid);
  for (const auto& [tid, u] : b.units) tids.insert(tid);
  static const UnitPool kNoUnit;
  for (uint32_t tid : tids) {
    auto ia = a.units.find(tid), ib = b.units.find(tid);
    const UnitPool& ua = ia != a.units.end() ? ia->second : kNoUnit;
    const UnitPool& ub = ib != b.units.end() ? ib->second : kNoUnit;
    UnitDelta u;
    u.tid = tid;
    u.kind = ia != a.units.end() ? ua.kind : ub.kind;
    u.cycles_used = CompareSamples(ua.cycles_used, ub.cycles_used, "cycles", traced);
    u.utilization_pct = CompareSamples(ua.utilization, ub.utilization, "pct", traced);
    d.units.push_back(std::move(u));
  }

  const MetricDelta& wall_cycles = d.Find(Figure::kGraphWallCycles)->delta;
  for (const OpDelta& op : d.qnn_ops) {
    auto change = op.dpc_change_cycles();
    if (!change || *change == 0) continue;
    WallAttribution w;
    w.name = op.name;
    w.status = op.status;
    w.dpc_change_cycles = *change;
    if (wall_cycles.change && *wall_cycles.change != 0)
      w.share_of_wall_change_pct = *change / *wall_cycles.change * 100.0;
    d.attribution.push_back(std::move(w));
  }

  std::set<std::string> sources_a(a.side.fine_sources.begin(), a.side.fine_sources.end());
  std::set<std::string> sources_b(b.side.fine_sources.begin(), b.side.fine_sources.end());
  if (sources_a != sources_b)
    d.notes.push_back(fmt::format(
        "the per-op view comes from {} on A but {} on B: QHAS counts each slice of a "
        "multi-slice op as an instance with its own DPC, the optrace once per op ID, and a "
        "profile gives per-node work only (docs/metrics.md)",
        fmt::join(sources_a, "+"), fmt::join(sources_b, "+")));
  d.profile_ops = profile_ops.get();
  if (a.qnn.empty() || b.qnn.empty())
    d.notes.push_back(
        fmt::format("side {} has no per-op view (no optrace, QHAS or per-node "
                    "profile lines): ops cannot be compared",
                    SideNames(a.qnn.empty(), b.qnn.empty())));
  d.modules = modules.get();
  return d;
}

std::vector<GateSubject> GateSubjects(const RunDiff& diff) {
  std::vector<GateSubject> out;
  for (const auto& m : diff.metrics) out.push_back({"", "", m.name, &m.delta});
  auto add_ops = [&out](const char* family, const std::vector<OpDelta>& ops) {
    for (const auto& op : ops) {
      out.push_back({family, op.name, ItemFigureName(ItemFigure::kDpcCycles), &op.dpc_cycles});
      out.push_back({family, op.name, ItemFigureName(ItemFigure::kWorkCycles), &op.work_cycles});
      out.push_back({family, op.name, ItemFigureName(ItemFigure::kInstances), &op.instances});
    }
  };
  add_ops("op", diff.qnn_ops);
  add_ops("htp", diff.htp_op_types);
  for (const auto& u : diff.units) {
    const std::string tid = std::to_string(u.tid);
    out.push_back({"unit", tid, ItemFigureName(ItemFigure::kCyclesUsed), &u.cycles_used});
    out.push_back({"unit", tid, ItemFigureName(ItemFigure::kUtilizationPct), &u.utilization_pct});
  }
  for (const auto& op : diff.profile_ops) {
    out.push_back(
        {"profile_op", op.name, ItemFigureName(ItemFigure::kSteadyCycles), &op.steady_cycles});
    out.push_back(
        {"profile_op", op.name, ItemFigureName(ItemFigure::kColdCycles), &op.cold_cycles});
  }
  AppendModuleGateSubjects(diff.modules, out);
  return out;
}

}  // namespace htpscope
