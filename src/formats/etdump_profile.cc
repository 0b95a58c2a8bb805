#include "formats/etdump_profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>

namespace htpscope {
namespace {

constexpr std::string_view kCyclesSuffix = " (cycles)";

// The QNN identifier the delegate logged an event under: its delegate string
// id, or, as some ExecuTorch versions write it, its name; "" for other events.
std::string_view QnnIdentifier(const Etdump& dump, const EtdumpEvent& e) {
  if (e.kind != EtdumpEventKind::kProfile) return {};
  std::string_view id = dump.strings.View(e.delegate_debug_id_str);
  return id.empty() ? dump.strings.View(e.name) : id;
}

// The QNN per-node label of a delegate event ("conv:OpId_7"), or nullopt
// when the event is not one: an identifier that ends in " (cycles)" and
// names an OpId.
std::optional<std::string_view> QnnNodeLabel(const Etdump& dump, const EtdumpEvent& e) {
  std::string_view id = QnnIdentifier(dump, e);
  if (!id.ends_with(kCyclesSuffix)) return std::nullopt;
  id.remove_suffix(kCyclesSuffix.size());
  if (id.find("OpId_") == std::string_view::npos) return std::nullopt;
  return id;
}

// A delegate event for one of the QNN profile's top-level events, which
// ExecuTorch's QNN delegate (since 2025) logs before each one's sub-events
// with its unit appended to the identifier: " (us)", " (bytes)", " (count)",
// nothing for cycles (whose identifiers end in " (cycles)" already).
struct QnnEventMetric {
  std::string_view name;  // "QNN accelerator (execute) time", "Accelerator (execute) time (cycles)"
  std::string_view unit;  // as the viewer's rows print it, lower-cased: "us", "cycles", ...
};
std::optional<QnnEventMetric> QnnMetric(const Etdump& dump, const EtdumpEvent& e) {
  const std::string_view id = QnnIdentifier(dump, e);
  if (id.empty()) return std::nullopt;
  for (auto [suffix, unit] : {std::pair<std::string_view, std::string_view>{" (us)", "us"},
                              {" (bytes)", "bytes"},
                              {" (count)", "count"}})
    if (id.ends_with(suffix) && id.size() > suffix.size())
      return QnnEventMetric{id.substr(0, id.size() - suffix.size()), unit};
  if (id.ends_with(kCyclesSuffix)) return QnnEventMetric{id, "cycles"};
  return std::nullopt;
}

constexpr std::string_view kNodesParent = "Accelerator (execute) time (cycles)";

bool IsDelegateEvent(const EtdumpEvent& e) {
  return e.kind == EtdumpEventKind::kProfile &&
         (e.delegate_debug_id_int >= 0 || e.delegate_debug_id_str != StringPool::kEmpty);
}

}  // namespace

bool HasQnnDelegateOpEvents(const Etdump& dump) {
  for (const EtdumpRunData& run : dump.runs)
    for (const EtdumpEvent& e : run.events)
      if (QnnNodeLabel(dump, e)) return true;
  return false;
}

ProfileReport EtdumpAsProfile(const Etdump& dump) {
  ProfileReport report;
  report.path = dump.path;
  report.format = ProfileFormat::kEtdump;
  for (const std::string& w : dump.warnings) report.warnings.push_back(w);
  // The delegate calls (instruction ids) with per-node events, in order of
  // first appearance: one graph each.
  std::vector<int32_t> calls;
  for (const EtdumpRunData& run : dump.runs)
    for (const EtdumpEvent& e : run.events)
      if (QnnNodeLabel(dump, e) &&
          std::find(calls.begin(), calls.end(), e.instruction_id) == calls.end())
        calls.push_back(e.instruction_id);
  const bool several = calls.size() > 1;
  size_t other_delegate_events = 0, backwards = 0;
  int execution = 0;
  std::map<int32_t, int> executions_of_call;
  for (size_t r = 0; r < dump.runs.size(); ++r) {
    const EtdumpRunData& run = dump.runs[r];
    std::map<int32_t, ProfileBlock> blocks;  // by delegate call
    std::optional<uint64_t> method_execute_ticks;
    for (const EtdumpEvent& e : run.events) {
      std::optional<std::string_view> label = QnnNodeLabel(dump, e);
      if (!label) {
        // A top-level QNN event of a call with node events: a metric of its block.
        std::optional<QnnEventMetric> metric = QnnMetric(dump, e);
        if (metric && std::find(calls.begin(), calls.end(), e.instruction_id) != calls.end() &&
            e.end_ticks >= e.start_ticks) {
          ProfileMetric m;
          m.name = std::string(metric->name);
          m.source = "Backend";
          m.value = static_cast<double>(e.end_ticks - e.start_ticks);
          m.has_value = true;
          m.unit = std::string(metric->unit);
          blocks[e.instruction_id].metrics.push_back(std::move(m));
          continue;
        }
        if (IsDelegateEvent(e)) ++other_delegate_events;
        if (e.kind == EtdumpEventKind::kProfile && dump.strings.View(e.name) == "Method::execute" &&
            e.end_ticks >= e.start_ticks)
          method_execute_ticks = e.end_ticks - e.start_ticks;
        continue;
      }
      // Cycles are signed in the profile's tables: a value past int64 (or
      // an end before its start) cannot be a node's cycles.
      if (e.end_ticks < e.start_ticks ||
          e.end_ticks - e.start_ticks >
              static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        ++backwards;
        continue;
      }
      ProfileBlock& block = blocks[e.instruction_id];
      ProfileNode node;
      SetProfileNodeLabel(*label, &node);
      node.cycles = static_cast<int64_t>(e.end_ticks - e.start_ticks);
      block.nodes.push_back(std::move(node));
    }
    // Only the blocks of a call with node events are executions (a call
    // that logged metrics alone would otherwise be one).
    bool any_node = false;
    for (const auto& [call, block] : blocks) any_node = any_node || !block.nodes.empty();
    if (!any_node) {
      for (const auto& [call, block] : blocks) other_delegate_events += block.metrics.size();
      continue;
    }
    ++execution;
    for (int32_t call : calls) {
      auto it = blocks.find(call);
      if (it == blocks.end()) continue;
      ProfileBlock& block = it->second;
      if (block.nodes.empty()) {  // this call logged metrics but no node event here
        other_delegate_events += block.metrics.size();
        continue;
      }
      block.title = fmt::format("Execute {}", execution);
      block.phase = ProfilePhase::kExecute;
      block.execution = execution;
      if (several) {
        block.graph_index =
            static_cast<int>(std::find(calls.begin(), calls.end(), call) - calls.begin());
        block.graph_name = fmt::format("instruction {}", call);
        block.graph = block.graph_name;
      }
      block.graph_execution = ++executions_of_call[call];
      block.nodes_parent = block.Find(kNodesParent) ? std::string(kNodesParent)
                                                    : "QNN delegate per-node events (cycles)";
      // ETDump blocks in file order, a delegate call's before the next.
      block.first_line = static_cast<int>(r + 1);
      if (method_execute_ticks && !several) {
        ProfileMetric m;
        m.name = "Method::execute";
        m.source = "ExecuTorch";
        m.value = static_cast<double>(*method_execute_ticks);
        m.has_value = true;
        m.unit = "ticks";
        block.metrics.push_back(std::move(m));
      }
      report.raw.push_back(std::move(block));
    }
  }
  if (calls.empty())
    report.warnings.push_back(
        "no QNN delegate per-node events (ExecuTorch's QNN backend writes them when the "
        "program runs with QNN profiling on): the ETDump gives no executions here; `summary "
        "FILE.etdp` summarises its events");
  if (other_delegate_events > 0)
    report.warnings.push_back(fmt::format(
        "{} delegate events are neither QNN per-node cycles (\"name:OpId_N (cycles)\") nor "
        "QNN figures with their unit (\"... (us)\", \"(bytes)\", \"(count)\", \"(cycles)\") "
        "of an execution with per-node events: left out",
        other_delegate_events));
  if (backwards > 0)
    report.warnings.push_back(fmt::format(
        "{} QNN per-node events end before they start or exceed 2^63 cycles: left out", backwards));
  return report;
}

ProfileReport ReadEtdumpProfile(const std::string& path) {
  return EtdumpAsProfile(ReadEtdump(path));
}

}  // namespace htpscope
