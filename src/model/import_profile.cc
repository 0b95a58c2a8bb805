#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "model/import.h"

namespace htpscope::model_import {
namespace {

// A metric the coarse view needs in µs; a line in another unit is withheld
// with a warning (it would be a number of the wrong kind).
std::optional<double> MicrosecondsMetric(const ProfileBlock& block, std::string_view name,
                                         std::vector<WarningRow>& warnings) {
  const ProfileMetric* m = block.Find(name);
  if (!m || !m->has_value) return std::nullopt;
  if (m->unit != "us") {
    Warn(warnings, WarningCode::unexpected_unit,
         fmt::format("{}: \"{}\" is in \"{}\", expected \"us\"; not used", block.title, name,
                     m->unit));
    return std::nullopt;
  }
  return m->value;
}

std::optional<int64_t> IntegerMetric(const ProfileBlock& block, std::string_view name,
                                     std::string_view unit) {
  const ProfileMetric* m = block.Find(name);
  if (!m || !m->has_value || m->unit != unit) return std::nullopt;
  return static_cast<int64_t>(std::llround(m->value));
}

}  // namespace

void ImportProfile(ProfileReport&& profile, ProfileTables& tables,
                   std::vector<WarningRow>& warnings) {
  for (const auto& w : profile.warnings)
    Warn(warnings, WarningCode::reader, fmt::format("{}: {}", profile.path, w));
  // Blocks in file order (CSV blocks have no line: statistics first, then
  // executions, as the CSV lists them).
  std::vector<ProfileBlock*> blocks;
  for (auto& b : profile.statistics) blocks.push_back(&b);
  for (auto& b : profile.raw) blocks.push_back(&b);
  std::stable_sort(blocks.begin(), blocks.end(), [](const ProfileBlock* a, const ProfileBlock* b) {
    return a->first_line < b->first_line;
  });
  // Sized once, and each block's nodes moved and freed as they are taken:
  // the reader's copy and the table are never both whole (a big profile
  // holds hundreds of thousands of node lines).
  size_t total_nodes = 0, total_metrics = 0;
  for (const ProfileBlock* b : blocks) {
    total_nodes += b->nodes.size();
    total_metrics += b->metrics.size();
  }
  tables.profile_nodes.reserve(tables.profile_nodes.size() + total_nodes);
  tables.profile_metrics.reserve(tables.profile_metrics.size() + total_metrics);
  std::map<const ProfileBlock*, uint32_t> block_index;
  for (ProfileBlock* b : blocks) {
    RequireSumFits(
        b->nodes, [](const ProfileNode& n) { return n.cycles; }, profile.path,
        "a block's per-node cycles");
    RequireSumFits(
        b->nodes,
        [](const ProfileNode& n) { return n.lint.ValueOrEmpty().wait_cycles.value_or(0); },
        profile.path, "a block's wait cycles");
    ProfileBlockRow row;
    row.title = b->title;
    row.graph_name = b->graph;
    row.first_line = b->first_line;
    row.nodes_parent = b->nodes_parent;
    row.first_metric = static_cast<uint32_t>(tables.profile_metrics.size());
    row.metric_count = static_cast<uint32_t>(b->metrics.size());
    // A reader that does not say the phase leaves it to the title.
    row.phase = b->phase != ProfilePhase::kOther ? b->phase : ProfilePhaseOfTitle(b->title);
    row.timestamp_us = b->timestamp_us;
    for (size_t i = 0; i < b->metrics.size(); ++i) {
      const ProfileMetric& m = b->metrics[i];
      ProfileMetricRow metric;
      metric.block = static_cast<uint32_t>(tables.profile_blocks.size());
      metric.source = m.source;
      metric.name = m.name;
      if (m.has_value) metric.value = m.value;
      metric.unit = m.unit;
      // Only an earlier metric of the block can be a parent.
      if (m.parent >= 0 && static_cast<size_t>(m.parent) < i)
        metric.parent = row.first_metric + static_cast<uint32_t>(m.parent);
      tables.profile_metrics.push_back(std::move(metric));
    }
    row.first_node = static_cast<uint32_t>(tables.profile_nodes.size());
    row.node_count = static_cast<uint32_t>(b->nodes.size());
    const uint32_t index = static_cast<uint32_t>(tables.profile_blocks.size());
    for (auto& n : b->nodes) {
      ProfileNodeRow node;
      node.block = index;
      node.label = std::move(n.label);
      node.qnn_op_name = std::move(n.qnn_op_name);
      node.op_id = n.op_id;
      node.cycles = n.cycles;
      node.lint = std::move(n.lint);
      node.source_ops = std::move(n.source_ops);
      tables.profile_nodes.push_back(std::move(node));
    }
    std::vector<ProfileNode>().swap(b->nodes);
    block_index[b] = index;
    tables.profile_blocks.push_back(std::move(row));
  }
  // Executions, graph by graph in order of first appearance; each graph's
  // in file order.
  for (const ProfileGraph& graph : profile.Graphs()) {
    if (graph.executions.empty()) continue;
    const uint32_t g = static_cast<uint32_t>(tables.graphs.size());
    std::string name = graph.name;
    if (name.empty() && graph.index) name = fmt::format("graph {}", *graph.index);
    tables.graphs.push_back({name, Source::kProfile, 0});
    for (const ProfileBlock* block : graph.statistics)
      tables.profile_blocks[block_index.at(block)].graph = g;
    for (const ProfileBlock* block : graph.executions) {
      ExecutionRow e;
      e.graph = g;
      e.index = static_cast<int32_t>(++tables.graphs[g].executions);
      e.cold = e.index == 1;
      e.qnn_accelerator_us = MicrosecondsMetric(*block, "QNN accelerator (execute) time", warnings);
      e.accelerator_us = MicrosecondsMetric(*block, "Accelerator (execute) time", warnings);
      e.accelerator_excluding_wait_us =
          MicrosecondsMetric(*block, "Accelerator (execute excluding wait) time", warnings);
      e.rpc_us = MicrosecondsMetric(*block, "RPC (execute) time", warnings);
      e.qnn_execute_us = MicrosecondsMetric(*block, "QNN (execute) time", warnings);
      e.netrun_us = MicrosecondsMetric(*block, "NetRun", warnings);
      e.accelerator_cycles = IntegerMetric(*block, "Accelerator (execute) time (cycles)", "cycles");
      e.critical_path_cycles =
          IntegerMetric(*block, "Accelerator (critical path execute) time (cycles)", "cycles");
      e.hvx_threads = IntegerMetric(*block, "Number of HVX threads used", "count");
      e.timestamp_us = block->timestamp_us;
      e.block = block_index.at(block);
      tables.profile_blocks[e.block].execution = static_cast<uint32_t>(tables.executions.size());
      tables.profile_blocks[e.block].graph = g;
      tables.executions.push_back(e);
    }
  }
  tables.profile_format = profile.format == ProfileFormat::kEtdump         ? "etdump"
                          : profile.format == ProfileFormat::kQnnLog       ? "qnn_log"
                          : profile.format == ProfileFormat::kCsv          ? "csv"
                          : profile.format == ProfileFormat::kSnpeDiagview ? "snpe_diagview"
                                                                           : "text";
}

}  // namespace htpscope::model_import
