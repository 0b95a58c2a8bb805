// The diff's per-op comparison of the profile's per-node cycles
// (RunDiff::profile_ops): each side's steady-state executions pooled per op.
#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <cmath>
#include <span>

#include "analysis/profile_node_series.h"
#include "analysis/run_diff.h"
#include "base/string_pool.h"

namespace htpscope {
namespace {

struct ProfileOpPool {
  std::optional<uint32_t> op_id;  // of the first run that lists it
  std::vector<double> steady, cold;
};

struct ProfileOpPools {
  std::vector<std::pair<std::string, ProfileOpPool>> pools;  // order of first appearance
  absl::flat_hash_map<std::string, uint32_t> index;

  ProfileOpPool& operator[](const std::string& name) {
    auto [it, inserted] = index.try_emplace(name, static_cast<uint32_t>(pools.size()));
    if (inserted) pools.emplace_back(name, ProfileOpPool{});
    return pools[it->second].second;
  }
  const ProfileOpPool* Find(const std::string& name) const {
    auto it = index.find(name);
    return it == index.end() ? nullptr : &pools[it->second].second;
  }
};

// Every run's first graph with executions: per op (by the name the profile
// gives it; the full label where two ops of one run share a name), its
// cycles in executions 2..N and in execution 1.
ProfileOpPools PoolProfileOps(const std::vector<RunFacts>& runs) {
  ProfileOpPools out;
  for (const RunFacts& facts : runs) {
    if (facts.coarse.empty()) continue;
    const GraphNodeSeries series = CollectNodeSeries(*facts.run, facts.coarse.front().graph);
    absl::flat_hash_map<std::string_view, int> uses;
    for (const ProfileNodeRow* node : series.first_node) ++uses[NodeDisplayName(*node)];
    for (const NodeSample& sample : series.samples) {
      const ProfileNodeRow& node = *series.first_node[sample.series];
      std::string_view name = NodeDisplayName(node);
      ProfileOpPool& pool = out[std::string(uses[name] > 1 ? std::string_view(node.label) : name)];
      if (!pool.op_id) pool.op_id = node.op_id;
      (sample.execution == 0 ? pool.cold : pool.steady)
          .push_back(static_cast<double>(sample.cycles));
    }
  }
  return out;
}

constexpr char kSteadyBasis[] =
    "profile per-node cycles, steady state: median over executions 2..N of every run";
constexpr char kColdBasis[] = "profile per-node cycles, cold first execution: median over runs";

ProfileOpDelta MakeDelta(const std::string& name, const ProfileOpPool* a, const ProfileOpPool* b) {
  static const std::vector<double> kNone;
  using Samples = std::span<const double>;
  ProfileOpDelta d;
  d.name = name;
  d.status = a && b ? OpMatch::kMatched : a ? OpMatch::kRemoved : OpMatch::kAdded;
  if (a) d.a_op_id = a->op_id;
  if (b) d.b_op_id = b->op_id;
  d.steady_cycles = CompareSamples(Samples(a ? a->steady : kNone), Samples(b ? b->steady : kNone),
                                   "cycles", kSteadyBasis);
  d.cold_cycles = CompareSamples(Samples(a ? a->cold : kNone), Samples(b ? b->cold : kNone),
                                 "cycles", kColdBasis);
  return d;
}

}  // namespace

std::optional<double> ProfileOpDelta::steady_change_cycles() const {
  if (!steady_cycles.a && !steady_cycles.b) return std::nullopt;
  return steady_cycles.b_value().value_or(0) - steady_cycles.a_value().value_or(0);
}

std::vector<ProfileOpDelta> DiffProfileOps(const std::vector<RunFacts>& runs_a,
                                           const std::vector<RunFacts>& runs_b) {
  const ProfileOpPools a = PoolProfileOps(runs_a), b = PoolProfileOps(runs_b);
  std::vector<ProfileOpDelta> out;
  out.reserve(a.pools.size() + b.pools.size());
  for (const auto& [name, pool] : a.pools) out.push_back(MakeDelta(name, &pool, b.Find(name)));
  for (const auto& [name, pool] : b.pools)
    if (!a.Find(name)) out.push_back(MakeDelta(name, nullptr, &pool));
  std::stable_sort(out.begin(), out.end(), [](const ProfileOpDelta& x, const ProfileOpDelta& y) {
    const double cx = std::fabs(x.steady_change_cycles().value_or(0));
    const double cy = std::fabs(y.steady_change_cycles().value_or(0));
    if (cx != cy) return cx > cy;
    return x.name < y.name;
  });
  return out;
}

}  // namespace htpscope
