// The diff's per-op comparison of the profile's per-node cycles
// (RunDiff::profile_ops): each side's steady-state executions pooled per op.
#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <span>
#include <string_view>

#include "analysis/profile_node_series.h"
#include "analysis/run_diff.h"
#include "base/huge_pages.h"
#include "base/sort_util.h"
#include "base/string_pool.h"

namespace htpscope {
namespace {

struct ProfileOpPool {
  std::optional<uint32_t> op_id;  // of the first run that lists it
  std::vector<double> steady, cold;
};

struct ProfileOpPools {
  std::vector<std::pair<std::string, ProfileOpPool>> pools;  // order of first appearance
  absl::flat_hash_map<std::string, uint32_t> index;          // looked up by string_view too

  // The position in `pools` of `name`'s pool, added when new.
  uint32_t IndexOf(std::string_view name) {
    auto it = index.find(absl::string_view(name.data(), name.size()));
    if (it != index.end()) return it->second;
    const auto at = static_cast<uint32_t>(pools.size());
    pools.emplace_back(std::string(name), ProfileOpPool{});
    index.emplace(pools.back().first, at);
    return at;
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
    // The samples come by series: each series' pool is looked up once.
    uint32_t pool_index = 0;
    for (size_t i = 0; i < series.samples.size(); ++i) {
      const NodeSample& sample = series.samples[i];
      if (i == 0 || sample.series != series.samples[i - 1].series) {
        const ProfileNodeRow& node = *series.first_node[sample.series];
        std::string_view name = NodeDisplayName(node);
        pool_index = out.IndexOf(uses[name] > 1 ? std::string_view(node.label) : name);
        ProfileOpPool& pool = out.pools[pool_index].second;
        if (!pool.op_id) pool.op_id = node.op_id;
      }
      ProfileOpPool& pool = out.pools[pool_index].second;
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
  // The sides are pooled each on its own core.
  std::future<ProfileOpPools> pooled_b = std::async(std::launch::async | std::launch::deferred,
                                                    [&runs_b] { return PoolProfileOps(runs_b); });
  const ProfileOpPools a = PoolProfileOps(runs_a), b = pooled_b.get();
  std::vector<ProfileOpDelta> out;
  out.reserve(a.pools.size() + b.pools.size());
  PrefaultInParallel(out.data(), a.pools.size() * sizeof(ProfileOpDelta));  // A's ops, at least
  for (const auto& [name, pool] : a.pools) out.push_back(MakeDelta(name, &pool, b.Find(name)));
  for (const auto& [name, pool] : b.pools)
    if (!a.Find(name)) out.push_back(MakeDelta(name, nullptr, &pool));
  // Largest |Δ steady| first, then by name (ties in the order made), the
  // ~500-byte deltas ranked by key and moved once into place.
  using Rank = std::pair<double, std::string_view>;  // |Δ steady|, name
  std::vector<uint32_t> from = StableOrderByKeys(
      out.size(),
      [&out](size_t i) {
        return Rank(std::fabs(out[i].steady_change_cycles().value_or(0)), out[i].name);
      },
      [](const Rank& x, const Rank& y) {
        return x.first != y.first ? x.first > y.first : x.second < y.second;
      });
  ApplyPermutation(out, from);
  return out;
}

}  // namespace htpscope
