#include "analysis/timeline.h"

#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "analysis/group_reachability.h"
#include "analysis/op_groups.h"
#include "base/number_text.h"
#include "base/sort_util.h"

namespace htpscope {
namespace {

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

char GroupLetter(size_t i) {
  static constexpr char kLetters[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return i < sizeof(kLetters) - 1 ? kLetters[i] : '?';
}

// Matrix work: tid 256 also carries DMA, checkpoints and sync, which are not.
bool IsHmxWork(const OpInstanceRow& op) { return (op.flags & kFlagUsesHmx) != 0; }

}  // namespace

UserGroup ParseUserGroup(std::string_view spec) {
  const std::optional<NameRegex> parts = SplitNameRegex(spec);
  if (!parts || parts->name.empty() || parts->regex.empty())
    throw std::invalid_argument(
        fmt::format("\"{}\": expected NAME=REGEX with both parts non-empty", spec));
  UserGroup g;
  g.name = std::string(parts->name);
  g.pattern = std::string(parts->regex);
  std::shared_ptr<const re2::RE2> regex = CompileRegex(g.pattern);
  if (!regex->ok())
    throw std::invalid_argument(
        fmt::format("\"{}\": invalid regular expression: {}", spec, regex->error()));
  g.regex = std::move(regex);
  return g;
}

std::string_view Grouping::GroupName(std::string_view qnn_op_name,
                                     std::string_view htp_op_type) const {
  for (const auto& g : user) {
    if (RegexSearch(*g.regex, qnn_op_name) || RegexSearch(*g.regex, htp_op_type)) return g.name;
  }
  std::string_view name = by == GroupBy::kQnnOp ? qnn_op_name : htp_op_type;
  return name.empty() ? std::string_view("(unnamed)") : name;
}

SliceMark MarkOf(std::string_view type, OpCategory category, uint8_t flags) {
  if (category == OpCategory::kCompute) return SliceMark::kGroup;
  if (category == OpCategory::kSystemService) {
    if (flags & (kFlagDmaSet | kFlagDmaWait) || Contains(type, "DmaCheckpoint"))
      return SliceMark::kDmaCheckpoint;
    if (flags & kFlagSync || Contains(type, "SyncOp") || Contains(type, "Sync Op"))
      return SliceMark::kSync;
    if (flags & kFlagDma || Contains(type, "DramToTcm") || Contains(type, "TcmToDram") ||
        Contains(type, "_to_vtcm"))
      return SliceMark::kDmaCopy;
    return SliceMark::kOtherService;
  }
  if (Contains(type, "Spill") || Contains(type, "Fill")) return SliceMark::kSpillFill;
  if (Contains(type, "Concat")) return SliceMark::kConcat;
  if (Contains(type, "ForceFormat") || Contains(type, "flat_from_vtcm"))
    return SliceMark::kForceFormat;
  return SliceMark::kSlice;
}

char MarkChar(SliceMark mark) {
  switch (mark) {
    case SliceMark::kGroup:
      return 0;
    case SliceMark::kSpillFill:
      return '%';
    case SliceMark::kConcat:
      return '+';
    case SliceMark::kForceFormat:
      return '~';
    case SliceMark::kSlice:
      return '/';
    case SliceMark::kDmaCopy:
      return '=';
    case SliceMark::kDmaCheckpoint:
      return ':';
    case SliceMark::kSync:
      return '!';
    case SliceMark::kOtherService:
      return '*';
  }
  return '*';
}

const char* MarkName(SliceMark mark) {
  switch (mark) {
    case SliceMark::kGroup:
      return "op group";
    case SliceMark::kSpillFill:
      return "spill/fill";
    case SliceMark::kConcat:
      return "concat";
    case SliceMark::kForceFormat:
      return "format change";
    case SliceMark::kSlice:
      return "slice";
    case SliceMark::kDmaCopy:
      return "DMA copy";
    case SliceMark::kDmaCheckpoint:
      return "DMA checkpoint/wait";
    case SliceMark::kSync:
      return "sync";
    case SliceMark::kOtherService:
      return "other system service";
  }
  return "other system service";
}

Timeline BuildTimeline(const Run& run, const Grouping& grouping, const TimelineWindow& window) {
  Timeline t;
  t.label = run.label;
  const auto& slices = run.slices;
  if (slices.empty()) throw std::invalid_argument("the run holds no executed op slices");
  t.graph_start_cycles = std::numeric_limits<int64_t>::max();
  t.graph_end_cycles = std::numeric_limits<int64_t>::min();
  for (const auto& s : slices) {
    t.graph_start_cycles = std::min(t.graph_start_cycles, s.start_cycle);
    t.graph_end_cycles = std::max(t.graph_end_cycles, s.end_cycle());
  }
  // One group name per op instance (its slices share it): views of the
  // run's strings or the grouping's names.
  std::vector<std::string_view> instance_group(run.op_instances.size());
  for (size_t k = 0; k < run.op_instances.size(); ++k)
    instance_group[k] = grouping.GroupName(run.Str(run.op_instances[k].qnn_op_name),
                                           run.Str(run.op_instances[k].htp_op_type));

  // The window.
  t.window_start_cycles = t.graph_start_cycles;
  t.window_end_cycles = t.graph_end_cycles;
  std::vector<std::string> how;
  auto op_bound = [&](const std::string& name, bool first_start) {
    std::optional<int64_t> bound;
    for (const auto& s : slices) {
      const OpInstanceRow& op = run.op_instances[s.instance];
      if (run.Str(op.qnn_op_name) != name && run.Str(op.htp_op_type) != name &&
          instance_group[s.instance] != name)
        continue;
      int64_t v = first_start ? s.start_cycle : s.end_cycle();
      bound = !bound ? v : first_start ? std::min(*bound, v) : std::max(*bound, v);
    }
    if (!bound)
      throw std::invalid_argument(fmt::format(
          "no executed op is named \"{}\" (QNN op name, HTP op type or group name)", name));
    return *bound;
  };
  if (window.from_op) {
    t.window_start_cycles = op_bound(*window.from_op, true);
    how.push_back(fmt::format("from the first start of {}", *window.from_op));
  }
  if (window.to_op) {
    t.window_end_cycles = op_bound(*window.to_op, false);
    how.push_back(fmt::format("to the last end of {}", *window.to_op));
  }
  if (window.from_cycle) {
    t.window_start_cycles =
        std::max(t.window_start_cycles, t.graph_start_cycles + *window.from_cycle);
    how.push_back(fmt::format("from graph cycle {}", *window.from_cycle));
  }
  if (window.to_cycle) {
    t.window_end_cycles = std::min(t.window_end_cycles, t.graph_start_cycles + *window.to_cycle);
    how.push_back(fmt::format("to graph cycle {}", *window.to_cycle));
  }
  t.window_start_cycles = std::max(t.window_start_cycles, t.graph_start_cycles);
  t.window_end_cycles = std::min(t.window_end_cycles, t.graph_end_cycles);
  if (t.window_end_cycles < t.window_start_cycles ||
      (t.window_end_cycles == t.window_start_cycles && !window.allow_empty))
    throw std::invalid_argument(fmt::format(
        "the window is empty: it starts at graph cycle {} and ends at graph cycle {}",
        t.window_start_cycles - t.graph_start_cycles, t.window_end_cycles - t.graph_start_cycles));
  t.window = how.empty() ? "the whole trace" : fmt::format("{}", fmt::join(how, ", "));

  // Slices in the window, clipped; groups in order of first start.
  // Radix-sorted by start (stably: slices of one start keep their order);
  // the cycles from the graph's start share their high digits.
  struct SliceStart {
    uint64_t from_graph_start_cycles;
    uint32_t slice;
  };
  std::vector<SliceStart> by_start(slices.size());
  for (uint32_t i = 0; i < by_start.size(); ++i)
    // In unsigned arithmetic: the difference fits 64 bits where the signed
    // one may not (a hostile trace's starts can span the whole int64 range).
    by_start[i] = {
        static_cast<uint64_t>(slices[i].start_cycle) - static_cast<uint64_t>(t.graph_start_cycles),
        i};
  StableRadixSort(by_start, [](const SliceStart& s) { return s.from_graph_start_cycles; });
  absl::flat_hash_map<std::string_view, uint32_t> group_index;
  // At most one group per instance: room for all, so that the groups are
  // never moved (capacity never touched costs no memory).
  t.groups.reserve(run.op_instances.size());
  // Each instance's group (index into t.groups), once its first slice is placed.
  std::vector<std::optional<uint32_t>> group_of_instance(run.op_instances.size());
  std::vector<Interval> all, hmx, hvx;
  all.reserve(slices.size());
  t.slices.reserve(slices.size());
  for (const SliceStart& placed : by_start) {
    const uint32_t i = placed.slice;
    const SliceRow& s = slices[i];
    const OpInstanceRow& op = run.op_instances[s.instance];
    const std::string_view group_name = instance_group[s.instance];
    int64_t start = std::max(s.start_cycle, t.window_start_cycles);
    int64_t end = std::min(s.end_cycle(), t.window_end_cycles);
    if (end < start || (end == start && s.dur_cycles > 0)) continue;  // outside the window
    std::optional<uint32_t>& known_group = group_of_instance[s.instance];
    if (!known_group) {
      auto [git, inserted] =
          group_index.try_emplace(group_name, static_cast<uint32_t>(t.groups.size()));
      if (inserted) {
        TimelineGroup g;
        g.name = std::string(group_name);
        g.letter = GroupLetter(t.groups.size());
        t.groups.push_back(std::move(g));
      }
      known_group = git->second;
    }
    const uint32_t gi = *known_group;
    const OpCategory category = op.category;
    if (category == OpCategory::kCompute) t.groups[gi].category = OpCategory::kCompute;
    TimelineSlice ts;
    ts.slice = i;
    ts.group = gi;
    ts.start_cycles = start;
    ts.end_cycles = end;
    ts.tid = s.tid;
    ts.mark = MarkOf(run.Str(op.htp_op_type), category, op.flags);
    all.push_back({start, end});
    if (IsHmxWork(op)) hmx.push_back({start, end});
    if (UnitKindOfTid(s.tid) == UnitKind::kHvx) hvx.push_back({start, end});
    t.slices.push_back(ts);
  }
  // Each group's slices (indices into t.slices, in their order there): one
  // flat array cut by group, not three vectors per group.
  std::vector<uint32_t> group_begin(t.groups.size() + 1, 0);
  for (const TimelineSlice& ts : t.slices) ++group_begin[ts.group + 1];
  for (size_t gi = 0; gi < t.groups.size(); ++gi) group_begin[gi + 1] += group_begin[gi];
  std::vector<uint32_t> by_group(t.slices.size());
  {
    std::vector<uint32_t> next(group_begin.begin(), group_begin.end() - 1);
    for (uint32_t k = 0; k < t.slices.size(); ++k) by_group[next[t.slices[k].group]++] = k;
  }
  std::vector<Interval> intervals;  // one group's at a time
  std::vector<uint64_t> ops;
  std::vector<uint32_t> tids;
  for (size_t gi = 0; gi < t.groups.size(); ++gi) {
    TimelineGroup& g = t.groups[gi];
    intervals.clear();
    ops.clear();
    tids.clear();
    for (uint32_t b = group_begin[gi]; b < group_begin[gi + 1]; ++b) {
      const TimelineSlice& ts = t.slices[by_group[b]];
      intervals.push_back({ts.start_cycles, ts.end_cycles});
      ops.push_back(slices[ts.slice].op_id);
      tids.push_back(ts.tid);
    }
    g.stats = ComputeConcurrency(intervals);
    std::sort(ops.begin(), ops.end());
    g.ops = static_cast<uint64_t>(std::unique(ops.begin(), ops.end()) - ops.begin());
    std::sort(tids.begin(), tids.end());
    g.tids.assign(tids.begin(), std::unique(tids.begin(), tids.end()));
    // A group whose ops are boundary and system-service ones only keeps that
    // category's name in reports.
    if (g.category != OpCategory::kCompute) g.category = OpCategory::kBoundary;
  }
  // Rows: every thread present in the trace, even when idle in the window,
  // by tid; a trace has a handful of threads, each with many slices.
  std::vector<uint32_t> trace_tids;
  for (const auto& s : slices)
    if (trace_tids.empty() || trace_tids.back() != s.tid) trace_tids.push_back(s.tid);
  SortUnique(trace_tids);
  for (uint32_t tid : trace_tids) {
    TimelineRow row;
    row.tid = tid;
    row.kind = UnitKindOfTid(tid);
    for (const auto& thread : run.thread_names)
      if (thread.tid == tid) row.name = thread.name;  // the last, should the trace name it twice
    t.rows.push_back(std::move(row));
  }
  std::vector<std::vector<Interval>> row_intervals(t.rows.size());
  for (uint32_t k = 0; k < t.slices.size(); ++k) {
    const TimelineSlice& ts = t.slices[k];
    const size_t r = static_cast<size_t>(
        std::lower_bound(trace_tids.begin(), trace_tids.end(), ts.tid) - trace_tids.begin());
    TimelineRow& row = t.rows[r];
    row.slices.push_back(k);
    row.busy_cycles += ts.end_cycles - ts.start_cycles;
    row_intervals[r].push_back({ts.start_cycles, ts.end_cycles});
  }
  for (size_t r = 0; r < t.rows.size(); ++r)
    t.rows[r].active_cycles = ComputeConcurrency(row_intervals[r]).active_cycles;
  t.all = ComputeConcurrency(all);
  t.hmx_active_cycles = ComputeConcurrency(hmx).active_cycles;
  t.hvx_active_cycles = ComputeConcurrency(hvx).active_cycles;
  t.hmx_hvx_overlap_cycles = OverlapCycles(hmx, hvx);
  t.hmx_hvx_overlap_pct = 100.0 * static_cast<double>(t.hmx_hvx_overlap_cycles) /
                          static_cast<double>(t.window_cycles());
  return t;
}

void AddSerializationWarnings(Timeline& timeline, const DependencyGraph& graph,
                              const Grouping& grouping) {
  SerializationCheck(timeline).AddWarnings(timeline, graph, grouping);
}

SerializationCheck::SerializationCheck(const Timeline& timeline) {
  // Boundary and system-service slices by start, with the running maximum of
  // their ends: the slices overlapping a gap are found walking back from the
  // gap's end only while some earlier slice still ends inside it.
  for (const auto& ts : timeline.slices)
    if (ts.mark != SliceMark::kGroup) marked_.push_back(&ts);
  std::stable_sort(marked_.begin(), marked_.end(),
                   [](const TimelineSlice* x, const TimelineSlice* y) {
                     return x->start_cycles < y->start_cycles;
                   });
  max_end_so_far_.resize(marked_.size());
  for (size_t i = 0; i < marked_.size(); ++i)
    max_end_so_far_[i] = std::max(marked_[i]->end_cycles,
                                  i ? max_end_so_far_[i - 1] : std::numeric_limits<int64_t>::min());
}

void SerializationCheck::AddWarnings(Timeline& timeline, const DependencyGraph& graph,
                                     const Grouping& grouping) const {
  NodeGroups node_groups =
      GroupNodes(graph, [&](const DepNode& n) { return grouping.GroupName(n); });
  GroupReachability reach(graph, node_groups, kDataEdges);
  std::vector<GroupActivity> activity;
  std::vector<std::optional<uint32_t>> node_group_of;
  activity.reserve(timeline.groups.size());
  node_group_of.reserve(timeline.groups.size());
  for (const TimelineGroup& g : timeline.groups) {
    // The group's span over its clipped slices, as its stats hold it.
    activity.push_back({g.name, g.stats.first_start_cycles, g.stats.last_end_cycles,
                        g.stats.intervals > 0, g.tids, g.category == OpCategory::kCompute});
    node_group_of.push_back(node_groups.Find(g.name));
  }
  auto depends = [&](size_t a, size_t b) {
    if (!node_group_of[a] || !node_group_of[b]) return true;  // unknown: do not accuse
    return reach.Reaches(*node_group_of[a], *node_group_of[b]);
  };
  // What ran in a gap, listed by name: the marks in their names' order.
  constexpr size_t kMarks = static_cast<size_t>(SliceMark::kOtherService) + 1;
  std::array<SliceMark, kMarks> by_name;
  for (size_t m = 0; m < kMarks; ++m) by_name[m] = static_cast<SliceMark>(m);
  std::sort(by_name.begin(), by_name.end(), [](SliceMark x, SliceMark y) {
    return std::string_view(MarkName(x)) < std::string_view(MarkName(y));
  });
  for (const auto& p : FindSerializedGroups(activity, depends)) {
    // What ran in the gap: boundary and system-service work is the usual tax.
    std::array<int64_t, kMarks> in_gap{};
    std::array<bool, kMarks> seen{};
    size_t i = std::partition_point(marked_.begin(), marked_.end(),
                                    [&](const TimelineSlice* ts) {
                                      return ts->start_cycles < p.second_start_cycles;
                                    }) -
               marked_.begin();
    while (i > 0 && max_end_so_far_[i - 1] > p.first_end_cycles) {
      const TimelineSlice& ts = *marked_[--i];
      int64_t a = std::max(ts.start_cycles, p.first_end_cycles);
      int64_t b = std::min(ts.end_cycles, p.second_start_cycles);
      if (b > a) {
        in_gap[static_cast<size_t>(ts.mark)] += b - a;
        seen[static_cast<size_t>(ts.mark)] = true;
      }
    }
    std::string gap_work;
    for (SliceMark mark : by_name) {
      if (!seen[static_cast<size_t>(mark)]) continue;
      gap_work += fmt::format("{}{} {} cycles", gap_work.empty() ? "" : ", ", MarkName(mark),
                              GroupDigits(in_gap[static_cast<size_t>(mark)]));
    }
    timeline.warnings.push_back(
        {WarningCode::serialized_groups,
         fmt::format("{} and {} share no data dependency yet ran back to back with zero overlap: "
                     "{} ends at graph cycle {}, {} starts at graph cycle {} ({} cycles later{})",
                     p.first, p.second, p.first,
                     GroupDigits(p.first_end_cycles - timeline.graph_start_cycles), p.second,
                     GroupDigits(p.second_start_cycles - timeline.graph_start_cycles),
                     GroupDigits(p.gap_cycles()),
                     gap_work.empty() ? "" : "; in the gap: " + gap_work)});
  }
}

}  // namespace htpscope
